#!/bin/sh
# tests/ci/t-ci.sh: the CI job of docs/ci.md works.  docs/ci.md shows docs/ci-example.sh verbatim
# and both workflows run it; the script is run here as the workflows run it, in a scratch copy of
# the project, against examples/demo, with its default gate: first as on the main branch (no
# baseline: a report, the job summary), then as on a merge request with the first run's profiles
# as the baseline: unchanged code passes the gate while a CPU hog per core loads the machine (as
# a shared CI runner is), and when one side ran loaded and the other not; twice the calls trip the calls gate; thirty times the work trips the
# time gate (exit 3, the functions named).
set -u
. "$TOP/tests/lib.sh"
cd "$TOP"
workdir ci
build build "$W/build.log" all || exit 1

# ---- the documentation shows what is tested ------------------------------------------------
sed -n '/^<!-- begin docs\/ci-example.sh/,/^<!-- end docs\/ci-example.sh/p' docs/ci.md | sed -e '1,2d' -e '$d' |
	sed '$d' >"$W/doc-script.sh"
if cmp -s "$W/doc-script.sh" docs/ci-example.sh; then
	ok "docs/ci.md shows docs/ci-example.sh verbatim"
else
	fail "docs/ci.md shows docs/ci-example.sh verbatim" "$(diff docs/ci-example.sh "$W/doc-script.sh" | head -n 4 | tr '\n' ' ')"
fi
# The YAML blocks: both parse (where python3 has yaml), both run the script.
awk '/^```yaml$/ { n++; out = sprintf("'"$W"'/workflow-%d.yml", n); next } /^```$/ { out = "" } out { print > out }' docs/ci.md
for y in 1 2; do
	f=$W/workflow-$y.yml
	if [ ! -s "$f" ]; then
		fail "workflow $y is in docs/ci.md" "no yaml block $y"
		continue
	fi
	has "workflow $y runs docs/ci-example.sh" "$f" 'sh docs/ci-example.sh'
	if python3 -c 'import yaml' 2>/dev/null; then
		check "workflow $y is valid YAML" python3 -c 'import sys, yaml; yaml.safe_load(open(sys.argv[1]))' "$f"
	fi
done
has "the GitHub workflow publishes the report" "$W/workflow-1.yml" 'callprof-out/report/'
has "the GitHub workflow fetches the main branch's profiles" "$W/workflow-1.yml" 'gh run download'
has "the GitLab job fetches the main branch's profiles" "$W/workflow-2.yml" 'jobs/artifacts/\$CI_DEFAULT_BRANCH/download'

# ---- the script, as the workflows run it --------------------------------------------------
P=$W/project
mkdir -p "$P/docs" "$P/examples"
cp -r examples/demo "$P/examples/"
cp docs/ci-example.sh "$P/docs/"
export CALLPROF="$B/callprof"
# Raw times grow with the work whatever the probes' calibration says: the gate's verdicts below
# are about the workflow, not about how well a busy machine calibrates.
export CALLPROF_COMPENSATE=0
unset GITLAB_CI BASELINE OUT RUNS FAIL_ABOVE MIN_TIME CALLS_ABOVE DEMO_WORDS

# CPU hogs, one or two per core (and the other jobs of `make check`): the unchanged runs must
# pass anyway.
HOGS=""
hog_start() {
	for _c in $(seq "$(nproc)"); do
		yes >/dev/null &
		HOGS="$HOGS $!"
	done
}
hog_stop() {
	for _p in $HOGS; do kill "$_p" 2>/dev/null; done
	for _p in $HOGS; do wait "$_p" 2>/dev/null; done
	HOGS=""
}
trap hog_stop EXIT INT TERM

# ci NAME [VAR=VALUE...]: runs the script in the project with a job summary file; status in $rc.
ci() {
	_n=$1
	shift
	: >"$W/$_n.summary"
	(cd "$P" && env GITHUB_STEP_SUMMARY="$W/$_n.summary" "$@" sh docs/ci-example.sh) >"$W/$_n.out" 2>"$W/$_n.err"
	rc=$?
}

hog_start
hog_start
ci main
if [ $rc -eq 0 ]; then ok "main branch run, machine loaded: exit 0"; else fail "main branch run, machine loaded: exit 0" "status $rc: $(tail -n 3 "$W/main.err")"; fi
O=$P/callprof-out
n=$(ls "$O"/profiles/run-*/demo-*.json 2>/dev/null | wc -l)
r=$(ls -d "$O"/profiles/run-* 2>/dev/null | wc -l)
if [ "$n" -eq 10 ] && [ "$r" -eq 5 ]; then ok "one profile per test process, five runs in five folders"; else
	fail "one profile per test process, five runs in five folders" "$n profiles in $r folders"; fi
check "the report's links" node tests/report/linkcheck.js "$O/report"
has "the job summary is the report's summary.md" "$W/main.summary" '^# callprof: demo$'
if [ -e "$O/diff" ]; then fail "no baseline, no diff" "$O/diff exists"; else ok "no baseline, no diff"; fi

