#!/bin/sh
# tests/ends/t-ends.sh: how profiled programs end (issue 16 items 7, 8, 9, 12, 13, 18, 19, 27,
# 29, 33, and record's signals): the program's exit status and output come first, every end
# that can write a profile does (marked cut_short when a signal ends the process), libraries'
# destructors count, the dump counts none of its own calls, an exit with busy threads is quick,
# static programs and programs that forbid the TSC or shut themselves in run as they would
# unprofiled, and `callprof record` relays signals, dies as the program died, says when no
# profile was written and follows the programs the run starts.  Exact counts throughout.
set -u
. "$TOP/tests/lib.sh"
S=$TOP/tests/ends
workdir ends
cd "$W" || exit 1
ulimit -c 0 # SIGQUIT, SIGABRT and SIGSEGV dump no core here
build "build the runtime, the tool and dumpcheck" "$W/build.log" "$B/libcallprof.so" "$B/libcallprof.a" \
	"$REC" "$DC" || exit 1
command -v jq >/dev/null || { fail jq "jq reads the dumps' keys: install it"; exit 1; }

# ---- the programs ------------------------------------------------------------------------
CFLAGS="-std=c11 -D_GNU_SOURCE -g -O1 -finstrument-functions -I$TOP/tests/e2e"
RT="-L$B -lcallprof -Wl,-rpath,$B"
built=1
cc_ok() { gcc "$@" 2>>"$W/cc.log" || { built=0; echo "cannot build: $*" >>"$W/cc.log"; }; }
cc_ok $CFLAGS "$S/ends.c" -o ends $RT -ldl
cc_ok $CFLAGS "$S/ends.c" -o ends.pre -ldl
cc_ok $CFLAGS -fPIC -shared "$S/libdtor.c" -o libdtor.so
cc_ok $CFLAGS "$S/dtor.c" -o dtor $RT -L. -ldtor -Wl,-rpath,"$W"
cc_ok $CFLAGS "$S/dtor.c" -o dtor.pre -L. -ldtor -Wl,-rpath,"$W"
cc_ok $CFLAGS "$S/alloc.c" -o alloc $RT
cc_ok $CFLAGS "$S/alloc.c" -o alloc.pre
cc_ok $CFLAGS -O2 "$S/exitpaths.c" -o exitpaths.pre -lpthread
cc_ok -std=c11 -D_GNU_SOURCE -O2 -I"$TOP/tests/e2e" "$S/exitpaths.c" -o exitpaths.plain -lpthread
cc_ok -std=c11 -D_GNU_SOURCE -O2 -pg -mfentry -I"$TOP/tests/e2e" "$S/exitpaths.c" -o exitpaths.fe -lpthread
cc_ok $CFLAGS "$S/daemon.c" -o daemon $RT
cc_ok $CFLAGS "$S/stall.c" -o stall $RT -lpthread
cc_ok -std=c11 -D_GNU_SOURCE -g -O1 -pg -mfentry -I"$TOP/tests/e2e" "$S/ends.c" -o ends.fe $RT -ldl
cc_ok $CFLAGS "$S/spawner.c" -o spawner.pre
cc_ok -O1 "$S/waitstatus.c" -o waitstatus
cc_ok -std=c11 -O1 "$S/ends.c" -o ends.plain -D_GNU_SOURCE -I"$TOP/tests/e2e" -ldl
cc_ok $CFLAGS "$S/dtor.c" -o dtor.a "$B/libcallprof.a" $(pkg-config --libs libdw) -lelf -ldl -lpthread -L. -ldtor -Wl,-rpath,"$W"
cc_ok $CFLAGS "$S/ends.c" -o ends.a "$B/libcallprof.a" $(pkg-config --libs libdw) -lelf -ldl -lpthread
CXXFLAGS="-std=c++17 -g -O1 -finstrument-functions -I$TOP/tests/e2e"
g++ $CXXFLAGS "$S/terminate.cc" -o terminate $RT 2>>"$W/cc.log" || built=0
g++ -std=c++17 -O1 -I"$TOP/tests/e2e" "$S/terminate.cc" -o terminate.plain 2>>"$W/cc.log" || built=0
[ $built = 1 ] || { fail "build the test programs" "$(head -n 3 "$W/cc.log" | tr '\n' ' ')"; exit 1; }
WS=$W/waitstatus

# go NAME OUT PROGRAM [ARGS...]: runs with the profile in $W/OUT.json, stdout in OUT.out,
# stderr in OUT.err, at most 60 s; sets $how ("exit N" or "signal N") and $dump.
go() {
	_n=$1 _o=$2
	shift 2
	dump=$W/$_o.json
	rm -f "$dump"
	how=$(CALLPROF_OUTPUT=$dump timeout 60 "$WS" "$@" 2>"$W/$_o.err" >"$W/$_o.out.all"; \
		tail -n 1 "$W/$_o.out.all")
	sed '$d' "$W/$_o.out.all" >"$W/$_o.out"
}
# go_rec NAME OUT PROGRAM [ARGS...]: the same, under `callprof record -o`.
go_rec() {
	_n=$1 _o=$2
	shift 2
	dump=$W/$_o.json
	rm -f "$dump"
	how=$(timeout 60 "$WS" "$REC" record -o "$dump" -- "$@" 2>"$W/$_o.err" >"$W/$_o.out.all"; \
		tail -n 1 "$W/$_o.out.all")
	sed '$d' "$W/$_o.out.all" >"$W/$_o.out"
}

