#!/bin/sh
# tests/bench: `make bench` runs on this machine from scratch: bench/run.sh in its smoke
# mode (BENCH_QUICK=2: every step once, on tiny inputs) installs what it compares against,
# builds every variant and writes every section of RESULTS.md with figures in it.  It
# times nothing worth reading and asserts no timing: only that each step ran and that
# the call counts the benchmarks rely on are the ones the programs' structure gives.
. "$TOP/tests/lib.sh"
set -u
workdir bench
R=$W/RESULTS.md

if BENCH_QUICK=2 BENCH_RESULTS="$R" B="$W/build" sh -c '
	mkdir -p "$B" && cp -P "$0"/libcallprof.so* "$0/libcallprof.a" "$0/callprof" "$B/" &&
	sh "$1/bench/run.sh"' "$B" "$TOP" >"$W/run.log" 2>&1; then
	ok "bench/run.sh (smoke) exits 0"
else
	fail "bench/run.sh (smoke) exits 0" "$(tail -n 3 "$W/run.log" | tr '\n' ' ')"
	exit 0
fi

# section NAME HEADING: RESULTS.md has the heading.
section() {
	grep -qF "$2" "$R" && ok "RESULTS.md: $1" || fail "RESULTS.md: $1" "no line '$2'"
}
section "machine" "## Machine"
section "probe cost of fib" "### fib ("
section "probe cost of wide" "### wide ("
section "probe cost of the demo" "### demo ("
section "targets" "### Targets"
section "folded calls" "### Calls folded past the node budget"
section "accuracy, default clock" "### The default clock, tsc (plain reads)"
section "accuracy, adaptive TSC" "### The same runs with CALLPROF_CLOCK=tsc-adaptive"
section "accuracy, ordered TSC" "### The same runs with CALLPROF_CLOCK=tsc-ordered"
section "accuracy, sampled timing" "### The same runs with CALLPROF_TIMING=sampled"
section "overlap" "## 2b."
section "spread" "## 2c."
grep -qF "Every run's dump counted drive() once and the leaf and the f's once per iteration." "$R" &&
	ok "spread: exact counts in every run" ||
	fail "spread: exact counts in every run" "$(grep -m 1 'spread: calls other' "$R")"
grep -qE '^\| 64 \| 130 \| [0-9.]+ ns \|' "$R" &&
	ok "spread: 64 callees make 130 tree nodes" ||
	fail "spread: 64 callees make 130 tree nodes" "$(grep -m 1 '^| 64 |' "$R")"
section "dump and report cost" "## 3. Dump and report cost"
section "scale" "## 4. Scale"
section "exact commands" "## Exact commands"
section "library calls" "## 6. Library calls (issue 13)"
section "library calls: a library-heavy workload" "### A library-heavy workload"
grep -qF "Calls of lc_nop the probed run's dump counts as library calls: 200000 of 200000." "$R" &&
	ok "library calls: every call of lc_nop probed" ||
	fail "library calls: every call of lc_nop probed" "$(grep -m 1 'Calls of lc_nop' "$R")"

# The call counts the per-call figures divide by are the programs' own, as callprof,
# gprof and the clang build count them.
if grep -q "calls where the program's structure makes" "$R"; then
	fail "call counts match fib's and wide's structure" "$(grep -m 2 "structure makes" "$R")"
else
	ok "call counts match fib's and wide's structure"
fi
grep -q '^their own counts, [1-9][0-9]* calls as gprof counts them and [0-9][0-9]* as a clang build' "$R" &&
	ok "the demo's gprof and XRay rows divide by their own counts" ||
	fail "the demo's gprof and XRay rows divide by their own counts" "$(grep -m 1 'their own counts' "$R")"
grep -qF "### fib (fib(20), 1 time(s): 21892 calls)" "$R" &&
	ok "fib(20) counted as 21,891 calls plus main" ||
	fail "fib(20) counted as 21,891 calls plus main" "$(grep -m 1 '### fib' "$R")"
grep -qF "200 rounds: 25801 calls)" "$R" &&
	ok "wide counted as 200 x 129 calls plus main" ||
	fail "wide counted as 200 x 129 calls plus main" "$(grep -m 1 '### wide' "$R")"

