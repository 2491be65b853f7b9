#!/bin/sh
# tests/e2e/t-env.sh: the runtime's settings and edges: CALLPROF_DISABLE, %p in
# CALLPROF_OUTPUT, unwritable output, exit statuses through `callprof record`,
# CALLPROF_CLOCK=none, tsc-ordered and tsc-adaptive, CALLPROF_MAX_NODES, the default output path, callprof_dump(),
# CALLPROF_LIBCALLS=0, CPU time and CALLPROF_CPU=0.
. "$TOP/tests/lib.sh"
E=$TOP/tests/e2e
P=$B/tests/e2e/gcc-O2
BAD_DIR=/nonexistent-callprof-dir
workdir e2e-env
build "e2e build" "$W/build.log" -k -j2 tests-e2e
[ -x "$DC" ] && [ -x "$P/basic" ] || exit 1

# expect_status NAME WANT GOT: ok when GOT is WANT; returns false otherwise.
expect_status() {
	[ "$3" -eq "$2" ] && return 0
	fail "$1" "exit status $3, expected $2"
	return 1
}

# no_dump NAME DIR: ok when DIR holds no file at all.
no_dump() {
	if [ -z "$(ls -A "$2")" ]; then ok "$1"; else fail "$1" "wrote $(ls -A "$2" | head -n 3 | tr '\n' ' ')"; fi
}

# ---- CALLPROF_DISABLE=1: no dump ----------------------------------------------
mkdir -p "$W/disabled"
CALLPROF_DISABLE=1 CALLPROF_OUTPUT=$W/disabled/out.json "$P/basic"
expect_status "CALLPROF_DISABLE=1 linked" 0 $? && no_dump "CALLPROF_DISABLE=1 linked writes no dump" "$W/disabled"
(cd "$W/disabled" && CALLPROF_DISABLE=1 "$P/basic")
expect_status "CALLPROF_DISABLE=1, default path" 0 $? && no_dump "CALLPROF_DISABLE=1 writes no default dump" "$W/disabled"
CALLPROF_DISABLE=1 "$REC" record -o "$W/disabled/rec.json" -- "$P/basic.pre"
expect_status "CALLPROF_DISABLE=1 record" 0 $? && no_dump "CALLPROF_DISABLE=1 record writes no dump" "$W/disabled"
CALLPROF_DISABLE=1 CALLPROF_OUTPUT=$W/disabled/api.json "$P/api" "$W/disabled/mid.json" >/dev/null 2>&1
no_dump "CALLPROF_DISABLE=1 callprof_dump() writes nothing" "$W/disabled"

# ---- %p in CALLPROF_OUTPUT -------------------------------------------------------
# pid_case NAME FILE_PATTERN COMMAND...: COMMAND prints its pid; FILE_PATTERN with it must be the dump.
pid_case() {
	name=$1 pattern=$2
	shift 2
	pid=$("$@" 2>"$W/pid.err")
	dump=$(printf '%s' "$pattern" | sed "s/%p/$pid/g")
	if [ -z "$pid" ] || [ ! -f "$dump" ]; then
		fail "$name" "no $dump (files: $(ls "$W/pid" | tr '\n' ' '))"
	elif [ "$(ls "$W/pid" | wc -l)" -ne 1 ]; then
		fail "$name" "more than one file: $(ls "$W/pid" | tr '\n' ' ')"
	else
		printf 'pid %s\nthreads 1\ncalls main 1\n' "$pid" >"$W/pid.expect"
		check "$name" "$DC" "$dump" "$W/pid.expect"
	fi
	rm -f "$W/pid/"*
}
mkdir -p "$W/pid"
CALLPROF_OUTPUT=$W/pid/out-%p.json pid_case "%p in CALLPROF_OUTPUT is the pid" "$W/pid/out-%p.json" "$P/exitcode" pid
pid_case "%p in record -o is the pid" "$W/pid/rec-%p.json" "$REC" record -o "$W/pid/rec-%p.json" -- "$P/exitcode.pre" pid
CALLPROF_OUTPUT=$W/pid/a-%p-b-%p.json pid_case "%p twice in CALLPROF_OUTPUT" "$W/pid/a-%p-b-%p.json" "$P/exitcode" pid

