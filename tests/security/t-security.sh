#!/bin/sh
# tests/security/t-security.sh: the runtime cannot be turned against the people who run it
# (issue 16): setuid, setgid and file-capability programs ignore CALLPROF_* and stay off (1);
# the temporary dump file cannot be redirected and its name cannot be guessed (2); the final
# rename replaces nothing but a regular file (3); no debuginfod server is asked unless
# CALLPROF_DEBUGINFOD=1 (10); a relative output is resolved at start-up (14); two PID
# namespaces writing into one directory do not collide (15); a replaced dump keeps its
# mode and owner.  What needs root (setuid, namespaces, chown, mknod) runs when the suite
# runs as root and is reported as "skip - NAME: WHY" otherwise, never as a pass.
set -u
. "$TOP/tests/lib.sh"
cd "$TOP"
workdir security
build build "$W/build.log" "$B/libcallprof.so" "$B/callprof" || exit 1
CC=${CC:-cc}
CP=$B/callprof
S=tests/security
# prog: with debug information; nodbg: none (but a build-id), so libdw looks for it elsewhere.
if ! $CC -std=c11 -g -O1 -finstrument-functions $S/prog.c -o "$W/prog" -L"$B" -lcallprof \
	-Wl,-rpath,"$B" 2>"$W/cc.log" ||
	! $CC -std=c11 -g0 -O1 -finstrument-functions -Wl,--build-id $S/prog.c -o "$W/nodbg" -L"$B" -lcallprof \
		-Wl,-rpath,"$B" 2>>"$W/cc.log" ||
	! $CC -std=c11 -O2 -fPIC -shared $S/shim.c -o "$W/shim.so" -ldl 2>>"$W/cc.log" ||
	! $CC -std=c11 -O2 $S/listen.c -o "$W/listen" 2>>"$W/cc.log"; then
	fail build "cannot build the test programs: $(head -n 3 "$W/cc.log" | tr '\n' ' ')"
	exit 1
fi
P=$W/prog
ROOT=false
[ "$(id -u)" -eq 0 ] && ROOT=true
NOBODY=65534
as_nobody() { setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups -- "$@"; }
# Files the unprivileged runs need: the directories down to $W must be searchable.
if $ROOT; then
	searchable "$W"
	chmod o+rx "$B" "$B/libcallprof.so" 2>/dev/null
fi

# leaf_calls DUMP: how many calls of leaf() `callprof top` shows.
leaf_calls() { "$CP" top "$1" 2>/dev/null | awk '$NF == "leaf" { print $1 }'; }

# whole NAME FILE MARK: FILE is a regular file holding a whole dump of a run of prog with MARK.
whole() {
	if [ -L "$2" ] || [ ! -f "$2" ]; then
		fail "$1" "no regular file at $2 ($(ls -ld "$2" 2>&1))"
	elif [ "$(leaf_calls "$2")" != 3 ]; then
		fail "$1" "$2 is no whole dump: $("$CP" top "$2" 2>&1 | head -c 200)"
	elif ! grep -q "\"$3\"" "$2"; then
		fail "$1" "$2 is not the dump of run $3: $(grep -o '"argv":[^]]*]' "$2")"
	else
		return 0
	fi
	return 1
}

# one_line NAME FILE PATTERN: FILE (a run's stderr) is one line, matching PATTERN.
one_line() {
	if [ "$(wc -l <"$2")" -ne 1 ]; then
		fail "$1" "want one line on stderr, got: $(head -c 300 "$2" | tr '\n' '|')"
	elif ! grep -q -- "$3" "$2"; then
		fail "$1" "no /$3/ in: $(cat "$2")"
	else
		return 0
	fi
	return 1
}

# no_temporary NAME DIR: no .callprof-*.tmp left in DIR.
no_temporary() {
	_left=$(ls -A "$2" | grep '^\.callprof-.*\.tmp$' | head -n 3 | tr '\n' ' ')
	[ -z "$_left" ] && return 0
	fail "$1" "left in $2: $_left"
	return 1
}

