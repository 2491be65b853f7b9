#!/bin/sh
# tests/diff/t-runs.sh: `callprof diff` over repeated runs.  Hand-made runs with exact figures
# (tests/diff/gen-run.js): medians per workload added up, the noise that keeps a gate from
# tripping on one disturbed run, a clean change that trips it, the calls gate, run directories,
# the waits for a CPU taken out.  Then a real program with three copies of one static function
# (tests/diff/statics), run twice in different orders: each copy keeps its own calls when the
# runs merge (report, top, merge, export), and the two runs diff as unchanged (issue 16, item 20).
set -u
. "$TOP/tests/lib.sh"
cd "$TOP"
workdir runs
build build "$W/build.log" all && build_san build "$W/build.log" || exit 1
CP=$SAN_B/callprof

# side DIR ARG CALLS MS...: one dump per figure, runs of `prog ARG` whose work took MS ms.
side() {
	_d=$1 _a=$2 _c=$3
	shift 3
	mkdir -p "$_d"
	_i=0
	for _ms in "$@"; do
		_i=$((_i + 1))
		node tests/diff/gen-run.js "$_d/$_a-$_i.json" "$_a" "$((_ms * 1000000))" "$_c"
	done
}
# work_cells SITE: the calls and inclusive cells of work's row in the functions table.
work_row() {
	sed -n '/id="functions-table"/,/<\/table>/p' "$1" | grep '>work</a>'
}

# ---- medians per workload, added up ------------------------------------------------------------
# Workload "w": five runs, one disturbed (50 ms); workload "x": three steady runs of 5 ms.
side "$W/base" w 100 10 11 12 13 50
side "$W/base" x 10 5 5 5
side "$W/new" w 100 12 13 14 15 60
side "$W/new" x 10 5 5 5
diffrun medians "$W/base" "$W/new" --fail-above 10 --min-time 1ms
status "two workloads, five and three runs a side: exit 0" 0
has "a side is 8 runs of 2 workloads" "$W/site-medians/index.html" 'Base \(merged\)</dt><dd>8 runs of 2 workloads: '
has "work in a typical run: the medians 12 and 5 ms added up, against 14 and 5" "$W/site-medians/index.html" \
	'>work</a></td><td class="num pair" data-v="110" data-before="110">110 → 110</td><td class="num pair" data-v="19000000" data-before="17000000">17.0 ms → 19.0 ms</td>'
has "the disturbed run leaves a noise the 2 ms change is within" "$W/site-medians/index.html" \
	'>work</a>.*<td class="num change up noise" data-v="2000000" data-ratio="0.117647" title="within the noise of the runs: ±15.2 ms">'
has "the gate passed: +11.8% is above 10% and 1 ms, but within 3 times the noise" "$W/site-medians/index.html" \
	'<section id="gate" class="gate passed">'
has "summary.md: no regression beyond the noise" "$W/site-medians/summary.md" \
	"^No function's self time grew by more than 1.00 ms beyond the noise of the runs\\.\$"
diffrun no-noise "$W/base" "$W/new" --fail-above 10 --min-time 1ms --noise 0
status "--noise 0: the same change trips the gate (exit 3)" 3
same "--noise 0: the gate's lines (main holds work)" "$W/no-noise.err" \
	"callprof diff: main: inclusive 19.0 ms -> 21.0 ms (+10.5%, +2.00 ms), above 10% and 1.00 ms
callprof diff: work: inclusive 17.0 ms -> 19.0 ms (+11.8%, +2.00 ms), above 10% and 1.00 ms"
side "$W/steady-base" w 100 10 10 10 10 10
side "$W/steady-new" w 100 20 20 20 20 20
diffrun steady "$W/steady-base" "$W/steady-new" --fail-above 25 --min-time 5ms
status "steady runs, twice the time: the gate trips" 3
same "steady runs: the gate's lines" "$W/steady.err" \
	"callprof diff: main: inclusive 11.0 ms -> 21.0 ms (+90.9%, +10.0 ms), above 25% and 5.00 ms
callprof diff: work: inclusive 10.0 ms -> 20.0 ms (+100.0%, +10.0 ms), above 25% and 5.00 ms"