# expect NAME FILE EXPECTATIONS: dumpcheck FILE against the expectation lines given.
expect() {
	printf '%s\n' "$3" >"$W/expect"
	if [ ! -f "$2" ]; then
		fail "$1" "no dump $2 (stderr: $(head -c 300 "${2%.json}.err" 2>/dev/null | tr '\n' ' '))"
	elif "$DC" "$2" "$W/expect" >"$W/dc.out" 2>&1; then
		ok "$1"
	else
		fail "$1" "$(head -n 3 "$W/dc.out" | tr '\n' ' ')"
	fi
}
WORK5="calls main 1
calls work5 1
calls work 5
calls leaf 5
edge work leaf 5"

# same_as_plain NAME OUT MODE...: the run OUT ended and printed as the unprofiled program does.
same_as_plain() {
	_n=$1 _o=$2
	shift 2
	_want=$(timeout 60 "$WS" "$W/ends.plain" "$@" 2>/dev/null >"$W/plain.out.all"; tail -n 1 "$W/plain.out.all")
	sed '$d' "$W/plain.out.all" >"$W/plain.out"
	if [ "$how" != "$_want" ]; then
		fail "$_n" "ended by '$how', unprofiled by '$_want' (stderr: $(head -c 200 "$W/$_o.err" | tr '\n' ' '))"
	elif ! cmp -s "$W/$_o.out" "$W/plain.out"; then
		fail "$_n" "stdout '$(head -c 100 "$W/$_o.out")', unprofiled '$(head -c 100 "$W/plain.out")'"
	else
		return 0
	fi
	return 1
}

# files DIR: its files, sorted, on one line.
files() { ls "$1" | sort | tr '\n' ' '; }
# ended_whole NAME OUT MODE: as same_as_plain, and the run wrote the whole profile of WORK5 (not cut short).
ended_whole() {
	same_as_plain "$1" "$2" "$3" || return 0
	if [ ! -f "$dump" ] || [ "$(jq '.cut_short' "$dump" 2>/dev/null)" != null ]; then
		fail "$1" "no whole profile: $(ls "$dump" 2>&1 | head -c 100), cut_short $(jq -c .cut_short "$dump" 2>&1 | head -c 80)"
	else
		expect "$1" "$dump" "$WORK5"
	fi
}
# forked_exit NAME DIR: a run of `ends fork-_exit` into DIR (its output in DIR.out.all, the
# wait status last) ended by exit 0, its child by _exit(4), and DIR holds the parent's whole
# profile and the child's own, named with its pid.
forked_exit() {
	_t=$1 _d=$W/$2
	_how=$(tail -n 1 "$_d.out.all")
	set -- $(sed -n 1p "$_d.out.all")
	if [ "$_how" != "exit 0" ] || [ "${2:-}" != 4 ] ||
		[ "$(files "$_d")" != "$(printf '%s\n' out.json "out.$1.json" | sort | tr '\n' ' ')" ]; then
		fail "$_t" "ended by '$_how', printed '$*', files '$(files "$_d")'"
	else
		expect "$_t: the parent's" "$_d/out.json" "$WORK5"
		expect "$_t: the child's" "$_d/out.$1.json" "calls work5 1
calls work 5
calls leaf 5"
	fi
}

# one_line NAME OUT PATTERN: OUT's stderr is exactly one line matching PATTERN.
one_line() {
	if [ "$(wc -l <"$W/$2.err")" -eq 1 ] && grep -Eq -- "$3" "$W/$2.err"; then
		return 0
	fi
	fail "$1" "want one line /$3/ on stderr, got: $(head -c 300 "$W/$2.err" | tr '\n' '|')"
	return 1
}

# ---- item 9: the program's output and status come first ------------------------------
go x exit ./ends exit
same_as_plain "exit: status and output as unprofiled" exit exit && ok "exit: status and output as unprofiled"
expect "exit: the profile's counts" "$dump" "$WORK5
calls run 1"

# A file size limit the profile does not fit in (the output fits): SIGXFSZ killed the
# program, its stdout lost.  Now: exit 0, output intact, one line, no file left.
mkdir -p "$W/fsize"
(ulimit -f 1 && CALLPROF_OUTPUT=$W/fsize/out.json "$WS" ./ends fsize >"$W/fsize.out.all" 2>"$W/fsize.err")
how=$(tail -n 1 "$W/fsize.out.all"); sed '$d' "$W/fsize.out.all" >"$W/fsize.out"
if same_as_plain "RLIMIT_FSIZE at exit" fsize fsize && one_line "RLIMIT_FSIZE at exit" fsize "cannot write profile.*File too large"; then
	if [ -z "$(ls -A "$W/fsize")" ]; then ok "RLIMIT_FSIZE at exit: exit 0, output kept, one line, no file"; else
		fail "RLIMIT_FSIZE at exit" "left in the directory: $(ls -A "$W/fsize" | tr '\n' ' ')"; fi
fi

# A seccomp filter the program installs late, which kills openat: the program died of
# SIGSYS.  Now the profile is written by a child, which the filter kills instead.
for m in seccomp seccomp-raw seccomp-mmap; do
	t="a seccomp filter that kills openat, installed late ($m)"
	[ $m = seccomp-mmap ] && t="a seccomp filter that kills mmap, installed late"
	go "$t" $m ./ends $m
	if [ "$how" = "exit 2" ]; then
		skip "$t" "this kernel refuses the filter"
		continue
	fi
	same_as_plain "$t" $m $m && one_line "$t" $m "no profile written: .*killed by SIGSYS" && ok "$t: exit 0, output kept, one line"
done

# ---- item 8: a program that forbids the TSC -------------------------------------------
go x tsclate ./ends tsc-late
if same_as_plain "the TSC forbidden late (PR_SET_TSC)" tsclate tsc-late; then
	expect "the TSC forbidden late: exact counts, the clock stopped" "$dump" "calls main 1