# ---- an unwritable output path ----------------------------------------------
# unwritable NAME WANT_STATUS COMMAND...: one stderr line naming the path, the status unchanged.
unwritable() {
	name=$1 want=$2
	shift 2
	"$@" >/dev/null 2>"$W/unwritable.err"
	got=$?
	lines=$(wc -l <"$W/unwritable.err")
	if [ "$got" -ne "$want" ]; then
		fail "$name" "exit status $got, expected $want"
	elif [ "$lines" -ne 1 ]; then
		fail "$name" "$lines lines on stderr: $(head -n 3 "$W/unwritable.err" | tr '\n' ' ')"
	elif ! grep -qF "$BAD_DIR/out.json" "$W/unwritable.err"; then
		fail "$name" "stderr does not name $BAD_DIR/out.json: $(cat "$W/unwritable.err")"
	else
		ok "$name"
	fi
}
CALLPROF_OUTPUT=$BAD_DIR/out.json unwritable "unwritable output, return 3" 3 "$P/exitcode" ret 3
CALLPROF_OUTPUT=$BAD_DIR/out.json unwritable "unwritable output, return 0" 0 "$P/basic"
CALLPROF_OUTPUT=$BAD_DIR/out.json unwritable "unwritable output, exit(7) deep" 7 "$P/exitcode" deep 7
unwritable "unwritable record -o, return 3" 3 "$REC" record -o "$BAD_DIR/out.json" -- "$P/exitcode.pre" ret 3
"$P/api" bad >/dev/null 2>"$W/api-bad.err"
if [ $? -ne 0 ]; then
	fail "callprof_dump to an unwritable path returns -1" "it did not"
elif [ "$(wc -l <"$W/api-bad.err")" -ne 1 ] || ! grep -qF "$BAD_DIR/x.json" "$W/api-bad.err"; then
	fail "callprof_dump to an unwritable path returns -1" "expected one stderr line naming the path: $(head -n 3 "$W/api-bad.err" | tr '\n' ' ')"
else
	ok "callprof_dump to an unwritable path returns -1"
fi

# ---- record passes the exit status through --------------------------------
# rec_status NAME WANT ARGS...: `record` of exitcode.pre ARGS ends with WANT, and (if it
# exited normally) leaves a valid dump.
rec_status() {
	name=$1 want=$2
	shift 2
	rm -f "$W/rec.json"
	"$REC" record -o "$W/rec.json" -- "$P/exitcode.pre" "$@" 2>"$W/rec.err"
	got=$?
	if [ "$got" -ne "$want" ]; then
		fail "$name" "exit status $got, expected $want"
	elif [ "$want" -lt 128 ] && ! "$DC" "$W/rec.json" >"$W/rec.check" 2>&1; then
		fail "$name" "$(head -n 2 "$W/rec.check" | tr '\n' ' ')"
	else
		ok "$name"
	fi
}
rec_status "record passes status 0" 0 ret 0
rec_status "record passes status 3" 3 ret 3
rec_status "record passes status 7 from exit() deep" 7 deep 7
rec_status "record passes status 255" 255 ret 255
rec_status "record reports SIGTERM as 143" 143 signal
"$REC" record -o "$W/rec.json" -- "$W/no-such-program" 2>/dev/null
got=$?
[ "$got" -ne 0 ] && ok "record of a missing program fails" || fail "record of a missing program fails" "exit status 0"