# ---- the calls gate ------------------------------------------------------------------------------
side "$W/calls-new" w 120 12 13 14 15 60
side "$W/calls-new" x 10 5 5 5
diffrun calls "$W/base" "$W/calls-new" --fail-on-calls 10
status "calls 110 -> 130 trip --fail-on-calls 10" 3
same "the calls gate's line" "$W/calls.err" "callprof diff: work: calls 110 -> 130 (+18.2%), above 10%"
has "summary.md names the calls gate" "$W/site-calls/summary.md" '^- Gate \(calls up by more than 10%, beyond 3× the noise\): \*\*1 function tripped it\*\*: `work`$'
diffrun calls-above "$W/base" "$W/calls-new" --fail-on-calls 20
status "calls 110 -> 130 pass --fail-on-calls 20" 0
diffrun calls-same "$W/base" "$W/new" --fail-on-calls 0
status "the same calls pass --fail-on-calls 0" 0

# ---- run directories: all of a run's dumps add up -------------------------------------------------
for r in 1 2 3; do
	mkdir -p "$W/dirs/run-$r"
	node tests/diff/gen-run.js "$W/dirs/run-$r/w.json" w $(((9 + r) * 1000000)) 100
	node tests/diff/gen-run.js "$W/dirs/run-$r/x.json" x 5000000 10
done
diffrun dirs "$W/dirs" "$W/dirs" --fail-above 0 --min-time 0 --fail-on-calls 0
status "a directory of run directories against itself: exit 0" 0
has "each subdirectory is a run, all of one workload" "$W/site-dirs/index.html" 'New \(merged\)</dt><dd>3 runs of 1 workload: '
has "a run is its dumps added up: work 100 + 10 calls, median 11 + 5 ms" "$W/site-dirs/index.html" \
	'>work</a></td><td class="num pair" data-v="110" data-before="110">110 → 110</td><td class="num pair" data-v="16000000" data-before="16000000">'
# Sampled timing: one run a side, whose estimates have standard errors of their own (4 ms): the
# doubled time is within 3 times their noise, so the gate passes where the same runs without
# errors trip it (above).
for _s in base new; do
	jq '.clock += {timing: "sampled", sample_rate: 64, timed_first: 64} |
		.threads[].functions |= map(. + {timed_calls: ([.calls, 70] | min),
			inclusive_se_ns: 4000000, self_se_ns: 4000000})' "$W/steady-$_s/w-1.json" >"$W/sampled-$_s.json"
done
diffrun sampled "$W/sampled-base.json" "$W/sampled-new.json" --fail-above 25 --min-time 5ms
status "sampled timing: a change within the estimates' errors passes the gate" 0
has "sampled timing: the change is marked within the noise, the estimates' errors summed" \
	"$W/site-sampled/index.html" \
	'>work</a>.*<td class="num change up noise" data-v="10000000" data-ratio="1" title="within the noise of the runs: ±5.66 ms">'

# ---- waits for a CPU ---------------------------------------------------------------------------
# The base's thread waited half of its 21 ms wall for a CPU: its work of 20 ms counts 10 ms.
node tests/diff/gen-run.js "$W/waited.json" w 20000000 100 10500000
node tests/diff/gen-run.js "$W/quiet.json" w 10000000 100 0
diffrun waits "$W/waited.json" "$W/quiet.json" --fail-above 10 --min-time 1ms
status "a wait taken out: no change, the gate passes" 0
has "the work's time without its wait" "$W/site-waits/index.html" \
	'>work</a></td><td class="num pair" data-v="100" data-before="100">100 → 100</td><td class="num pair" data-v="10000000" data-before="10000000">10.0 ms → 10.0 ms</td>'
has "the index says how much was waited and that it was taken out" "$W/site-waits/index.html" \
	'Waits for a CPU</dt><dd>50.0% of the threads.* wall time before, 0% after: taken out of the times compared'
