#!/bin/sh
# tests/libcalls: calls into libraries through patched jump slots (issue 13), with exact
# counts checked by dumpcheck: memcpy, qsort and its comparator, stdio, mutexes from four
# threads, the jump slots patched inside RELRO pages that are read-only again (every
# compiler and level, linked with -z now and preloaded by `callprof record`); each
# hazard (functions that never return or return twice, C++ exceptions thrown inside
# library functions, threads calling through a slot while it is patched, signal handlers
# calling library functions, fork, vfork and exec, dlclose of a patched module, a library
# calling another, vector arguments, a library that needs lazy binding);
# address equality and what goes unprobed (PIE or not, lazy or immediate binding); filters
# on library functions and modules; CALLPROF_LIBCALLS=0 and the static archive.
. "$TOP/tests/lib.sh"
set -u
T=$TOP/tests/libcalls
W=$B/tests/libcalls
DC=$B/tests/dumpcheck
REC=$B/callprof
rm -rf "$W"
mkdir -p "$W"
command -v jq >/dev/null || { fail "libcalls" "jq is missing (make check installs it)"; exit 1; }
if ! make -s -C "$TOP" B="$B" "$DC" "$B/libcallprof.so" "$B/libcallprof.a" "$REC" >"$W/make.log" 2>&1; then
	fail "build the runtime" "$(tail -n 3 "$W/make.log" | tr '\n' ' ')"
	exit 1
fi

# ---- building ------------------------------------------------------------------------
# lc_build NAME COMMAND...: runs the compiler command, failing test "build NAME" if it fails.
lc_build() {
	_n=$1
	shift
	"$@" 2>>"$W/build.log" || fail "build $_n" "$(tail -n 2 "$W/build.log" | tr '\n' ' ')"
}

CFLAGS="-g -finstrument-functions -D_GNU_SOURCE -I$TOP/tests/e2e"
LINK="-L$B -Wl,-z,now -lcallprof -Wl,-rpath,$B" # as pkg-config's --libs has it
LIBS="-L$W -Wl,-rpath,$W"
# VARIANTS, cc_of, cxx_of and level_of: the matrix of tests/matrix.mk, through tests/lib.sh.

# Uninstrumented libraries and the instrumented plugins, once.
lc_build liblcaddr.so gcc -O2 -g -fPIC -shared "$T/liblcaddr.c" -o "$W/liblcaddr.so"
lc_build liblccopy.so gcc -O2 -g -fPIC -shared "$T/liblccopy.c" -o "$W/liblccopy.so"
lc_build liblcu.so gcc -O2 -g -fPIC -shared "$T/liblcu.c" -o "$W/liblcu.so"
lc_build liblcvec.so gcc -O2 -g -fPIC -shared -mavx "$T/liblcvec.c" -o "$W/liblcvec.so"
lc_build liblcplug.so gcc -O2 -fPIC -shared $CFLAGS "$T/liblcplug.c" -o "$W/liblcplug.so" -llcu $LIBS
lc_build liblcracer.so gcc -O2 -fPIC -shared $CFLAGS "$T/liblcracer.c" -o "$W/liblcracer.so" -lpthread
lc_build liblcmiss.so gcc -O2 -fPIC -shared $CFLAGS "$T/liblcmiss.c" -o "$W/liblcmiss.so" -Wl,-z,lazy
lc_build dlmiss gcc -O2 $CFLAGS "$T/dlmiss.c" -o "$W/dlmiss" $LINK -ldl
lc_build dlmiss.pre gcc -O2 $CFLAGS "$T/dlmiss.c" -o "$W/dlmiss.pre" -ldl

# Each program in each variant: P-V linked with the runtime, P-V.pre without it.
for v in $VARIANTS; do
	cc=$(cc_of $v) cxx=$(cxx_of $v) o=$(level_of $v)
	for p in counts hazards race dl; do
		lc_build $p-$v $cc $o $CFLAGS "$T/$p.c" -o "$W/$p-$v" $LINK -lpthread -ldl
		lc_build $p-$v.pre $cc $o $CFLAGS "$T/$p.c" -o "$W/$p-$v.pre" -lpthread -ldl
	done
	lc_build vec-$v $cc $o -mavx $CFLAGS "$T/vec.c" -o "$W/vec-$v" $LINK -llcvec $LIBS -lpthread
	lc_build vec-$v.pre $cc $o -mavx $CFLAGS "$T/vec.c" -o "$W/vec-$v.pre" -llcvec $LIBS -lpthread
	lc_build hazardsxx-$v $cxx $o $CFLAGS "$T/hazards.cc" -o "$W/hazardsxx-$v" $LINK
	lc_build hazardsxx-$v.pre $cxx $o $CFLAGS "$T/hazards.cc" -o "$W/hazardsxx-$v.pre"
