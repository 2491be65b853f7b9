#!/bin/sh
# bench/topten.sh: issue 14's target "the ten functions with the most inclusive time come in the
# same order under sampled timing as with every call timed, each within 10%", on the demo and
# on the real programs bench/real.sh built (Lua, jq, SQLite).  Each program runs ROUNDS times
# with every call timed and ROUNDS times sampled, alternating; a function's figure is the
# median over its runs of its compensated inclusive time; the ten highest with every call
# timed are the reference.  bench/run.sh runs it for RESULTS.md section 7 (on stdout).
#
# Knobs: B=DIR (the build directory), BENCH_QUICK=1 or 2 (fewer rounds; 2: the smoke run),
# DEMO_ARGS (the demo's arguments, as bench/run.sh ran it), BENCH_TOPTEN_PROGS="demo lua jq sqlite".
# It needs bench/run.sh's demo build ($B/bench/probe/demo/callprof) and bench/real.sh's builds.
set -eu

. "$(dirname "$0")/paths.sh"
D=$W/topten
QUICK=${BENCH_QUICK:-0}
case $QUICK in
2) ROUNDS=1 ;;
1) ROUNDS=3 ;;
*) ROUNDS=7 ;;
esac
DEMO_ARGS=${DEMO_ARGS:-200000}
PROGS=${BENCH_TOPTEN_PROGS:-demo lua jq sqlite}

say() { printf '  TOPTEN  %s\n' "$*" >&2; }

# one P MODE I: one run of P with CALLPROF_TIMING=MODE, its dumps into $D/P.MODE.I.PID.json.
one() {
	if [ "$1" = demo ]; then
		CALLPROF_TIMING=$2 CALLPROF_OUTPUT="$D/demo.$2.$3.%p.json" "$W/probe/demo/callprof" $DEMO_ARGS > /dev/null
	else
		# bench/real.sh's run of its callprof build writes its dumps into its run directory,
		# where other sections may have left theirs.
		rm -f "$W/real/run/$1"/*.callprof.*.json
		CALLPROF_TIMING=$2 B="$B" BENCH_QUICK="$QUICK" sh "$S/real.sh" run "$1" callprof > /dev/null
		for f in "$W/real/run/$1"/*.callprof.*.json; do
			[ -f "$f" ] && mv "$f" "$D/$1.$2.$3.$(basename "$f" | cut -d. -f3).json"
		done
	fi
}

# built P: P's callprof build is there.
built() {
	if [ "$1" = demo ]; then
		[ -x "$W/probe/demo/callprof" ]
	else
		[ -x "$W/real/$1/bin/callprof" ]
	fi
}

rm -rf "$D"
mkdir -p "$D"
cat <<EOF

## 7. Sampled timing: the ten hottest functions (issue 14)

Each program ran $ROUNDS times with every call timed (\`CALLPROF_TIMING=all\`) and $ROUNDS times
with \`CALLPROF_TIMING=sampled\`, alternating (bench/topten.sh). A function's figure is the median
over the runs of its compensated inclusive time (all its calling contexts, as the index ranks
it); *range* is the lowest and highest run. The reference is the ten highest with every call
timed; *rank* is where each stands among all functions under sampling. The target: the same
order, each within 10%. Functions whose reference medians lie within 1% of each other count as
tied, in any order among themselves: a chain of wrappers, each calling the next and nothing else,
has one inclusive time, and its order in the reference is that run's noise.
Load average at the start: $(cut -d' ' -f1-3 /proc/loadavg).
EOF
for p in $PROGS; do
	if ! built "$p"; then
		printf '\n### %s\nNot built (bench/run.sh builds the demo, bench/real.sh the others).\n' "$p"
		continue
	fi
	say "$p: $ROUNDS rounds, every call timed and sampled"
	i=1
	while [ $i -le $ROUNDS ]; do
		# Alternate which mode goes first, so neither always runs on a warmer machine.
		if [ $((i % 2)) = 1 ]; then one "$p" all $i && one "$p" sampled $i; else one "$p" sampled $i && one "$p" all $i; fi
		i=$((i + 1))
	done
	: > "$D/$p.tsv"
	for f in "$D/$p".*.json; do
		[ -f "$f" ] || continue
		m=$(basename "$f" | cut -d. -f2) r=$(basename "$f" | cut -d. -f3)
		"$W/dumpq" "$f" | awk -F'\t' -v m="$m" -v r="$r" '$1 == "fn" { print m "\t" r "\t" $2 "\t" $4 }' >> "$D/$p.tsv"
	done
	printf '\n### %s\n' "$p"
	awk -F'\t' -v mode=topten -f "$S/tables.awk" "$D/$p.tsv"
done