diffrun wall-clock "$W/waited.json" "$W/quiet.json" --fail-above 10 --min-time 1ms --wall-clock
status "--wall-clock keeps the wait: the base looks slower" 0
has "--wall-clock: the work's time as measured" "$W/site-wall-clock/index.html" \
	'>work</a></td><td class="num pair" data-v="100" data-before="100">100 → 100</td><td class="num pair" data-v="10000000" data-before="20000000">20.0 ms → 10.0 ms</td>'
# Probes cost more than the work (jq: 100 million calls): the 10 ms wait lies spread over the
# 81 ms measured, probes included, so it is 10/21 of the 21 ms compensated: work's 20 ms counts
# 20 x 11/21 = 10.48 ms (taking out 10/81 of it would leave 17.5 ms, +75%: a tripped gate).
node tests/diff/gen-run.js "$W/waited-probes.json" w 20000000 100 10000000 60000000
node tests/diff/gen-run.js "$W/quiet-probes.json" w 10000000 100 0 60000000
diffrun waits-probes "$W/waited-probes.json" "$W/quiet-probes.json" --fail-above 10 --min-time 1ms
status "a wait taken out where the probes cost most of the run: the gate passes" 0
has "the work's time without its wait, probes and all: 10.5 ms against 10.0 ms" "$W/site-waits-probes/index.html" \
	'>work</a></td><td class="num pair" data-v="100" data-before="100">100 → 100</td><td class="num pair" data-v="10000000" data-before="10476190">10.5 ms → 10.0 ms</td>'

# ---- three copies of one static function, two runs in two orders ---------------------------------
if ! cc -finstrument-functions -g -O2 tests/diff/statics/*.c -o "$W/dup" 2>"$W/cc.err"; then
	fail "build the statics program" "$(head -n 3 "$W/cc.err" | tr '\n' ' ')"
	exit 1
fi
if ! "$B/callprof" record -o "$W/dup-abc.json" -- "$W/dup" abc >/dev/null 2>&1 ||
	! "$B/callprof" record -o "$W/dup-cba.json" -- "$W/dup" cba >/dev/null 2>&1; then
	fail "record the statics program" "callprof record failed"
	exit 1
fi
"$CP" report -o "$W/site-dup" "$W/dup-abc.json" "$W/dup-cba.json" >/dev/null 2>"$W/dup.err"
# helper_calls SITE CALLER: the calls of CALLER's callee helper, from CALLER's page.
helper_calls() {
	_p=$(grep -l "<h1 class=\"fn-name\"><code>$2</code>" "$1"/fn/*/*.html)
	sed -n '/id="callees"/,/<\/table>/p' "$_p" | grep '>helper</a>' | sed 's/.*<\/a>\(<\/td>\| <span[^>]*>[^<]*<\/span><\/td>\)<td class="num" data-v="\([0-9]*\)".*/\2/'
}
for c in "run_a 20" "run_b 2000" "run_c 40"; do
	got=$(helper_calls "$W/site-dup" "${c% *}")
	if [ "$got" = "${c#* }" ]; then ok "merged runs: ${c% *}'s copy of helper has its own ${c#* } calls"; else
		fail "merged runs: ${c% *}'s copy of helper has its own ${c#* } calls" "got '$got'"; fi
done
n=$(grep -c '>helper</a> <span class="fn-file" title="[^"]*dup.h">dup.h:[0-9]* @0x[0-9a-f]*</span>' "$W/site-dup/index.html")
if [ "$n" -ge 3 ]; then ok "the index tells the three copies apart (file:line and offset)"; else
	fail "the index tells the three copies apart (file:line and offset)" "$n rows"; fi
"$CP" top "$W/dup-abc.json" "$W/dup-cba.json" >"$W/dup-top.txt" 2>&1
if [ "$(grep -c ' helper (dup.h:[0-9]* @0x[0-9a-f]*)$' "$W/dup-top.txt")" -eq 3 ] &&
	grep -Eq '^ +2,000 .* helper \(dup\.h' "$W/dup-top.txt" && grep -Eq '^ +20 .* helper \(dup\.h' "$W/dup-top.txt"; then
	ok "top: three copies, 2,000, 40 and 20 calls"
else
	fail "top: three copies, 2,000, 40 and 20 calls" "$(grep helper "$W/dup-top.txt" | tr '\n' '|')"
