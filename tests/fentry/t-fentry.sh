#!/bin/sh
# tests/fentry/t-fentry.sh: the -pg -mfentry front-end beyond what tests/hostile
# runs on it: return values of every kind through the trampoline, tail calls,
# vector arguments on a thread's first probe, pthread_cancel and pthread_exit
# running every destructor, what backtrace() sees, vfork, a program mixing both
# front-ends, a function built with both flags, the static archive, gprof's
# start-up made inert, the clocks; and the arguments and return values
# CALLPROF_ARGS captures, with exact values (C and C++), conventions the
# optimiser changed, the value profile's bound, and the one line a
# -finstrument-functions build gets.  GCC and Clang at -O0 and -O2, linked and
# preloaded, where a case depends on them.
. "$TOP/tests/lib.sh"
F=$TOP/tests/fentry
P=$B/tests/fentry
LC_ALL=C
export LC_ALL
workdir fentry-work
mkdir -p "$P"

build "build the runtime, callprof and dumpcheck" "$W/make.log" "$DC" "$B/libcallprof.so" "$B/libcallprof.a" "$REC"
command -v jq >/dev/null || { fail "jq" "jq reads the dumps: install it"; exit 1; }
[ -x "$DC" ] && [ -f "$B/libcallprof.so" ] || exit 1

# ---- building ---------------------------------------------------------------------
# P is linked to the runtime, P.pre is not (run under `callprof record`).  FE are the
# flags the expectations were written for (no tail calls: tests/matrix.mk); returns.c
# keeps its tail calls, which it tests.
FE=$(frontend_flags fentry)
FI=$(frontend_flags finstrument)
CFLAGS="-std=c11 -D_GNU_SOURCE -g -Wall -Wextra -I$TOP/tests/e2e"
CXXFLAGS="-std=c++17 -g -Wall -Wextra -I$TOP/tests/e2e"
RT="-L$B -lcallprof -Wl,-rpath,$B"
INPUTS="$TOP/tests/e2e/e2e.h $F/t-fentry.sh $TOP/tests/lib.sh $TOP/tests/matrix.mk"

# both NAME OBJS LINKER EXTRA: the link commands of P and P.pre from OBJS.
both() {
	printf '%s -o %s %s %s %s\n%s -o %s.pre %s %s\n' "$3" "$1" "$2" "$RT" "$4" "$3" "$1" "$2" "$4"
}

for v in $VARIANTS; do
	d=$P/$v cc=$(cc_of $v) cxx=$(cxx_of $v) o=$(level_of $v)
	mkdir -p "$d"
	job "$v-returns" "$d/returns $d/returns.pre" "$F/returns.c $F/returns_avx.c $INPUTS" "
$cc $o $CFLAGS -pg -mfentry -c $F/returns.c -o $d/returns.o
$cc $o $CFLAGS -pg -mfentry -mavx -c $F/returns_avx.c -o $d/returns_avx.o
$(both "$d/returns" "$d/returns.o $d/returns_avx.o" "$cc" -lpthread)"
	for p in vf args args_clone args_bound sigtramp; do
		flags=$FE
		[ $p = args_clone ] && flags="-pg -mfentry" # its clone must happen
		job "$v-$p" "$d/$p $d/$p.pre" "$F/$p.c $INPUTS" "
$cc $o $CFLAGS $flags -c $F/$p.c -o $d/$p.o
$(both "$d/$p" "$d/$p.o" "$cc")"
	done
	for p in cancel args_cxx; do
		job "$v-$p" "$d/$p $d/$p.pre" "$F/$p.cc $INPUTS" "
$cxx $o $CXXFLAGS $FE -c $F/$p.cc -o $d/$p.o
$(both "$d/$p" "$d/$p.o" "$cxx" -lpthread)"
	done
	job "$v-bt" "$d/bt $d/bt.pre $d/bt.plain" "$F/bt.c $INPUTS" "