# ---- CALLPROF_CLOCK=none: exact counts, zero times ---------------------------------
# none_case NAME PROG MODE: PROG's usual expectations plus zero-times.
none_case() {
	{ grep -v '^timed' "$E/$2.expect"; echo zero-times; } >"$W/none-$2.expect"
	rm -f "$W/none.json"
	if [ "$3" = link ]; then
		CALLPROF_CLOCK=none CALLPROF_OUTPUT=$W/none.json "$P/$2" >/dev/null
	else
		CALLPROF_CLOCK=none "$REC" record -o "$W/none.json" -- "$P/$2.pre" >/dev/null
	fi
	expect_status "$1" 0 $? && check "$1" "$DC" "$W/none.json" "$W/none-$2.expect"
}
for p in basic recurse statics threads cxx; do
	none_case "CALLPROF_CLOCK=none $p linked" $p link
done
none_case "CALLPROF_CLOCK=none recurse preloaded" recurse preload
CALLPROF_CLOCK=none CALLPROF_OUTPUT=$W/none.json "$P/exitcode" deep 4
expect_status "CALLPROF_CLOCK=none exit() deep" 4 $? && {
	grep -v '^timed' "$E/exitcode.expect" >"$W/none-exitcode.expect"
	echo zero-times >>"$W/none-exitcode.expect"
	check "CALLPROF_CLOCK=none exit() deep" "$DC" "$W/none.json" "$W/none-exitcode.expect"
}

# ---- CALLPROF_CLOCK=tsc-ordered and tsc-adaptive: fenced reads, the same counts and tree
# Where the TSC is invariant the dump names the source asked for; elsewhere every TSC
# source falls back to CLOCK_MONOTONIC.
CALLPROF_OUTPUT=$W/plain-src.json "$P/basic" >/dev/null
tsc_here=no
[ "$(jq -r .clock.source "$W/plain-src.json")" = tsc ] && tsc_here=yes
# clock_case CLOCK NAME PROG MODE: PROG's usual expectations, timed ones included.
clock_case() {
	rm -f "$W/clock.json"
	if [ "$4" = link ]; then
		CALLPROF_CLOCK=$1 CALLPROF_OUTPUT=$W/clock.json "$P/$3" >/dev/null
	else
		CALLPROF_CLOCK=$1 "$REC" record -o "$W/clock.json" -- "$P/$3.pre" >/dev/null
	fi
	expect_status "$2" 0 $? || return
	src=$(jq -r .clock.source "$W/clock.json")
	want=$1
	[ $tsc_here = yes ] || want=monotonic
	if [ "$src" != "$want" ]; then
		fail "$2" "clock.source is $src, expected $want"
	else
		check "$2" "$DC" "$W/clock.json" "$E/$3.expect"
	fi
}
for c in tsc-ordered tsc-adaptive; do
	for p in basic recurse statics threads cxx; do
		clock_case $c "CALLPROF_CLOCK=$c $p linked" $p link
	done
	clock_case $c "CALLPROF_CLOCK=$c recurse preloaded" recurse preload
done

# ---- CALLPROF_TIMING=sampled: the same counts and tree; timed calls within bounds ----
# Every tree row was timed at most as often as it was called, and at least its first
# calls (clock.timed_first) where it had that many; the functions' figures say so too.
timed_bounds='.clock.timed_first as $w | [.threads[] |
	(.tree.columns | index("calls")) as $c | (.tree.columns | index("timed_calls")) as $t |
	(.tree.rows[] | select(.[$t] > .[$c] or .[$t] < ([.[$c], $w] | min))),
	(.functions[] | select(.timed_calls > .calls or .inclusive_se_ns == null))] | length'
