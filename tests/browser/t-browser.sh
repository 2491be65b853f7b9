#!/bin/sh
# tests/browser/t-browser.sh: a report opened from file:// in headless Chromium (Debian's
# /usr/bin/chromium), driven by playwright-core (installed here on first use), clicked
# through from the hottest function down; screenshots go to $B/tests/screens/.
set -u
. "$TOP/tests/lib.sh"
cd "$TOP"
workdir browser
rm -rf "$B/tests/screens"
mkdir -p "$W/tmp" "$B/tests/screens"

build build "$W/build.log" "$B/callprof" || exit 1
if [ ! -x /usr/bin/chromium ] || ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	fail browser "needs /usr/bin/chromium, node and npm (make test-deps)"
	exit 1
fi
# The version package.json pins (one that runs on Debian 12's Node.js 18), installed again
# when another is there.
want=$(sed -n 's/.*"playwright-core": "\(.*\)".*/\1/p' tests/browser/package.json)
have=$(sed -n 's/^  "version": "\(.*\)".*/\1/p' tests/browser/node_modules/playwright-core/package.json 2>/dev/null)
if [ "$have" != "$want" ]; then
	echo "installing playwright-core into tests/browser/node_modules"
	if ! (cd tests/browser && npm install --no-audit --no-fund --loglevel=error) >"$W/npm.log" 2>&1; then
		fail "npm install" "$(tail -n 3 "$W/npm.log" | tr '\n' ' ')"
		exit 1
	fi
fi
ok "playwright-core $(sed -n 's/.*"version": "\(.*\)".*/\1/p' tests/browser/node_modules/playwright-core/package.json)"

for s in c-small cpp-hostile; do
	if ! "$B/callprof" report -o "$W/site-$s" "tests/report/fixtures/$s.json" >/dev/null 2>"$W/$s.err"; then
		fail "report $s" "$(cat "$W/$s.err")"
		exit 1
	fi
done
# Markup and script in every string of a dump, the title and the notes (tests/report/hostile-dump.js).
node tests/report/hostile-dump.js "$W/every-field.json"
printf '# <script>alert(1)</script>\n[x](javascript:alert(2)) <img src=x onerror=alert(3)>\n' >"$W/notes.md"
if ! "$B/callprof" report -o "$W/site-every-field" --title '<script>alert(4)</script>"' --notes "$W/notes.md" \
	"$W/every-field.json" >/dev/null 2>"$W/every-field.err"; then
	fail "report every-field" "$(cat "$W/every-field.err")"
	exit 1
fi
# Chromium's fresh profile directory goes under the build folder, and away with it.
TMPDIR=$W/tmp node tests/browser/browser.js "$W/site-c-small" tests/report/fixtures/c-small.json \
	"$B/tests/screens" "$W/site-cpp-hostile" "$W/site-every-field" </dev/null

# The interactive views: a diff of two constructed dumps, and the scale profile of
# bench/scale.sh at a size make check affords (1,000 functions, 16 threads, >= 100,000 nodes).
node tests/browser/diff-pair.js "$W/diff-base.json" "$W/diff-new.json"
if ! "$B/callprof" diff -o "$W/site-diff" "$W/diff-base.json" "$W/diff-new.json" >/dev/null 2>"$W/diff.err"; then
	fail "diff of the constructed pair" "$(cat "$W/diff.err")"
	exit 1
fi
if ! SCALE_DIR=$W/scale SCALE_DUMP_ONLY=1 BENCH_QUICK=1 SCALE_NODES=160000 B=$B sh bench/scale.sh 2>"$W/scale.err" ||
	! "$B/callprof" report -o "$W/site-scale" "$W/scale/dump.json" >/dev/null 2>>"$W/scale.err"; then
	fail "the scale profile" "$(tail -n 3 "$W/scale.err" | tr '\n' ' ')"
	exit 1