$cc $o $CFLAGS $FE -c $F/bt.c -o $d/bt.o
$(both "$d/bt" "$d/bt.o" "$cc" "-rdynamic -ldl")
$cc $o $CFLAGS -rdynamic $F/bt.c -o $d/bt.plain -ldl"
	case $cc in gcc*) # libbacktrace is GCC's (its header too)
		job "$v-stacktrace" "$d/stacktrace $d/stacktrace.pre" "$F/stacktrace.c $INPUTS" "
$cc $o $CFLAGS $FE -c $F/stacktrace.c -o $d/stacktrace.o
$(both "$d/stacktrace" "$d/stacktrace.o" "$cc" "-lbacktrace -ldl")" ;;
	esac
	job "$v-mixed" "$d/mixed $d/mixed.pre" "$F/mixed.c $F/mixed_fi.c $F/mixed.h $INPUTS" "
$cc $o $CFLAGS $FE -c $F/mixed.c -o $d/mixed.o
$cc $o $CFLAGS $FI -c $F/mixed_fi.c -o $d/mixed_fi.o
$(both "$d/mixed" "$d/mixed.o $d/mixed_fi.o" "$cc")"
done
# One corner: linked with -pg (gcrt1.o), with the static archive, built both ways,
# and CALLPROF_ARGS on a -finstrument-functions build.
d=$P/one
mkdir -p "$d"
job gmon "$d/gmon $d/gmon.pre $d/gmon.clang.pre" "$F/gmon.c $INPUTS" "
gcc -O2 $CFLAGS -pg -mfentry $F/gmon.c -o $d/gmon $RT
gcc -O2 $CFLAGS -pg -mfentry $F/gmon.c -o $d/gmon.pre
clang -O2 $CFLAGS -pg -mfentry $F/gmon.c -o $d/gmon.clang.pre"
job static "$d/returns.static" "$F/returns.c $F/returns_avx.c $B/libcallprof.a $INPUTS" "
gcc -O2 $CFLAGS -pg -mfentry -c $F/returns.c -o $d/returns.o
gcc -O2 $CFLAGS -pg -mfentry -mavx -c $F/returns_avx.c -o $d/returns_avx.o
gcc -o $d/returns.static $d/returns.o $d/returns_avx.o $B/libcallprof.a $(pkg-config --libs libdw) -lelf -ldl -lpthread"
job twice "$d/twice" "$F/twice.c $INPUTS" "gcc -O2 $CFLAGS $FE $FI $F/twice.c -o $d/twice $RT"
job args-fi "$d/args.fi" "$F/args.c $INPUTS" "gcc -O2 $CFLAGS $FI $F/args.c -o $d/args.fi $RT"
job offcpu "$d/offcpu" "$TOP/tests/e2e/offcpu.c $INPUTS" "gcc -O2 $CFLAGS $FE $TOP/tests/e2e/offcpu.c -o $d/offcpu $RT -lpthread"
run_jobs

# ---- checks ---------------------------------------------------------------------------

# values FILE: the argument tuples and return values of the last dump, one a line,
# addresses that vary from run to run as ADDR, sorted.
values() { jq -r -f "$F/values.jq" "$dump" | sed 's/0x[0-9a-f]\{6,\}/ADDR/g' | sort >"$1"; }

# same_lines WHAT GOT EXPECTED: a problem with the first differences unless the files agree.
same_lines() {
	diff "$3" "$2" >"$W/diff" || problem "$1 differ from $(rel "$3"): $(head -n 6 "$W/diff" | tr '\n' ' ')"
}

# clean: the last run kept its counts whole (nothing resynchronised or unmatched).
clean() {
	want "resynced_frames, unmatched_exits" \
		"$(key '[.threads[] | .resynced_frames, .unmatched_exits] | unique')" "[0]"
}

case_returns() {
	begin "return values of every kind, tail calls, 256-bit vectors on a thread's first probe, $1 $2"
	run $2 $1 returns returns-$1-$2
	checked 0 "$F/returns.expect"
	want "the program's own checks" "$(cat "$out")" ok
	clean
	verdict
}

case_cancel() {
	begin "pthread_cancel and pthread_exit through hijacked frames run every destructor, $1 $2"
	run $2 $1 cancel cancel-$1-$2
	checked 0 "$F/cancel.expect"
	want "destructors" "$(cat "$out")" "destructors 10"
	verdict
}