sampled_case() {
	rm -f "$W/sampled.json"
	if [ "$3" = link ]; then
		CALLPROF_TIMING=sampled CALLPROF_SAMPLE=4 CALLPROF_OUTPUT=$W/sampled.json "$P/$2" >/dev/null
	else
		CALLPROF_TIMING=sampled CALLPROF_SAMPLE=4 "$REC" record -o "$W/sampled.json" -- "$P/$2.pre" >/dev/null
	fi
	expect_status "$1" 0 $? || return
	if [ $tsc_here = no ]; then
		check "$1 (no invariant TSC: every call timed)" "$DC" "$W/sampled.json" "$E/$2.expect"
	elif [ "$(jq -r '.clock.timing + " " + (.clock.sample_rate | tostring)' "$W/sampled.json")" != "sampled 4" ]; then
		fail "$1" "clock: $(jq -c .clock "$W/sampled.json")"
	elif [ "$(jq "$timed_bounds" "$W/sampled.json")" != 0 ]; then
		fail "$1" "timed calls out of bounds in $W/sampled.json"
	else
		check "$1" "$DC" "$W/sampled.json" "$E/$2.expect"
	fi
}
for p in basic recurse statics threads cxx; do
	sampled_case "CALLPROF_TIMING=sampled $p linked" $p link
done
sampled_case "CALLPROF_TIMING=sampled recurse preloaded" recurse preload
CALLPROF_TIMING=sampled CALLPROF_CLOCK=tsc-ordered CALLPROF_OUTPUT=$W/sampled.json "$P/basic" \
	>/dev/null 2>"$W/sampled.err"
if grep -q "CALLPROF_TIMING='sampled': sampled timing takes the tsc clock" "$W/sampled.err" &&
	[ "$(wc -l <"$W/sampled.err")" -eq 1 ] && [ "$(jq -r .clock.timing "$W/sampled.json")" = all ]; then
	ok "CALLPROF_TIMING=sampled under another clock: one line, every call timed"
else
	fail "CALLPROF_TIMING=sampled under another clock: one line, every call timed" "$(cat "$W/sampled.err")"
fi

# ---- CALLPROF_MAX_NODES: past the budget, counts stay exact ------------------------
grep -v '^path' "$E/recurse.expect" >"$W/folded-recurse.expect"
for budget in 1 5 50; do
	CALLPROF_MAX_NODES=$budget CALLPROF_OUTPUT=$W/folded.json "$P/recurse"
	expect_status "CALLPROF_MAX_NODES=$budget recurse" 0 $? &&
		check "CALLPROF_MAX_NODES=$budget recurse: exact counts, valid dump" "$DC" "$W/folded.json" "$W/folded-recurse.expect"
done
grep -v '^path' "$E/threads.expect" >"$W/folded-threads.expect"
CALLPROF_MAX_NODES=2 CALLPROF_OUTPUT=$W/folded.json "$P/threads"
expect_status "CALLPROF_MAX_NODES=2 threads" 0 $? &&
	check "CALLPROF_MAX_NODES=2 threads: exact counts, valid dump" "$DC" "$W/folded.json" "$W/folded-threads.expect"

# ---- the default output path ------------------------------------------------------
mkdir -p "$W/cwd"
(cd "$W/cwd" && env -u CALLPROF_OUTPUT "$P/basic")
expect_status "default output callprof.json" 0 $? &&
	check "default output callprof.json" "$DC" "$W/cwd/callprof.json" "$E/basic.expect"

