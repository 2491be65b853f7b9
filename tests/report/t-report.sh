#!/bin/sh
# tests/report/t-report.sh: `callprof report` and `callprof top` on fixed dumps: golden pages,
# links, escaping of hostile names, bad input, options, merging, and a large synthetic dump.
# Runs the sanitizer build ($SAN_B/callprof) except for the large dump.
# UPDATE_GOLDEN=1 rewrites tests/report/golden/ from the current output instead of comparing.
set -u
. "$TOP/tests/lib.sh"
cd "$TOP"
FIX=tests/report/fixtures
GOLD=tests/report/golden
workdir report

# Bring both builds up to date, so `sh tests/run.sh report` works on its own.
build build "$W/build.log" "$B/callprof" && build_san build "$W/build.log" || exit 1
CP=$SAN_B/callprof

# report NAME DUMP...: writes the site of DUMP... to $W/site-NAME; output in $W/NAME.out/.err.
report() {
	_n=$1
	shift
	"$CP" report -o "$W/site-$_n" "$@" >"$W/$_n.out" 2>"$W/$_n.err"
}

# ---- golden pages, links ----------------------------------------------------------
for c in c-small cpp-hostile threads merge noclock c-adaptive; do
	case $c in
	merge) dumps="$FIX/merge-a.json $FIX/merge-b.json"; nf=5 ;;
	c-small | cpp-hostile | c-adaptive) dumps="$FIX/$c.json"; nf=7 ;;
	threads) dumps="$FIX/$c.json"; nf=6 ;;
	noclock) dumps="$FIX/$c.json"; nf=3 ;;
	esac
	# shellcheck disable=SC2086
	if ! report "$c" $dumps; then
		fail "report $c" "exit status $?: $(head -n 3 "$W/$c.err")"
		continue
	fi
	if [ "$(cat "$W/$c.out")" = "$(cd "$W/site-$c" && pwd)/index.html" ] && [ ! -s "$W/$c.err" ]; then
		ok "report $c prints the index and nothing else"
	else
		fail "report $c prints the index and nothing else" "out: $(cat "$W/$c.out") err: $(head -c 300 "$W/$c.err")"
	fi
	normalise "$W/site-$c" "$W/norm-$c"
	if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
		rm -rf "${GOLD:?}/$c"
		mkdir -p "$GOLD"
		cp -r "$W/norm-$c" "$GOLD/$c"
		ok "golden $c (updated)"
	elif diff -r "$GOLD/$c" "$W/norm-$c" >"$W/golden-$c.diff" 2>&1; then
		ok "golden $c"
	else
		fail "golden $c" "pages differ from $GOLD/$c: $(head -n 4 "$W/golden-$c.diff" | tr '\n' ' ')"
	fi
	check "links $c" node tests/report/linkcheck.js "$W/site-$c" "$nf"
done

# ---- figures agree with the dump --------------------------------------------------------
S=$W/site-c-small
has "compute's page: 10 calls" "$S/fn/0/3.html" 'id="fig-calls" data-v="10">10<'
has "compute's page: inclusive 70 ms" "$S/fn/0/3.html" 'id="fig-incl" data-v="70000000">70.0 ms<'
has "compute's page: self 40 ms" "$S/fn/0/3.html" 'id="fig-self" data-v="40000000">40.0 ms<'
has "compute's costliest callee is fib, 10 calls, 25 ms" "$S/fn/0/3.html" \
	'<tbody>.?$|fn/0/4.html">fib</a></td><td class="num" data-v="10">10</td><td class="num" data-v="25000000">25.0 ms'
has "fib's callers include compute at 25 ms" "$S/fn/0/4.html" 'fn/0/3.html">compute</a></td><td class="num" data-v="10">'
has "hottest by self on the index is compute" "$S/index.html" 'id="top-self"'
if sed -n '/id="top-self"/,/<\/table>/p' "$S/index.html" | grep -m1 'class="fn"' | grep -q 'fn/0/3.html">compute<'; then
	ok "the first of the hottest by self is compute"
else
	fail "the first of the hottest by self is compute" "$(sed -n '/id="top-self"/,/<\/table>/p' "$S/index.html" | head -n 4)"
fi
if sed -n '/id="flat-table"/,/<\/table>/p' "$S/index.html" | grep 'class="fn"' | sed 's/.*class="fn" href="fn\/[0-9]*\/[0-9]*.html">\([^<]*\)<.*/\1/' |
	tr '\n' ' ' | grep -q '^compute fib parse_line cmp_int load_input main write_output $'; then
	ok "the flat profile comes sorted by self time"
else
	fail "the flat profile comes sorted by self time" "order differs"
fi
has "fib's hottest path is main > compute > fib" "$S/fn/0/4.html" \
	'fn/0/0.html">main</a><span class="sep"> › </span><a class="fn" href="../../fn/0/3.html">compute</a>'