fi
rm -f "$W/scale/exit.json" "$W/scale/big" "$W/scale/big.c"
TMPDIR=$W/tmp node tests/browser/views.js "$W/site-c-small" tests/report/fixtures/c-small.json "$W/site-diff" \
	"$W/site-scale" "$W/site-every-field" "$B/tests/screens" </dev/null

# CPU time (tests/browser/cpu.js): the flame graph's switch, the index's cards, the call tree's
# rows; c-cpu again with its lightest path (parse_line under write_output) cut to 50 us, 0.05%
# of the run, so the tree page hides it and tree.js draws its row from the data file, and
# made an estimate of sampled timing (3 of its 5 calls timed, standard error 10 us).
jq '.threads[0].tree.rows[8] = [8, 7, 2, 5, 50000, 50000, 50005, 50002, 40000, 40000] |
	.clock += {timing: "sampled", sample_rate: 64, timed_first: 64} |
	.threads[0].tree.columns += ["timed_calls", "inclusive_se_ns", "self_se_ns"] |
	.threads[0].tree.rows |= map(if .[0] == 8 then . + [3, 10000, 10000] else . + [.[3], 0, 0] end)' \
	tests/report/fixtures/c-cpu.json >"$W/c-cpu-hidden.json"
# And c-cpu with compute (row 3, 70 ms) an estimate: 4 of its 10 calls timed, standard error 3.5 ms.
jq '.clock += {timing: "sampled", sample_rate: 64, timed_first: 64} |
	.threads[0].tree.columns += ["timed_calls", "inclusive_se_ns", "self_se_ns"] |
	.threads[0].tree.rows |= map(if .[0] == 3 then . + [4, 3500000, 3000000] else . + [.[3], 0, 0] end)' \
	tests/report/fixtures/c-cpu.json >"$W/c-cpu-estimate.json"
if "$B/callprof" report -o "$W/site-cpu" tests/report/fixtures/c-cpu.json >/dev/null 2>"$W/cpu.err" &&
	"$B/callprof" report -o "$W/site-cpu-hidden" "$W/c-cpu-hidden.json" >/dev/null 2>>"$W/cpu.err" &&
	"$B/callprof" report -o "$W/site-cpu-estimate" "$W/c-cpu-estimate.json" >/dev/null 2>>"$W/cpu.err"; then
	TMPDIR=$W/tmp node tests/browser/cpu.js "$W/site-cpu" tests/report/fixtures/c-cpu.json "$B/tests/screens" \
		"$W/site-cpu-hidden" "$W/site-cpu-estimate" </dev/null
else
	fail "report c-cpu" "$(head -c 300 "$W/cpu.err")"
fi

# Pages at real size (tests/browser/fit.js): a diff of C++ names, 300 dumps merged, the names box.
sed -e 's/"inclusive_ns": 1500000, "self_ns": 900000/"inclusive_ns": 2500000, "self_ns": 1900000/' \
	tests/report/fixtures/cpp-hostile.json >"$W/cpp-new.json"
mkdir -p "$W/many"
i=0
while [ $i -lt 300 ]; do
	sed -e "s/\"pid\": 4242/\"pid\": $((5000 + i))/" tests/report/fixtures/c-small.json >"$W/many/d-$i.json"
	i=$((i + 1))
done
if ! "$B/callprof" diff -o "$W/site-diff-cpp" tests/report/fixtures/cpp-hostile.json "$W/cpp-new.json" >/dev/null 2>"$W/diff.err" ||
	! "$B/callprof" report -o "$W/site-many" "$W"/many/*.json >/dev/null 2>"$W/many.err"; then
	fail "the sites of fit.js" "$(cat "$W/diff.err" "$W/many.err" | head -n 3)"
	exit 1
fi
TMPDIR=$W/tmp node tests/browser/fit.js "$W/site-diff-cpp" "$W/site-many" "$W/site-cpp-hostile" "$B/tests/screens" </dev/null
