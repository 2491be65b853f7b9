#!/bin/sh
# tests/robust/t-robust.sh: the runtime under hostile conditions: its dump is written
# atomically (no temporary file left, an old dump untouched when the new one cannot be
# written), an unwritable directory, a full disk (an LD_PRELOAD shim that fails the
# dump's writes with ENOSPC), and bad CALLPROF_* values.  Each failure costs one line on
# stderr and leaves the program's own behaviour (stdout, exit status) as it was.
set -u
. "$TOP/tests/lib.sh"
cd "$TOP"
workdir robust
build build "$W/build.log" "$B/libcallprof.so" "$B/callprof" || exit 1
CC=${CC:-cc}
if ! $CC -std=c11 -g -O1 -finstrument-functions tests/robust/chatty.c -o "$W/chatty" \
	-L"$B" -lcallprof -Wl,-rpath,"$B" 2>"$W/cc.log" ||
	! $CC -std=c11 -O2 -fPIC -shared tests/robust/enospc.c -o "$W/enospc.so" -ldl 2>>"$W/cc.log"; then
	fail build "cannot build the test programs: $(head -n 3 "$W/cc.log" | tr '\n' ' ')"
	exit 1
fi
CP=$B/callprof
P=$W/chatty
CALLPROF_DISABLE=1 "$P" 3 >"$W/plain.out" 2>"$W/plain.err"
PLAIN_RC=$?
if [ $PLAIN_RC -ne 3 ] || [ ! -s "$W/plain.out" ] || [ -s "$W/plain.err" ]; then
	fail "the test program runs" "status $PLAIN_RC: $(head -c 200 "$W/plain.err")"
	exit 1
fi

# same NAME: the last run ($W/run.out, $RC) printed what the plain run printed and exited 3.
same() {
	if [ "$RC" -ne 3 ]; then
		fail "$1" "exit status $RC, not 3"
	elif ! cmp -s "$W/run.out" "$W/plain.out"; then
		fail "$1" "stdout differs from an unprofiled run"
	else
		return 0
	fi
	return 1
}

# one_line NAME PATTERN: the last run's stderr is exactly one line, matching PATTERN.
one_line() {
	if [ "$(wc -l <"$W/run.err")" -ne 1 ] || [ "$(wc -c <"$W/run.err")" -eq 0 ]; then
		fail "$1" "want one line on stderr, got: $(head -c 300 "$W/run.err" | tr '\n' '|')"
	elif ! grep -q -- "$2" "$W/run.err"; then
		fail "$1" "no /$2/ in: $(cat "$W/run.err")"
	else
		return 0
	fi
	return 1
}

# only_files NAME DIR FILE...: DIR holds exactly FILE... (no temporary file beside them).
only_files() {
	_n=$1 _d=$2
	shift 2
	_want=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
	_got=$(ls -A "$_d" | sort | tr '\n' ' ')
	if [ "$_got" = "$_want" ]; then return 0; fi
	fail "$_n" "$_d holds '$_got', want '$_want'"
	return 1
}

# ---- a normal run: the dump appears whole, nothing else --------------------------------
mkdir -p "$W/ok"
CALLPROF_OUTPUT=$W/ok/out.json "$P" 3 >"$W/run.out" 2>"$W/run.err"
RC=$?
if same "a profiled run behaves as an unprofiled one" && [ ! -s "$W/run.err" ] &&
	only_files "a normal dump leaves no temporary file" "$W/ok" out.json &&
	"$CP" top "$W/ok/out.json" >/dev/null 2>"$W/top.err"; then
	ok "a normal run: same output and status, the dump alone, readable"
fi

# ---- an old dump stays whole until the new one is complete ----------------------------
# A reader polling the path while a big dump is written only ever sees a complete dump.
mkdir -p "$W/atomic"
cp "$W/ok/out.json" "$W/atomic/out.json"
CALLPROF_OUTPUT=$W/atomic/out.json "$P" 3 40000 >"$W/run.out" 2>"$W/run.err" &
pid=$!
bad=0 reads=0
while kill -0 $pid 2>/dev/null; do
	if ! "$CP" top "$W/atomic/out.json" >/dev/null 2>"$W/poll.err"; then
		bad=$((bad + 1))
		cp "$W/poll.err" "$W/poll-bad.err"
	fi
	reads=$((reads + 1))