# A merge request: the main branch's artifact, downloaded, gives the baseline.  The code did not
# change, and the machine is still loaded: the default gate must not trip.
mv "$O/profiles" "$P/baseline"
ci mr
if [ $rc -eq 0 ]; then ok "merge request run, unchanged code, machine loaded, default gate: exit 0"; else
	fail "merge request run, unchanged code, machine loaded, default gate: exit 0" "status $rc: $(tail -n 3 "$W/mr.err")"; fi
check "the diff's links" node tests/report/linkcheck.js "$O/diff"
has "the base is five runs of one workload" "$O/diff/index.html" 'Base \(merged\)</dt><dd>5 runs of 1 workload: '
has "the new side is five runs of one workload" "$O/diff/index.html" 'New \(merged\)</dt><dd>5 runs of 1 workload: '
has "the diff matches every function" "$O/diff/index.html" '<a href="#appeared">0 appeared</a>, <a href="#vanished">0 vanished</a>'
has "the diff says how long the runs waited for a CPU" "$O/diff/index.html" 'Waits for a CPU</dt><dd>'
has "the job summary has the report's summary" "$W/mr.summary" '^# callprof: demo$'
has "the job summary has the diff's summary" "$W/mr.summary" '^# callprof diff: demo$'
has "the job summary says the gate passed" "$W/mr.summary" \
	'^- Gate \(inclusive time up by more than 25% and 5.00 ms, or calls up by more than 10%, beyond 3× the noise\): passed$'

# The two sides under different loads: the baseline's runs waited for a CPU (two hogs a core),
# the merge request's did not, and then the other way round.  The waits are taken out
# of each side's times, so unchanged code passes either way.
hog_stop
# GitLab: no job summary file, the summaries go to the job log (unchanged code, now unloaded).
ci gitlab GITLAB_CI=true GITHUB_STEP_SUMMARY=
if [ $rc -eq 0 ] && grep -q '^# callprof diff: demo$' "$W/gitlab.out"; then ok "GitLab: the summaries go to the job log"; else
	fail "GitLab: the summaries go to the job log" "status $rc: $(tail -n 3 "$W/gitlab.err")"; fi
ok_or_fail() {
	if [ $rc -eq 0 ]; then ok "$1"; else fail "$1" "status $rc: $(tail -n 3 "$W/$2.err")"; fi
}
ok_or_fail "unchanged code, baseline under two hogs a core and merge request unloaded, default gate: exit 0" gitlab
rm -rf "$P/baseline"
mv "$O/profiles" "$P/baseline"
hog_start
hog_start
ci heavier
hog_stop
ok_or_fail "unchanged code, baseline unloaded and merge request under two hogs a core, default gate: exit 0" heavier

# Twice the words: words_add, hash_word and others are called twice as often, an exact count
# that no load can blur.  The calls gate trips.
ci calls DEMO_WORDS=200000
if [ $rc -eq 3 ]; then ok "twice the calls trip the gate: exit 3"; else
	fail "twice the calls trip the gate: exit 3" "status $rc: $(tail -n 3 "$W/calls.err")"; fi
has "the gate names words_add and its calls" "$W/calls.err" '^callprof diff: words_add: calls 101,000 -> 201,000 \(\+99\.0%\), above 10%$'
has "the job summary says the gate tripped" "$W/calls.summary" '^- Gate .*: \*\*[0-9]+ functions? tripped it\*\*'
if [ -f "$O/diff/index.html" ] && [ -f "$O/report/index.html" ]; then ok "a tripped gate still leaves both sites to publish"; else
	fail "a tripped gate still leaves both sites to publish" "missing"; fi

# Thirty times the work, with the calls gate off, run on a loaded machine against the unloaded
# baseline: the time gate trips, far beyond the noise its waits add.
hog_start
ci slower DEMO_WORDS=3000000 CALLS_ABOVE=
hog_stop
if [ $rc -eq 3 ]; then ok "thirty times the work trips the time gate: exit 3"; else
	fail "thirty times the work trips the time gate: exit 3" "status $rc: $(tail -n 3 "$W/slower.err")"; fi
has "the gate names words_count_text" "$W/slower.err" '^callprof diff: words_count_text: inclusive .* above 25% and 5.00 ms, beyond 3 x its noise of .*$'
# A function is one word, a library function one word and its module: strlen [libc.so.6].
if grep -v '^callprof diff: [^ ]*\( \[[^] ]*\]\)\{0,1\}: inclusive .* above 25% and 5.00 ms, beyond 3 x its noise of [0-9.]* .s$' \
	"$W/slower.err" >"$W/slower.other"; then
	fail "the gate prints one line per function and nothing else" "$(head -n 3 "$W/slower.other")"
else
	ok "the gate prints one line per function and nothing else"
fi
exit 0