# backtrace() and _Unwind_Backtrace give what they give without callprof; only
# __builtin_return_address(0) in a hijacked function sees the trampoline.
case_bt() {
	begin "backtrace() and _Unwind_Backtrace walk the real stack, $1 $2"
	run $2 $1 bt bt-$1-$2
	[ "$rc" -eq 0 ] || problem "exit status $rc: $(head -n 2 "$err" | tr '\n' ' ')"
	"$P/$1/bt.plain" >"$W/bt-$1-$2.plain"
	grep -v '^return address' "$W/bt-$1-$2.plain" >"$W/bt-$1-$2.want"
	grep -v '^return address' "$out" >"$W/bt-$1-$2.got"
	same_lines "backtraces" "$W/bt-$1-$2.got" "$W/bt-$1-$2.want"
	want "what __builtin_return_address(0) sees" "$(grep '^return address' "$out" | sort -u)" \
		"return address of b: callprof_return_trampoline"
	want "without callprof" "$(grep '^return address' "$W/bt-$1-$2.plain" | sort -u)" "return address of b: a"
	dumpchecked "$dump" /dev/null
	verdict
}

case_vf() {
	begin "vfork's child runs probed code: the parent's counts stay exact, the child's are nowhere, $1 $2"
	run $2 $1 vf vf-$1-$2
	checked 0 "$F/vf.expect"
	clean
	verdict
}

case_mixed() {
	begin "one tree across -pg -mfentry and -finstrument-functions code, a longjmp through both, $1 $2"
	run $2 $1 mixed mixed-$1-$2
	checked 0 "$F/mixed.expect"
	want "front ends of fe_leaf, fi_leaf" \
		"$(key '[.functions[] | select(.name == "fe_leaf" or .name == "fi_leaf") | .front_end] | sort')" \
		'["finstrument","mfentry"]'
	want "resynced_frames (fi_deep 4 and fe_jump, 10 jumps)" "$(key '.threads[0].resynced_frames')" 50
	verdict
}

case_args() {
	begin "CALLPROF_ARGS: integers of every width, enums, bool, char, floats, strings (NULL, long, unreadable), structs, eight arguments, variadic, recursion, every kind of return, $1 $2"
	RUN_ENV="CALLPROF_ARGS=widths,misc,structs,vformat,fact,ret_*"
	run $2 $1 args args-$1-$2
	checked 0 /dev/null
	[ -f "$dump" ] && values "$W/args-$1-$2.values" && same_lines "values" "$W/args-$1-$2.values" "$F/args.values"
	want "front_end of misc" "$(key '[.functions[] | select(.name == "misc") | .front_end]')" '["mfentry"]'
	want "calls of misc, captured" "$(key '[.functions[] | select(.name == "misc") | .args.calls]')" "[5]"
	# Each captured function's capture is measured (with a clock), no other's.
	case $CLOCK_ENV in
	*none) captured='[]' ;;
	*) captured=$(key '[.functions[] | select(.args and .args.calls > 0) | .name] | sort') ;;
	esac
	want "functions with capture_ns" "$(key '(.functions | map({key: (.id | tostring), value: .name}) | from_entries) as $n |
		[.threads[].functions[] | select(.capture_ns > 0) | $n[.fn | tostring]] | sort')" "$captured"
	verdict
	begin "CALLPROF_ARGS in C++: methods (this a pointer), references, enum class, a class passed by reference, $1 $2"
	RUN_ENV="CALLPROF_ARGS=counter::add*,counter::where*,by_ref*,length*"
	run $2 $1 args_cxx args-cxx-$1-$2
	checked 0 /dev/null
	[ -f "$dump" ] && values "$W/args-cxx-$1-$2.values" &&
		same_lines "values" "$W/args-cxx-$1-$2.values" "$F/args_cxx.values"
	verdict
}