# Every variant has its row in every probe table, with a figure per call; uftrace and
# XRay only where their tools could be installed (run.sh notes it when they could not).
row() { # row LABEL: each of the three workloads' tables has a row starting with LABEL
	n=$(grep -cF "| $1 |" "$R")
	[ "$n" -ge 3 ] && ok "probe tables: $1" || fail "probe tables: $1" "$n rows, expected 3"
}
row "**callprof** (link mode, default clock: tsc)"
row "**callprof**, CALLPROF_CLOCK=tsc-adaptive"
row "**callprof**, CALLPROF_CLOCK=none"
row "**callprof**, CALLPROF_CLOCK=tsc-ordered (fenced reads)"
row "**callprof**, static archive (direct calls, no PLT)"
row "**callprof**, static archive, CALLPROF_CLOCK=none"
row "-finstrument-functions, TSC-only hooks"
row "gprof (-pg)"
if grep -q "uftrace is not installed" "$R"; then
	ok "probe tables: uftrace # SKIP: $(grep -m 1 'uftrace is not' "$R")"
else
	row "uftrace record (-finstrument-functions)"
fi
if grep -q "XRay's runtime is not available" "$R"; then
	ok "probe tables: XRay # SKIP: not available"
else
	row "XRay profiling mode (clang)"
fi

# Accuracy: every phase, under each of the three clocks and sampled timing; the overlap
# table: every leaf.
n=$(grep -c '^| phase_\(tiny\|medium\|heavy\|nested\|recursion\) | [0-9.]* ms |' "$R")
[ "$n" -eq 20 ] && ok "accuracy tables: 5 phases x 3 clocks and sampled timing" ||
	fail "accuracy tables: 5 phases x 3 clocks and sampled timing" "$n rows"
n=$(grep -c '^| \(lat_[0-9]*\|thr_[0-9]*\|miss\) | [0-9.]* ns |' "$R")
[ "$n" -eq 10 ] && ok "overlap table: 10 leaves" || fail "overlap table: 10 leaves" "$n rows"
if grep -qiw -e nan -e inf "$R"; then
	fail "no NaN or infinity in RESULTS.md" "$(grep -m 2 -iw -e nan -e inf "$R")"
else
	ok "no NaN or infinity in RESULTS.md"
fi

# Section 5, the real programs (bench/real.sh): in the smoke run Lua alone, from Debian's
# source package, built in every variant and run once; or a line saying why it was skipped.
section "real programs" "## 5. Real programs nobody here wrote"
if grep -q '^Skipped: the sources could not be fetched' "$R"; then
	ok "real programs # SKIP: $(grep -m 1 '^Skipped:' "$R" | cut -c 1-160)"
else
	section "the Lua table" "### lua: script"
	# real_row LABEL: the Lua table's row LABEL, with a wall time.
	real_row() { grep -F "| $1 |" "$R" | grep -m 1 '| [0-9.]* s |'; }
	for l in "no instrumentation (gcc -O2 -g)" "-finstrument-functions, empty hooks linked in (bench/hooks_empty.c)" \
		"gprof (-pg -mfentry: glibc's __fentry__ and gmon.out)"; do
		[ -n "$(real_row "$l")" ] && ok "lua: row '$l'" || fail "lua: row '$l'" "none with a time"
	done
	# The profiled runs' dumps count the probes (fib(25) alone is 242,785 Lua calls, each
	# several C calls) and give main() a time.
	for l in "**callprof**, link mode (-finstrument-functions)" \
		"**callprof record** (preloaded into the -finstrument-functions build)" \
		"**callprof**, -pg -mfentry front-end" \
		"**callprof**, -pg -mfentry front-end, CALLPROF_ARGS on a hot function (lua_type,sqlite3VdbeAddOp3,jv_get_kind: the program's one)"; do
		probes=$(real_row "$l" | awk -F' [|] ' '{ print $6 }')
		main=$(real_row "$l" | awk -F' [|] ' '{ print $7 }')
		if [ "${probes:-0}" -gt 1000000 ] 2> /dev/null && [ "$main" != "-" ] && [ -n "$main" ]; then
			ok "lua: $l: $probes probes, main() $main"
		else
			fail "lua: $l: probes and main() from the dump" "$(real_row "$l")"
		fi
	done
	grep -q "^Issue 12's target, the -pg -mfentry front-end's slowdown at most half the -finstrument-functions one: +[0-9.]*% against +[0-9.]*%, [0-9.]* of it" "$R" &&
		ok "lua: the -pg -mfentry slowdown against the -finstrument-functions one" ||
		fail "lua: the -pg -mfentry slowdown against the -finstrument-functions one" "no such line"
	grep -q '^CALLPROF_ARGS on the program.s hot function: [-+][0-9.]*% over the -pg -mfentry run without it' "$R" &&
		ok "lua: the cost of CALLPROF_ARGS" || fail "lua: the cost of CALLPROF_ARGS" "no such line"
	grep -q '^Empty hooks: .* over plain, -\{0,1\}[0-9]*% of callprof.s slowdown' "$R" &&
		ok "lua: the empty-hooks share of the slowdown" ||
		fail "lua: the empty-hooks share of the slowdown" "no such line"
	grep -q "^Issue 14's target, main()'s compensated time within 25% of the uninstrumented process: callprof [-+]" "$R" &&
		ok "lua: main() against the uninstrumented process" ||
		fail "lua: main() against the uninstrumented process" "no such line"
	# A second build of a variant is the cached one: no compiling, no linking.
	if out=$(B="$W/build" sh "$TOP/bench/real.sh" build lua callprof 2>&1) &&
		! printf '%s\n' "$out" | grep -q -e compiling -e linking; then
		ok "real.sh build: a second build of lua callprof is cached"
	else
		fail "real.sh build: a second build of lua callprof is cached" "$(printf '%s' "$out" | tr '\n' ' ')"
	fi