calls work5 2
calls work 10
calls leaf 10"
	s=$(jq '.clock.stopped_ns' "$dump")
	w=$(jq '.wall_ns' "$dump")
	[ "$s" != null ] && [ "$s" -gt 0 ] && [ "$s" -le "$w" ] && ok "the TSC forbidden late: clock.stopped_ns $s within wall_ns $w" ||
		fail "the TSC forbidden late: clock.stopped_ns" "stopped_ns $s, wall_ns $w"
fi
go x strict ./ends strict
same_as_plain "strict seccomp (the TSC forbidden, exit by SYS_exit)" strict strict &&
	ok "strict seccomp: status and output as unprofiled"

# ---- item 18: calls in libraries' destructors ------------------------------------------
go x dtor ./dtor
expect "a linked library's destructor is counted (link)" "$dump" "calls main 1
calls lib_entry 1
calls lib_work 4
calls lib_fini 1"
go_rec x dtorpre ./dtor.pre
expect "a linked library's destructor is counted (preload)" "$dump" "calls main 1
calls lib_entry 1
calls lib_work 4
calls lib_fini 1"
go x dlo ./ends dlopen "$W/libdtor.so"
expect "a dlopen()ed library's destructor is counted (link)" "$dump" "$WORK5
calls lib_entry 2
calls lib_work 5
calls lib_fini 1"
go_rec x dlopre ./ends.pre dlopen "$W/libdtor.so"
expect "a dlopen()ed library's destructor is counted (preload)" "$dump" "$WORK5
calls lib_entry 2
calls lib_work 5
calls lib_fini 1"
# The archive's destructor writes the profile before the libraries' destructors run
# (docs/ends.md): one of them that forks after it (system() does) neither hangs nor adds a
# profile, and its calls are not in the one written.
t="the archive: a library destructor that forks after the dump ends the program, one profile"
rm -f "$W"/dtorfork*.json
how=$(CALLPROF_OUTPUT="$W/dtorfork.json" LIBDTOR_FORK=1 timeout 60 "$WS" ./dtor.a 2>"$W/dtorfork.err" | tail -n 1)
if [ "$how" != "exit 0" ]; then
	fail "$t" "ended by '$how' (timeout: 'exit 124')"
elif [ "$(ls "$W" | grep -c '^dtorfork.*json$')" -ne 1 ]; then
	fail "$t" "profiles: $(ls "$W" | grep '^dtorfork' | tr '\n' ' ')"
else
	expect "$t" "$W/dtorfork.json" "calls main 1
calls lib_entry 1
calls lib_work 1
absent lib_fini"
fi

# ---- item 27: the dump counts none of its own calls -------------------------------------
alloc_calls() { jq -c '[.functions[] | .name] as $n | [.threads[].functions[] |
	select($n[.fn] == "malloc" or $n[.fn] == "calloc" or $n[.fn] == "realloc" or $n[.fn] == "free") |
	{($n[.fn]): .calls}] | add' "$1"; }
for v in link pre signal; do
	t="an instrumented allocator: the dumps' allocations are not counted ($v)"
	p=./alloc
	[ $v = pre ] && p="env LD_PRELOAD=$B/libcallprof.so ./alloc.pre"
	[ $v = signal ] && t="an instrumented allocator: the runtime's thread's dump (CALLPROF_DUMP_SIGNAL) is not counted" &&
		p="env CALLPROF_DUMP_SIGNAL=USR2 ./alloc"
	rm -f "$W/mid.json"
	if [ $v = signal ]; then
		go x alloc-$v $p "$W/mid.json" "$W/alloc-$v.json"
	else
		go x alloc-$v $p "$W/mid.json"
	fi
	a=$(alloc_calls "$W/mid.json" 2>/dev/null) b=$(alloc_calls "$dump" 2>/dev/null)
	if [ "$how" = "exit 0" ] && [ -n "$a" ] && [ "$a" = "$b" ] && echo "$a" | grep -q '"malloc":10[0-9]'; then
		ok "$t: $a in both profiles"
	else
		fail "$t" "ended '$how'; callprof_dump: $a; at exit: $b"
	fi
done

# ---- item 19: an exit with 16 threads making new call paths ------------------------------
s0=$(date +%s%N)
./exitpaths.plain 16 200
s1=$(date +%s%N)
plain_ms=$(((s1 - s0) / 1000000))
bound_ms=$((plain_ms * 10 > 20000 ? plain_ms * 10 : 20000))
for fe in pre fe; do
t="exit with 16 threads making new call paths"
[ $fe = fe ] && t="$t (-pg -mfentry)"
s0=$(date +%s%N)
timeout 120 "$REC" record -o "$W/paths.json" -- ./exitpaths.$fe 16 200 >/dev/null 2>"$W/paths.err"
rc=$?
s1=$(date +%s%N)
ms=$(((s1 - s0) / 1000000))
if [ $rc -ne 0 ] || [ $ms -gt $bound_ms ]; then
	fail "$t" "status $rc, $ms ms (unprofiled $plain_ms ms, bound $bound_ms ms)"
elif ! "$REC" top "$W/paths.json" >/dev/null 2>"$W/paths.top"; then
	fail "$t" "the profile does not read: $(head -n 1 "$W/paths.top")"
elif [ "$(jq '[.threads[] | has("dropped_at_end")] | all' "$W/paths.json")" != true ] ||
	[ "$(jq '.threads | length' "$W/paths.json")" -ne 17 ]; then
	fail "$t" "want 17 threads, each with dropped_at_end"
