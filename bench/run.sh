#!/bin/sh
# bench/run.sh: callprof's benchmarks (make bench): probe cost against other
# profilers, accuracy of the compensated times against uninstrumented runs, and
# the cost of the dump and the report as programs grow.  Writes bench/RESULTS.md.
#
# Knobs: BENCH_QUICK=1 (a short run: fewer rounds, smaller workloads; 2: a smoke run for tests/bench),
# BENCH_RESULTS=FILE (where the results go), B=DIR (the build directory).
# Scratch files go to $B/bench; nothing outside it and RESULTS.md is written.
set -eu

. "$(dirname "$0")/paths.sh"
RESULTS=${BENCH_RESULTS:-$S/RESULTS.md}
QUICK=${BENCH_QUICK:-0}
GCC=${BENCH_GCC:-gcc}
CLANG=${BENCH_CLANG:-clang}

OVERLAP_CALLS=200000
if [ "$QUICK" = 2 ]; then
	# A smoke run (tests/bench): every step once, on inputs too small to measure anything.
	ROUNDS=1 ACC_RUNS=1 SCALE_NS="100" FIB_ARGS="20 1" WIDE_ARGS=200 DEMO_ARGS=2000 OVERLAP_CALLS=2000
	SPREAD_NS="1 64" SPREAD_ITER=20000
elif [ "$QUICK" = 1 ]; then
	ROUNDS=3 ACC_RUNS=3 SCALE_NS="100 1000" FIB_ARGS="30 1" WIDE_ARGS=20000 DEMO_ARGS=100000
	SPREAD_NS="1 64 1024 8192" SPREAD_ITER=1000000
else
	ROUNDS=11 ACC_RUNS=7 SCALE_NS="100 1000 10000" FIB_ARGS="30 2" WIDE_ARGS=40000 DEMO_ARGS=200000
	SPREAD_NS="1 64 1024 8192" SPREAD_ITER=4000000
fi
WARMUP=1
# The clocks the accuracy and overlap benchmarks compare: the default first.
ACC_CLOCKS="tsc tsc-adaptive tsc-ordered"
# The accuracy benchmark also runs sampled timing (issue 14's target: every phase within 10%).
ACC_MODES="$ACC_CLOCKS sampled"
# The same flags for every variant of fib and wide; -fno-inline and
# -fno-optimize-sibling-calls keep every call a real call in every build.
MICRO_FLAGS="-O2 -fno-optimize-sibling-calls -fno-inline"
# The demo is built the way a user would build it (inlining allowed).
DEMO_FLAGS="-O2 -fno-optimize-sibling-calls"
XRAY_FLAGS="-fxray-instrument -fxray-instruction-threshold=1 -fxray-modes=xray-basic,xray-profiling"

CMDLOG=$W/commands.txt
NOTES=$W/notes.txt

say() { printf '  BENCH   %s\n' "$*"; }
note() { printf '%s\n' "$*" >> "$NOTES"; say "note: $*"; }
# Runs a command and records it for RESULTS.md.
x() {
	printf '%s\n' "$*" >> "$CMDLOG"
	"$@"
}

setup() {
	# The real programs' sources and builds (bench/real.sh) are kept: they are cached.
	mkdir -p "$W"
	find "$W" -mindepth 1 -maxdepth 1 ! -name src ! -name real -exec rm -rf {} +
	mkdir -p "$W/lib" "$W/run" "$W/probe" "$W/acc" "$W/overlap" "$W/spread" "$W/scale"
	: > "$CMDLOG"
	: > "$NOTES"
	sh "$S/deps.sh" || true
	# A private copy of the runtime: others may rebuild build/ while this runs.
	if [ ! -f "$B/libcallprof.so" ]; then
		echo "bench: $B/libcallprof.so is missing: run make first" >&2
		exit 1
	fi
	# The library with its soname's link (libcallprof.so.0), which the programs linked with it need.
	cp -P "$B"/libcallprof.so* "$B/libcallprof.a" "$W/lib/"
	HAVE_UFTRACE=0 HAVE_XRAY=0
	command -v uftrace >/dev/null 2>&1 && HAVE_UFTRACE=1
	[ $HAVE_UFTRACE = 1 ] || note "uftrace is not installed: its rows are left out"
	if command -v "$CLANG" >/dev/null 2>&1 &&
		x "$CLANG" -O2 -c "$S/xray_profiling.c" -o "$W/xray_profiling.o" &&
		printf 'int main(void){return 0;}\n' > "$W/xray_try.c" &&
		"$CLANG" $XRAY_FLAGS "$W/xray_try.c" -o "$W/xray_try" 2>/dev/null; then
		HAVE_XRAY=1
	else
		note "clang with XRay's runtime is not available: the XRay rows are left out"
	fi
	x "$GCC" -O2 -Wall -o "$W/timeit" "$S/timeit.c"
	# shellcheck disable=SC2046
	x "$GCC" -O2 -Wall -o "$W/dumpq" "$S/dumpq.c" $(pkg-config --cflags --libs json-c)
	x "$GCC" -O2 -c "$S/hooks_empty.c" -o "$W/hooks_empty.o"
	x "$GCC" -O2 -c "$S/hooks_tsc.c" -o "$W/hooks_tsc.o"
	x "$GCC" -O2 -c "$S/mainwrap.c" -o "$W/mainwrap.o"
	# The same no-op hooks in a shared library: called through the PLT, as callprof's are.
	mkdir -p "$W/hookso"
	x "$GCC" -O2 -shared -fPIC "$S/hooks_empty.c" -o "$W/hookso/libhooksempty.so"
}