done
wait $pid
RC=$?
if [ $bad -eq 0 ] && same "a dump replaced while read" && only_files "a replaced dump leaves no temporary file" "$W/atomic" out.json &&
	[ "$(wc -c <"$W/atomic/out.json")" -gt 1000000 ]; then
	ok "a dump replaced while being read: $reads reads, each saw a whole dump"
elif [ $bad -ne 0 ]; then
	fail "a dump replaced while being read" "$bad of $reads reads failed: $(cat "$W/poll-bad.err")"
fi

# ---- an unwritable directory -----------------------------------------------------------
# As root, permissions do not stop writes: drop to nobody for this one.
mkdir -p "$W/ro"
printf 'OLD\n' >"$W/ro/out.json"
chmod 555 "$W/ro"
if [ "$(id -u)" -eq 0 ]; then
	as_user() { setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"; }
	searchable "$W"
	chmod o+rx "$W" "$B" 2>/dev/null
else
	as_user() { "$@"; }
fi
CALLPROF_OUTPUT=$W/ro/out.json as_user "$P" 3 >"$W/run.out" 2>"$W/run.err"
RC=$?
if same "an unwritable directory" && one_line "an unwritable directory: one line" "cannot write profile '$W/ro/out.json'" &&
	only_files "an unwritable directory" "$W/ro" out.json && [ "$(cat "$W/ro/out.json")" = OLD ]; then
	ok "an unwritable directory: $(cat "$W/run.err")"
fi
chmod 755 "$W/ro"

# ---- a full disk ---------------------------------------------------------------------
# full NAME AFTER PATHS: the disk takes AFTER bytes of the dump; an old dump must survive.
full() {
	rm -rf "$W/full"
	mkdir -p "$W/full"
	printf 'OLD\n' >"$W/full/out.json"
	LD_PRELOAD=$W/enospc.so SHIM_ENOSPC_PATH=$W/full/ SHIM_ENOSPC_AFTER=$2 CALLPROF_OUTPUT=$W/full/out.json \
		"$P" 3 $3 >"$W/run.out" 2>"$W/run.err"
	RC=$?
	if same "$1" && one_line "$1: one line" "cannot write profile '$W/full/out.json': No space left on device" &&
		only_files "$1: no temporary file" "$W/full" out.json &&
		{ [ "$(cat "$W/full/out.json")" = OLD ] || { fail "$1" "the old dump changed"; false; }; }; then
		ok "$1: $(cat "$W/run.err")"
	fi
}
full "a full disk" 0 ""
full "a disk that fills after 1 KiB" 1024 ""
full "a disk that fills in the middle of a big dump" 1500000 40000
# The shim fails plain open()/write() too (should the runtime ever write without stdio).
cat >"$W/writer.c" <<'EOF'
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
int main(int argc, char **argv) /* writer FILE: 4 writes of 1 KiB; prints how many went through */
{
	char buf[1024] = { 0 };
	int fd = open(argv[argc - 1], O_WRONLY | O_CREAT | O_TRUNC, 0644), n = 0;

	while (fd >= 0 && n < 4 && write(fd, buf, sizeof(buf)) == (ssize_t)sizeof(buf))
		n++;
	printf("%d\n", n);
	perror("write");
	return 0;
}
EOF
rm -rf "$W/full" && mkdir -p "$W/full"
if $CC -O1 "$W/writer.c" -o "$W/writer" 2>/dev/null &&
	[ "$(LD_PRELOAD=$W/enospc.so SHIM_ENOSPC_PATH=$W/full/ SHIM_ENOSPC_AFTER=2048 "$W/writer" "$W/full/w.out" 2>"$W/w.err")" = 2 ] &&
	grep -q 'No space left on device' "$W/w.err" && [ "$(wc -c <"$W/full/w.out")" -eq 2048 ]; then
	ok "the shim fails write() with ENOSPC after its budget"
else
	fail "the shim fails write() with ENOSPC after its budget" "$(head -c 200 "$W/w.err")"
fi
# The shim does fail the writes: with room enough, the same run writes its dump.
rm -rf "$W/full" && mkdir -p "$W/full"
LD_PRELOAD=$W/enospc.so SHIM_ENOSPC_PATH=$W/full/ SHIM_ENOSPC_AFTER=100000000 CALLPROF_OUTPUT=$W/full/out.json \
	"$P" 3 >"$W/run.out" 2>"$W/run.err"
RC=$?
if same "the shim with room to spare" && [ ! -s "$W/run.err" ] && "$CP" top "$W/full/out.json" >/dev/null 2>&1; then
	ok "the shim with room to spare lets the dump through"
else
	fail "the shim with room to spare lets the dump through" "$(head -c 200 "$W/run.err")"
fi

# ---- bad CALLPROF_* values -------------------------------------------------------------
# Each: exactly one line naming the variable, the program's output and status unchanged,
# and a dump with the default in its place.
long=$(head -c 5000 /dev/zero | tr '\0' x)
for v in "CALLPROF_MAX_NODES=abc" "CALLPROF_MAX_NODES=-5" "CALLPROF_MAX_NODES=99999999999999999999999" \
	"CALLPROF_MAX_NODES=0" "CALLPROF_MAX_STACK=1" "CALLPROF_MAX_DEPTH=12x" "CALLPROF_CLOCK=bogus" \
	"CALLPROF_COMPENSATE=maybe" "CALLPROF_DISABLE=perhaps" "CALLPROF_OUTPUT=$W/bad/$long.json"; do
	name=${v%%=*}
	rm -rf "$W/bad"
	mkdir -p "$W/bad"
	case $v in
	CALLPROF_OUTPUT=*) (cd "$W/bad" && env "$v" "$P" 3 >"$W/run.out" 2>"$W/run.err"); RC=$? dump=$W/bad/callprof.json ;;
	*) env CALLPROF_OUTPUT="$W/bad/out.json" "$v" "$P" 3 >"$W/run.out" 2>"$W/run.err"; RC=$? dump=$W/bad/out.json ;;
	esac
	short=$(printf '%s' "$v" | cut -c 1-40)
	if same "bad $short" && one_line "bad $short: one line" "$name"; then
		if [ -f "$dump" ] && "$CP" top "$dump" >/dev/null 2>&1; then
			ok "bad $short: $(cut -c 1-100 "$W/run.err")"
		else
			fail "bad $short" "no readable dump at $dump"
		fi
	fi