else
	ok "$t: $ms ms (unprofiled $plain_ms ms, bound $bound_ms ms), $(jq '[.threads[].dropped_at_end] | add' "$W/paths.json") new paths dropped"
fi
done

# ---- item 13: ends by a signal write what was gathered, then the signal ends the process --
for sig in 1 2 3 10 13 14 15; do
	t="signal $sig with no handler of the program's: the profile cut short, then the signal"
	go "$t" sig$sig ./ends kill $sig
	if [ "$how" != "signal $sig" ]; then
		fail "$t" "ended by '$how' (stderr: $(head -c 200 "$W/sig$sig.err"))"
	elif [ "$(jq -c '.cut_short.signal' "$dump" 2>/dev/null)" != $sig ]; then
		fail "$t" "cut_short: $(jq -c '.cut_short' "$dump" 2>&1 | head -c 100)"
	else
		expect "$t" "$dump" "$WORK5"
	fi
done
for m in abort segv overflow thread-segv; do
	t="$m: the profile cut short, then the same death"
	go "$t" $m ./ends $m
	want=$(timeout 60 "$WS" ./ends.plain $m 2>/dev/null | tail -n 1)
	if [ "$how" != "$want" ]; then
		fail "$t" "ended by '$how', unprofiled by '$want'"
	elif [ "$(jq -c '.cut_short.signal' "$dump" 2>/dev/null)" != "${want#signal }" ]; then
		fail "$t" "cut_short: $(jq -c '.cut_short' "$dump" 2>&1 | head -c 100)"
	elif [ $m = overflow ] && [ "$(jq '[.functions[] | .name] as $n | [.threads[0].functions[] | select($n[.fn] == "deep") | .calls] | add' "$dump")" -lt 1000 ]; then
		fail "$t" "fewer than 1000 calls of deep"
	elif [ $m = thread-segv ]; then
		expect "$t" "$dump" "calls main 1
calls work5 2
calls work 10
calls leaf 10
calls crasher 1
edge crasher work5 1"
	else
		expect "$t" "$dump" "$WORK5"
	fi
done
# A signal that comes while the program holds a lock the dump needs (its allocator's): the
# handler gives up once the dump's thread has used no CPU for 10 s, says so, and the signal
# ends the program; nothing is left in the output's directory.
t="SIGTERM while the program holds its allocator's lock: one line, then SIGTERM"
rm -rf "$W/stalldir" && mkdir -p "$W/stalldir"
how=$(CALLPROF_OUTPUT="$W/stalldir/out.json" timeout 120 "$WS" ./stall 2>"$W/stall.err" | tail -n 1)
if [ "$how" != "signal 15" ]; then
	fail "$t" "ended by '$how'"
elif [ -n "$(ls -A "$W/stalldir")" ]; then
	fail "$t" "left: $(ls -A "$W/stalldir" | tr '\n' ' ')"
else
	one_line "$t" stall "no profile written before signal 15 ended the program: its dump stalled" && ok "$t"
