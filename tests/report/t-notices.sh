#!/bin/sh
# tests/report/t-notices.sh: what the report says about the trust a profile deserves, from
# fixtures/degraded.json: calls dropped (in a signal handler, for lack of room), calls made
# before their module's filter verdicts, activations
# resynchronised, unmatched exits, calls open at thread exit and at the dump, paths folded at
# the node budget (with its size and the first folded function), clamped figures; the probes'
# cost subtracted from each function, a warning where it exceeds the function's own time, and
# figures that compensation took more than half of.
set -u
. "$TOP/tests/lib.sh"
cd "$TOP"
FIX=tests/report/fixtures
workdir report-notices
build_san build "$W/build.log"
CP=$SAN_B/callprof
if ! "$CP" report -o "$W/site" "$FIX/degraded.json" >/dev/null 2>"$W/err"; then
	fail "report degraded.json" "$(head -c 300 "$W/err")"
	exit 1
fi
S=$W/site

# has NAME FILE PATTERN: the page FILE, tags stripped, holds the extended regular expression PATTERN.
has() {
	if sed 's/<[^>]*>//g' "$2" | grep -Eq -- "$3"; then ok "$1"; else fail "$1" "no /$3/ in $2"; fi
}
# has_html NAME FILE PATTERN: the same on the HTML itself.
has_html() {
	if grep -Eq -- "$3" "$2"; then ok "$1"; else fail "$1" "no /$3/ in $2"; fi
}

# ---- the index: every thread's notices, with a link to the thread -------------------------
I=$S/index.html
has "dropped calls, split by cause" "$I" \
	'thread 1 \(tid 300, main\): 12 calls were not recorded \(5 in a signal handler that interrupted a probe, 7 for lack of room'
has "calls before their module's filter verdicts" "$I" \
	"thread 2 \(tid 301, worker-1\): 9 calls were not recorded because their module's filter verdicts \(CALLPROF_INCLUDE, CALLPROF_EXCLUDE\) were not made yet"
has "resynchronised activations" "$I" 'thread 1 \(tid 300, main\): 3 activations ended without their exit probe'
has "unmatched exits" "$I" 'thread 1 \(tid 300, main\): 2 exit probes had no open activation of their function and were ignored'
has "calls open at the dump" "$I" 'thread 1 \(tid 300, main\): 2 calls still open when the dump was written count up to the dump'
has "folded calls with the budget and the first folded function" "$I" \
	'thread 2 \(tid 301, worker-1\): 400 calls were folded to one level of context when the call tree reached its node budget of 4 nodes \(CALLPROF_MAX_NODES\); the first to be folded was a call to parse\.'
has_html "the first folded function links to its page" "$I" 'the first to be folded was a call to <a class="fn" href="fn/0/3.html">parse</a>'
has "an activation open at thread exit, in the singular" "$I" \
	'thread 2 \(tid 301, worker-1\): 1 activation was still open when the thread ended'
has "clamped figures" "$I" '4 compensated figures would have gone below zero and were clamped to 0'
has_html "each notice links to its thread's page" "$I" '<li class="warn"><a href="thread/t1.html">thread 2 \(tid 301, worker-1\)</a>: 400 calls'
has "the threads table says what each thread lost" "$I" \
	'12 dropped · 3 closed without exit · 2 unmatched exits · 2 open at the dump'
has "the threads table: the folded thread" "$I" '400 folded · 1 open at thread exit'
# A clean profile has no notices and no Notices column.
"$CP" report -o "$W/clean" "$FIX/threads.json" >/dev/null 2>&1
if grep -q -e 'class="notices"' -e '>Notices<' "$W/clean/index.html"; then
	fail "a clean profile has no notices" "found in $W/clean/index.html"
else
	ok "a clean profile has no notices"
fi