# ---- CPU time: on a CPU and off it ------------------------------------------------------
# offcpu sleeps 4 x 50 ms in wait_for_work (a second thread) and 2 x 10 ms in nap: at least
# that much off the CPU, whatever the load, and little CPU time.  Calls that long read the CPU
# clock every time.  compute only computes: the most CPU self time of the process
# (offcpu.jq says what a dump must show).
cpu_case() {
	rm -f "$W/cpu.json"
	if [ "$2" = link ]; then
		env $3 CALLPROF_OUTPUT=$W/cpu.json "$P/offcpu"
	else
		env $3 "$REC" record -o "$W/cpu.json" -- "$P/offcpu.pre"
	fi
	expect_status "$1" 0 $? || return
	got=$(jq -c -f "$E/offcpu.jq" "$W/cpu.json")
	if [ "$got" != '[true,true,4,true,true,2,true,true,true,0]' ]; then
		fail "$1" "[cpu_time, cpu_read, waits read, off, cpu, naps read, off, compute read, tiny read, above compute] $got in $W/cpu.json"
	else
		check "$1" "$DC" "$W/cpu.json" "$E/offcpu.expect"
	fi
}
cpu_case "CPU time: sleeps off the CPU, computing on it (linked)" link
cpu_case "CPU time: sleeps off the CPU, computing on it (preloaded)" preload
cpu_case "CPU time under sampled timing" link "CALLPROF_TIMING=sampled CALLPROF_SAMPLE=4"
cpu_case "CPU time under tsc-adaptive" link CALLPROF_CLOCK=tsc-adaptive
CALLPROF_CPU=0 CALLPROF_OUTPUT=$W/nocpu.json "$P/offcpu"
if expect_status "CALLPROF_CPU=0" 0 $?; then
	got=$(jq -c '[.clock.cpu_time, .calibration.cpu_read_ns, ([.threads[].functions[] | select(has("cpu_ns"))] | length),
		(.threads[0].tree.columns | index("cpu_ns"))]' "$W/nocpu.json")
	if [ "$got" = '[false,null,0,null]' ]; then
		check "CALLPROF_CPU=0: no CPU time, the same counts" "$DC" "$W/nocpu.json" "$E/offcpu.expect"
	else
		fail "CALLPROF_CPU=0: no CPU time" "$got"
	fi
fi
CALLPROF_CLOCK=none CALLPROF_OUTPUT=$W/nocpu.json "$P/offcpu"
if expect_status "CALLPROF_CLOCK=none" 0 $?; then
	got=$(jq -c '[.clock.cpu_time, ([.threads[].functions[] | select(has("cpu_ns"))] | length)]' "$W/nocpu.json")
	[ "$got" = '[false,0]' ] && ok "CALLPROF_CLOCK=none: no CPU time either" ||
		fail "CALLPROF_CLOCK=none: no CPU time either" "$got"
fi

# ---- callprof_dump(NULL) ----------------------------------------------------------
CALLPROF_OUTPUT=$W/api-null.json "$P/api" null
expect_status "callprof_dump(NULL) writes the configured path" 0 $? &&
	check "callprof_dump(NULL) writes the configured path" "$DC" "$W/api-null.json" "$E/api-null.expect"
"$REC" record -o "$W/api-null-rec.json" -- "$P/api.pre" null
expect_status "callprof_dump(NULL) under record" 0 $? &&
	check "callprof_dump(NULL) under record" "$DC" "$W/api-null-rec.json" "$E/api-null.expect"
CALLPROF_OUTPUT=$W/api-%p.json "$P/api" "$W/api-mid-%p.json" >/dev/null
n=$(ls "$W" | grep -c '^api-mid-[0-9]*\.json$')
[ "$n" -eq 1 ] && ok "callprof_dump(path) expands %p" || fail "callprof_dump(path) expands %p" "$n files api-mid-PID.json"

# ---- CALLPROF_LIBCALLS=0: no library probes, callbacks attach to the caller ----------
for mode in link record; do
	rm -f "$W/nolib.json"
	if [ $mode = link ]; then
		n=$(CALLPROF_LIBCALLS=0 CALLPROF_OUTPUT=$W/nolib.json "$P/qsort")
	else
		n=$(CALLPROF_LIBCALLS=0 "$REC" record -o "$W/nolib.json" -- "$P/qsort.pre")
	fi
	expect_status "CALLPROF_LIBCALLS=0 qsort ($mode)" 0 $? || continue
	{ cat "$E/qsort.expect"; printf 'calls cmp_int %s\nedge sorter cmp_int %s\nabsent qsort\n' "$n" "$n"; } \
		>"$W/nolib.expect"
	if [ "$(jq -r .library_probes "$W/nolib.json")" != off ]; then
		fail "CALLPROF_LIBCALLS=0 qsort ($mode)" "library_probes: $(jq -c .library_probes "$W/nolib.json")"
	else
		check "CALLPROF_LIBCALLS=0 qsort ($mode): the comparator attaches to sorter" "$DC" "$W/nolib.json" \
			"$W/nolib.expect"
	fi
done