has "the calibration figure is shown" "$S/index.html" '7.9 ns per call \(3.1 ns inside the callee, 4.8 ns outside\)'
has "the instrumentation share is shown" "$S/index.html" 'Instrumentation</dt><dd>about .* of the measured run'
has "merged: work has 8 calls" "$W/site-merge/fn/0/1.html" 'id="fig-calls" data-v="8">8<'
has "merged: work's inclusive time is 11 ms" "$W/site-merge/fn/0/1.html" 'id="fig-incl" data-v="11000000"'
has "merged: the static helper of b.c stays apart" "$W/site-merge/fn/0/4.html" 'id="fig-calls" data-v="2">2<'
has "merged: same-named functions show their file" "$W/site-merge/index.html" 'helper</a> <span class="fn-file" title="[^"]*b.c">b.c</span>'
has "threads: a tree per thread" "$W/site-threads/tree/t2.html" 'worker-2'
has "threads: per-thread figures on a function page" "$W/site-threads/fn/0/4.html" 'id="per-thread"'
has "no clock: the tree is sized by calls" "$W/site-noclock/tree/all.html" 'all calls \(this dump has no times\)'
# The same tree from a timed clock whose figures all came to 0 (compensation took everything
# of a tiny run) is sized by time; from a clock the program stopped before any call, by calls.
sed 's/"source": "none", "ticks_per_second": 0/"source": "tsc", "ticks_per_second": 2000000000/' \
	"$FIX/noclock.json" >"$W/zero.json"
sed 's/"source": "none", "ticks_per_second": 0/"source": "tsc", "ticks_per_second": 2000000000, "stopped_ns": 0/' \
	"$FIX/noclock.json" >"$W/stopped.json"
if report zero "$W/zero.json" && report stopped "$W/stopped.json"; then
	if grep -q 'this dump has no times' "$W/site-zero/tree/all.html"; then
		fail "a timed dump whose times are 0 is sized by time" "it says it has no times"
	else
		ok "a timed dump whose times are 0 is sized by time"
	fi
	has "a clock stopped before any call: the tree is sized by calls" "$W/site-stopped/tree/all.html" \
		'all calls \(this dump has no times\)'
else
	fail "report the zero-time and stopped-clock dumps" "$(head -n 2 "$W/zero.err" "$W/stopped.err")"
fi
# tsc-adaptive: fenced calls on the function pages and the fenced reads' cost on the index; nothing without them.
A=$W/site-c-adaptive
has "adaptive: cmp_int's page says how many of its calls were fenced" "$A/fn/0/6.html" \
	'id="fenced">Clock reads: fenced for <span data-v="16">16</span> of 5,000 calls \(times of those calls are exact; see CALLPROF_CLOCK'
has "adaptive: the index shows what a fenced read costs" "$A/index.html" \
	'7.9 ns per call \(3.1 ns inside the callee, 4.8 ns outside\); fenced reads 46.1 ns per call \(26.0 ns inside the callee, 20.1 ns outside\)'