# build_variants NAME FLAGS SRC...: every variant of one workload into $W/probe/NAME/.
# The instrumented objects are compiled once and linked four ways, so the
# empty-hook, TSC-hook, callprof and uftrace builds run the very same code.
# Every build gets mainwrap.o, which times main() itself.
build_variants() {
	name=$1 flags=$2
	shift 2
	d=$W/probe/$name
	mw="$W/mainwrap.o -Wl,--wrap=main"
	mkdir -p "$d/o"
	say "building $name"
	x "$GCC" $flags "$@" $mw -o "$d/plain"
	objs=""
	for src in "$@"; do
		o=$d/o/$(basename "$src" .c).o
		x "$GCC" $flags -finstrument-functions -c "$src" -o "$o"
		objs="$objs $o"
	done
	x "$GCC" $objs $mw "$W/hooks_empty.o" -o "$d/empty"
	x "$GCC" $objs $mw -L"$W/hookso" -Wl,-rpath,"$W/hookso" -lhooksempty -o "$d/empty-so"
	x "$GCC" $objs $mw "$W/hooks_tsc.o" -o "$d/tsc"
	x "$GCC" $objs $mw -L"$W/lib" -Wl,-rpath,"$W/lib" -lcallprof -o "$d/callprof"
	# shellcheck disable=SC2046
	x "$GCC" $objs $mw "$W/lib/libcallprof.a" $(pkg-config --libs libdw) -lelf -ldl -lpthread \
		-o "$d/callprof-static"
	x "$GCC" $objs $mw -o "$d/fi"
	x "$GCC" $flags -pg "$@" $mw -o "$d/pg"
	# callprof's -pg -mfentry front-end: the same sources compiled for it, linked like callprof's
	# builds, and linked with nothing (glibc's __fentry__, which returns at once: its floor).
	fobjs=""
	for src in "$@"; do
		o=$d/o/$(basename "$src" .c).fentry.o
		x "$GCC" $flags -pg -mfentry -c "$src" -o "$o"
		fobjs="$fobjs $o"
	done
	x "$GCC" $fobjs $mw -L"$W/lib" -Wl,-rpath,"$W/lib" -lcallprof -o "$d/fentry"
	# shellcheck disable=SC2046
	x "$GCC" $fobjs $mw "$W/lib/libcallprof.a" $(pkg-config --libs libdw) -lelf -ldl -lpthread \
		-o "$d/fentry-static"
	x "$GCC" $fobjs $mw -o "$d/fentry-glibc"
	if [ $HAVE_XRAY = 1 ]; then
		x "$CLANG" $flags "$@" $mw -o "$d/clang"
		# Probes only the functions left after inlining, as XRay instruments: its call count.
		x "$CLANG" $flags -finstrument-functions-after-inlining "$@" $mw -L"$W/lib" -Wl,-rpath,"$W/lib" \
			-lcallprof -o "$d/clang-after-inlining"
		x "$CLANG" $flags $XRAY_FLAGS "$@" $mw -o "$d/xray"
		x "$CLANG" $flags $XRAY_FLAGS "$@" $mw "$W/xray_profiling.o" -o "$d/xrayprof"
	fi
}