done
# addr.c: PIE or not, bound at start-up (-z now) or lazily.
for pie in pie nopie; do
	pflags=
	[ $pie = nopie ] && pflags="-fno-pie -no-pie"
	for bind in now lazy; do
		bflags=-Wl,-z,now
		[ $bind = lazy ] && bflags=-Wl,-z,lazy
		lc_build addr-$pie-$bind gcc -O2 $pflags $CFLAGS "$T/addr.c" -o "$W/addr-$pie-$bind" \
			-L"$B" $bflags -lcallprof -Wl,-rpath,"$B" -llcaddr -llccopy $LIBS
		lc_build addr-$pie-$bind.pre gcc -O2 $pflags $CFLAGS "$T/addr.c" -o "$W/addr-$pie-$bind.pre" \
			$bflags -llcaddr -llccopy $LIBS
	done
done
lc_build counts-static gcc -O2 $CFLAGS "$T/counts.c" -o "$W/counts-static" "$B/libcallprof.a" \
	$(pkg-config --libs libdw) -lelf -ldl -lpthread

# ---- one run and its checks ------------------------------------------------------------
# A test gathers its problems in $W/problems; lc_begin starts it, lc_verdict reports it.
lc_begin() {
	tname=$1
	: >"$W/problems"
}
lc_problem() { printf '%s\n' "$*" >>"$W/problems"; }
lc_verdict() {
	if [ -s "$W/problems" ]; then
		sed "s|^|# $tname: |" "$W/problems"
		fail "$tname" "$(head -n 3 "$W/problems" | tr '\n' ' ')"
	else
		ok "$tname"
	fi
}

# lc_run MODE BIN NAME [VAR=VALUE...] -- [ARGS...]: runs $W/BIN linked (MODE link) or
# $W/BIN.pre under `callprof record` (MODE pre), its dump in $W/NAME.json (or $LC_DUMP);
# sets $dump, $out, $err and $rc.
lc_run() {
	_mode=$1 _bin=$W/$2 _name=$3
	shift 3
	_env=
	while [ $# -gt 0 ] && [ "$1" != -- ]; do _env="$_env $1"; shift; done
	[ $# -gt 0 ] && shift
	dump=${LC_DUMP:-$W/$_name.json} out=$W/$_name.out err=$W/$_name.err
	LC_DUMP=
	rm -f "$dump"
	case $_mode in
	link) env $_env CALLPROF_OUTPUT="$dump" timeout 120 "$_bin" "$@" ;;
	pre) env $_env timeout 120 "$REC" record -o "$dump" -- "$_bin.pre" "$@" ;;
	esac >"$out" 2>"$err"
	rc=$?
}

# lc_dump EXPECT: the last run's dump exists and meets every invariant and EXPECT (a file).
lc_dump() {
	if [ ! -f "$dump" ]; then
		lc_problem "no dump (status $rc: $(head -n 2 "$err" | tr '\n' ' '))"
		return 1
	fi
	_o=$("$DC" "$dump" "$1" 2>&1) || lc_problem "$(printf '%s\n' "$_o" | sed "s|$W/||g" | head -n 5)"
}

# lc_status WANT: the last run ended with WANT and printed nothing on stderr.
lc_status() {
	[ "$rc" -eq "$1" ] || lc_problem "exit status $rc, expected $1: $(head -n 2 "$err" | tr '\n' ' ')"
	[ -s "$err" ] && lc_problem "stderr: $(head -n 2 "$err" | tr '\n' ' ')"
}

# lc_key FILTER: jq FILTER on the last dump, one line.
lc_key() { jq -c "$1" "$dump" 2>&1 | tr '\n' ' ' | sed 's/ $//'; }

# lc_want WHAT GOT EXPECTED
lc_want() { [ "$2" = "$3" ] || lc_problem "$1: $2, expected $3"; }

# lc_expect NAME LINES...: an expectation file $W/NAME.expect from the lines.
lc_expect() {
	_f=$W/$1.expect
	shift
	printf '%s\n' "$@" >"$_f"
	echo "$_f"
}