if grep -l -e 'id="fenced"' -e 'fenced reads [0-9]' "$S/index.html" "$S"/fn/*/*.html >"$W/fenced-small.txt"; then
	fail "without fenced_calls no page speaks of fenced reads" "in $(tr '\n' ' ' <"$W/fenced-small.txt")"
else
	ok "without fenced_calls no page speaks of fenced reads"
fi
if report adaptive-twice "$FIX/c-adaptive.json" "$FIX/c-adaptive.json" &&
	report adaptive-mixed "$FIX/c-adaptive.json" "$FIX/c-small.json"; then
	has "merged: fenced calls add up over dumps" "$W/site-adaptive-twice/fn/0/6.html" \
		'fenced for <span data-v="32">32</span> of 10,000 calls'
	has "merged: a dump without fenced_calls adds calls, not fenced ones" "$W/site-adaptive-mixed/fn/0/6.html" \
		'fenced for <span data-v="16">16</span> of 10,000 calls'
else
	fail "merged: fenced calls" "$(head -c 300 "$W/adaptive-twice.err" "$W/adaptive-mixed.err")"
fi

# ---- sampled timing: estimates marked, timed calls and standard errors shown and merged ----
# c-small made a sampled dump: cmp_int (fn 6) timed 142 of its 5,000 calls, standard errors
# 250 µs inclusive and 200 µs self; every other function timed all its calls, errors 0.  The
# same in the tree, where cmp_int has one row.
jq '.clock += {timing: "sampled", sample_rate: 64, timed_first: 64} |
	.threads[0].functions |= map(if .fn == 6 then . + {timed_calls: 142, inclusive_se_ns: 250000, self_se_ns: 200000}
		else . + {timed_calls: .calls, inclusive_se_ns: 0, self_se_ns: 0} end) |
	.threads[0].tree.columns += ["timed_calls", "inclusive_se_ns", "self_se_ns"] |
	.threads[0].tree.rows |= map(if .[2] == 6 then . + [142, 250000, 200000] else . + [.[3], 0, 0] end)' \
	"$FIX/c-small.json" >"$W/sampled.json"
if report sampled "$W/sampled.json"; then
	has "sampled: the index says how many calls were timed" "$W/site-sampled/index.html" \
		'Timing</dt><dd>sampled: <span id="timed-calls" data-v="1371">1,371</span> of 6,229 calls timed \(each calling context.s first 64, then one in 64 at random\)'
	has "sampled: cmp_int's page says its times are estimates, with their errors" "$W/site-sampled/fn/0/6.html" \
		'id="sampled">Times estimated from <span data-v="142">142</span> timed of 5,000 calls \(CALLPROF_TIMING=sampled\): standard error 250 µs inclusive, 200 µs self'
	has "sampled: its inclusive time is marked as an estimate, its error on hover" "$W/site-sampled/fn/0/6.html" \
		'id="fig-incl" data-v="5000000"><span class="est" title="an estimate: standard error 250 µs \(5.0%\)">&asymp; 5.00 ms</span>'
	has "sampled: its shortest and longest calls are of the timed ones" "$W/site-sampled/fn/0/6.html" \
		'id="fig-min" data-v="[0-9]*">[^<]*</dd><dd class="note">of the timed calls'
	has "sampled: the call tree marks cmp_int's row as an estimate, its error on hover" \
		"$W/site-sampled/tree/all.html" \
		'>cmp_int</a>[^<]*<span class="figs"><span class="est" title="an estimate: standard error 250 µs \(5.0%\)">&asymp; 5.00 ms</span> · self 5.00 ms · 5,000 calls</span>'
	has "sampled: and leaves the rows of exact figures unmarked" "$W/site-sampled/tree/all.html" \
		'>compute</a>[^<]*<span class="figs">[0-9.]+ ms · self'
	has "sampled: the data file has the error of estimated rows for tree.js, -1 for exact ones" \
		"$W/site-sampled/flame/all.data.js" '^"se":\[-1,.*,250000[],]'
	has "sampled: the flame graph's static picture marks cmp_int's box as an estimate, its error in its title" \
		"$W/site-sampled/flame/all.html" \
		'<title>cmp_int — ≈ 5.00 ms inclusive \(an estimate: standard error 250 µs, 5.0%\), 5.4%, 5,000 calls</title>'
	has "sampled: and leaves the boxes of exact figures unmarked" "$W/site-sampled/flame/all.html" \
		'<title>compute — 70.0 ms inclusive, 75.7%, 10 calls</title>'
else
	fail "report a sampled dump" "$(head -c 300 "$W/sampled.err")"
fi
if grep -l -e 'id="sampled"' -e 'class="est"' -e 'Timing</dt>' -e '"se":' "$S/index.html" "$S"/fn/*/*.html \
	"$S"/tree/*.html "$S"/flame/*.data.js >"$W/sampled-small.txt"; then
	fail "without sampled timing no page speaks of estimates" "in $(tr '\n' ' ' <"$W/sampled-small.txt")"
else
	ok "without sampled timing no page speaks of estimates"
fi
"$CP" top "$W/sampled.json" >"$W/sampled-top.txt" 2>&1
has "sampled: top shows the self time's standard error" "$W/sampled-top.txt" \
	'^ +5,000 +5.00 ms +200 µs +5.00 ms +1.00 µs +[0-9.]+  cmp_int$'
"$CP" merge -o "$W/sampled-merged.json" "$W/sampled.json" "$W/sampled.json" >/dev/null 2>"$W/sampled-merge.err"
got=$(jq -c '[.clock.timing, .clock.sample_rate, (.threads[].functions[] | select(.fn == 6) |
	.timed_calls, .inclusive_se_ns, .self_se_ns), (.threads[0].tree | .columns as $c |
	.rows[] | select(.[2] == 6) | .[$c | index("timed_calls")], .[$c | index("inclusive_se_ns")])]' \
	"$W/sampled-merged.json")
if [ "$got" = '["sampled",64,142,250000,200000,142,250000,200000,142,250000]' ]; then
	ok "sampled: a merged dump keeps the timing, timed calls and errors"
else
	fail "sampled: a merged dump keeps the timing, timed calls and errors" "$got $(cat "$W/sampled-merge.err")"
fi
if report sampled-twice "$W/sampled.json" "$W/sampled.json"; then
	has "sampled: over two dumps, timed calls add up and errors add as independent ones" \
		"$W/site-sampled-twice/fn/0/6.html" \
		'Times estimated from <span data-v="284">284</span> timed of 10,000 calls \(CALLPROF_TIMING=sampled\): standard error 354 µs inclusive, 283 µs self'
	has "sampled: over two dumps, the call tree's errors add as independent ones too" \
		"$W/site-sampled-twice/tree/all.html" \
		'>cmp_int</a>[^<]*<span class="figs"><span class="est" title="an estimate: standard error 354 µs \(3.5%\)">&asymp; 10.0 ms</span>'
else
	fail "report two sampled dumps" "$(head -c 300 "$W/sampled-twice.err")"
fi
# refused NAME DUMP PATTERN: `callprof report` of DUMP fails with one line naming the file that
# matches PATTERN (grep).
refused() {
	"$CP" report -o "$W/site-refused" "$2" >/dev/null 2>"$W/refused.err"
	_rc=$?
	if [ $_rc -ne 0 ] && [ "$(wc -l <"$W/refused.err")" -eq 1 ] && grep -q "$3" "$W/refused.err"; then
		ok "$1: one line naming the file, non-zero exit"
	else
		fail "$1: one line naming the file, non-zero exit" "rc $_rc: $(cat "$W/refused.err")"
	fi
}
jq '.threads[0].functions[6].timed_calls = 5001' "$W/sampled.json" >"$W/sampled-bad.json"
refused "more timed calls than calls" "$W/sampled-bad.json" \
	"timed_calls 5001 is more than calls 5000 .* in '.*sampled-bad.json'"
jq '.threads[0].tree.rows[6][8] = 5001' "$W/sampled.json" >"$W/sampled-bad.json"
refused "more timed calls than calls in a tree row" "$W/sampled-bad.json" \
	"timed_calls above calls at .*rows\[6\] in '.*sampled-bad.json'"

# ---- CPU time: on a CPU and off it, on the index, the function pages and a flame graph ----
# c-cpu is c-small with CPU time: compute (fn 3) spent 30 of its 40 ms of self time off the CPU,
# load_input 1.5 of 2 ms, write_output 0.8 of 1 ms; the rest ran.  So compute tops the
# self time, and fib the CPU self time.
C=$W/site-cpu
if report cpu "$FIX/c-cpu.json"; then
	has "cpu: the index says how much of the run was on a CPU" "$C/index.html" \
		'CPU time</dt><dd><a href="#cpu">60.2 ms</a> of it on a CPU \(65.1%\), 32.3 ms off it'
	tr '\n' ' ' <"$C/index.html" >"$W/cpu-index.txt"
	has "cpu: fib tops the CPU self time" "$W/cpu-index.txt" \
		'id="top-cpu-self"> <tbody> <tr><td class="name"><a class="fn" href="fn/0/4.html"'
	has "cpu: compute tops the self time off the CPU, 30 ms" "$W/cpu-index.txt" \
		'id="top-off-cpu-self"> <tbody> <tr><td class="name"><a class="fn" href="fn/0/3.html"[^<]*>compute</a></td><td class="num" data-v="30000000">'
	has "cpu: the threads table says how much of each thread's time was on a CPU" "$C/index.html" \
		'<th data-sort="num">Wall</th><th data-sort="num">On a CPU</th>'
	has "cpu: the thread's CPU time, and its share of its profiled time" "$C/index.html" \
		'<td class="num" data-v="60200000">60.2 ms \(65.1%\)</td>'
	has "cpu: the flat profile has CPU and off-CPU self time" "$C/index.html" \
		'<th data-sort="num">CPU self</th><th data-sort="num">Off-CPU self</th>'
	has "cpu: compute's page shows its time on a CPU" "$C/fn/0/3.html" \
		'id="fig-cpu" data-v="40000000">40.0 ms</dd><dd class="note">self 10.0 ms'
	has "cpu: compute's page shows its time off the CPU" "$C/fn/0/3.html" \
		'id="fig-offcpu" data-v="30000000">30.0 ms</dd><dd class="note">self 30.0 ms'
	has "cpu: compute's page says on how many calls the CPU clock was read" "$C/fn/0/3.html" \
		'id="cpu">CPU time read on <span data-v="10">10</span> of 10 calls'
	tr '\n' ' ' <"$C/fn/0/3.html" >"$W/cpu-compute.txt"
	has "cpu: compute's callers table has the time on a CPU from each caller, 40 ms from main" \
		"$W/cpu-compute.txt" \
		'id="callers">.*Inclusive from there</th><th data-sort="num" title="[^"]*">On a CPU</th><th data-sort="num">Self from there</th>.*>main</a></td><td class="num" data-v="10">10</td><td class="num" data-v="70000000">70.0 ms</td><td class="num" data-v="40000000">40.0 ms</td><td class="num" data-v="40000000">'
	has "cpu: compute's callees table has each callee's time on a CPU" "$W/cpu-compute.txt" \
		'id="callees">.*>Inclusive</th><th data-sort="num" title="[^"]*">On a CPU</th><th data-sort="num">Share of this function</th>.*>fib</a></td><td class="num" data-v="10">10</td><td class="num" data-v="25000000">25.0 ms</td><td class="num" data-v="25000000">25.0 ms</td>'
	tr '\n' ' ' <"$C/fn/0/0.html" >"$W/cpu-main.txt"
	has "cpu: main's callees table: write_output 1.5 ms, 0.7 ms of it on a CPU" "$W/cpu-main.txt" \
		'>write_output</a></td><td class="num" data-v="2">2</td><td class="num" data-v="1500000">1.50 ms</td><td class="num" data-v="700000">700 µs</td>'
	has "cpu: the call tree's rows say how much of each path ran on a CPU" "$C/tree/all.html" \
		'class="figs">70.0 ms · self 40.0 ms · on a CPU 40.0 ms · 10 calls<'
	has "cpu: the flame graph's data file has each path's time on a CPU, for the tree page" \
		"$C/flame/all.data.js" '^"cpu":\[60200000,40000000,25000000,'
	has "cpu: the flame graph links to the one of CPU time" "$C/flame/all.html" \
		'id="time-switch">Time: <strong>wall</strong> &middot; <a href="all-cpu.html" id="to-cpu">'
	has "cpu: the flame graph of CPU time links back" "$C/flame/all-cpu.html" \
		'<a href="all.html" id="to-wall">wall</a>'
	has "cpu: the flame graph of CPU time weighs the CPU time, 60.2 ms" "$C/flame/all-cpu.data.js" \
		'"whole":60200000,"total":60200000'
	has "cpu: summary.md says how much ran on a CPU" "$C/summary.md" \
		'^- On a CPU: 60.2 ms of the 92.5 ms profiled \(65.1%\); off it \(blocked, asleep, waiting to run\): 32.3 ms$'
else
	fail "report a dump with CPU time" "$(head -c 300 "$W/cpu.err")"
fi
if grep -l -e 'id="cpu"' -e 'CPU time</dt>' -e 'CPU self</th>' -e '>On a CPU</th>' -e 'on a CPU' \
	"$S/index.html" "$S"/fn/*/*.html "$S"/tree/*.html >"$W/cpu-none.txt" ||
	grep -l '"cpu":' "$S"/flame/*.data.js >>"$W/cpu-none.txt" || [ -e "$S/flame/all-cpu.html" ]; then
	fail "without CPU time no page speaks of it" "in $(tr '\n' ' ' <"$W/cpu-none.txt")"
else
	ok "without CPU time no page speaks of it"
fi
"$CP" top -n 1 --sort offcpu "$FIX/c-cpu.json" >"$W/cpu-top.txt" 2>&1
has "cpu: top sorts by self time off the CPU, with CPU and off-CPU columns" "$W/cpu-top.txt" \
	'^ +10 +40.0 ms +70.0 ms +10.0 ms +30.0 ms +7.00 ms +43.2  compute$'
"$CP" top -n 1 --sort cpu --format json "$FIX/c-cpu.json" >"$W/cpu-top.json" 2>&1
got=$(jq -c '[.tables[0].functions[0] | .name, .cpu_ns, .cpu_self_ns]' "$W/cpu-top.json" 2>&1)
[ "$got" = '["fib",25000000,25000000]' ] && ok "cpu: top --sort cpu, JSON with the CPU figures" ||
	fail "cpu: top --sort cpu, JSON with the CPU figures" "$got"
"$CP" merge -o "$W/cpu-merged.json" "$FIX/c-cpu.json" "$FIX/c-cpu.json" >/dev/null 2>"$W/cpu-merge.err"
got=$(jq -c '[(.threads[0].functions[] | select(.fn == 3) | .cpu_calls, .cpu_ns, .cpu_self_ns),
	(.threads[0].tree | (.columns | index("cpu_self_ns")) as $k | .rows[3][$k]),
	(.threads[0].edges[] | select(.caller == 0 and .callee == 5) | .cpu_calls, .cpu_ns, .cpu_self_ns)]' "$W/cpu-merged.json")
if [ "$got" = '[10,40000000,10000000,10000000,2,700000,200000]' ] && report cpu-twice "$W/cpu-merged.json" &&
	grep -q 'id="fig-offcpu" data-v="60000000">' "$W/site-cpu-twice/fn/0/3.html" &&
	tr '\n' ' ' <"$W/site-cpu-twice/fn/0/0.html" | grep -q '>write_output</a></td><td class="num" data-v="4">4</td><td class="num" data-v="3000000">3.00 ms</td><td class="num" data-v="1400000">'; then
	ok "cpu: a merged dump keeps the CPU figures, which add up over dumps"
else
	fail "cpu: a merged dump keeps the CPU figures, which add up over dumps" "$got $(cat "$W/cpu-merge.err")"
fi
for bad in '.threads[0].functions[3].cpu_ns = 70000001' '.threads[0].tree.rows[3][9] = 40000001' \
	'.threads[0].edges[7].cpu_self_ns = 1000001'; do
	jq "$bad" "$FIX/c-cpu.json" >"$W/cpu-bad.json"
	refused "more CPU time than time ($bad)" "$W/cpu-bad.json" "cpu.* above .* in '.*cpu-bad.json'"
done

# ---- hostile names ------------------------------------------------------------------------
H=$W/site-cpp-hostile
pages=$(find "$H" -name '*.html' | sort)
# shellcheck disable=SC2086
if grep -l -e '<script>alert' -e '<b>main</b>' -e '<i>x</i>' -e '<evil>' $pages >"$W/hostile.txt"; then
	fail "hostile names never appear as markup" "in $(tr '\n' ' ' <"$W/hostile.txt")"
else
	ok "hostile names never appear as markup"
fi
has "<script> name escaped on the index" "$H/index.html" '&lt;script&gt;alert\(1\)&lt;/script&gt;'
has "<script> name escaped on its page" "$H/fn/0/1.html" '<h1 class="fn-name"><code>&lt;script&gt;alert\(1\)&lt;/script&gt;</code></h1>'
has "operator<< escaped" "$H/index.html" 'operator&lt;&lt;\(std::ostream&amp;, Point const&amp;\)'
has "a&b escaped" "$H/index.html" '>a&amp;b</a>'
has "std::vector<int> escaped" "$H/index.html" 'std::vector&lt;int, std::allocator&lt;int&gt; &gt;::push_back'
has "hostile names escaped in the flame graph titles" "$H/flame/all.html" '<title>&lt;script&gt;alert\(1\)'
has "hostile file names escaped" "$H/fn/0/1.html" 'src/&lt;evil&gt;.cpp:66'
has "summary.md keeps names in code spans" "$H/summary.md" '`<script>alert\(1\)</script>`'
has "the rendered summary shows the name as code" "$H/index.html" '<code>&lt;script&gt;alert\(1\)&lt;/script&gt;</code>'
# shellcheck disable=SC2086
if grep -l -i -E 'href="javascript|<script>|<script [^>]*>[^<]| style=|<style| on[a-z]+="' $pages >"$W/inline.txt"; then
	fail "no inline script, style or handler" "in $(tr '\n' ' ' <"$W/inline.txt")"
else
	ok "no inline script, style or handler"
fi
n_pages=$(echo "$pages" | wc -l)
# shellcheck disable=SC2086
n_csp=$(grep -l "Content-Security-Policy\" content=\"default-src 'none'; script-src 'self'" $pages | wc -l)
if [ "$n_pages" -eq "$n_csp" ]; then ok "every page has the Content-Security-Policy"; else
	fail "every page has the Content-Security-Policy" "$n_csp of $n_pages pages"; fi
# shellcheck disable=SC2086
if grep -l -E '(src|href)="(https?:|//)' $pages >"$W/remote.txt"; then
	fail "nothing remote" "in $(tr '\n' ' ' <"$W/remote.txt")"
else
	ok "nothing remote"
fi

# ---- the tree rows read ahead of json-c give the same pages as json-c's ------------------
# A string column makes rowscan leave the rows to json-c.
sed -e 's/"raw_self_ns"\]/"raw_self_ns", "note"]/' -e 's/^\(          \[[0-9].*\)\]\(,\{0,1\}\)$/\1, "n"]\2/' \
	"$FIX/c-small.json" >"$W/c-small-slow.json"
if grep -q '"n"\]' "$W/c-small-slow.json" && "$CP" report -o "$W/site-slow" "$W/c-small-slow.json" >/dev/null 2>"$W/slow.err"; then
	normalise "$W/site-slow" "$W/norm-slow"
	sed -i 's|>[^<>]*c-small-slow.json<|>tests/report/fixtures/c-small.json<|' "$W/norm-slow/index.html" "$W/norm-slow/thread/t0.html"
	if diff -r "$W/norm-c-small" "$W/norm-slow" >"$W/slow.diff"; then ok "fast and json-c tree rows agree"; else
		fail "fast and json-c tree rows agree" "$(head -n 4 "$W/slow.diff" | tr '\n' ' ')"; fi
else
	fail "fast and json-c tree rows agree" "cannot report the json-c variant: $(head -c 200 "$W/slow.err")"
fi

# ---- bad input ----------------------------------------------------------------------------
BAD=$W/bad
mkdir -p "$BAD" "$BAD/adir.json"
printf 'hello, not json\n' >"$BAD/notjson.json"
: >"$BAD/empty.json"
sed 's/"format": "callprof"/"format": "gprof"/' "$FIX/c-small.json" >"$BAD/format.json"
sed 's/"version": 1/"version": 2/' "$FIX/c-small.json" >"$BAD/version.json"
head -c 3000 "$FIX/c-small.json" >"$BAD/truncated.json"
sed 's/"fn": 3, "calls": 10,/"fn": 3, "calls": "ten",/' "$FIX/c-small.json" >"$BAD/wrongtype.json"
sed 's/"caller": 5, "callee": 2,/"caller": 5, "callee": 99,/' "$FIX/c-small.json" >"$BAD/badid.json"
sed 's/\[8, 7, 2, 5,/[8, 42, 2, 5,/' "$FIX/c-small.json" >"$BAD/badparent.json"
sed 's/\[5, 4, 4, 200,/[5, 5, 4, 200,/' "$FIX/c-small.json" >"$BAD/selfparent.json"
sed 's/"threads": \[/"threads": 7, "x": [/' "$FIX/c-small.json" >"$BAD/threadsnotarray.json"
{ cat "$FIX/c-small.json"; echo '{}'; } >"$BAD/trailing.json"
sed 's/"fenced_calls": 16 }/"fenced_calls": -16 }/' "$FIX/c-adaptive.json" >"$BAD/fencednegative.json"
sed 's/"fenced_calls": 16 }/"fenced_calls": 5001 }/' "$FIX/c-adaptive.json" >"$BAD/fencedovercalls.json"
sed 's/"fenced_calls": 16 }/"fenced_calls": "16" }/' "$FIX/c-adaptive.json" >"$BAD/fencedstring.json"
cp -r "$W/site-c-small" "$BAD/site"
snapshot "$BAD/site" >"$BAD/before.txt"
for c in missing:"No such file" notjson:"not valid JSON" empty:"empty" adir:"directory" \
	format:"not a callprof dump" version:"version 2" truncated:"truncated" \
	wrongtype:"non-negative integer" badid:"not in functions" badparent:"not an earlier row" \
	selfparent:"not an earlier row" threadsnotarray:"expected an array, not an integer, at threads" trailing:"not valid JSON" \
	fencednegative:"non-negative integer, not -16, at threads\[0\]\.functions\[6\]\.fenced_calls" \
	fencedovercalls:"fenced_calls 5001 is more than calls 5000 at threads\[0\]\.functions\[6\]\.fenced_calls" \
	fencedstring:"non-negative integer, not \"16\", at threads\[0\]\.functions\[6\]\.fenced_calls"; do
	name=${c%%:*}
	want=${c#*:}
	f=$BAD/$name.json
	"$CP" report -o "$BAD/site" "$f" >"$BAD/$name.out" 2>"$BAD/$name.err"
	rc=$?
	"$CP" report -o "$BAD/new-$name" "$f" >/dev/null 2>&1
	lines=$(wc -l <"$BAD/$name.err")
	if [ "$rc" -ne 2 ]; then
		fail "bad input $name" "exit status $rc, not 2"
	elif [ "$lines" -ne 1 ] || ! grep -q "^callprof: .*'$f'" "$BAD/$name.err"; then
		fail "bad input $name" "want one line naming '$f', got: $(head -c 300 "$BAD/$name.err")"
	elif ! grep -q -- "$want" "$BAD/$name.err"; then
		fail "bad input $name" "no '$want' in: $(cat "$BAD/$name.err")"
	elif ! snapshot "$BAD/site" | cmp -s - "$BAD/before.txt"; then
		fail "bad input $name" "the existing site changed"
	elif [ -e "$BAD/new-$name" ] || ls -a "$BAD" | grep -q 'tmp-'; then
		fail "bad input $name" "something was written: $(ls -a "$BAD" | grep -e 'tmp-' -e "new-$name")"
	elif [ -s "$BAD/$name.out" ]; then
		fail "bad input $name" "printed to stdout: $(head -c 100 "$BAD/$name.out")"
	else
		ok "bad input $name: $(cat "$BAD/$name.err")"
	fi
done
"$CP" top "$BAD/truncated.json" >/dev/null 2>"$BAD/top.err"
rc=$?
if [ $rc -eq 2 ] && [ "$(wc -l <"$BAD/top.err")" -eq 1 ]; then ok "top: bad input exits 2 with one line"; else
	fail "top: bad input exits 2 with one line" "status $rc: $(cat "$BAD/top.err")"; fi

# Cut anywhere, a dump is refused cleanly (exit 2, one line), never a crash under the sanitizers.
size=$(wc -c <"$FIX/c-small.json")
off=1
bad_cuts=""
while [ "$off" -lt "$size" ]; do
	head -c "$off" "$FIX/c-small.json" >"$BAD/cut.json"
	"$CP" top "$BAD/cut.json" >/dev/null 2>"$BAD/cut.err"
	rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <"$BAD/cut.err")" -eq 1 ] || bad_cuts="$bad_cuts $off:$rc"
	off=$((off + 61))
done
if [ -z "$bad_cuts" ]; then ok "a dump cut at any of $((size / 61)) points is refused cleanly"; else
	fail "a dump cut at any point is refused cleanly" "offset:status$bad_cuts"; fi

# ---- edge cases: nothing ran; recursion far deeper than a page can show ---------------------
printf '{"format":"callprof","version":1,"functions":[],"threads":[]}\n' >"$W/empty.json"
if "$CP" report -o "$W/site-empty" "$W/empty.json" >/dev/null 2>"$W/empty.err" &&
	node tests/report/linkcheck.js "$W/site-empty" 0 >/dev/null; then
	ok "a dump where nothing ran gives a site"
else
	fail "a dump where nothing ran gives a site" "$(head -c 300 "$W/empty.err")"
fi
awk 'BEGIN {
	n = 20000
	printf "{\"format\":\"callprof\",\"version\":1,\"functions\":[{\"id\":0,\"name\":\"main\"},{\"id\":1,\"name\":\"recurse\"}],"
	printf "\"threads\":[{\"tid\":1,\"functions\":[{\"fn\":0,\"calls\":1,\"inclusive_ns\":%d,\"self_ns\":10},", n * 10
	printf "{\"fn\":1,\"calls\":%d,\"inclusive_ns\":%d,\"self_ns\":%d}],\"edges\":[", n - 1, (n - 1) * 10, (n - 1) * 10
	printf "{\"caller\":null,\"callee\":0,\"calls\":1,\"inclusive_ns\":%d,\"self_ns\":10},", n * 10
	printf "{\"caller\":0,\"callee\":1,\"calls\":1,\"inclusive_ns\":%d,\"self_ns\":10},", (n - 1) * 10
	printf "{\"caller\":1,\"callee\":1,\"calls\":%d,\"inclusive_ns\":%d,\"self_ns\":%d}],", n - 2, (n - 2) * 10, (n - 2) * 10
	printf "\"tree\":{\"columns\":[\"id\",\"parent\",\"fn\",\"calls\",\"inclusive_ns\",\"self_ns\"],\"rows\":[[0,null,0,1,%d,10]", n * 10
	for (i = 1; i < n; i++) printf ",[%d,%d,1,1,%d,10]", i, i - 1, (n - i) * 10
	printf "]}}]}\n"
}' >"$W/deep.json"
if "$CP" report -o "$W/site-deep" "$W/deep.json" >/dev/null 2>"$W/deep.err"; then
	has "deep recursion: the tree says what it hid" "$W/site-deep/tree/all.html" 'or nested deeper than 200 levels'
	has "deep recursion: the function page counts its paths" "$W/site-deep/fn/0/1.html" '19,999 distinct call paths reach this function'
else
	fail "deep recursion" "$(head -c 300 "$W/deep.err")"
fi

# ---- options and the output directory -------------------------------------------------
printf '# Run notes\n\nBuilt with **-O2**. <script>alert(3)</script> [bad](javascript:alert(4)) <b>raw</b>\n' >"$W/notes.md"
if "$CP" report -o "$W/site-opts" --title 'Nightly <build> & co' --notes "$W/notes.md" "$FIX/c-small.json" >/dev/null 2>"$W/opts.err"; then
	I=$W/site-opts/index.html
	has "--title sets the title, escaped" "$I" '<title>Overview · Nightly &lt;build&gt; &amp; co</title>'
	has "--notes is rendered" "$I" '<strong>-O2</strong>'
	if grep -q -e '<script>alert(3)' -e 'href="javascript' -e '<b>raw</b>' "$I"; then
		fail "--notes raw HTML and javascript: links are dropped" "found in $I"
	else
		ok "--notes raw HTML and javascript: links are dropped"
	fi
else
	fail "--title and --notes" "$(cat "$W/opts.err")"
fi
mkdir -p "$W/tpl"
printf '<!DOCTYPE html><html><head><title>{{title}}</title></head><body class="restyled">{{nav}}{{body}}</body></html>\n' >"$W/tpl/page.html"
printf '/* restyled */\n' >"$W/tpl/style.css"
if "$CP" report -o "$W/site-tpl" --templates "$W/tpl" "$FIX/c-small.json" >/dev/null 2>"$W/tpl.err" &&
	grep -q 'body class="restyled"' "$W/site-tpl/fn/0/3.html" && grep -q restyled "$W/site-tpl/static/style.css" &&
	grep -q 'id="flat-table"' "$W/site-tpl/index.html"; then
	ok "--templates overrides templates and static files"
