#!/bin/sh
# bench/libcalls.sh: what library probes cost (issue 13): the cost of one probed library call
# beside an instrumented call's (bench/libcost.c), the whole-process cost of a library-heavy
# workload (bench/libheavy.c: string handling through libc, malloc/free churn), and the real
# programs of bench/real.sh with library probes on and off.  Every comparison runs its variants
# in interleaved rounds (bench/timeit.c) and takes medians.  Prints RESULTS.md's section 6 on
# stdout; bench/run.sh appends it.
#
# Knobs: B=DIR (the build directory), BENCH_QUICK=1 or 2 (fewer calls and rounds; 2: a smoke
# run), BENCH_LIBCALLS_REAL=0 (leave the real programs out; they are in by default unless
# BENCH_QUICK is set), BENCH_REAL_PROGS (which real programs, as bench/real.sh).
set -eu

. "$(dirname "$0")/paths.sh"
W=$B/bench/libcalls
GCC=${BENCH_GCC:-gcc}
QUICK=${BENCH_QUICK:-0}
case $QUICK in
2) N=200000 HEAVY=20000 ROUNDS=1 REAL=${BENCH_LIBCALLS_REAL:-0} ;;
1) N=5000000 HEAVY=300000 ROUNDS=3 REAL=${BENCH_LIBCALLS_REAL:-0} ;;
*) N=20000000 HEAVY=1000000 ROUNDS=11 REAL=${BENCH_LIBCALLS_REAL:-1} ;;
esac
REAL_ROUNDS=$([ "$QUICK" = 0 ] && echo 5 || echo 1)

say() { printf '  LIBCALL %s\n' "$*" >&2; }
die() {
	printf 'libcalls.sh: %s\n' "$*" >&2
	exit 1
}

mkdir -p "$W/run"
[ -f "$B/libcallprof.so" ] && [ -x "$B/callprof" ] || die "build the runtime and the tool first (make)"
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)

# ---- builds ---------------------------------------------------------------------------------
# Every program times its main() too (bench/mainwrap.c), free of start-up and the dump.
RT="-L$B -Wl,-rpath,$B -Wl,-z,now -lcallprof"
WRAP="$W/mainwrap.o -Wl,--wrap=main"
say "building"
$GCC -O2 -Wall -o "$W/timeit" "$S/timeit.c"
$GCC -O2 -c "$S/mainwrap.c" -o "$W/mainwrap.o"
$GCC -O2 -fPIC -shared "$S/libnop.c" -o "$W/libnop.so"
for p in libcost libheavy; do
	extra=
	[ $p = libcost ] && extra="-L$W -Wl,-rpath,$W -lnop"
	$GCC -O2 -g "$S/$p.c" -o "$W/$p-plain" $WRAP $extra
	$GCC -O2 -g -finstrument-functions "$S/$p.c" -o "$W/$p" $WRAP $extra $RT
	$GCC -O2 -g -finstrument-functions "$S/$p.c" -o "$W/$p.pre" $WRAP $extra
done

# timed NAME CMDFILE: median wall, main() and CPU time per command into $W/NAME.tsv.
timed() {
	(cd "$W/run" && "$W/timeit" -w 1 -r "$ROUNDS" -o "$W/$1.raw" "$2" > "$W/$1.tsv")
}

# col NAME TSV N: field N of the row NAME (2: wall, 7: main(), 8: CPU; nanoseconds).
col() { awk -F'\t' -v n="$1" -v c="$3" '$1 == n { print $c }' "$2"; }

# ---- the cost of one library call ------------------------------------------------------------
D=$W/run
cat > "$W/cost.cmds" <<EOF
plain	$W/libcost-plain $N
plain-work	$W/libcost-plain $N w
off	CALLPROF_LIBCALLS=0 CALLPROF_OUTPUT=$D/cost-off.json $W/libcost $N
off-work	CALLPROF_LIBCALLS=0 CALLPROF_OUTPUT=$D/cost-offw.json $W/libcost $N w
on	CALLPROF_OUTPUT=$D/cost-on.json $W/libcost $N
on-work	CALLPROF_OUTPUT=$D/cost-onw.json $W/libcost $N w
EOF
say "library call cost: $N calls, $ROUNDS rounds"
timed cost "$W/cost.cmds"
# The probed run's dump counts every call of lc_nop as a library call.
probed=$(jq '. as $d | [.threads[].functions[] | select($d.functions[.fn].name == "lc_nop") | .library_calls] | add' \
	"$D/cost-on.json" 2>/dev/null || echo '?')