# dead2(unused, x): GCC clones it with its own convention (refused); Clang keeps the
# name, drops `unused`, and DWARF says where x went.
case_clone() {
	begin "CALLPROF_ARGS on a function whose convention the optimiser changed, $1 $2"
	RUN_ENV="CALLPROF_ARGS=dead2*"
	run $2 $1 args_clone args-clone-$1-$2
	checked 0 /dev/null
	[ -f "$dump" ] || { verdict; return; }
	values "$W/args-clone-$1-$2.values"
	case $1 in
	gcc-O2) echo "dead2.constprop.0: not captured: a copy the compiler made of the function, whose calling convention is not its declaration's" ;;
	clang-O2) printf 'dead2 returned %s x1\n' 40 42 44 && printf 'dead2(?, %s) x1\n' 20 21 22 ;;
	*) printf 'dead2 returned %s x1\n' 40 42 44 && printf 'dead2(1, %s) x1\n' 20 21 22 ;;
	esac | sort >"$W/args-clone-$1-$2.want"
	same_lines "values" "$W/args-clone-$1-$2.values" "$W/args-clone-$1-$2.want"
	verdict
}

# libbacktrace (what libstdc++'s std::stacktrace is built on; Debian's GCC 12 has no
# std::stacktrace) names the real frames through hijacked returns.
case_stacktrace() {
	case $(cc_of $1) in gcc*) ;; *) return ;; esac
	begin "libbacktrace, std::stacktrace's library, names the real frames, $1 $2"
	run $2 $1 stacktrace stacktrace-$1-$2
	[ "$rc" -eq 0 ] || problem "exit status $rc: $(head -n 2 "$err" | tr '\n' ' ')"
	want "frames, and c's own return address" "$(tr '\n' ' ' <"$out")" \
		"c b a main return address of c: callprof_return_trampoline "
	verdict
}

# Signals aimed at the trampolines: the loop's calls exact, each run of the handler
# a call of in_handler (one inside a probe on a signal level), none dropped, nothing
# resynchronised or unmatched, the program's output and status unchanged.
case_sigtramp() {
	begin "signals inside the entry and exit trampolines, $1 $2"
	run $2 $1 sigtramp sigtramp-$1-$2
	set -- "$1" "$2" $(cat "$out")
	if [ "$3" != rounds ] || [ "$5" != handled ]; then
		problem "output: $(head -c 100 "$out")"
		verdict
		return
	fi
	rounds=$4 handled=$6 n=$(($4 * 20000))
	printf 'calls main 1\ncalls caller %s\nedge main caller %s\ncalls leaf %s\nedge caller leaf %s\n' \
		$n $n $n $n >"$W/sigtramp-$1-$2.expect"
	checked 0 "$W/sigtramp-$1-$2.expect"
	clean
	[ "$handled" -ge 2000 ] || [ "$rounds" -eq 1000 ] || problem "handled $handled times in $rounds rounds"
	want "handler runs: calls of in_handler, dropped enters" \
		"$(jq -c '([.functions[] | select(.name == "in_handler") | .id]) as $ids |
			[([.threads[].functions[] | select(.fn as $f | $ids | index($f)) | .calls] | add // 0),
			 ([.threads[].dropped_calls] | add)]' "$dump")" "[$handled,0]"
	verdict
}

for v in $VARIANTS; do
	for m in $MODES; do
		for kase in returns cancel bt vf mixed args clone sigtramp stacktrace; do
			case_$kase $v $m
		done
	done
done

# ---- one corner -------------------------------------------------------------------------

begin "the value profile's bound: a million distinct values, 16 entries, every call counted"
RUN_ENV="CALLPROF_ARGS=ident CALLPROF_ARGS_ENTRIES=16"
run link gcc-O2 args_bound args-bound
checked 0 /dev/null
want "calls, captured calls, entries kept, their counts summed" \
	"$(key '[(.threads[0].functions[] | select(.fn == '"$(fid ident)"') | .calls),
		(.functions[] | select(.name == "ident") | .args | .calls, (.tuples | length), ([.tuples[].calls] | add))]')" \
	"[1200000,1200000,16,1200000]"
want "the frequent value: its count and error" \
	"$(key '[.functions[] | select(.name == "ident") | .args.tuples[] | select(.values == ["-7"]) | .calls, .error]')" \
	"[200000,0]"