else
	fail "--templates overrides templates and static files" "$(head -c 200 "$W/tpl.err")"
fi
# A second report replaces the first, leaving nothing beside it.
if "$CP" report -o "$W/site-opts" --title Second "$FIX/c-small.json" >/dev/null 2>&1 &&
	grep -q '<title>Overview · Second</title>' "$W/site-opts/index.html" && ! ls -a "$W" | grep -q 'tmp-'; then
	ok "a new report replaces an old one in place"
else
	fail "a new report replaces an old one in place" "$(ls -a "$W" | grep tmp-)"
fi
mkdir -p "$W/notreport"
: >"$W/notreport/keep.txt"
"$CP" report -o "$W/notreport" "$FIX/c-small.json" >/dev/null 2>"$W/notreport.err"
rc=$?
if [ $rc -eq 1 ] && [ -e "$W/notreport/keep.txt" ] && [ ! -e "$W/notreport/index.html" ]; then
	ok "a directory that is not a report is left alone: $(cat "$W/notreport.err")"
else
	fail "a directory that is not a report is left alone" "status $rc"
fi
for args in "report" "report --bogus $FIX/c-small.json" "top" "top -n many $FIX/c-small.json" "nosuchcommand"; do
	# shellcheck disable=SC2086
	"$CP" $args >/dev/null 2>&1
	rc=$?
	if [ $rc -eq 1 ]; then ok "usage error exits 1: $args"; else fail "usage error exits 1: $args" "status $rc"; fi
