#!/bin/sh
# tests/report/t-args.sh: what the runtime's -pg -mfentry front-end and CALLPROF_ARGS add to a
# dump, as the report shows it (fixtures/c-args.json): the front-end on each function page, the
# arguments a function was called with (ranked by time and by calls) and what it returned, a
# function whose arguments were not captured, `callprof top --args`, the probes' own cost, and
# the loader's checks of the new keys.  Dumps without them are the other fixtures (t-report.sh).
set -u
. "$TOP/tests/lib.sh"
cd "$TOP"
FIX=tests/report/fixtures
workdir report-args
build build "$W/build.log" "$B/callprof" && build_san build "$W/build.log" || exit 1
CP=$SAN_B/callprof
S=$W/site

if "$CP" report -o "$S" "$FIX/c-args.json" >"$W/report.out" 2>"$W/report.err" && [ ! -s "$W/report.err" ]; then
	ok "report of a dump with front-ends and captured arguments"
else
	fail "report of a dump with front-ends and captured arguments" "$(head -n 3 "$W/report.err")"
fi
check "links" node tests/report/linkcheck.js "$S" 4
has "parse's page: probed by -pg -mfentry" "$S/fn/0/1.html" 'id="front-end">· probed by <code>-pg -mfentry</code>'
has "helper's page: probed by -finstrument-functions" "$S/fn/0/3.html" \
	'id="front-end">· probed by <code>-finstrument-functions</code>'
has "parse's page: called with, by time, the slow call first" "$S/fn/0/1.html" \
	'id="called-with-time">.*<tbody>.?$|^<tr><td class="name"><code>parse\(depth=0, s=NULL\)</code></td><td class="num" data-v="30">30</td>'
sed -n '/id="called-with-calls"/,/<\/table>/p' "$S/fn/0/1.html" | grep -m1 '<code>' >"$W/first-by-calls"
has "parse's page: called with, by calls, the frequent call first" "$W/first-by-calls" \
	'<code>parse\(depth=3, s=&quot;abc&quot;\)</code></td><td class="num" data-v="1204">1,204</td>'
has "parse's page: its time per tuple" "$S/fn/0/1.html" 'data-v="1204">1,204</td>.*data-v="3100000">3.10 ms</td>'
has "parse's page: values are escaped" "$S/fn/0/1.html" 's=&quot;&lt;b&gt;&amp;amp;&quot;'
has "parse's page: returned -1, 12 calls, 1.0%" "$S/fn/0/1.html" \
	'<code>-1</code></td><td class="num" data-v="12">12</td><td class="num pct" data-v="0.009677">.*1.0%'
has "parse's page: how many calls were captured, and the bound" "$S/fn/0/1.html" \
	'1,240 calls captured; each dump kept its 64 most frequent'
has "parse's page: what capturing cost, taken out of its callers' times" "$S/fn/0/1.html" \
	'id="capture-cost">Capturing them cost <span data-v="744000">744 .s</span> in all, measured on every call: outside this function.s times, inside its callers., and taken out of theirs'
"$CP" merge -o "$W/merged.json" "$FIX/c-args.json" "$FIX/c-args.json" 2>"$W/merge.err"
merged=$(jq -c '[.threads[].functions[] | select(.capture_ns) | .capture_ns] | add' "$W/merged.json" 2>&1)
if [ "$merged" = 1488000 ]; then ok "callprof merge adds up capture_ns"; else
	fail "callprof merge adds up capture_ns" "$merged, expected 1488000 ($(head -c 200 "$W/merge.err"))"; fi
has "lookup's page: why its arguments were not captured" "$S/fn/0/2.html" \
	'id="args-refused">CALLPROF_ARGS selected this function, but its arguments were not captured: a copy the compiler made'
if grep -l 'id="values"' "$S/fn/0/0.html" "$S/fn/0/3.html" >/dev/null; then
	fail "no arguments section where nothing was selected" "$(grep -l 'id="values"' "$S/fn/0/0.html" "$S/fn/0/3.html")"
else
	ok "no arguments section where nothing was selected"
fi
has "parse's page: its probes cost the -pg -mfentry figure" "$S/fn/0/1.html" '3.5 ns for each of its calls'

"$CP" top --args "$FIX/c-args.json" >"$W/top.out" 2>"$W/top.err"
if diff tests/report/c-args.top "$W/top.out" >"$W/top.diff" && [ ! -s "$W/top.err" ]; then
	ok "top --args"
else
	fail "top --args" "$(head -n 6 "$W/top.diff" | tr '\n' ' ') $(head -n 2 "$W/top.err")"
fi
"$CP" top "$FIX/c-args.json" >"$W/top-plain.out"
if grep -q 'called with' "$W/top-plain.out"; then fail "top without --args prints no arguments" "it does"; else
	ok "top without --args prints no arguments"; fi

# Two dumps of the same program: equal calls add up.
if "$CP" top --args "$FIX/c-args.json" "$FIX/c-args.json" >"$W/top2.out" 2>"$W/top2.err"; then
	has "two dumps: equal calls add up" "$W/top2.out" '^      parse\(depth=3, s="abc"\)  2,408 calls  6.20 ms$'
else
	fail "two dumps: equal calls add up" "$(head -n 2 "$W/top2.err")"
fi

# ---- bad input: one line, exit 2 ---------------------------------------------------------
BAD=$W/bad
mkdir -p "$BAD"
sed 's/"values": \["0", "NULL"\]/"values": ["0"]/' "$FIX/c-args.json" >"$BAD/values.json"
sed 's/"entries": 64/"entries": 2/' "$FIX/c-args.json" >"$BAD/bound.json"
sed 's/"calls": 12, "error": 0/"calls": 12, "error": 13/' "$FIX/c-args.json" >"$BAD/error.json"
sed 's/"returned_calls": 1240/"returned_calls": 1241/' "$FIX/c-args.json" >"$BAD/returned.json"
sed 's/"calls": 1240, "inclusive_ns": 12160000, "self_ns": 12000000, "raw_inclusive_ns": 12170000, "raw_self_ns": 12005000, "min_ns": 2000, "max_ns": 400000, "fentry_calls": 1240/&, "counted_calls": 1/' \
	"$FIX/c-args.json" >"$BAD/kinds.json"
sed 's/"front_end": "finstrument"/"front_end": 3/' "$FIX/c-args.json" >"$BAD/frontend.json"
for c in values:"expected 2 values (one per parameter), not 1" bound:"3 entries, more than the bound 2" \
	error:"error or timed_calls above calls 12" returned:"returned_calls 1241 is more than calls 1240" \
	kinds:"fenced_calls, fentry_calls, library_calls and counted_calls add up to more than calls 1240" \
	frontend:"front_end"; do
	name=${c%%:*} want=${c#*:} f=$BAD/$name.json
	"$CP" top "$f" >"$BAD/$name.out" 2>"$BAD/$name.err"
	rc=$?
	if [ $rc -eq 2 ] && [ "$(wc -l <"$BAD/$name.err")" -eq 1 ] && grep -q -- "$want" "$BAD/$name.err" &&
		grep -q "'$f'" "$BAD/$name.err"; then
		ok "bad input $name: $(cat "$BAD/$name.err")"
	else
		fail "bad input $name" "status $rc: $(head -c 300 "$BAD/$name.err")"
	fi
done