want "return values kept, their counts summed" \
	"$(key '[.functions[] | select(.name == "ident") | .args | (.returned | length), ([.returned[].calls] | add)]')" \
	"[16,1200000]"
# The capture's cost, outside ident's time, inside main's: taken out of main's time
# (each figure rounded to a nanosecond apart).
want "main's compensation takes out ident's capture" \
	"$(key '[.threads[0].functions[] | select(.fn == '"$(fid main)"') | .raw_inclusive_ns - .inclusive_ns] as [$cut] |
		[.threads[0].functions[] | select(.fn == '"$(fid ident)"') | .capture_ns] as [$capture] |
		$capture > 0 and $cut + 2 >= $capture')" true
verdict

# gprof's start-up and exit: without callprof a SIGPROF handler (signal 27: bit 26 of
# SigCgt) and gmon.out; with it, linked or preloaded, neither.
gmon_case() { # NAME MODE PROGRAM
	begin "$1"
	rm -rf "$W/gmon" && mkdir -p "$W/gmon"
	case $2 in
	bare) (cd "$W/gmon" && "$3") >"$W/gmon.out" 2>&1 ;;
	link) (cd "$W/gmon" && CALLPROF_OUTPUT="$W/gmon.json" "$3") >"$W/gmon.out" 2>&1 ;;
	preload) (cd "$W/gmon" && "$REC" record -o "$W/gmon.json" -- "$3") >"$W/gmon.out" 2>&1 ;;
	esac
	sig=$(sed -n 's/^SigCgt:[[:space:]]*//p' "$W/gmon.out")
	prof=$(( (0x${sig:-0} >> 26) & 1 ))
	if [ $2 = bare ]; then
		want "a SIGPROF handler, gmon.out" "$prof $(ls "$W/gmon")" "1 gmon.out"
	else
		want "a SIGPROF handler, files left in the directory" "$prof $(ls "$W/gmon" | tr '\n' ' ')" "0 "
		dump=$W/gmon.json
		dumpchecked "$dump" /dev/null
		want "calls of work" "$(calls work)" 100
	fi
	verdict
}
gmon_case "a -pg link without callprof starts a SIGPROF timer and writes gmon.out (the control)" bare "$P/one/gmon.pre"
gmon_case "a -pg link with callprof linked: no SIGPROF timer, no gmon.out" link "$P/one/gmon"
gmon_case "a -pg link under callprof record (GCC): no SIGPROF timer, no gmon.out" preload "$P/one/gmon.pre"
gmon_case "a -pg link under callprof record (Clang): no SIGPROF timer, no gmon.out" preload "$P/one/gmon.clang.pre"

begin "linked with the static archive (the linker's addr32 call of __fentry__)"
dump=$W/static.json
CALLPROF_OUTPUT=$dump "$P/one/returns.static" >"$W/static.out" 2>"$W/static.err"
rc=$? out=$W/static.out err=$W/static.err
checked 0 "$F/returns.expect"
want "the program's own checks" "$(cat "$out")" ok
want "called functions listed as uncalled" \
	"$(key '[.modules[].uncalled[]?.name] as $u | [.functions[].name | select(. as $n | $u | index($n))]')" "[]"
verdict

begin "CPU time: the hijacked returns read the CPU clock too (sleeps off the CPU, computing on it)"
dump=$W/offcpu.json
CALLPROF_OUTPUT=$dump "$P/one/offcpu" >"$W/offcpu.out" 2>"$W/offcpu.err"
rc=$? out=$W/offcpu.out err=$W/offcpu.err
checked 0 "$TOP/tests/e2e/offcpu.expect"
want "offcpu.jq's facts" "$(jq -c -f "$TOP/tests/e2e/offcpu.jq" "$dump")" "[true,true,4,true,true,2,true,true,true,0]"
verdict

begin "a function built with -finstrument-functions and -pg -mfentry both counts once"
dump=$W/twice.json
CALLPROF_OUTPUT=$dump "$P/one/twice" >"$W/twice.out" 2>"$W/twice.err"
rc=$? out=$W/twice.out err=$W/twice.err
checked 0 "$F/twice.expect"
verdict