fi
diffrun dup "$W/dup-abc.json" "$W/dup-cba.json" --fail-on-calls 0
status "the two orders diff with no change of calls: --fail-on-calls 0 passes" 0
rows=$(sed -n '/id="functions-table"/,/<\/table>/p' "$W/site-dup/index.html" | grep -c '^<tr>')
equal=$(sed -n '/id="functions-table"/,/<\/table>/p' "$W/site-dup/index.html" | grep '^<tr>' |
	grep -c '<td class="num pair" data-v="\([0-9]*\)" data-before="\1">')
if [ "$rows" -ge 7 ] && [ "$rows" -eq "$equal" ]; then ok "every function, each copy of helper too, has the same calls on both sides"; else
	fail "every function, each copy of helper too, has the same calls on both sides" "$equal of $rows rows"; fi
has "no function appeared or vanished" "$W/site-dup/index.html" '<a href="#appeared">0 appeared</a>, <a href="#vanished">0 vanished</a>'
check "links of the statics diff" node tests/report/linkcheck.js "$W/site-dup"

# callprof merge and callprof export pair the copies by the same rule (report/fnid.h).
# helper_edges DUMP: "CALLER CALLS" for each caller of a function named helper, all threads added.
helper_edges() {
	jq -r '([.functions[] | {key: (.id | tostring), value: .name}] | from_entries) as $n |
		[.threads[].edges[] | select($n[.callee | tostring] == "helper") | {c: $n[.caller | tostring], k: .calls}] |
		group_by(.c) | map("\(.[0].c) \(map(.k) | add)") | join(" ")' "$1"
}
if "$CP" merge -o "$W/dup-merged.json" "$W/dup-abc.json" "$W/dup-cba.json" 2>"$W/dup-merge.err"; then
	n=$(jq '[.functions[] | select(.name == "helper")] | length' "$W/dup-merged.json")
	got=$(helper_edges "$W/dup-merged.json")
	if [ "$n" = 3 ] && [ "$got" = "run_a 20 run_b 2000 run_c 40" ]; then
		ok "merge of the two orders: three copies of helper, 20, 2,000 and 40 calls from their callers"
	else
		fail "merge of the two orders: three copies of helper, 20, 2,000 and 40 calls from their callers" "$n copies: $got"
	fi
else
	fail "merge of the two orders" "$(cat "$W/dup-merge.err")"
fi
"$CP" merge -o "$W/dup-merged2.json" "$W/dup-cba.json" "$W/dup-merged.json" 2>>"$W/dup-merge.err"
got=$(helper_edges "$W/dup-merged2.json")
if [ "$got" = "run_a 30 run_b 3000 run_c 60" ]; then ok "a merged dump merged again with a run: each copy adds its own (30, 3,000, 60)"; else
	fail "a merged dump merged again with a run: each copy adds its own (30, 3,000, 60)" "$got"; fi
# callgrind: "fn=(N) NAME" (later "fn=(N)" alone) then "LINE SELF CALLS" (and CPU, when the
# dumps measured it): a function's own cost.
if "$CP" export --format callgrind -o "$W/dup.callgrind" "$W/dup-abc.json" "$W/dup-cba.json" 2>"$W/dup-export.err"; then
	got=$(awk '/^c?fn=\([0-9]+\) / { id = $1; sub(/^c/, "", id); name[id] = substr($0, index($0, " ") + 1) }
		/^fn=/ { f = (name[$1] ~ /^helper \(dup\.h:[0-9]+ @0x[0-9a-f]+\)$/); next }
		/^(cob|cfi|cfn|calls)=/ { f = 0 }
		f && /^[0-9]+ [0-9]+ [0-9]+( [0-9]+)?$/ { print $3; f = 0 }' "$W/dup.callgrind" | sort -n | tr '\n' ' ')
	if [ "$got" = "20 40 2000 " ]; then ok "export of the two orders: three copies of helper with 20, 40 and 2,000 calls"; else
		fail "export of the two orders: three copies of helper with 20, 40 and 2,000 calls" "got '$got'"; fi
else
	fail "export of the two orders" "$(cat "$W/dup-export.err")"
fi
exit 0