# The calls of function NAME summed over the threads of the last dump.
lc_calls() { lc_key "[.functions[] | select(.name == \"$1\") | .id] as \$ids |
	[.threads[].functions[] | select(.fn as \$f | \$ids | index(\$f)) | .calls] | add // 0"; }

# ---- exact counts ---------------------------------------------------------------------------
for v in $VARIANTS; do
	for m in link pre; do
		lc_begin "memcpy, qsort and its comparator, stdio, mutexes from 4 threads, $v $m"
		lc_run $m counts-$v counts-$v-$m -- "$W/counts-$v-$m.txt"
		lc_status 0
		n=$(cut -d' ' -f1 "$out")
		cat "$T/counts.expect" - >"$W/counts-$v-$m.expect" <<-EOF
			calls cmp $n
			edge qsort cmp $n
			path main sort_them qsort cmp $n
		EOF
		lc_dump "$W/counts-$v-$m.expect"
		lc_want library_probes "$(lc_key .library_probes)" '"on"'
		lc_want "the program's slots, none lazy" \
			"$(lc_key '[.modules[] | select(.library_calls) | .library_calls | .probed == .slots, .lazy]')" '[true,[]]'
		# Linked with -z now, every jump slot lies in RELRO, read-only again once patched;
		# the preloaded program is linked lazily: its slots lie outside RELRO.
		all=$(cut -d' ' -f5 "$out")
		lc_want "the program's jump slots in its RELRO region, of all, its pages" "$(cut -d' ' -f3- "$out")" \
			"relro $([ $m = link ] && echo "$all" || echo 0) $all ro"
		lc_want "unmatched_exits, resynced_frames" \
			"$(lc_key '[.threads[] | .unmatched_exits, .resynced_frames] | unique')" '[0]'
		lc_want "libc's coverage not listed" \
			"$(lc_key '[.modules[] | select(.path | test("libc.so")) | has("uncalled")]')" '[false]'
		lc_verdict
	done
done

# ---- functions that never return, return twice, or read their return address --------------
# hazard NAME VARIANT MODE EXPECTATIONS...: one run of hazards.c and its dump's checks; the
# caller may add checks, then reports with lc_verdict.
hazard() {
	_h=$1 _v=$2 _m=$3
	shift 3
	lc_begin "hazard $_h, $_v $_m"
	lc_run $_m hazards-$_v hz-$_h-$_v-$_m -- "$_h"
	lc_status 0
	lc_dump "$(lc_expect hz-$_h-$_v-$_m "$@")"
}

for v in gcc-O2 clang-O0; do
	for m in link pre; do
		hazard exit $v $m "calls exit 1" "kind exit counted 1" "edge c exit 1" "library exit libc.so.6" \
			"path main a b c exit 1"
		lc_verdict
		# The runtime interposes _exit (spawn.c) and writes the profile with the call open.
		hazard _exit $v $m "calls _exit 1" "kind _exit counted 1" "edge c _exit 1" \
			"library _exit libc.so.6"
		lc_verdict
		hazard abort $v $m "calls abort 1" "kind abort counted 1" "edge c abort 1" "edge c on_abort 1" \
			"calls siglongjmp 1" "edge on_abort siglongjmp 1" "calls __sigsetjmp 1" "kind __sigsetjmp counted 1"
		lc_verdict
		hazard quick_exit $v $m "calls quick_exit 1" "kind quick_exit counted 1" "edge c quick_exit 1" \
			"path main a b c at_quick dump_now dlsym 1"
		lc_verdict
		hazard pthread_exit $v $m "threads 2" "calls pthread_exit 1" "kind pthread_exit counted 1" \
			"edge b pthread_exit 1" "path thread_a a b pthread_exit 1" "calls c 0"
		lc_verdict
		hazard exec $v $m "calls execl 1" "calls execvp 1" "calls execve 1" "calls execv 1" \
			"kind execl counted 1" "kind execvp counted 1" "kind execve counted 1" "kind execv counted 1" \
			"edge c execl 1" "edge c execvp 1" "edge c execve 1" "edge c execv 1" "library execve libc.so.6"
		lc_verdict
		hazard context $v $m "calls getcontext 2" "kind getcontext counted 2" "calls setcontext 1" \
			"calls makecontext 1" "calls swapcontext 2" "kind swapcontext counted 2" "calls coroutine 1" \
			"edge contexts getcontext 2"
		lc_verdict
		hazard jump $v $m "calls qsort 11" "kind qsort library 11" "calls cmp_jump 10" "edge qsort cmp_jump 10" \
			"calls longjmp 10" "edge cmp_jump longjmp 10" "calls _setjmp 10" "edge jumps _setjmp 10" \
			"path main jumps qsort cmp_int 17"
		lc_want "resynced_frames (the qsort and cmp_jump frames the jumps left), unmatched_exits" \
			"$(lc_key '[.threads[0] | .resynced_frames, .unmatched_exits]')" '[20,0]'
		lc_verdict
		hazard vfork $v $m "calls vfork 1" "kind vfork counted 1" "edge vforked vfork 1" "calls execl 0" \
			"calls waitpid 1"
		lc_verdict
		hazard dlsym $v $m "calls dlsym 2" "kind dlsym counted 2" "edge finder dlsym 2"
		lc_want "dlsym(RTLD_NEXT) from the program" "$(cat "$out")" "next is the first"
		lc_verdict

		# fork: the child returns through the hijacked fork and writes its own dump;
		# the frames open at the fork (main a b fork) are in it with no calls,
		# the parent's dump counts them (the two add up to one call each).
		lc_begin "fork from a library probe, the child's dump beside the parent's, $v $m"
		mkdir -p "$W/fork-$v-$m"
		LC_DUMP="$W/fork-$v-$m/out.%p.json" lc_run $m hazards-$v fork-$v-$m -- fork
		lc_status 0
		child=$(head -n 1 "$out")
		for f in "$W/fork-$v-$m"/out.*.json; do
			[ -f "$f" ] || continue
			dump=$f
			case $f in
			*".$child.json") lc_dump "$(lc_expect fork-$v-$m-child "calls fork 0" "kind fork library 0" \
				"calls main 0" "path main a b fork 0" "edge b exit 1" "calls c 0")" ;;
			*) lc_dump "$(lc_expect fork-$v-$m-parent "calls fork 1" "kind fork library 1" \
				"edge b fork 1" "edge b waitpid 1" "calls c 1")" ;;
			esac
		done
		lc_want "dumps written" "$(ls "$W/fork-$v-$m" | wc -l)" 2
		lc_verdict

		# signals: raise's handler nests below raise; a timer's handler that lands inside a
		# probe is dropped whole (on_prof and its strlen), so 2 x runs = on_prof + its
		# strlen + dropped_in_signal.
		lc_begin "signal handlers calling library functions, $v $m"
		lc_run $m hazards-$v sig-$v-$m -- signal
		lc_status 0
		runs=$(head -n 1 "$out")
		lc_dump "$(lc_expect sig-$v-$m "calls raise 100" "edge raise on_usr1 100" "edge on_usr1 strlen 300" \
			"edge spin strlen 1000000" "library strlen libc.so.6")"
		got=$(lc_key '. as $d | [.threads[0] | .dropped_in_signal,
			([.edges[] | select($d.functions[.callee].name == "on_prof") | .calls] | add // 0),
			([.edges[] | select(.caller != null and $d.functions[.caller].name == "on_prof") | .calls] | add // 0)] | add')
		lc_want "on_prof + its strlen + dropped_in_signal" "$got" "$((2 * ${runs:-0}))"
		echo "# $tname: $runs timer runs"
		lc_verdict
	done
done

# ---- C++ exceptions thrown inside library functions --------------------------------------------
for v in $VARIANTS; do
	for m in link pre; do
		lc_begin "exceptions from operator new[], std::stoi, vector::at, throw and rethrow, $v $m"
		lc_run $m hazardsxx-$v exc-$v-$m
		lc_status 0
		lc_want "caught" "$(cat "$out")" "caught 100"
		new='"operator new[](unsigned long)"' inval='"std::__throw_invalid_argument(char const*)"'
		range='"std::__throw_out_of_range_fmt(char const*, ...)"'
		lc_dump "$(lc_expect exc-$v-$m "calls allocate() 20" "calls $new 20" "kind $new library 20" \
			"edge allocate() $new 20" "calls $inval 20" "kind $inval counted 20" "calls parse() 20" \
			"calls $range 20" "kind $range counted 20" "calls index() 20" \
			"calls __cxa_throw 40" "kind __cxa_throw counted 40" "edge thrower() __cxa_throw 40" \
			"calls __cxa_rethrow 40" "kind __cxa_rethrow counted 40" "edge rethrower() __cxa_rethrow 40" \
			"calls rethrow() 40" "calls rethrower() 40" "calls thrower() 40" \
			"edge rethrower() _Unwind_Resume 40")"
		lc_want unmatched_exits "$(lc_key '.threads[0].unmatched_exits')" 0
		lc_want "_Unwind_Resume all counted" \
			"$(lc_key '. as $d | [.threads[0].functions[] | select($d.functions[.fn].name == "_Unwind_Resume") | .calls == .counted_calls] | unique')" \
			'[true]'
		lc_verdict
	done
done

# ---- threads, dlclose, vector registers ---------------------------------------------------------
for v in gcc-O2 clang-O0; do
	for m in link pre; do
		lc_begin "a thread calls through a jump slot while dlopen patches it, $v $m"
		lc_run $m race-$v race-$v-$m -- "$W/liblcracer.so"
		lc_status 0
		total=$(sed -n 's/^calls \([0-9]*\) wrong 0$/\1/p' "$out")
		[ -n "$total" ] || lc_problem "wrong results: $(cat "$out")"
		lc_dump "$(lc_expect race-$v-$m "calls measure ${total:-0}")"
		n=$(lc_calls strlen)
		[ "$n" -ge 100000 ] 2>/dev/null && [ "$n" -le "${total:-0}" ] ||
			lc_problem "strlen counted $n times: expected from 100000 (after dlopen) to ${total:-0} (all)"
		lc_want "unmatched_exits, resynced_frames" \
			"$(lc_key '[.threads[] | .unmatched_exits, .resynced_frames] | unique')" '[0]'
		echo "# $tname: $n of $total calls probed"
		lc_verdict

		lc_begin "dlopen and dlclose of a patched library 100 times, a library calling another, an IFUNC from both, $v $m"
		lc_run $m dl-$v dl-$v-$m -- "$W/liblcplug.so"
		lc_status 0
		lc_dump "$(lc_expect dl-$v-$m "calls plug_work 100" "calls strdup 100" "calls free 100" \
			"edge plug_work strdup 100" "library strdup libc.so.6" "calls u_work 100" \
			"library u_work liblcu.so" "edge plug_work u_work 100" "calls memcpy 0" "calls dlopen 100" \
			"calls dlclose 100" "library dlopen libc.so.6" "calls strlen 200" "edge main strlen 100" \
			"edge plug_work strlen 100" "library strlen libc.so.6")"
		lc_want "functions named strlen (the program's and the plugin's calls share one)" \
			"$(lc_key '[.functions[] | select(.name == "strlen")] | length')" 1
		lc_verdict

		lc_begin "__m256d arguments and results through library probes, a thread's first probe too, $v $m"
		if ! grep -qw avx /proc/cpuinfo; then
			skip "$tname" "no AVX on this machine"
			continue
		fi
		lc_run $m vec-$v vec-$v-$m
		lc_status 0
		lc_want "results" "$(cat "$out" | tr '\n' ' ')" "sum 10 twice 20 sum 10 twice 20 "
		lc_dump "$(lc_expect vec-$v-$m "calls vsum 2" "calls vtwice 2" "library vsum liblcvec.so")"
		lc_verdict
	done
done

# ---- a library that needs lazy binding -------------------------------------------------------------
# Linked, the runtime's dlopen falls back to RTLD_LAZY: its slots stay lazy and are listed.
# Under `callprof record`, LD_BIND_NOW set empty keeps lazy binding possible (record leaves it).
for m in link pre; do
	lc_begin "dlopen(RTLD_LAZY) of a library with a symbol nothing defines, $m"
	if [ $m = link ]; then
		lc_run link dlmiss dlmiss-link -- "$W/liblcmiss.so"
	else
		lc_run pre dlmiss dlmiss-pre LD_BIND_NOW= -- "$W/liblcmiss.so"
	fi
	lc_status 0
	lc_dump "$(lc_expect dlmiss-$m "calls miss_present 1" "calls strlen 0" "calls miss_absent 0" \
		"unprobed liblcmiss.so lazy lc_defined_nowhere" "unprobed liblcmiss.so lazy strlen")"
	lc_verdict
done

# ---- address equality; what goes unprobed: PIE, lazy binding -------------------------------------
# In a PIE the address taken and the calls share a GOT entry (through_got: not probed); in a
# non-PIE program the calls go through its PLT and are probed.  Linked lazily and run without
# `callprof record`, the slots are not bound at start-up: none is probed, each is listed.
for pie in pie nopie; do
	for bind in now lazy; do
		for m in link pre; do
			lc_begin "address equality and unprobed calls, $pie, $bind binding, $m"
			lc_run $m addr-$pie-$bind addr-$pie-$bind-$m
			lc_status 0
			lc_want "&memcpy in the program and in a library" "$(cat "$out")" EQUAL
			lazy=$([ $bind = lazy ] && [ $m = link ] && echo 1 || echo 0)
			prog=addr-$pie-$bind$([ $m = pre ] && echo .pre)
			if [ $lazy = 1 ]; then
				set -- "calls lib_copy 0" "unprobed $prog lazy lib_copy" "absent memcpy"
			elif [ $pie = pie ]; then
				set -- "calls lib_copy 50" "library lib_copy liblccopy.so" "absent memcpy" \
					"unprobed $prog through_got memcpy"
			else
				set -- "calls lib_copy 50" "library lib_copy liblccopy.so" "calls memcpy 10" \
					"edge main memcpy 10" "library memcpy libc.so.6"
			fi
			lc_dump "$(lc_expect addr-$pie-$bind-$m "calls main 1" "edge lib_copy memcpy 0" "$@")"
			lc_verdict
		done
	done
done

# ---- filters, CALLPROF_LIBCALLS=0, the static archive ----------------------------------------------
# filtered NAME MODE TAG SETTING EXPECTATIONS...: counts.c under the filter SETTING; @N in
# an expectation stands for the comparator's calls.
filtered() {
	lc_begin "$1, $2"
	lc_run $2 counts-gcc-O2 filt-$3-$2 "$4" -- /dev/null
	lc_status 0
	n=$(cut -d' ' -f1 "$out")
	_name=filt-$3-$2
	shift 4
	lc_expect $_name "calls cmp $n" "$@" >/dev/null
	sed -i "s/@N/$n/" "$W/$_name.expect"
	lc_dump "$W/$_name.expect"
	lc_verdict
}
for m in link pre; do
	filtered "CALLPROF_EXCLUDE=libc.so.6: no library function of libc" $m libc CALLPROF_EXCLUDE=libc.so.6 \
		"absent memcpy" "absent qsort" "edge sort_them cmp @N" "calls copy 1000" "calls worker 4"
	filtered "CALLPROF_EXCLUDE=qsort: the comparator attaches to sort_them" $m qsort CALLPROF_EXCLUDE=qsort \
		"absent qsort" "edge sort_them cmp @N" "calls memcpy 1000" "calls copy 1000"
	filtered "CALLPROF_INCLUDE=main,copy,memcpy,sort_them,cmp" $m include \
		CALLPROF_INCLUDE=main,copy,memcpy,sort_them,cmp "calls memcpy 1000" "absent qsort" "absent fopen" \
		"absent worker" "edge sort_them cmp @N"
	filtered "CALLPROF_EXCLUDE=mem*: a glob on library function names" $m memglob 'CALLPROF_EXCLUDE=mem*' \
		"absent memcpy" "calls qsort 1" "calls copy 1000"
	lc_begin "CALLPROF_LIBCALLS=0: no library function, $m"
	lc_run $m counts-gcc-O2 nolib-$m CALLPROF_LIBCALLS=0 -- /dev/null
	lc_status 0
	n=$(cut -d' ' -f1 "$out")
	lc_dump "$(lc_expect nolib-$m "calls copy 1000" "absent memcpy" "absent qsort" "edge sort_them cmp $n")"
	lc_want library_probes "$(lc_key .library_probes)" '"off"'
	lc_want "library functions" "$(lc_key '[.functions[] | select(.library)] | length')" 0
	lc_verdict
done
lc_begin "the static archive: library probes unavailable, counts exact"
CALLPROF_OUTPUT=$W/static.json "$W/counts-static" /dev/null >"$W/static.out" 2>"$W/static.err"
rc=$? dump=$W/static.json err=$W/static.err
lc_status 0
n=$(cut -d' ' -f1 "$W/static.out")
lc_dump "$(lc_expect static "calls copy 1000" "absent memcpy" "edge sort_them cmp $n")"
lc_want library_probes "$(lc_key .library_probes)" '"unavailable"'
lc_verdict