fi

# Section 7 (bench/topten.sh): the demo's ten hottest functions under sampled timing against
# every call timed, and Lua's where section 5 built it; the programs not built say so.
section "sampled timing's ten hottest functions" "## 7. Sampled timing: the ten hottest functions (issue 14)"
sed -n '/^## 7\. /,$p' "$R" >"$W/topten.md"
rows=$(sed -n '/^### demo$/,/^Same order/p' "$W/topten.md" | grep -c '^| [0-9][0-9]* | [^|]* | [0-9.]* [mµ]s (')
[ "$rows" -eq 10 ] && ok "topten: the demo's table has ten functions" ||
	fail "topten: the demo's table has ten functions" "$rows rows"
verdicts=$(grep -c "^Same order as with every call timed: \*\*\(yes\|no\)\*\*\(; with functions whose reference medians lie within 1% of each other taken as tied (in any order among themselves): \*\*\(yes\|no\)\*\*\)\?\. Within 10%: [0-9]* of 10\. Target \*\*\(met\|missed\)\*\*" "$W/topten.md")
want=2
grep -q '^Skipped: the sources could not be fetched' "$R" && want=1
[ "$verdicts" -eq "$want" ] && ok "topten: a verdict for the demo and each real program built ($want)" ||
	fail "topten: a verdict for the demo and each real program built ($want)" "$verdicts"
# The order's judgement on made-up figures: b and c within 1% of each other are tied, a is not.
printf 'all\t1\ta\t100\nall\t1\tb\t50.2\nall\t1\tc\t50\nsampled\t1\ta\t101\nsampled\t1\tb\t49.9\nsampled\t1\tc\t50.1\n' >"$W/tied.tsv"
awk -F'\t' '$1 == "sampled" && $3 == "a" { $4 = 49 } { print }' OFS='\t' "$W/tied.tsv" >"$W/untied.tsv"
tied=$(awk -F'\t' -v mode=topten -f bench/tables.awk "$W/tied.tsv" | grep '^Same order')
untied=$(awk -F'\t' -v mode=topten -f bench/tables.awk "$W/untied.tsv" | grep '^Same order')
case $tied in
*"every call timed: **no**; with functions whose reference medians lie within 1% of each other taken as tied (in any order among themselves): **yes**. Within 10%: 3 of 3. Target **met**."*)
	ok "topten: functions within 1% of each other are tied for the order" ;;
*) fail "topten: functions within 1% of each other are tied for the order" "$tied" ;;
esac
case $untied in
*"in any order among themselves): **no**. Within 10%: 2 of 3. Target **missed**."*)
	ok "topten: functions further apart are not" ;;
*) fail "topten: functions further apart are not" "$untied" ;;
esac
grep -q '^### jq$' "$W/topten.md" && grep -q '^Not built' "$W/topten.md" &&
	ok "topten: a program not built says so" || fail "topten: a program not built says so" "no such line"