per_call() { awk -v a="$1" -v b="$2" -v n="$N" 'BEGIN { printf "%.1f", (a - b) / n }'; }
T=$W/cost.tsv
lib_ns=$(per_call "$(col on "$T" 7)" "$(col off "$T" 7)")
plt_ns=$(per_call "$(col plain "$T" 7)" 0)
work_on=$(awk -v a="$(col on-work "$T" 7)" -v b="$(col on "$T" 7)" 'BEGIN { print a - b }')
work_plain=$(awk -v a="$(col plain-work "$T" 7)" -v b="$(col plain "$T" 7)" 'BEGIN { print a - b }')
cyg_ns=$(per_call "$work_on" "$work_plain")
calib=$(jq -r '.calibration | "\(.library_o_in_ns + .library_o_out_ns | . * 10 | round / 10) ns (library), \(.per_call_ns | . * 10 | round / 10) ns (plain)"' "$D/cost-on.json" 2>/dev/null || echo '?')

# ---- a library-heavy workload ---------------------------------------------------------------------
cat > "$W/heavy.cmds" <<EOF
plain	$W/libheavy-plain $HEAVY
off	CALLPROF_LIBCALLS=0 CALLPROF_OUTPUT=$D/heavy-off.json $W/libheavy $HEAVY
on	CALLPROF_OUTPUT=$D/heavy-on.json $W/libheavy $HEAVY
record-off	CALLPROF_LIBCALLS=0 $B/callprof record -o $D/heavy-roff.json -- $W/libheavy.pre $HEAVY
record-on	$B/callprof record -o $D/heavy-ron.json -- $W/libheavy.pre $HEAVY
EOF
say "library-heavy workload: $HEAVY rounds, $ROUNDS rounds"
timed heavy "$W/heavy.cmds"
H=$W/heavy.tsv
heavy_lib=$(jq '[.threads[].functions[] | .library_calls // 0] | add' "$D/heavy-on.json" 2>/dev/null || echo '?')
heavy_calls=$(jq '[.threads[].functions[] | .calls] | add' "$D/heavy-on.json" 2>/dev/null || echo '?')
heavy_share=$(jq -r '. as $d | ([$d.threads[].functions[] | select($d.functions[.fn].library) | .self_ns] | add) as $l |
	([$d.threads[].functions[] | .self_ns] | add) as $all | ($l * 1000 / $all | round / 10)' "$D/heavy-on.json" 2>/dev/null || echo '?')

# ms NS, ratio A B: figures for the tables.
ms() { awk -v v="$1" 'BEGIN { printf "%.1f ms", v / 1e6 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "-" }'; }
secs() { awk -v v="$1" 'BEGIN { printf "%.3f s", v / 1e9 }'; }
heavy_row() {
	printf '| %s | %s | %s | %s | %s | %s |\n' "$2" "$(ms "$(col "$1" "$H" 2)")" \
		"$(ratio "$(col "$1" "$H" 2)" "$(col plain "$H" 2)")" "$(ms "$(col "$1" "$H" 8)")" \
		"$(ratio "$(col "$1" "$H" 8)" "$(col plain "$H" 8)")" "$(ratio "$(col "$1" "$H" 2)" "$(col "$3" "$H" 2)")"
}

# ---- the real programs ---------------------------------------------------------------------------------
real_section() {
	progs=${BENCH_REAL_PROGS:-jq lua sqlite zstd}
	: > "$W/real.cmds"
	for p in $progs; do
		for v in plain callprof fi; do
			B="$B" sh "$S/real.sh" build "$p" "$v" >&2 || return 1
		done
		B="$B" sh "$S/real.sh" input "$p" >&2 || return 1
		mkdir -p "$B/bench/real/run/$p" # where the profiled runs' dumps go
		for r in callprof-nolib callprof record-nolib record; do
			B="$B" sh "$S/real.sh" cmd "$p" "$r" | sed "s/^/$p-/" >> "$W/real.cmds"
		done
	done
	say "real programs ($progs): $REAL_ROUNDS rounds"
	(cd "$B/bench/real/run" 2>/dev/null || cd "$W/run"
		"$W/timeit" -w 0 -r "$REAL_ROUNDS" -o "$W/real.raw" "$W/real.cmds" > "$W/real.tsv")
	echo "| program: workload | mode | wall, probes off | on | on / off | CPU, probes off | on | on / off | calls probed: all, of them library calls |"
	echo "|---|---|---:|---:|---:|---:|---:|---:|---:|"
	cut -f1 "$W/real.cmds" | sed 's/:.*//' | sort -u | while read -r pw; do
		p=${pw%%-*} w=${pw#*-}
		for m in callprof record; do
			off=$pw:$m-nolib on=$pw:$m
			dump=$(ls "$B/bench/real/run/$p/$w.$m".[0-9]*.json 2>/dev/null | tail -n 1)
			calls=$(jq -r '[([.threads[].functions[] | .calls] | add), ([.threads[].functions[] | .library_calls // 0] | add)] |
				map(tostring) | join(", ")' "$dump" 2>/dev/null || echo '?')
			printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$p: $w" \
				"$([ $m = record ] && echo "callprof record" || echo "linked")" \
				"$(secs "$(col "$off" "$W/real.tsv" 2)")" "$(secs "$(col "$on" "$W/real.tsv" 2)")" \
				"$(ratio "$(col "$on" "$W/real.tsv" 2)" "$(col "$off" "$W/real.tsv" 2)")" \
				"$(secs "$(col "$off" "$W/real.tsv" 8)")" "$(secs "$(col "$on" "$W/real.tsv" 8)")" \
				"$(ratio "$(col "$on" "$W/real.tsv" 8)" "$(col "$off" "$W/real.tsv" 8)")" "$calls"
		done
	done
}
if [ "$REAL" = 1 ]; then
	mkdir -p "$B/bench/real/run"
	real_section > "$W/real.md" || echo "The real programs could not be built or run: see bench/real.sh." > "$W/real.md"
fi

sed "s|LOAD_END|$(cut -d' ' -f1-3 /proc/loadavg)|" <<EOF
## 6. Library calls (issue 13)

Library probes (on by default, \`CALLPROF_LIBCALLS=0\` turns them off) follow every call an
instrumented module makes through its PLT into a library. bench/libcalls.sh; medians over
$ROUNDS interleaved rounds (bench/timeit.c, one warm-up round), \`main()\` timed inside the
process (bench/mainwrap.c). Load average at the start: $LOAD_START; at the end: LOAD_END.

### The cost of one call
bench/libcost.c calls \`lc_nop\` (one line, in an uninstrumented library) $N times through the
PLT; with an argument it then calls an instrumented function of its own as often.

| | ns per call |
|---|---:|
| a plain call through the PLT, uninstrumented (main()'s time / calls) | $plt_ns |
| **added by a library probe** (main(): probes on - off, / calls) | **$lib_ns** |
| added by a -finstrument-functions probe, for comparison | $cyg_ns |
| calibrated cost the dump subtracts | $calib |

Calls of lc_nop the probed run's dump counts as library calls: $probed of $N.

### A library-heavy workload
bench/libheavy.c: $HEAVY rounds of snprintf, strlen, strdup, malloc, memcpy, realloc, strcmp, free,
strchr and strtol (14 library calls made by 4 small instrumented functions each round): the worst
case, a program that is mostly library calls. The probed run's dump: $heavy_calls calls, $heavy_lib of
them library calls; library functions hold $heavy_share% of its self time.

| variant | wall | vs plain | CPU | vs plain | vs library probes off |
|---|---:|---:|---:|---:|---:|
$(heavy_row plain "no instrumentation" plain)
$(heavy_row off "callprof, linked, library probes off" off)
$(heavy_row on "**callprof, linked, library probes on**" off)
$(heavy_row record-off "callprof record, library probes off" record-off)
$(heavy_row record-on "**callprof record, library probes on**" record-off)

Why library probes are on by default: a probed library call costs about what an instrumented
call does (the first table), and real programs make few library calls beside their
instrumented ones, so turning them on changes a profiled run's CPU time little (the last
table); a program that is mostly library calls, as libheavy is, pays the most, and
\`CALLPROF_LIBCALLS=0\` is there for it. What they buy: library time, which would otherwise sit
unexplained in its callers' self time, is named, counted and timed.

$(if [ "$REAL" = 1 ]; then
	echo "### Real programs"
	echo "bench/real.sh's programs and workloads (section 5), with library probes on and off, linked"
	echo "(-z now, as pkg-config links) and under \`callprof record\`: whole-process medians over"
	echo "$REAL_ROUNDS interleaved rounds. (Wall times move with the load of the shared machine; CPU times are the"
	echo "steadier figure.)"
	echo
	cat "$W/real.md"
fi)
EOF