done
# A value with a newline still makes one line: control characters show as '?'.
rm -rf "$W/bad" && mkdir -p "$W/bad"
env CALLPROF_OUTPUT="$W/bad/out.json" CALLPROF_CLOCK="$(printf 'bo\ngus')" "$P" 3 >"$W/run.out" 2>"$W/run.err"
RC=$?
if same "bad CALLPROF_CLOCK with a newline" && one_line "bad CALLPROF_CLOCK with a newline: one line" CALLPROF_CLOCK &&
	grep -q "bo?gus" "$W/run.err"; then
	ok "bad CALLPROF_CLOCK with a newline: one line, shown as bo?gus"
fi

# The longest file name a directory takes (255 bytes) is written, and atomically: the
# temporary name beside it is short whatever the final one.
rm -rf "$W/bad" && mkdir -p "$W/bad"
n255=$(head -c 250 /dev/zero | tr '\0' n).json
env CALLPROF_OUTPUT="$W/bad/$n255" "$P" 3 >"$W/run.out" 2>"$W/run.err"
RC=$?
if same "a 255-byte file name" && [ ! -s "$W/run.err" ] && only_files "a 255-byte file name" "$W/bad" "$n255"; then
	ok "a 255-byte file name is written, no temporary file left"
fi
exit 0