# variant_cmds NAME ARGS: timeit command lines for one workload's variants.
variant_cmds() {
	d=$W/probe/$1 r=$W/run a=$2 z=""
	printf 'plain%s\t%s %s\n' "$z" "$d/plain" "$a"
	printf 'empty%s\t%s %s\n' "$z" "$d/empty" "$a"
	printf 'empty-so%s\t%s %s\n' "$z" "$d/empty-so" "$a"
	printf 'tsc%s\t%s %s\n' "$z" "$d/tsc" "$a"
	printf 'callprof%s\tCALLPROF_OUTPUT=%s %s %s\n' "$z" "$r/cp.json" "$d/callprof" "$a"
	printf 'callprof-nocpu%s\tCALLPROF_CPU=0 CALLPROF_OUTPUT=%s %s %s\n' "$z" "$r/cpnc.json" "$d/callprof" "$a"
	printf 'callprof-none%s\tCALLPROF_CLOCK=none CALLPROF_OUTPUT=%s %s %s\n' "$z" "$r/cpn.json" "$d/callprof" "$a"
	printf 'callprof-adaptive%s\tCALLPROF_CLOCK=tsc-adaptive CALLPROF_OUTPUT=%s %s %s\n' "$z" "$r/cpa.json" "$d/callprof" "$a"
	printf 'callprof-ordered%s\tCALLPROF_CLOCK=tsc-ordered CALLPROF_OUTPUT=%s %s %s\n' "$z" "$r/cpo.json" "$d/callprof" "$a"
	printf 'callprof-sampled%s\tCALLPROF_TIMING=sampled CALLPROF_OUTPUT=%s %s %s\n' "$z" "$r/cpsm.json" "$d/callprof" "$a"
	printf 'callprof-static%s\tCALLPROF_OUTPUT=%s %s %s\n' "$z" "$r/cps.json" "$d/callprof-static" "$a"
	printf 'callprof-static-none%s\tCALLPROF_CLOCK=none CALLPROF_OUTPUT=%s %s %s\n' "$z" "$r/cpsn.json" "$d/callprof-static" "$a"
	printf 'gprof%s\t%s %s\n' "$z" "$d/pg" "$a"
	printf 'fentry%s\tCALLPROF_OUTPUT=%s %s %s\n' "$z" "$r/cpf.json" "$d/fentry" "$a"
	printf 'fentry-none%s\tCALLPROF_CLOCK=none CALLPROF_OUTPUT=%s %s %s\n' "$z" "$r/cpfn.json" "$d/fentry" "$a"
	printf 'fentry-sampled%s\tCALLPROF_TIMING=sampled CALLPROF_OUTPUT=%s %s %s\n' "$z" "$r/cpfsm.json" "$d/fentry" "$a"
	printf 'fentry-static%s\tCALLPROF_OUTPUT=%s %s %s\n' "$z" "$r/cpfs.json" "$d/fentry-static" "$a"
	printf 'fentry-glibc%s\t%s %s\n' "$z" "$d/fentry-glibc" "$a"
	if [ $HAVE_UFTRACE = 1 ]; then
		printf 'uftrace-fi%s\tuftrace record -d %s %s %s\n' "$z" "$r/uftrace.data" "$d/fi" "$a"
		printf 'uftrace-pg%s\tuftrace record -d %s %s %s\n' "$z" "$r/uftrace.data" "$d/pg" "$a"
	fi
	if [ $HAVE_XRAY = 1 ]; then
		printf 'clang%s\t%s %s\n' "$z" "$d/clang" "$a"
		printf 'xray-prof%s\tXRAY_OPTIONS=xray_logfile_base=%s/xray- %s %s\n' "$z" "$r" "$d/xrayprof" "$a"
		printf 'xray-basic%s\tXRAY_OPTIONS=patch_premain=true:xray_mode=xray-basic:xray_logfile_base=%s/xray- %s %s\n' \
			"$z" "$r" "$d/xray" "$a"
	fi
}

# timed CMDFILE OUT.tsv: runs timeit from the scratch run directory (gmon.out lands there).
timed() {
	printf 'cd %s && %s -w %s -r %s -o %s %s\n' "$W/run" "$W/timeit" "$WARMUP" "$ROUNDS" "$2.raw" "$1" >> "$CMDLOG"
	(cd "$W/run" && "$W/timeit" -w "$WARMUP" -r "$ROUNDS" -o "$2.raw" "$1" > "$2")
	rm -rf "$W/run/uftrace.data" "$W/run/uftrace.data.old" "$W/run"/xray-* "$W/run/gmon.out"
}

# calls_of NAME ARGS [BUILD]: the exact call count of a workload, from a CALLPROF_CLOCK=none
# dump of its callprof build (or of BUILD, another build linked with callprof).
calls_of() {
	CALLPROF_CLOCK=none CALLPROF_OUTPUT="$W/run/count.json" "$W/probe/$1/${3:-callprof}" $2 > /dev/null
	"$W/dumpq" "$W/run/count.json" | awk -F'\t' '$1 == "total_calls" { print $2 }'
}

# pg_calls_of NAME ARGS: the calls gprof counts in the -pg build (functions gcc did not inline).
pg_calls_of() {
	(cd "$W/run" && rm -f gmon.out && "$W/probe/$1/pg" $2 > /dev/null &&
		gprof -b -q "$W/probe/$1/pg" gmon.out 2>/dev/null) |
		awk '# each function primary line of the call graph: "N" calls, or "N+M" with M recursive ones
			/^\[[0-9]+\]/ && !/as a whole/ { n = split($5, c, "+"); s += c[1] + (n > 1 ? c[2] : 0) }
			END { print s + 0 }'
	rm -f "$W/run/gmon.out"
}

# probe_workload NAME ARGS EXPECTED_CALLS: times every variant of one workload.
probe_workload() {
	name=$1 args=$2 expect=$3
	variant_cmds "$name" "$args" > "$W/probe/$name.cmds"
	say "timing $name ($ROUNDS interleaved rounds)"
	timed "$W/probe/$name.cmds" "$W/probe/$name.tsv"
	calls=$(calls_of "$name" "$args")
	fcalls=$(calls_of "$name" "$args" fentry)
	eval "CALLS_$name=\$calls FENTRY_CALLS_$name=\$fcalls"
	# gprof and XRay probe only what the compiler did not inline: their own counts.
	pgc=$(pg_calls_of "$name" "$args")
	xc=0
	[ $HAVE_XRAY = 1 ] && xc=$(calls_of "$name" "$args" clang-after-inlining)
	eval "PG_CALLS_$name=\$pgc XRAY_CALLS_$name=\$xc"
	if [ -n "$expect" ] && [ "$expect" != "$calls" ]; then
		note "$name: the dump counts $calls calls where the program's structure makes $expect"
	fi
	if [ -n "$expect" ] && [ "$fcalls" != "$calls" ]; then
		note "$name: the -pg -mfentry build's dump counts $fcalls calls where the program's structure makes $calls"
	fi
	# Built with -fno-inline, every tool must probe every call.
	if [ -n "$expect" ] && [ "$pgc" != "$calls" ]; then
		note "$name: gprof counts $pgc calls where the program's structure makes $calls"
	fi
	if [ -n "$expect" ] && [ $HAVE_XRAY = 1 ] && [ "$xc" != "$calls" ]; then
		note "$name: the clang build counts $xc calls where the program's structure makes $calls"
	fi
}