done
if "$CP" report --help | grep -q '^usage: callprof report' && "$CP" top --help | grep -q '^usage: callprof top'; then
	ok "--help"
else
	fail "--help" "no usage on stdout"
fi

# ---- top ---------------------------------------------------------------------------------
"$CP" top "$FIX/c-small.json" >"$W/top.txt" 2>&1
if sed -n 3p "$W/top.txt" | grep -q '^ *calls *self *inclusive *avg *% *name$' &&
	sed -n 4p "$W/top.txt" | grep -q '^ *10  *40.0 ms  *70.0 ms  *7.00 ms  *43.2  compute$' &&
	[ "$(wc -l <"$W/top.txt")" -eq 10 ]; then
	ok "top prints the flat profile by self time"
else
	fail "top prints the flat profile by self time" "$(head -n 5 "$W/top.txt" | tr '\n' '|')"
fi
"$CP" top -n 2 "$FIX/c-small.json" >"$W/top2.txt" 2>&1
if [ "$(grep -c 'ms  ' "$W/top2.txt")" -eq 2 ] && grep -q '^(5 more functions)$' "$W/top2.txt"; then
	ok "top -n limits the rows"
else
	fail "top -n limits the rows" "$(tr '\n' '|' <"$W/top2.txt")"
fi
"$CP" top "$FIX/merge-a.json" "$FIX/merge-b.json" >"$W/top-merge.txt" 2>&1
if grep -q '^ *8  .*  work$' "$W/top-merge.txt" && grep -q '^ *8  .*  helper (a.c)$' "$W/top-merge.txt" &&
	grep -q '^ *2  .*  helper (b.c)$' "$W/top-merge.txt" && grep -q '^2 dumps, 2 threads, 21 calls' "$W/top-merge.txt"; then
	ok "top merges dumps by module and name"