fi
# The same ends of a program built with -pg -mfentry.
for m in "kill 15:signal 15:15" "segv:signal 11:11" "_exit:exit 0:null"; do
	args=${m%%:*} m=${m#*:} want=${m%%:*} cut=${m#*:}
	t="-pg -mfentry, $args: $want, cut_short $cut, the profile"
	go x fe ./ends.fe $args
	if [ "$how" != "$want" ] || [ "$(jq -c '.cut_short.signal' "$dump" 2>/dev/null)" != "$cut" ]; then
		fail "$t" "ended by '$how', cut_short $(jq -c .cut_short "$dump" 2>&1 | head -c 80)"
	else
		expect "$t" "$dump" "$WORK5"
	fi
done
# With CALLPROF_ARGS, whose fault handler (safecopy) stands in front of SIGSEGV: a fault of
# the program's still writes its profile, cut short.
t="-pg -mfentry under CALLPROF_ARGS, segv: signal 11, the profile cut short"
go x fearg env CALLPROF_ARGS=work ./ends.fe segv
if [ "$how" != "signal 11" ] || [ "$(jq -c '.cut_short.signal' "$dump" 2>/dev/null)" != 11 ]; then
	fail "$t" "ended by '$how', cut_short $(jq -c .cut_short "$dump" 2>&1 | head -c 80)"
else
	expect "$t" "$dump" "$WORK5"
fi
# An uninstrumented program that opens an instrumented library: its next dlopen arms the
# runtime's signal handling, and SIGTERM writes what the library's calls gathered.
go_rec x dlterm ./ends.plain dlopen-term "$W/libdtor.so"
[ "$how" = "signal 15" ] && [ "$(jq -c '.cut_short.signal' "$dump" 2>/dev/null)" = 15 ] &&
	expect "an instrumented library opened by an uninstrumented program: SIGTERM cuts its profile short" "$dump" "calls lib_entry 2
calls lib_work 2" ||
	fail "an instrumented library opened by an uninstrumented program: SIGTERM cuts its profile short" "ended by '$how', cut_short $(jq -c .cut_short "$dump" 2>&1 | head -c 80)"
# std::terminate, by an exception nobody catches or called outright: SIGABRT.
for m in throw call; do
	t="std::terminate ($m): the profile cut short, then SIGABRT"
	go "$t" term-$m ./terminate $m
	want=$(timeout 60 "$WS" ./terminate.plain $m 2>/dev/null | tail -n 1)
	if [ "$how" != "$want" ] || [ "$how" != "signal 6" ]; then
		fail "$t" "ended by '$how', unprofiled by '$want'"
	elif [ "$(cat "$W/term-$m.out")" != "terminate: $m" ]; then
		fail "$t" "printed '$(cat "$W/term-$m.out")'"
	elif [ "$(jq -c '.cut_short.signal' "$dump" 2>/dev/null)" != 6 ]; then
		fail "$t" "cut_short: $(jq -c '.cut_short' "$dump" 2>&1 | head -c 100)"
	else
		expect "$t" "$dump" "calls main 1
calls work 5
calls thrower 4
edge main thrower 1
edge thrower thrower 3"
	fi
done
# The handlers go only where a signal has its default action: the ignored ones stay ignored
# (env --ignore-signal, as nohup does), and a process without instrumentation catches none.
sigmask() { sed -n "s/^$1:[[:space:]]*//p" "$2"; }
t="the runtime catches the ending signals left to their default action, no ignored one"
how=$(CALLPROF_OUTPUT="$W/cgt.json" env --ignore-signal=HUP --ignore-signal=PIPE "$WS" ./ends sigcgt 2>"$W/cgt.err" >"$W/cgt.out.all"; tail -n 1 "$W/cgt.out.all")
ign=$(sigmask SigIgn "$W/cgt.out.all") cgt=$(sigmask SigCgt "$W/cgt.out.all")
# SIGHUP..SIGFPE, SIGUSR1, SIGSEGV, SIGUSR2, SIGPIPE, SIGALRM, SIGTERM, SIGXCPU, SIGXFSZ, SIGSYS;
# the C library's own real-time ones (SIGSETXID) aside.
want=$(printf '%08x' $((0x41807eff & ~0x${ign:-0})))
cgt=$(printf '%08x' $((0x${cgt:-0} & 0xffffffff)))
if [ "$how" != "exit 0" ] || [ $((0x${ign:-0} & 0x1001)) -ne $((0x1001)) ]; then
	fail "$t" "ended by '$how', SigIgn '$ign'"
elif [ "$cgt" != "$want" ]; then
	fail "$t" "SigCgt '$cgt', want '$want' (SigIgn '$ign')"
else
	ok "$t: SigCgt $cgt"
fi
t="CALLPROF_ON_SIGNAL=0: no handler, SIGTERM ends the program with no profile"
how=$(CALLPROF_ON_SIGNAL=0 CALLPROF_OUTPUT="$W/off.json" "$WS" ./ends sigcgt 2>/dev/null | tail -n 2)
cgt=$(echo "$how" | sed -n 's/^SigCgt:[[:space:]]*//p')
cgt=$(printf '%08x' $((0x${cgt:-1} & 0xffffffff)))
rm -f "$W/off.json"
go x off env CALLPROF_ON_SIGNAL=0 ./ends kill 15
[ "$cgt" = 00000000 ] && [ "$how" = "signal 15" ] && [ ! -f "$dump" ] && ok "$t" ||
	fail "$t" "SigCgt '$cgt', ended by '$how', dump $(ls "$dump" 2>&1)"
t="record started with SIGINT and SIGHUP ignored: the program has them ignored too"
how=$(timeout 60 env --ignore-signal=INT --ignore-signal=HUP "$WS" "$REC" record -o "$W/ign.json" -- ./ends.pre sigcgt \
	2>"$W/ign.err" >"$W/ign.out.all"; tail -n 1 "$W/ign.out.all")
ign=$(sigmask SigIgn "$W/ign.out.all") cgt=$(sigmask SigCgt "$W/ign.out.all")
if [ "$how" = "exit 0" ] && [ $((0x${ign:-0} & 0x3)) -eq 3 ] && [ $((0x${cgt:-3} & 0x3)) -eq 0 ]; then
	ok "$t"
else
	fail "$t" "ended by '$how', SigIgn '$ign', SigCgt '$cgt'"
fi
t="record: a process without instrumentation catches no signal"
how=$(timeout 60 "$WS" "$REC" record -o "$W/cgt0.json" -- ./ends.plain sigcgt 2>"$W/cgt0.err" >"$W/cgt0.out.all"; tail -n 1 "$W/cgt0.out.all")
cgt=$(sigmask SigCgt "$W/cgt0.out.all")
[ "$cgt" = 0000000000000000 ] && [ "$how" = "exit 1" ] && ok "$t" || fail "$t" "ended by '$how', SigCgt '$cgt'"
go x handled ./ends handled 15
[ "$how" = "exit 7" ] && [ "$(jq '.cut_short' "$dump")" = null ] &&
	expect "the program's own handler decides: exit 7, a whole profile" "$dump" "$WORK5" ||
	fail "the program's own handler decides" "ended by '$how', cut_short $(jq -c .cut_short "$dump" 2>&1)"
go x ifdefault ./ends if-default
[ "$how" = "exit 9" ] && expect "a program that handles SIGINT only where it has its default action still does" "$dump" "$WORK5" ||
	fail "a program that handles SIGINT only where it has its default action still does" "ended by '$how'"
go x reraise ./ends reraise 15
[ "$how" = "signal 15" ] && [ "$(jq -c '.cut_short.signal' "$dump" 2>/dev/null)" = 15 ] &&
	expect "a handler that puts the default back and raises again: the profile cut short" "$dump" "$WORK5" ||
	fail "a handler that puts the default back and raises again" "ended by '$how', cut_short $(jq -c .cut_short "$dump" 2>&1 | head -c 80)"
go x quick ./ends quick_exit
[ "$how" = "exit 0" ] && expect "quick_exit writes the profile" "$dump" "$WORK5" ||
	fail "quick_exit writes the profile" "ended by '$how'"
# _exit and _Exit (interposed by the shared library and the archive): the profile, whole, then the end.
go x _exit ./ends _exit
ended_whole "_exit writes the profile (linked), the status and output as unprofiled" _exit _exit
go_rec x _Exit ./ends.pre _Exit
ended_whole "_Exit writes the profile (preloaded), the status and output as unprofiled" _Exit _Exit
# The archive: in a dynamic program here, in a static one with item 7 (below).
go x _exita ./ends.a _exit
ended_whole "_exit writes the profile (the archive, a dynamic program), the status and output as unprofiled" _exita _exit
go x _Exita ./ends.a _Exit
ended_whole "_Exit writes the profile (the archive, a dynamic program), the status and output as unprofiled" _Exita _Exit
go x _exith ./ends _exit-handler
[ "$how" = "exit 5" ] && [ "$(jq '.cut_short' "$dump" 2>/dev/null)" = null ] &&
	expect "_exit(5) in a SIGTERM handler: the profile, exit 5" "$dump" "$WORK5" ||
	fail "_exit(5) in a SIGTERM handler" "ended by '$how', dump $(ls "$dump" 2>&1)"
rm -rf "$W/fx" && mkdir -p "$W/fx"
timeout 60 "$WS" "$REC" record -o "$W/fx/out.json" -- ./ends.pre fork-_exit 2>"$W/fx.err" >"$W/fx.out.all"
forked_exit "a fork child's _exit writes its own profile, named with its pid" fx
t="a vfork child's _exit writes nothing (it shares its parent's memory)"
rm -rf "$W/vf" && mkdir -p "$W/vf"
how=$(timeout 60 "$WS" "$REC" record -o "$W/vf/out.json" -- ./ends.pre vfork 2>"$W/vf.err" >"$W/vf.out.all"; tail -n 1 "$W/vf.out.all")
if [ "$how" != "exit 0" ] || [ "$(sed -n 1p "$W/vf.out.all")" != "ends: vfork 3" ] || [ "$(ls "$W/vf")" != out.json ]; then
	fail "$t" "ended by '$how', printed '$(head -n 1 "$W/vf.out.all")', files '$(ls "$W/vf" | tr '\n' ' ')'"
else
	expect "$t" "$W/vf/out.json" "calls main 1
calls work5 2
calls work 10
calls leaf 10"
fi

# record passes on the signals meant for the program, then dies by the program's signal.
for sig in TERM:15 INT:2 HUP:1 QUIT:3; do
	num=${sig#*:} sig=${sig%:*}
	t="record relays SIG$sig to the program and dies by it"
	rm -f "$W/relay.json" "$W/relay.out"
	# A background job of this shell has SIGINT and SIGQUIT ignored, and a check run under nohup
	# SIGHUP, which record keeps (as the program itself would): give them their default action,
	# as a foreground command has.
	env --default-signal=INT,QUIT,HUP,TERM "$WS" "$REC" record -o "$W/relay.json" -- ./ends.pre wait >"$W/relay.out" 2>"$W/relay.err" &
	bg=$!
	i=0
	while ! grep -q ready "$W/relay.out" 2>/dev/null && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
	recpid=$(pgrep -P $bg | head -n 1) # waitstatus's child: record
	progpid=
	[ -n "$recpid" ] && progpid=$(pgrep -P "$recpid" | head -n 1) && kill -$sig "$recpid"
	i=0
	while kill -0 $bg 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
	if kill -0 $bg 2>/dev/null; then
		fail "$t" "the program still runs 30 s after (record $recpid)"
		kill -KILL "$progpid" "$recpid" 2>/dev/null
		wait $bg
		continue
	fi
	wait $bg
	# A record that died without relaying leaves the program behind: end it.
	[ -n "$progpid" ] && kill -0 "$progpid" 2>/dev/null && kill -KILL "$progpid"
	got=$(tail -n 1 "$W/relay.out")
	if [ "$got" != "signal $num" ]; then
		fail "$t" "record ended by '$got'"
	elif [ "$(jq -c '.cut_short.signal' "$W/relay.json" 2>/dev/null)" != "$num" ]; then
		fail "$t" "the program's profile: $(jq -c .cut_short "$W/relay.json" 2>&1 | head -c 100)"
	else
		ok "$t"
	fi
done
# ^C on a terminal: the kernel sends SIGINT to record and the program alike (one foreground
# process group).  (That record does not pass it on a second time cannot be seen from here:
# a second SIGINT sent while the first is pending merges with it.)
if ! command -v python3 >/dev/null; then
	skip "^C on a terminal" "no python3 here to drive a pseudo-terminal"
else
	t="^C on a terminal: the program's profile cut short, record dies by SIGINT"
	rm -f "$W/tty.json"
	got=$(python3 "$S/ctrl_c.py" "$REC" record -o "$W/tty.json" -- ./ends.pre wait 2>&1 | tail -n 1)
	if [ "$got" != "signal 2" ]; then
		fail "$t" "record ended by '$got'"
	elif [ "$(jq -c '.cut_short.signal' "$W/tty.json" 2>/dev/null)" != 2 ]; then
		fail "$t" "cut_short: $(jq -c .cut_short "$W/tty.json" 2>&1 | head -c 100)"
	else
		expect "$t" "$W/tty.json" "$WORK5"
	fi
fi
go_rec x recsegv ./ends.pre segv
[ "$how" = "signal 11" ] && ok "record dies by the signal that killed the program" ||
	fail "record dies by the signal that killed the program" "record ended by '$how'"

# ---- item 12: profiles while the program runs on ---------------------------------------
mid_final() { # NAME: mid.json counts work 5, the profile at exit work 10
	expect "$1: the profile written meanwhile" "$W/mid.json" "calls work 5"
	expect "$1: the profile at exit" "$dump" "calls work 10
calls work5 2"
	[ "$(jq -c '[.threads[].name]' "$W/mid.json" "$dump" 2>&1 | tr -d '\n')" = '["main"]["main"]' ] &&
		ok "$1: the runtime's thread is in neither profile" ||
		fail "$1: the runtime's thread is in neither profile" "threads $(jq -c '[.threads[].name]' "$W/mid.json" "$dump" 2>&1 | tr '\n' ' ')"
}
rm -f "$W/mid.json"
go x dsig env CALLPROF_DUMP_SIGNAL=USR2 ./daemon signal "$W/dsig.json" "$W/mid.json"
[ "$how" = "exit 0" ] && mid_final "CALLPROF_DUMP_SIGNAL=USR2" || fail "CALLPROF_DUMP_SIGNAL=USR2" "ended by '$how'"
for v in SIGUSR2 12; do # the same signal by its other names
	rm -f "$W/mid.json"
	go x dsig$v env CALLPROF_DUMP_SIGNAL=$v ./daemon signal "$W/dsig$v.json" "$W/mid.json"
	[ "$how" = "exit 0" ] && expect "CALLPROF_DUMP_SIGNAL=$v: the profile written meanwhile" "$W/mid.json" "calls work 5" ||
		fail "CALLPROF_DUMP_SIGNAL=$v" "ended by '$how'"
done
for v in KILL RTMIN+99 bogus; do
	t="CALLPROF_DUMP_SIGNAL=$v is refused in one line; the program runs as it would"
	go x dbad$v env CALLPROF_DUMP_SIGNAL=$v ./ends exit
	same_as_plain "$t" dbad$v exit && one_line "$t" dbad$v "ignoring CALLPROF_DUMP_SIGNAL='${v%+*}" &&
		expect "$t" "$dump" "$WORK5"
done
rm -f "$W/mid.json"
go x devery env CALLPROF_DUMP_EVERY=1 ./daemon every "$W/devery.json" "$W/mid.json"
[ "$how" = "exit 0" ] && mid_final "CALLPROF_DUMP_EVERY=1" || fail "CALLPROF_DUMP_EVERY=1" "ended by '$how'"
rm -f "$W/mid.json"
go x dhandler ./daemon handler "$W/dhandler.json" "$W/mid.json"
t="callprof_dump() in a signal handler refuses, and is counted"
if [ "$how" != "exit 0" ] || [ "$(cat "$W/dhandler.out")" != refused ]; then
	fail "$t" "ended by '$how', printed '$(cat "$W/dhandler.out")'"
elif [ "$(jq .refused_dumps "$dump")" != 1 ]; then
	fail "$t" "refused_dumps $(jq .refused_dumps "$dump")"
else
	one_line "$t" dhandler "callprof_dump\(\) refused in a signal handler" && ok "$t"
	expect "callprof_dump() outside the handler, after it ran, writes" "$W/mid.json" "calls work 5"
fi

# ---- item 7: fully static programs ------------------------------------------------------
SLIBS="$(pkg-config --static --libs libdw 2>/dev/null) -lelf -ldl -lpthread"
if ! echo 'int main(void){return 0;}' | gcc -x c - -static -o static-probe $SLIBS 2>"$W/static.log"; then
	skip "fully static programs" "no static libdw here: $(head -n 1 "$W/static.log")"
else
	t="a fully static C program's longjmp"
	if gcc $CFLAGS -static "$S/static_jmp.c" -o static_jmp "$B/libcallprof.a" $SLIBS 2>"$W/static.log"; then
		go x sjmp ./static_jmp
		[ "$how" = "exit 0" ] && [ "$(cat "$W/sjmp.out")" = back ] && expect "$t" "$dump" "calls main 1
calls deep 5" || fail "$t" "ended by '$how', printed '$(cat "$W/sjmp.out")'"
		# Its coverage: its own two functions, not the thousands a static link brings from
		# libraries built without debug information, nor the runtime's.
		t="a fully static C program's coverage counts its own functions only"
		cov=$(jq -c '[.modules[] | select(.symtab_functions != null) |
			.symtab_functions, (.uncalled | length)]' "$dump" 2>&1)
		[ "$cov" = "[2,0]" ] && ok "$t" || fail "$t" "symtab_functions, uncalled: $(printf '%s' "$cov" | head -c 200)"
	else
		fail "$t" "does not link: $(grep -m 2 -i error "$W/static.log" | tr '\n' ' ')"
	fi
	t="a fully static C++ program's exceptions"
	if g++ -std=c++17 -g -O1 -finstrument-functions -I"$TOP/tests/e2e" -static "$S/static_catch.cc" \
		-o static_catch "$B/libcallprof.a" $SLIBS 2>"$W/static.log"; then
		go x scatch ./static_catch
		[ "$how" = "exit 0" ] && [ "$(cat "$W/scatch.out")" = 4 ] && expect "$t" "$dump" "calls main 1
calls catcher 4
calls thrower 16" || fail "$t" "ended by '$how', printed '$(cat "$W/scatch.out")'"
	else
		fail "$t" "does not link: $(grep -m 2 -i 'error\|multiple' "$W/static.log" | tr '\n' ' ')"
	fi
	t="the TSC forbidden before start-up (a static program started so)"
	if gcc $CFLAGS -static "$S/ends.c" -o ends.static "$B/libcallprof.a" $SLIBS 2>"$W/static.log"; then
		# The C library's exit() and abort() end by the runtime's _exit here: one profile, whole.
		for m in _exit _Exit exit; do
			go x "static$m" ./ends.static $m
			ended_whole "$m writes the profile (a fully static program), the status and output as unprofiled" \
				"static$m" $m
		done
		rm -rf "$W/sfx" && mkdir -p "$W/sfx"
		CALLPROF_OUTPUT=$W/sfx/out.json timeout 60 "$WS" ./ends.static fork-_exit >"$W/sfx.out.all" 2>"$W/sfx.err"
		forked_exit "a fork child's _exit in a fully static program writes its own profile" sfx
		go x tscearly ./ends.static forbid-tsc tsc-early
		if [ "$how" != "exit 0" ]; then
			fail "$t" "ended by '$how'"
		elif [ "$(jq -r .clock.source "$dump")" != none ] || [ "$(jq -r .clock.note "$dump")" = null ]; then
			fail "$t" "clock $(jq -c .clock "$dump")"
		else
			expect "$t" "$dump" "$WORK5"
		fi
	else
		fail "$t" "does not link: $(grep -m 2 -i error "$W/static.log" | tr '\n' ' ')"
	fi
fi

# ---- item 29: record says when no profile was written -----------------------------------
go_rec x noinst ./ends.plain exit
[ "$how" = "exit 1" ] && one_line "record of an uninstrumented program" noinst "no profile written" &&
	ok "record of an uninstrumented program: exit 1, one line" ||
	fail "record of an uninstrumented program" "ended by '$how'"
how=$(timeout 60 "$WS" "$REC" record -o "$W/nodir/x.json" -- ./ends.pre exit 2>"$W/nodir.err" | tail -n 1)
[ "$how" = "exit 1" ] && grep -q "cannot write profile '$W/nodir/x.json'" "$W/nodir.err" &&
	ok "record -o into a missing directory: exit 1, the reason" ||
	fail "record -o into a missing directory" "ended by '$how': $(head -c 200 "$W/nodir.err")"

printf 'not a program\n' >"$W/notprog" && chmod 644 "$W/notprog"
for c in "missing:127:$W/no-such-program" "not executable:126:$W/notprog"; do
	n=${c%%:*} c=${c#*:} want=${c%%:*} prog=${c#*:}
	t="record of a program that cannot be run ($n): $want and one line, as a shell"
	how=$(timeout 60 "$WS" "$REC" record -o "$W/x.json" -- "$prog" 2>"$W/cannot.err" | tail -n 1)
	if [ "$how" = "exit $want" ]; then
		one_line "$t" cannot "cannot run '$prog'" && ok "$t"
	else
		fail "$t" "ended by '$how'"
	fi
done

# ---- item 33: programs the run starts --------------------------------------------------
CHILD="calls main 1
calls child_work 3
absent work"
for m in spawn inherit; do
	t="record: two children started by posix_spawn ($m environment) each write their own profile"
	rm -rf "$W/sp" && mkdir -p "$W/sp"
	how=$(timeout 60 "$WS" "$REC" record -o "$W/sp/out.json" -- ./spawner.pre $m 2>"$W/sp.err" >"$W/sp.out.all"; tail -n 1 "$W/sp.out.all")
	p1=$(sed -n 1p "$W/sp.out.all") p2=$(sed -n 2p "$W/sp.out.all")
	want=$(printf '%s\n' out.json "out.$p1.json" "out.$p2.json" | sort | tr '\n' ' ')
	if [ "$how" != "exit 0" ] || [ "$(files "$W/sp")" != "$want" ]; then
		fail "$t" "ended by '$how'; files '$(files "$W/sp")', want '$want'"
	else
		expect "$t: the program's" "$W/sp/out.json" "calls main 1
calls spawn_two 1
calls work 5"
		expect "$t: the first child's" "$W/sp/out.$p1.json" "$CHILD"
		expect "$t: the second child's" "$W/sp/out.$p2.json" "$CHILD"
	fi
done
for m in exec execl; do
	t="record: a program that becomes another with a clean environment ($m) is followed"
	go_rec "$t" follow-$m ./spawner.pre $m
	[ "$how" = "exit 0" ] && expect "$t" "$dump" "$CHILD" || fail "$t" "ended by '$how'"
done
t="record --no-follow: children with an environment of their own stay unprofiled"
rm -rf "$W/sp" && mkdir -p "$W/sp"
how=$(timeout 60 "$WS" "$REC" record --no-follow -o "$W/sp/out.json" -- ./spawner.pre spawn 2>"$W/sp.err" | tail -n 1)
[ "$how" = "exit 0" ] && [ "$(files "$W/sp")" = "out.json " ] && ok "$t" ||
	fail "$t" "ended by '$how'; files '$(files "$W/sp")'"
t="record -- sh -c: each process of the run its own profile, record names them"
rm -rf "$W/sp" && mkdir -p "$W/sp"
how=$(timeout 60 "$WS" "$REC" record -o "$W/sp/out.json" -- sh -c './spawner.pre child; ./spawner.pre child; true' \
	2>"$W/shc.err" | tail -n 1)
set -- $(LC_ALL=C ls "$W/sp") # sorted as record sorts them (strcmp)
if [ "$how" != "exit 0" ] || [ $# -ne 2 ] || [ "$1" = out.json ] || [ "$2" = out.json ]; then
	fail "$t" "ended by '$how'; files '$(files "$W/sp")'"
elif one_line "$t" shc "wrote no profile of its own; other processes of the run wrote 2 in .*: $1 $2\$"; then
	expect "$t: the first" "$W/sp/$1" "$CHILD"
	expect "$t: the second" "$W/sp/$2" "$CHILD"
fi
exit 0