# ---- the thread pages, the trees and flame graphs ------------------------------------------
has_html "thread page: dropped in a signal handler" "$S/thread/t0.html" 'id="counter-dropped_in_signal" data-v="5"'
has_html "thread page: dropped for lack of room" "$S/thread/t0.html" 'id="counter-dropped_no_room" data-v="7"'
has_html "thread page: resynchronised" "$S/thread/t0.html" 'id="counter-resynced_frames" data-v="3"'
has_html "thread page: calls before their filter verdicts" "$S/thread/t1.html" 'id="counter-undecided_calls" data-v="9"'
has "thread page: still running" "$S/thread/t0.html" 'still running when the dump was written'
has_html "thread page: folded calls and the first folded function" "$S/thread/t1.html" \
	'id="counter-folded_calls" data-v="400">400 \(the first: a call to <a class="fn" href="../fn/0/3.html">parse</a>\)'
has_html "thread page: the node budget" "$S/thread/t1.html" 'id="counter-max_nodes" data-v="4"'
has "the folded thread's tree says what is missing" "$S/tree/t1.html" \
	"This thread's call tree reached its node budget \(4 nodes\): 400 calls were folded to one level of context, so their paths are missing here"
has "the folded thread's flame graph says so too" "$S/flame/t1.html" "This thread's call tree reached its node budget \(4 nodes\)"
has "the merged tree counts the folded threads" "$S/tree/all.html" \
	'The call tree of 1 thread reached its node budget: 400 calls were folded'
has "the merged tree counts the dropped calls" "$S/tree/all.html" '12 calls were not recorded at all'
if grep -q 'id="folded"' "$W/clean/tree/all.html"; then fail "a clean tree has no fold note" "found"; else
	ok "a clean tree has no fold note"; fi

# ---- the probes' cost per function ----------------------------------------------------------
has "serve: what compensation subtracted" "$S/fn/0/1.html" \
	"subtracted: 712 µs from the inclusive time \(8.0 ns for each of its calls, 20.0 ns for each call below it\) and 4.50 µs from the self time \(8.0 ns for each of its calls, 12.0 ns for each call it makes\)"
has_html "serve: the amounts are exact (summed over its threads)" "$S/fn/0/1.html" 'data-v="712000">.*data-v="4500"'
if grep -q -e 'id="probe-exceeds"' -e 'id="doubtful-' "$S/fn/0/1.html"; then fail "serve: no warning" "warned"; else
	ok "serve: no warning"; fi
has "tiny_getter: its probes cost more than its own time" "$S/fn/0/4.html" \
	'Its probes cost more than its own measured time: about 400 µs for its calls against 260 µs of raw self time \(20.0 ns against 13.0 ns a call\)'
has "tiny_getter: compensation took more than half of its inclusive time" "$S/fn/0/4.html" \
	'Compensation took more than half of its raw inclusive time \(160 µs of 260 µs\)'
has "tiny_getter: and of its self time" "$S/fn/0/4.html" 'Compensation took more than half of its raw self time \(160 µs of 260 µs\)'
has_html "the flat profile marks tiny_getter's times" "$I" \
	'fn/0/4.html">tiny_getter</a></td><td class="num" data-v="20000">20,000</td><td class="num doubtful" data-v="100000" title="compensation took more than half of the raw 260 µs">'
has_html "the flat profile explains the mark" "$I" 'id="doubtful-note"'
has_html "the thread's flat profile marks them too" "$S/thread/t0.html" 'class="num doubtful"'
if grep -q 'doubtful' "$W/clean/index.html"; then fail "a clean profile marks nothing" "marked"; else
	ok "a clean profile marks nothing"; fi
# Uncompensated figures (CALLPROF_COMPENSATE=0) say the probes' cost is still in them.
sed 's/"compensated": true/"compensated": false/' "$FIX/degraded.json" >"$W/raw.json"
"$CP" report -o "$W/raw" "$W/raw.json" >/dev/null 2>&1
has "uncompensated: the figures still hold the probes' cost" "$W/raw/fn/0/1.html" \
	"These figures still hold the probes' cost: about 2.20 µs for its own calls \(20.0 ns each\)"
# The index: the calibrated cost per call and the share of the run that was instrumentation.
has "the index shows the calibration" "$I" 'Calibration20.0 ns per call \(8.0 ns inside the callee, 12.0 ns outside\)'
has "the index shows the instrumentation's share" "$I" 'Instrumentationabout 430 µs, 0.4% of the measured run; subtracted from the figures shown'
check "links" node tests/report/linkcheck.js "$S" 6
exit 0