# listener_start: a loopback listener; sets PORT and LPID.
listener_start() {
	rm -f "$W/count"
	set -- $("$W/listen" "$W/count")
	PORT=$1 LPID=$2
}
# listener_count: stops the listener; prints how many connections it saw.
listener_count() {
	"$W/listen" --stop "$PORT" >/dev/null 2>&1
	while kill -0 "$LPID" 2>/dev/null && [ ! -s "$W/count" ]; do
		wait "$LPID" 2>/dev/null || :
	done
	cat "$W/count" 2>/dev/null || echo "?"
}

# held_pair: runs `run_a` with the shim holding its dump just before the rename (the
# temporary file complete), then `run_b` to its end, then lets A finish.  Fails when A
# ends without reaching the rename.  The shim waits on FIFOs, never on a timer.
held_pair() {
	rm -f "$W/ready" "$W/hold"
	mkfifo "$W/ready" "$W/hold"
	(
		run_a
		echo "exit $?" 1<>"$W/ready"
	) &
	_apid=$!
	HELD=$(cat "$W/ready")
	case $HELD in
	rename*)
		run_b
		: >"$W/hold"
		wait $_apid
		;;
	*)
		wait $_apid
		return 1
		;;
	esac
}

# ==== 1. setuid, setgid and file-capability programs =====================================
# nodbg copied beside its own runtime (an absolute rpath: ld.so ignores $ORIGIN and
# LD_LIBRARY_PATH for such programs), made privileged, and run by nobody with the
# attacker's environment: CALLPROF_OUTPUT into a directory only root may write, then no
# CALLPROF_OUTPUT from nobody's own directory, a debuginfod server of theirs with a
# cache path of theirs, CALLPROF_DEBUGINFOD=1 on top.
secure_run() { # secure_run NAME DIR SETUP: SETUP makes $D/prog privileged
	_name=$1 D=$W/secure/$2
	mkdir -p "$D/lib" "$D/root" "$D/home"
	cp "$B/libcallprof.so" "$D/lib/"
	if ! $CC -std=c11 -g0 -O1 -finstrument-functions -Wl,--build-id $S/prog.c -o "$D/prog" \
		-L"$D/lib" -lcallprof -Wl,-rpath,"$D/lib" 2>"$D/cc.log"; then
		fail "$_name" "cannot build: $(head -n 3 "$D/cc.log" | tr '\n' ' ')"
		return
	fi
	chmod 755 "$W/secure" "$D" "$D/lib" "$D/lib/libcallprof.so"
	chmod 775 "$D/root"
	chown $NOBODY:$NOBODY "$D/home"
	if ! $3 "$D/prog" 2>"$D/setup.err"; then
		skip "$_name" "cannot make the program privileged: $(head -n 1 "$D/setup.err")"
		return
	fi
	# The control: run by root, where nothing is gained, the same program does profile.
	if ! (cd "$D" && CALLPROF_OUTPUT=$D/control.json ./prog mark-control >/dev/null 2>&1) ||
		! whole "$_name: control" "$D/control.json" mark-control; then
		return
	fi
	listener_start
	(cd "$D/home" && as_nobody env -i HOME="$D/home" CALLPROF_OUTPUT="$D/root/pwn.json" CALLPROF_DEBUGINFOD=1 \
		DEBUGINFOD_URLS="http://127.0.0.1:$PORT/" DEBUGINFOD_CACHE_PATH="$D/home/cache" \
		"$D/prog" mark-pwn >"$D/run.out" 2>"$D/run.err")
	rc1=$?
	(cd "$D/home" && as_nobody env -i HOME="$D/home" DEBUGINFOD_URLS="http://127.0.0.1:$PORT/" \
		DEBUGINFOD_CACHE_PATH="$D/home/cache2" "$D/prog" mark-home >"$D/run2.out" 2>"$D/run2.err")
	rc2=$?
	conns=$(listener_count)
	if [ -e "$D/root/pwn.json" ] || [ -n "$(ls -A "$D/root")" ]; then
		fail "$_name: CALLPROF_OUTPUT ignored" "it wrote $(ls -l "$D/root" | tail -n +2 | tr '\n' ' ')"
	else
		ok "$_name: CALLPROF_OUTPUT ignored, nothing written in the directory it named"
	fi
	if [ -n "$(ls -A "$D/home" | grep -v '^cache')" ]; then
		fail "$_name: nothing written where the user runs it" "$(ls -lA "$D/home" | tail -n +2 | tr '\n' ' ')"
	else
		ok "$_name: nothing written in the user's working directory"
	fi
	if [ "$conns" != 0 ]; then
		fail "$_name: no debuginfod" "$conns connection(s) reached the user's DEBUGINFOD_URLS"
	elif [ -e "$D/home/cache" ] || [ -e "$D/home/cache2" ]; then
		fail "$_name: no debuginfod" "the user's DEBUGINFOD_CACHE_PATH was created: $(ls -ld "$D/home/cache"* | tr '\n' ' ')"
	else
		ok "$_name: no connection to the user's DEBUGINFOD_URLS, no DEBUGINFOD_CACHE_PATH created"
	fi
	if [ $rc1 -ne 0 ] || [ $rc2 -ne 0 ] || ! grep -q '^pid ' "$D/run.out" || ! grep -q '^pid ' "$D/run2.out"; then
		fail "$_name: the program runs as before" "status $rc1/$rc2, stdout $(cat "$D/run.out")"
	elif one_line "$_name: one line when CALLPROF_* is set" "$D/run.err" "not profiling a setuid, setgid or file-capability program" &&
		{ [ ! -s "$D/run2.err" ] || { fail "$_name: silent without CALLPROF_*" "$(cat "$D/run2.err")"; false; }; }; then
		ok "$_name: output and status unchanged; one line only when CALLPROF_* was set"
	fi
}
# No privileged program is left behind in the build tree, even if the suite is interrupted.
unprivilege() {
	for _p in "$W"/secure/*/prog; do
		[ -e "$_p" ] || continue
		chmod 755 "$_p"
		command -v setcap >/dev/null 2>&1 && setcap -r "$_p" 2>/dev/null
	done
	return 0
}
trap unprivilege EXIT
trap 'unprivilege; exit 130' INT TERM
secure_case() { # secure_case NAME DIR SETUP
	secure_run "$@"
	unprivilege
}
make_setuid() { chown root:root "$1" && chmod 4755 "$1"; }
make_setgid() { chown root:root "$1" && chmod 2755 "$1"; }
make_setcap() { command -v setcap >/dev/null 2>&1 || { echo "no setcap command"; return 1; }; setcap cap_dac_override+ep "$1"; }
if $ROOT; then
	secure_case "setuid root program run by nobody" suid make_setuid
	secure_case "setgid root program run by nobody" sgid make_setgid
	secure_case "file-capability program (cap_dac_override) run by nobody" fcap make_setcap
else
	for n in setuid setgid file-capability; do
		skip "$n program run by nobody" "needs root to make a privileged program"
	done
fi

# ==== 2. the temporary file: created exclusively, under a name nobody can guess =========
# The old name was .callprof-PID.tmp; the shell that plants a link there knows the PID,
# since it execs the program.
T=$W/tmpfile
mkdir -p "$T/link" "$T/file"
printf 'VICTIM\n' >"$T/victim"
CALLPROF_OUTPUT=$T/link/out.json sh -c 'ln -s "$1" "$2/.callprof-$$.tmp" && exec "$3" mark-link' sh \
	"$T/victim" "$T/link" "$P" >/dev/null 2>"$T/link.err"
if [ "$(cat "$T/victim")" != VICTIM ]; then
	fail "a link planted at the temporary name is not followed" "the file it points to now holds: $(head -c 100 "$T/victim")"
elif whole "a link planted at the temporary name" "$T/link/out.json" mark-link &&
	[ -L "$T/link/.callprof-"*.tmp ] && [ ! -s "$T/link.err" ]; then
	ok "a link planted at the temporary name is not followed: its target untouched, the dump written"
fi

printf 'PLANTED\n' >"$T/planted"
$ROOT && chown $NOBODY:$NOBODY "$T/planted" && chmod 666 "$T/planted"
CALLPROF_OUTPUT=$T/file/out.json sh -c 'cp -p "$1" "$2/.callprof-$$.tmp" && exec "$3" mark-file' sh \
	"$T/planted" "$T/file" "$P" >/dev/null 2>"$T/file.err"
planted=$(ls "$T/file/.callprof-"*.tmp 2>/dev/null)
if [ -z "$planted" ] || [ "$(cat "$planted")" != PLANTED ]; then
	fail "a file planted at the temporary name is left alone" "it was taken over: $(ls -lA "$T/file" | tail -n +2 | tr '\n' ' ')"
elif whole "a file planted at the temporary name" "$T/file/out.json" mark-file; then
	if [ "$(stat -c %u "$T/file/out.json")" != "$(id -u)" ]; then
		fail "a file planted at the temporary name is left alone" "the dump is owned by $(stat -c %U "$T/file/out.json")"
	else
		ok "a file planted at the temporary name is left alone; the dump is a new file of ours"
	fi
fi

# Two runs with the same pid (as in two containers) draw different names, neither from the pid.
mkdir -p "$T/names"
rm -f "$T/names.log"
for i in 1 2; do
	LD_PRELOAD=$W/shim.so SHIM_PID=4242 SHIM_RENAME_LOG=$T/names.log CALLPROF_OUTPUT=$T/names/out$i.json \
		"$P" mark-names$i >/dev/null 2>&1
done
n1=$(sed -n '1s|.*/||p' "$T/names.log" 2>/dev/null)
n2=$(sed -n '2s|.*/||p' "$T/names.log" 2>/dev/null)
if [ -z "$n1" ] || [ -z "$n2" ]; then
	fail "temporary names are unpredictable" "no renames seen: $(cat "$T/names.log" 2>&1)"
elif [ "$n1" = "$n2" ] || echo "$n1 $n2" | grep -q 4242; then
	fail "temporary names are unpredictable" "two runs with pid 4242 used '$n1' and '$n2'"
elif ! echo "$n1" | grep -Eq '^\.callprof-[0-9a-f]{16}\.tmp$'; then
	fail "temporary names are unpredictable" "unexpected name '$n1'"
elif whole "temporary names: run 1" "$T/names/out1.json" mark-names1 && whole "temporary names: run 2" "$T/names/out2.json" mark-names2; then
	ok "temporary names are unpredictable: two runs with one pid used $n1 and $n2"
fi

# Another user's link in a sticky, world-writable directory (/tmp with fs.protected_symlinks=0).
if $ROOT; then
	mkdir -p "$T/sticky"
	chmod 1777 "$T/sticky"
	printf 'ROOT FILE\n' >"$T/rootfile"
	chmod 644 "$T/rootfile"
	CALLPROF_OUTPUT=$T/sticky/out.json sh -c '
		setpriv --reuid=65534 --regid=65534 --clear-groups -- ln -s "$1" "$2/.callprof-$$.tmp" && exec "$3" mark-sticky' sh \
		"$T/rootfile" "$T/sticky" "$P" >/dev/null 2>"$T/sticky.err"
	if [ "$(cat "$T/rootfile")" != "ROOT FILE" ]; then
		fail "nobody's link in a sticky directory, root's run" "root's file now holds: $(head -c 100 "$T/rootfile")"
	elif whole "nobody's link in a sticky directory, root's run" "$T/sticky/out.json" mark-sticky; then
		ok "nobody's link in a sticky directory does not redirect root's dump (fs.protected_symlinks=$(cat /proc/sys/fs/protected_symlinks 2>/dev/null))"
	fi
else
	skip "nobody's link in a sticky directory, root's run" "needs root to plant another user's link"
fi

# ==== 3. the final path: only a regular file is replaced ==================================
F=$W/final
mkdir -p "$F"
# refused NAME PATH KIND CHECK: the dump to PATH is refused in one line, and CHECK PATH holds after.
refused() {
	CALLPROF_OUTPUT=$2 "$P" mark-refused >"$F/run.out" 2>"$F/run.err"
	_rc=$?
	if [ $_rc -ne 0 ] || ! grep -q '^pid ' "$F/run.out"; then
		fail "$1" "the program's status $_rc"
	elif ! $4 "$2"; then
		fail "$1" "$2 was replaced: $(ls -ld "$2")"
	elif one_line "$1" "$F/run.err" "cannot write profile '$2': $3" && no_temporary "$1" "$F"; then
		ok "$1: $(cat "$F/run.err")"
	fi
}
mkfifo "$F/fifo"
refused "a FIFO at the output path is left as it is" "$F/fifo" "a FIFO" "test -p"
printf 'LINKED\n' >"$F/target"
ln -s "$F/target" "$F/link"
is_link_kept() { [ -L "$1" ] && [ "$(cat "$1")" = LINKED ]; }
refused "a symbolic link at the output path is neither followed nor replaced" "$F/link" "a symbolic link" is_link_kept
ln -s "$F/nowhere" "$F/dangling"
refused "a dangling symbolic link at the output path is not followed" "$F/dangling" "a symbolic link" "test -L"
mkdir "$F/dir"
refused "a directory at the output path is left as it is" "$F/dir" "a directory" "test -d"
if $ROOT && mknod "$F/null" c 1 3 2>/dev/null; then
	# As root, CALLPROF_OUTPUT=/dev/null made /dev/null a regular file: a device of our own here.
	refused "root: a character device at the output path is left as it is" "$F/null" "a character device" "test -c"
	rm -f "$F/null"
elif $ROOT; then
	skip "root: a character device at the output path is left as it is" "mknod is not allowed here"
else
	skip "root: a character device at the output path is left as it is" "needs root to make a device node"
fi

# ==== the mode and owner of a replaced dump ================================================
M=$W/mode
mkdir -p "$M"
printf 'OLD\n' >"$M/private.json"
chmod 600 "$M/private.json"
CALLPROF_OUTPUT=$M/private.json "$P" mark-private >/dev/null 2>"$M/run.err"
if whole "a replaced 0600 dump" "$M/private.json" mark-private; then
	if [ "$(stat -c %a "$M/private.json")" = 600 ]; then
		ok "a replaced 0600 dump stays 0600"
	else
		fail "a replaced 0600 dump stays 0600" "now $(stat -c %a "$M/private.json")"
	fi
fi
(umask 027 && CALLPROF_OUTPUT=$M/new027.json "$P" mark-new027 >/dev/null 2>&1)
(umask 022 && CALLPROF_OUTPUT=$M/new022.json "$P" mark-new022 >/dev/null 2>&1)
if whole "a new dump, umask 027" "$M/new027.json" mark-new027 && whole "a new dump, umask 022" "$M/new022.json" mark-new022; then
	m1=$(stat -c %a "$M/new027.json") m2=$(stat -c %a "$M/new022.json")
	if [ "$m1" = 640 ] && [ "$m2" = 644 ]; then
		ok "a new dump is 0666 minus the umask (640 under 027, 644 under 022)"
	else
		fail "a new dump is 0666 minus the umask" "$m1 under 027, $m2 under 022"
	fi
fi
if $ROOT; then
	printf 'OLD\n' >"$M/theirs.json"
	chown $NOBODY:$NOBODY "$M/theirs.json"
	chmod 604 "$M/theirs.json"
	CALLPROF_OUTPUT=$M/theirs.json "$P" mark-theirs >/dev/null 2>&1
	if whole "root replaces nobody's dump" "$M/theirs.json" mark-theirs; then
		got=$(stat -c '%u:%g %a' "$M/theirs.json")
		if [ "$got" = "$NOBODY:$NOBODY 604" ]; then
			ok "root replacing nobody's 0604 dump keeps its owner, group and mode"
		else
			fail "root replacing nobody's 0604 dump keeps its owner, group and mode" "now $got"
		fi
	fi
	# nobody replaces a file of group root (not theirs): the group's rights become the others'.
	mkdir -p "$M/nobody"
	chown $NOBODY:$NOBODY "$M/nobody"
	printf 'OLD\n' >"$M/nobody/grp.json"
	chown $NOBODY:0 "$M/nobody/grp.json"
	chmod 660 "$M/nobody/grp.json"
	as_nobody env CALLPROF_OUTPUT="$M/nobody/grp.json" "$P" mark-grp >/dev/null 2>"$M/grp.err"
	if whole "nobody replaces a dump of group root" "$M/nobody/grp.json" mark-grp; then
		got=$(stat -c '%u:%g %a' "$M/nobody/grp.json")
		if [ "$got" = "$NOBODY:$NOBODY 600" ]; then
			ok "a group that cannot be kept loses the group's rights to the others' (660 -> 600)"
		else
			fail "a group that cannot be kept loses the group's rights" "now $got, want $NOBODY:$NOBODY 600"
		fi
	fi
else
	skip "root replacing nobody's 0604 dump keeps its owner, group and mode" "needs root to chown"
	skip "a group that cannot be kept loses the group's rights" "needs root to chown"
fi

# ==== 10. no debuginfod unless asked =======================================================
# nodbg has no debug information and a build-id: elfutils 0.188 starts its debuginfod client
# for it (libdebuginfod, libcurl) and asks DEBUGINFOD_URLS.  LD_DEBUG=files shows the client
# being loaded; the listener shows a connection.
G=$W/debuginfod
mkdir -p "$G"
listener_start
LD_DEBUG=files DEBUGINFOD_URLS="http://127.0.0.1:$PORT/" DEBUGINFOD_CACHE_PATH=$G/cache \
	CALLPROF_OUTPUT=$G/off.json "$W/nodbg" mark-off >/dev/null 2>"$G/off.err"
conns=$(listener_count)
if [ "$conns" != 0 ]; then
	fail "no debuginfod unless asked" "$conns connection(s) to DEBUGINFOD_URLS"
elif grep -q 'libdebuginfod' "$G/off.err"; then
	fail "no debuginfod unless asked" "libdw loaded its debuginfod client: $(grep -m1 libdebuginfod "$G/off.err")"
elif [ -e "$G/cache" ]; then
	fail "no debuginfod unless asked" "DEBUGINFOD_CACHE_PATH was created"
elif whole "no debuginfod unless asked" "$G/off.json" mark-off; then
	ok "no debuginfod unless asked: no connection, libdebuginfod never loaded, the dump written"
fi
if ! ldconfig -p 2>/dev/null | grep -q 'libdebuginfod\.so\.1 '; then
	skip "CALLPROF_DEBUGINFOD=1 asks the servers" "libdebuginfod.so.1 is not installed (Debian: libdebuginfod1)"
else
	listener_start
	LD_DEBUG=files CALLPROF_DEBUGINFOD=1 DEBUGINFOD_URLS="http://127.0.0.1:$PORT/" DEBUGINFOD_CACHE_PATH=$G/cache-on \
		CALLPROF_OUTPUT=$G/on.json "$W/nodbg" mark-on >/dev/null 2>"$G/on.err"
	conns=$(listener_count)
	if [ "$conns" = 0 ] || [ "$conns" = "?" ]; then
		fail "CALLPROF_DEBUGINFOD=1 asks the servers" "no connection to DEBUGINFOD_URLS ($conns)"
	elif ! grep -q 'libdebuginfod' "$G/on.err"; then
		fail "CALLPROF_DEBUGINFOD=1 asks the servers" "libdebuginfod not loaded"
	elif whole "CALLPROF_DEBUGINFOD=1 asks the servers" "$G/on.json" mark-on; then
		ok "CALLPROF_DEBUGINFOD=1 asks the servers ($conns connection(s)) and still writes the dump"
	fi
fi

# Separate debug files on this machine are still found: by .gnu_debuglink beside the
# program and in its .debug/ directory; a debug file of another build is not taken.
# has_lines DUMP: leaf() is named with its source file and line.
has_lines() { grep -q '"name":"leaf","module":[0-9]*,"address":"[^"]*","offset":"[^"]*","file":"[^"]*prog\.c","line":[0-9]' "$1"; }
split_case() { # split_case NAME SUBDIR-OF-DEBUG-FILE WANT(yes|no) [OTHER-BUILD]
	_d=$G/split-$2
	mkdir -p "$_d/${2#beside}"
	cp "$P" "$_d/prog"
	_dbg=$_d/${2#beside}/prog.debug
	[ "$2" = beside ] && _dbg=$_d/prog.debug
	if [ -n "${4:-}" ]; then # the debug file of a build with other code (another build-id)
		sed 's/sink += i;/sink += i + 1;/' $S/prog.c >"$_d/other.c"
		$CC -std=c11 -g -O1 -finstrument-functions "$_d/other.c" -o "$_d/other" -L"$B" -lcallprof \
			-Wl,-rpath,"$B" 2>/dev/null && objcopy --only-keep-debug "$_d/other" "$_dbg"
	else
		objcopy --only-keep-debug "$_d/prog" "$_dbg"
	fi
	if ! objcopy --strip-debug --add-gnu-debuglink="$_dbg" "$_d/prog" 2>"$_d/objcopy.err"; then
		fail "$1" "objcopy: $(head -n 1 "$_d/objcopy.err")"
		return
	fi
	CALLPROF_OUTPUT=$_d/out.json "$_d/prog" mark-split >/dev/null 2>&1
	if ! whole "$1" "$_d/out.json" mark-split; then
		return
	elif [ "$3" = yes ] && ! has_lines "$_d/out.json"; then
		fail "$1" "leaf has no source line: $(grep -o '"name":"leaf"[^}]*' "$_d/out.json")"
	elif [ "$3" = no ] && has_lines "$_d/out.json"; then
		fail "$1" "leaf got a source line from another build's debug file"
	else
		ok "$1"
	fi
}
split_case "a separate debug file beside the program is found (.gnu_debuglink)" beside yes
split_case "a separate debug file in .debug/ is found" .debug yes
split_case "the debug file of another build is not taken" beside no other

# ==== 14. a relative output is resolved at start-up ========================================
R=$W/relative
mkdir -p "$R/start" "$R/other" "$R/gone" "$R/50%p" "$R/sub"
(cd "$R/start" && CALLPROF_OUTPUT=rel.json "$P" mark-rel chdir "$R/other" >/dev/null 2>"$R/rel.err")
if [ -e "$R/other/rel.json" ]; then
	fail "a relative CALLPROF_OUTPUT is resolved at start-up" "the dump went to the directory the program moved to"
elif whole "a relative CALLPROF_OUTPUT is resolved at start-up" "$R/start/rel.json" mark-rel; then
	ok "a relative CALLPROF_OUTPUT is resolved at start-up: a program that moves writes where it started"
fi
(cd "$R/start" && CALLPROF_OUTPUT=gone.json "$P" mark-gone chdir "$R/gone" rmdir >/dev/null 2>"$R/gone.err")
if whole "a relative output, the program's new directory removed" "$R/start/gone.json" mark-gone &&
	[ ! -s "$R/gone.err" ]; then
	ok "a relative output still lands where the program started after its new directory is removed"
fi
(cd "$R/start" && env -u CALLPROF_OUTPUT "$P" mark-default chdir "$R/other" >/dev/null 2>&1)
if whole "the default callprof.json is where the program started" "$R/start/callprof.json" mark-default &&
	[ ! -e "$R/other/callprof.json" ]; then
	ok "the default callprof.json is where the program started"
fi
pid=$(cd "$R/50%p" && CALLPROF_OUTPUT=out-%p.json "$P" mark-percent | sed -n 's/^pid //p')
if whole "a % in the starting directory stays itself" "$R/50%p/out-$pid.json" mark-percent; then
	ok "a % in the starting directory stays itself; %p in the name is the pid"
fi
(cd "$R/start" && "$CP" record -o rec.json -- sh -c 'cd ../sub && exec "$1" mark-record' sh "$P" >/dev/null 2>"$R/rec.err")
if [ -e "$R/sub/rec.json" ]; then
	fail "callprof record -o with a relative FILE" "the dump went to the program's directory"
elif whole "callprof record -o with a relative FILE" "$R/start/rec.json" mark-record; then
	ok "callprof record -o FILE is relative to where record runs, wherever the program starts"
fi

# ==== 15. two PID namespaces sharing a directory ===========================================
# A writes its dump and stops just before the rename; B, with the same pid, writes its own
# in the same directory; then A goes on.  Both dumps must be whole.
N=$W/namespaces
mkdir -p "$N"
pair_check() { # pair_check NAME DIR
	if ! whole "$1 (A)" "$2/a.json" mark-a || ! whole "$1 (B)" "$2/b.json" mark-b; then
		return 1
	elif [ -s "$2/a.err" ] || [ -s "$2/b.err" ]; then
		fail "$1" "stderr: $(cat "$2/a.err" "$2/b.err" | head -c 300)"
		return 1
	fi
	no_temporary "$1" "$2"
}
if ! $ROOT; then
	skip "two PID namespaces write into one directory at once" "needs root to create PID namespaces"
elif ! command -v unshare >/dev/null 2>&1 || ! unshare --pid --fork true 2>/dev/null; then
	skip "two PID namespaces write into one directory at once" "cannot create a PID namespace here"
else
	mkdir -p "$N/ns"
	run_a() { unshare --pid --fork env LD_PRELOAD="$W/shim.so" SHIM_HOLD="$W" CALLPROF_OUTPUT="$N/ns/a.json" \
		"$P" mark-a >"$N/ns/a.out" 2>"$N/ns/a.err"; }
	run_b() { unshare --pid --fork env CALLPROF_OUTPUT="$N/ns/b.json" "$P" mark-b >"$N/ns/b.out" 2>"$N/ns/b.err"; }
	if ! held_pair; then
		fail "two PID namespaces write into one directory at once" "A never reached its rename: $HELD $(cat "$N/ns/a.err")"
	elif [ "$(cat "$N/ns/a.out" "$N/ns/b.out")" != "$(printf 'pid 1\npid 1')" ]; then
		fail "two PID namespaces write into one directory at once" "not both pid 1: $(cat "$N/ns/a.out" "$N/ns/b.out" | tr '\n' ' ')"
	elif pair_check "two PID namespaces write into one directory at once" "$N/ns"; then
		ok "two PID namespaces (both pid 1) write into one directory at once: both dumps whole"
	fi
fi
# The same without privileges: one pid forced on both (SHIM_PID), and the name generator
# forced to draw the same names in both (SHIM_RANDOM), so B's first name is A's.
mkdir -p "$N/sim"
rm -f "$N/sim/renames.log"
run_a() { env LD_PRELOAD="$W/shim.so" SHIM_PID=77 SHIM_RANDOM=1 SHIM_HOLD="$W" CALLPROF_OUTPUT="$N/sim/a.json" \
	"$P" mark-a >"$N/sim/a.out" 2>"$N/sim/a.err"; }
run_b() { env LD_PRELOAD="$W/shim.so" SHIM_PID=77 SHIM_RANDOM=1 SHIM_RENAME_LOG="$N/sim/renames.log" \
	CALLPROF_OUTPUT="$N/sim/b.json" "$P" mark-b >"$N/sim/b.out" 2>"$N/sim/b.err"; }
if ! held_pair; then
	fail "two processes with one pid and one name generator" "A never reached its rename: $HELD $(cat "$N/sim/a.err")"
elif pair_check "two processes with one pid and one name generator" "$N/sim"; then
	a=${HELD##*/} b=$(sed -n '1s|.*/||p' "$N/sim/renames.log")
	if [ "$a" = .callprof-0000000000000000.tmp ] && [ "$b" = .callprof-0000000000000001.tmp ]; then
		ok "two processes with one pid and one name generator: B found A's name taken and drew another"
	else
		fail "two processes with one pid and one name generator" "names $a and $b: no collision staged"
	fi
fi