begin "CALLPROF_ARGS on a -finstrument-functions build: one line says arguments need -pg -mfentry"
dump=$W/args-fi.json
CALLPROF_ARGS=misc,ret_char CALLPROF_OUTPUT=$dump "$P/one/args.fi" >"$W/args-fi.out" 2>"$W/args-fi.err"
want "exit status" $? 0
want "stderr" "$(cat "$W/args-fi.err")" \
	"callprof: CALLPROF_ARGS: misc is built with -finstrument-functions; arguments are captured only in code built with -pg -mfentry"
dumpchecked "$dump" /dev/null
want "why misc is not captured" "$(key '[.functions[] | select(.name == "misc") | .args.refused, .front_end]')" \
	'["built without -pg -mfentry: its arguments are not where a probe can read them","finstrument"]'
verdict

# Every clock, and sampled timing, on the trampoline's fast and slow exits: the same counts,
# the same values, each capture's cost measured wherever there is a clock.
for clock in CALLPROF_CLOCK=tsc-ordered CALLPROF_CLOCK=tsc-adaptive CALLPROF_CLOCK=monotonic \
	CALLPROF_CLOCK=none CALLPROF_TIMING=sampled; do
	CLOCK_ENV=$clock
	case_returns gcc-O2 link
	case_args clang-O2 preload
done
CLOCK_ENV=

begin "callprof merge of two -pg -mfentry dumps keeps their front-end, their fentry calls and their captured values, added up"
for i in 1 2; do
	RUN_ENV="CALLPROF_ARGS=misc,fact,ret_bool"
	run link gcc-O2 args args-merge-$i
	checked 0 /dev/null
done
for i in 1 2; do
	dump=$W/args-merge-$i.json
	values "$W/args-merge-$i.values"
done
"$B/callprof" merge -o "$W/args-merged.json" "$W/args-merge-1.json" "$W/args-merge-2.json" 2>"$W/merge.err"
want "merge's exit status" $? 0
dump=$W/args-merged.json
dumpchecked "$dump" /dev/null
values "$W/args-merged.values"
# summed FILE...: value lines with the counts of equal texts added up (the unreadable pointer
# differs from run to run: its tuples stay apart in the merge, equal once shown as ADDR)
summed() { awk '{ n = $NF; sub(/^x/, "", n); $NF = ""; c[$0] += n } END { for (t in c) print t "x" c[t] }' "$@" | sort; }
summed "$W/args-merge-1.values" "$W/args-merge-2.values" >"$W/args-twice.values"
summed "$W/args-merged.values" >"$W/args-merged-summed.values"
same_lines "merged values" "$W/args-merged-summed.values" "$W/args-twice.values"
want "equal tuples as one: fact(3), ret_bool's false" \
	"$(grep -c -e '^fact(3) x2$' -e '^ret_bool returned false x2$' "$W/args-merged.values")" 2
want "front_end of misc, fact" "$(key '[.functions[] | select(.name == "misc" or .name == "fact") | .front_end]')" \
	'["mfentry","mfentry"]'
want "calls captured of fact, misc, ret_bool" \
	"$(key '[.functions[] | select(.name == "misc" or .name == "fact" or .name == "ret_bool") | [.name, .args.calls]] | sort')" \
	'[["fact",10],["misc",10],["ret_bool",6]]'
want "fentry_calls of misc, both threads" \
	"$(key "[.threads[].functions[] | select(.fn == $(fid misc)) | .fentry_calls]")" "[5,5]"
want "calibration of the fentry calls kept" "$(key '.calibration | has("fentry_o_in_ns") and has("fentry_o_out_ns")')" \
	"$(jq -c '.calibration | has("fentry_o_in_ns") and has("fentry_o_out_ns")' "$W/args-merge-1.json")"
verdict

begin "CALLPROF_EXCLUDE on a -pg -mfentry program: the excluded function's calls attach to its caller"
RUN_ENV=CALLPROF_EXCLUDE=work
run link gcc-O2 vf vf-exclude
checked 0 /dev/null
want "calls of spawn, of work" "$(calls spawn) $(calls work)" "200 0"
verdict