probe_cost() {
	build_variants fib "$MICRO_FLAGS" "$S/fib.c"
	build_variants wide "$MICRO_FLAGS" "$S/wide.c"
	build_variants demo "$DEMO_FLAGS -I$ROOT/examples/demo" "$ROOT"/examples/demo/*.c
	# fib(n) makes 2*fib(n+1)-1 calls (fib(30): 2,692,537); wide makes 129 per round; both + main.
	set -- $FIB_ARGS
	fib_calls=$(awk -v n="$1" 'BEGIN { a = 0; b = 1; for (i = 0; i <= n; i++) { t = a + b; a = b; b = t }; print 2 * a - 1 }')
	probe_workload fib "$FIB_ARGS" $(( $2 * fib_calls + 1 ))
	probe_workload wide "$WIDE_ARGS" $(( WIDE_ARGS * 129 + 1 ))
	probe_workload demo "$DEMO_ARGS" ""
	# Fixed costs (start-up and the dump at exit): every variant of fib on fib(1).
	variant_cmds fib "1 1" > "$W/probe/fixed.cmds"
	say "timing fixed costs (fib 1)"
	timed "$W/probe/fixed.cmds" "$W/probe/fixed.tsv"
	: > "$W/probe/figs.tsv"
	for w in fib wide demo; do
		eval "c=\$CALLS_$w pgc=\$PG_CALLS_$w xc=\$XRAY_CALLS_$w fc=\$FENTRY_CALLS_$w"
		awk -v mode=probe -v workload="$w" -v calls="$c" -v pgcalls="$pgc" -v xraycalls="$xc" -v fentrycalls="$fc" \
			-v figs="$W/probe/figs.tsv" \
			-f "$S/tables.awk" "$W/probe/$w.tsv" > "$W/probe/$w.md"
	done
	awk -v mode=fixed -f "$S/tables.awk" "$W/probe/fixed.tsv" > "$W/probe/fixed.md"
	awk -v mode=targets -v workloads="fib wide demo" -f "$S/tables.awk" "$W/probe/figs.tsv" \
		> "$W/probe/targets.md"
}

# build_pair NAME DIR: bench/NAME.c into DIR/plain and DIR/callprof, from the same flags;
# -fno-optimize-sibling-calls keeps the same calls in both.
build_pair() {
	flags="-O2 -g -fno-optimize-sibling-calls"
	say "building the $1 workload"
	mkdir -p "$2"
	x "$GCC" $flags "$S/$1.c" -o "$2/plain"
	x "$GCC" $flags -finstrument-functions "$S/$1.c" -L"$W/lib" -Wl,-rpath,"$W/lib" -lcallprof \
		-o "$2/callprof"
}

# acc_env MODE: the environment of one of ACC_MODES: a clock, or sampled timing.
acc_env() {
	case $1 in sampled) echo CALLPROF_TIMING=sampled ;; *) echo "CALLPROF_CLOCK=$1" ;; esac
}

# The accuracy benchmark: plain runs give the truth, callprof runs the dumps; interleaved.
accuracy() {
	d=$W/acc
	build_pair accuracy "$d"
	# Each run: the plain build (the truth), then the profiled one under each clock.
	printf '%s\n' "$d/plain; CALLPROF_CLOCK=C CALLPROF_OUTPUT=$d/C-N.json $d/callprof; $W/dumpq $d/C-N.json  (N = 1..$ACC_RUNS, alternating; C = $ACC_CLOCKS, then CALLPROF_TIMING=sampled for C = sampled)" >> "$CMDLOG"
	for c in $ACC_MODES; do : > "$d/acc-$c.tsv"; done
	i=1
	while [ $i -le "$ACC_RUNS" ]; do
		say "accuracy run $i of $ACC_RUNS"
		"$d/plain" | awk -v r=$i '{ print "truth\t" r "\t" $1 "\t" $2 }' > "$d/truth.tsv"
		for c in $ACC_MODES; do
			cat "$d/truth.tsv" >> "$d/acc-$c.tsv"
			env "$(acc_env $c)" CALLPROF_OUTPUT="$d/$c-$i.json" "$d/callprof" |
				awk -v r=$i '{ print "wall\t" r "\t" $1 "\t" $2 }' >> "$d/acc-$c.tsv"
			"$W/dumpq" "$d/$c-$i.json" | awk -F'\t' -v r=$i -f "$S/accuracy.awk" >> "$d/acc-$c.tsv"
		done
		i=$((i + 1))
	done
	for c in $ACC_MODES; do
		awk -F'\t' -v mode=accuracy -f "$S/tables.awk" "$d/acc-$c.tsv" > "$d/acc-$c-accuracy.md"
		awk -F'\t' -v mode=overhead -f "$S/tables.awk" "$d/acc-$c.tsv" > "$d/acc-$c-overhead.md"
	done
}

# The overlap benchmark: the probes' cost and where a leaf's time lands, by kind and size of work.
overlap() {
	d=$W/overlap
	build_pair overlap "$d"
	printf '%s\n' "$d/plain $OVERLAP_CALLS; CALLPROF_CLOCK=C CALLPROF_OUTPUT=$d/CN.json $d/callprof $OVERLAP_CALLS  (N = 1..3, alternating; C = $ACC_CLOCKS)" >> "$CMDLOG"
	: > "$d/overlap.tsv"
	for i in 1 2 3; do
		say "overlap run $i of 3"
		"$d/plain" $OVERLAP_CALLS | awk '{ print "plain\t" $1 "\t" $2 }' >> "$d/overlap.tsv"
		for m in $ACC_CLOCKS; do
			CALLPROF_CLOCK=$m CALLPROF_OUTPUT="$d/$m$i.json" "$d/callprof" $OVERLAP_CALLS |
				awk -v m=$m '{ print m "\t" $1 "\t" $2 }' >> "$d/overlap.tsv"
			"$W/dumpq" "$d/$m$i.json" | awk -F'\t' -v m=$m '
				$1 == "calib" { print "o-" m "\t-\t" $2 + $3 }
				$1 == "fn" && $3 > 0 { print "incl-" m "\t" $2 "\t" $4 / $3; print "raw-" m "\t" $2 "\t" $6 / $3 }
				$1 == "fn" && $3 > 0 && $8 >= 0 { print "fenced-" m "\t" $2 "\t" 100 * $8 / $3 }' \
				>> "$d/overlap.tsv"
		done
	done
	awk -F'\t' -v mode=overlap -f "$S/tables.awk" "$d/overlap.tsv" > "$d/overlap.md"
}

# The spread benchmark: the probes' cost in the program as its calls spread over more of the
# tree, against the calibration leaf's; generated programs (gen_spread.awk), interleaved runs.
spread() {
	d=$W/spread
	mkdir -p "$d"
	: > "$d/spread.tsv"
	: > "$d/counts"
	for n in $SPREAD_NS; do
		say "spread: N=$n (generate, compile)"
		x awk -v N="$n" -v ITER="$SPREAD_ITER" -f "$S/gen_spread.awk" > "$d/spread$n.c"
		x "$GCC" -O2 -g -fno-optimize-sibling-calls "$d/spread$n.c" -o "$d/plain$n"
		x "$GCC" -O2 -g -fno-optimize-sibling-calls -finstrument-functions "$d/spread$n.c" \
			-L"$W/lib" -Wl,-rpath,"$W/lib" -lcallprof -o "$d/callprof$n"
	done
	printf '%s\n' "$d/plainN; CALLPROF_OUTPUT=$d/N-R.json $d/callprofN; $W/dumpq $d/N-R.json  (R = 1..$ACC_RUNS, alternating; N = $SPREAD_NS)" >> "$CMDLOG"
	i=1
	while [ $i -le "$ACC_RUNS" ]; do
		say "spread run $i of $ACC_RUNS"
		for n in $SPREAD_NS; do
			"$d/plain$n" | awk -v n="$n" '$1 == "drive_ns" { print "plain\t" n "\t" $2 }' >> "$d/spread.tsv"
			CALLPROF_OUTPUT="$d/$n-$i.json" "$d/callprof$n" > "$d/out"
			"$W/dumpq" "$d/$n-$i.json" > "$d/q"
			iter=$(awk '$1 == "iterations" { print $2 }' "$d/out")
			awk -v n="$n" '$1 == "drive_ns" { print "profiled\t" n "\t" $2 }' "$d/out" >> "$d/spread.tsv"
			awk -F'\t' -v n="$n" -v iter="$iter" -v counts="$d/counts" '
				$1 == "calib" { print "calib\t" n "\t" $2 + $3 }
				$1 == "thread" { print "nodes\t" n "\t" $3 }
				$1 == "fn" && $2 == "drive" { print "comp\t" n "\t" $4 / iter; drive = $3 }
				$1 == "fn" && $2 == "leaf" { leaf = $3 }
				$1 == "fn" && $2 ~ /^f[0-9]+$/ { fs += $3 }
				END { if (drive != 1 || leaf != iter || fs != iter)
					printf "N=%s: drive %s, leaf %s, f %s calls for %s iterations\n", n, drive, leaf, fs, iter >> counts }' \
				"$d/q" >> "$d/spread.tsv"
		done
		i=$((i + 1))
	done
	awk -F'\t' -v mode=spread -f "$S/tables.awk" "$d/spread.tsv" > "$d/spread.md"
	if [ -s "$d/counts" ]; then
		note "spread: calls other than the programs' structure makes: $(tr '\n' ';' < "$d/counts")"
	else
		echo "Every run's dump counted drive() once and the leaf and the f's once per iteration." >> "$d/spread.md"
	fi
}

# median_of CMD...: runs CMD 3 times; the median of what it prints last (a number).
median_dump_ns() {
	for k in 1 2 3; do
		"$@" | awk -F'\t' '$1 == "dump_ns" { print $2 }'
	done | awk -v mode=median -f "$S/tables.awk"
}

# Calls folded past the node budget (tests/hostile/fold.c: 2,250,602 calls of a mutual recursion
# 3000 deep): CPU time a call with a budget of 1000 nodes, which folds most of them, beside the
# same program with the default budget, which folds none; per front-end, medians of 3 runs.
fold_cost() {
	d=$W/fold
	mkdir -p "$d"
	x "$GCC" -O2 -g -D_GNU_SOURCE -I"$ROOT/tests/e2e" -finstrument-functions "$ROOT/tests/hostile/fold.c" \
		-L"$W/lib" -Wl,-rpath,"$W/lib" -lcallprof -o "$d/finstrument"
	x "$GCC" -O2 -g -D_GNU_SOURCE -I"$ROOT/tests/e2e" -pg -mfentry "$ROOT/tests/hostile/fold.c" \
		-L"$W/lib" -Wl,-rpath,"$W/lib" -lcallprof -o "$d/fentry"
	say "timing calls folded past the node budget"
	{
		echo "| front-end | ns of CPU a call, budget 1000 (folded) | default budget (not folded) | ratio |"
		echo "|---|---:|---:|---:|"
		for fe in finstrument fentry; do
			for budget in 1000 default; do
				for r in 1 2 3; do
					if [ $budget = default ]; then
						CALLPROF_OUTPUT=$d/x.json "$d/$fe" 2>/dev/null
					else
						CALLPROF_MAX_NODES=$budget CALLPROF_OUTPUT=$d/x.json "$d/$fe" 2>/dev/null
					fi | sed -n 's/^cpu_ns //p'
				done | sort -n | sed -n 2p > "$d/$fe-$budget"
			done
			awk -v fe="$fe" -v a="$(cat "$d/$fe-1000")" -v b="$(cat "$d/$fe-default")" 'BEGIN {
				n = 2250602; printf "| %s | %.1f | %.1f | %.2fx |\n", fe, a / n, b / n, (b > 0 ? a / b : 0) }'
		done
	} > "$d/fold.md"
}

# The dump- and report-scale benchmark on generated programs of N functions.
scale() {
	d=$W/scale
	have_report=0
	printf '| functions (N) | tree nodes | calls | dump size | dump time (callprof_dump) | process, profiled | process, CALLPROF_DISABLE=1 | `callprof report` |\n' > "$d/scale.md"
	printf '|---:|---:|---:|---:|---:|---:|---:|---:|\n' >> "$d/scale.md"
	for n in $SCALE_NS; do
		say "scale: N=$n (generate, compile, dump)"
		x awk -v N="$n" -f "$S/gen_scale.awk" > "$d/scale$n.c"
		x "$GCC" -O1 -fno-optimize-sibling-calls -finstrument-functions -I"$ROOT/runtime" "$d/scale$n.c" \
			-L"$W/lib" -Wl,-rpath,"$W/lib" -lcallprof -o "$d/scale$n"
		printf '%s\n' "CALLPROF_OUTPUT=$d/exit$n.json $d/scale$n $d/dump$n.json  (3 times; prints the time of callprof_dump)" >> "$CMDLOG"
		dump_ns=$(median_dump_ns env CALLPROF_OUTPUT="$d/exit$n.json" "$d/scale$n" "$d/dump$n.json")
		bytes=$(wc -c < "$d/dump$n.json")
		"$W/dumpq" "$d/dump$n.json" > "$d/dump$n.q"
		nodes=$(awk -F'\t' '$1 == "thread" { s += $3 } END { print s }' "$d/dump$n.q")
		calls=$(awk -F'\t' '$1 == "total_calls" { print $2 }' "$d/dump$n.q")
		{
			printf 'profiled\tCALLPROF_OUTPUT=%s %s\n' "$d/exit$n.json" "$d/scale$n"
			printf 'disabled\tCALLPROF_DISABLE=1 %s\n' "$d/scale$n"
		} > "$d/proc$n.cmds"
		(cd "$W/run" && "$W/timeit" -w 1 -r 3 "$d/proc$n.cmds" > "$d/proc$n.tsv")
		prof=$(awk -F'\t' '$1 == "profiled" { printf "%.1f ms", $2 / 1e6 }' "$d/proc$n.tsv")
		dis=$(awk -F'\t' '$1 == "disabled" { printf "%.1f ms", $2 / 1e6 }' "$d/proc$n.tsv")
		rep="skipped"
		if [ -x "$B/callprof" ] && x timeout 300 "$B/callprof" report -o "$d/report$n" "$d/dump$n.json" \
			> "$d/report$n.log" 2>&1; then
			printf 'report\t%s report -o %s %s\n' "$B/callprof" "$d/report$n" "$d/dump$n.json" > "$d/rep$n.cmds"
			(cd "$W/run" && "$W/timeit" -w 0 -r 3 "$d/rep$n.cmds" > "$d/rep$n.tsv")
			rep=$(awk -F'\t' '{ printf "%.1f ms", $2 / 1e6 }' "$d/rep$n.tsv")
			have_report=1
		fi
		printf '| %s | %s | %s | %s bytes | %.1f ms | %s | %s | %s |\n' "$n" "$nodes" "$calls" "$bytes" \
			"$(echo "$dump_ns" | awk '{ print $1 / 1e6 }')" "$prof" "$dis" "$rep" >> "$d/scale.md"
	done
	if [ $have_report = 0 ]; then
		if [ -x "$B/callprof" ]; then
			note "callprof report failed on the scale dumps: $(head -n 1 "$d/report$n.log")"
		else
			note "build/callprof is not built (make all failed?): the report column is skipped"
		fi
	fi
}

machine() {
	cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
	mem=$(awk '/^MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)
	virt=$(systemd-detect-virt 2>/dev/null || echo unknown)
	tsc=$(grep -o -w -e constant_tsc -e nonstop_tsc /proc/cpuinfo | sort -u | tr '\n' ' ')
	echo "- CPU: $cpu, $(nproc) cores online; $mem memory; virtualization: $virt; TSC flags: $tsc"
	echo "- OS: Debian $(cat /etc/debian_version 2>/dev/null || echo '?'), kernel $(uname -r)"
	echo "- gcc: $($GCC --version | head -n 1)"
	command -v "$CLANG" > /dev/null && echo "- clang: $($CLANG --version | head -n 1)"
	command -v uftrace > /dev/null && echo "- uftrace: $(uftrace --version 2>&1 | head -n 1)"
	echo "- callprof: commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$ROOT" status --porcelain runtime 2>/dev/null | grep -q . && echo ', runtime/ with uncommitted changes' || true)"
}

write_results() {
	rel() { sed "s|$ROOT/||g"; }
	{
		cat <<EOF
# callprof benchmark results

Written by \`make bench\` (bench/run.sh$( [ "$QUICK" != 0 ] && echo ", BENCH_QUICK=$QUICK" )) on $(date -u '+%Y-%m-%d %H:%M UTC').
What each benchmark measures, and how to run it: bench/README.md.

## Machine
$(machine)

## 1. Probe cost

Medians over $ROUNDS interleaved rounds (bench/timeit.c: each round runs every variant once,
in a fresh random order, after $WARMUP warm-up round). *Time in main* is main() timed from
inside the process (bench/mainwrap.c, linked into every build with \`-Wl,--wrap=main\`): the
probes' cost, free of each tool's start-up and of what it writes at exit. *ns/call* =
(time in main - uninstrumented time in main) / calls; the per-call targets are judged on it.
*ratio* is to the uninstrumented build of the same compiler in the same rounds. *Whole
process* is the wall time of the whole run, and *outside main* what the variant adds before
and after main (start-up, writing its output) over the uninstrumented build.
fib and wide: \`$MICRO_FLAGS\` for every variant; the demo: \`$DEMO_FLAGS\`.
The machine is shared (load average at the start of this run: $LOAD_START; at the end: LOAD_END).

### fib (fib($(echo $FIB_ARGS | awk '{print $1}')), $(echo $FIB_ARGS | awk '{print $2}') time(s): $CALLS_fib calls)
$(cat "$W/probe/fib.md")

### wide (a driver calling 128 distinct leaves, $WIDE_ARGS rounds: $CALLS_wide calls)
$(cat "$W/probe/wide.md")

### demo (examples/demo, $DEMO_ARGS words: $CALLS_demo calls as callprof counts them)
gprof and XRay do not instrument the functions gcc and clang inline, which
-finstrument-functions still probes: their rows (and uftrace's of the -pg build) divide by
their own counts, $PG_CALLS_demo calls as gprof counts them and $XRAY_CALLS_demo as a clang build with
\`-finstrument-functions-after-inlining\` makes (XRay instruments the same functions).
$(cat "$W/probe/demo.md")

### Fixed cost of a short run (fib(1): whole process)
$(cat "$W/probe/fixed.md")

### Targets
$(cat "$W/probe/targets.md")

### Calls folded past the node budget
tests/hostile/fold.c (2,250,602 calls of a mutual recursion 3000 deep; \`-O2\`), CPU time a call as
the program measures it around its rounds, median of 3 runs, with \`CALLPROF_MAX_NODES=1000\` (most
calls folded, nested in open calls of their function) and with the default budget (none folded).
A folded call costs O(1): a scan of the stack per folded call made it several times dearer.
$(cat "$W/fold/fold.md")

## 2. Accuracy of the compensated times

bench/accuracy.c, $ACC_RUNS runs of each build, alternating. The truth is the uninstrumented build's
clock_gettime around each phase; the profile's figure is the phase function's
\`inclusive_ns\` (compensated) and \`raw_inclusive_ns\` in the dump. Medians over the runs;
the range is each run's compensated figure against the median truth.

$(cat "$W/acc/accuracy.md")

### The default clock, tsc (plain reads)

$(cat "$W/acc/acc-tsc-accuracy.md")

What the probes really cost inside each phase, against what calibration measured:

$(cat "$W/acc/acc-tsc-overhead.md")

### The same runs with CALLPROF_CLOCK=tsc-adaptive (fenced reads for leaves that work)

$(cat "$W/acc/acc-tsc-adaptive-accuracy.md")

For tsc-adaptive the calibrated o below is the plain reads'; the leaves of medium, heavy and
nested read with fences, so their phases' probes cost what the fenced calibration measured
(in the dumps, \`fenced_o_in_ns\` + \`fenced_o_out_ns\`):

$(cat "$W/acc/acc-tsc-adaptive-overhead.md")

### The same runs with CALLPROF_CLOCK=tsc-ordered (fenced reads everywhere)

$(cat "$W/acc/acc-tsc-ordered-accuracy.md")

$(cat "$W/acc/acc-tsc-ordered-overhead.md")

### The same runs with CALLPROF_TIMING=sampled (the tsc clock; one call in 64 timed past each context's first 64)

Issue 14's target: every phase within 10% of the truth. The figures are estimates (sampled
timing), compensated with the costs of a lent call and of an untimed one (\`untimed_ns\`); the
probe cost a phase implies is not one constant here, so no table of it follows.

$(cat "$W/acc/acc-sampled-accuracy.md")

## 2b. Why no single constant fits: the probes' cost by kind of work

bench/overlap.c: a leaf called $OVERLAP_CALLS times in a loop, best of 7 loops, 3 runs of each build
(minimum). *Work* is the uninstrumented loop's time per call (lat_0: the loop's turn and the call
alone). *Probes cost* is the instrumented loop's time per call minus that: what the probes really
add in that code, to set against the calibrated o. *Leaf in the profile* is the leaf's compensated
inclusive time per call as the dump gives it (median of the runs), to set against its work.

$(cat "$W/overlap/overlap.md")

## 2c. What the calibration leaf misses: calls spread over the tree

Generated programs (bench/gen_spread.awk): N functions, each calling one leaf of a few
instructions, called from one loop in a fixed shuffled order that cycles through all N;
$SPREAD_ITER calls of an f a run, $ACC_RUNS runs of each build, alternating; medians. N=1 is the
calibration leaf's own situation: one callee, over and over, its node always in the cache and its
branches always predicted. A larger N spreads the probes' lookups over 2N + 1 tree nodes, as a
real program's varied calls do. *Probes' cost per call, in the program* is (profiled −
uninstrumented) / 2, two probed calls per call of an f; *calibrated o* is the dump's o_in + o_out.
What the probes cost beyond the calibrated o is left in the compensated times: the last column.

$(cat "$W/spread/spread.md")

## 3. Dump and report cost as the program grows

Generated programs (bench/gen_scale.awk) of N functions: a fan-out-4 tree of functions that each
also call into chains of shared helpers (several tree nodes per function), and an N-deep recursion.
The dump time is measured around \`callprof_dump()\` inside the program (median of 3); the process
times are medians of 3 whole runs (the profiled one writes its dump at exit).

$(cat "$W/scale/scale.md")

## Notes
$(if [ -s "$NOTES" ]; then sed 's/^/- /' "$NOTES"; else echo "- none"; fi)

## Exact commands
Builds, in order (\`make bench\` runs them through bench/run.sh; paths relative to the repository):
\`\`\`
$(grep -v '^cd ' "$CMDLOG" | rel)
\`\`\`
The timed commands of the probe-cost benchmark for fib (\`timeit -w $WARMUP -r $ROUNDS\`,
run from build/bench/run; wide and demo run the same variants with their own arguments;
NAME=VALUE words are environment settings):
\`\`\`
$(rel < "$W/probe/fib.cmds" | tr '\t' ' ')
\`\`\`
EOF
	} | rel | sed "s|LOAD_END|$(cut -d' ' -f1-3 /proc/loadavg)|" > "$RESULTS.tmp"
	mv "$RESULTS.tmp" "$RESULTS"
	say "wrote $RESULTS"
}

LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
setup
probe_cost
fold_cost
accuracy
overlap
spread
scale
write_results
B="$B" sh "$S/scale.sh" >> "$RESULTS" || say "bench/scale.sh failed: RESULTS.md lacks its section"
B="$B" BENCH_QUICK="$QUICK" sh "$S/real.sh" bench > "$W/real.md" &&
	cat "$W/real.md" >> "$RESULTS" || say "bench/real.sh failed: RESULTS.md lacks its section 5"
B="$B" BENCH_QUICK="$QUICK" sh "$S/libcalls.sh" > "$W/libcalls.md" &&
	cat "$W/libcalls.md" >> "$RESULTS" || say "bench/libcalls.sh failed: RESULTS.md lacks its section 6"
B="$B" BENCH_QUICK="$QUICK" DEMO_ARGS="$DEMO_ARGS" sh "$S/topten.sh" > "$W/topten.md" &&
	cat "$W/topten.md" >> "$RESULTS" || say "bench/topten.sh failed: RESULTS.md lacks its section 7"