else
	fail "top merges dumps by module and name" "$(tr '\n' '|' <"$W/top-merge.txt")"
fi
"$CP" top "$FIX/cpp-hostile.json" >"$W/top-hostile.txt" 2>&1
if grep -q 'operator<<(std::ostream&, Point const&)$' "$W/top-hostile.txt" && ! grep -q "$(printf '\033')" "$W/top-hostile.txt"; then
	ok "top prints names as they are"
else
	fail "top prints names as they are" "$(head -n 6 "$W/top-hostile.txt" | tr '\n' '|')"
fi

# ---- a large synthetic dump (the optimised build: ASan would only slow it down) -----------
sh tests/report/gen-dump.sh 2000 100000 2 >"$W/big.json"
if "$B/callprof" report -o "$W/site-big" "$W/big.json" >/dev/null 2>"$W/big.err"; then
	n=$(find "$W/site-big/fn" -name '*.html' | wc -l)
	if [ "$n" -eq 2000 ]; then ok "large dump: 2000 function pages"; else fail "large dump: 2000 function pages" "$n pages"; fi
	check "large dump: links" node tests/report/linkcheck.js "$W/site-big" 2000
	has "large dump: the tree says what it hid" "$W/site-big/tree/all.html" 'id="pruned">Showing [0-9,]+ of [0-9,]+ call paths: [0-9,]+ paths lighter than'
else
	fail "large dump" "$(head -c 300 "$W/big.err")"
fi
exit 0
