#!/bin/sh
# ci-example.sh: the profiling job of docs/ci.md, for this repository's examples/demo.  Run it
# from the project's root.  It builds the program with instrumentation, runs its tests under
# callprof several times (one profile per process, one folder per run), writes the report,
# appends summary.md to the CI job summary, and when the main branch's profiles are in
# $BASELINE, writes a diff against them and fails (exit 3) if a function got slower, or is
# called more often, than the gate allows.
# For your project, change steps 1 and 2; tests/ci/t-ci.sh runs this file as it is.
set -eu

CALLPROF=${CALLPROF:-callprof}  # the tool: installed, or build/callprof
OUT=${OUT:-callprof-out}        # what the job publishes: report/, diff/, profiles/
BASELINE=${BASELINE:-baseline}  # the main branch's profiles/, when the job could fetch them
RUNS=${RUNS:-5}                 # how often the tests run: the gate compares medians of runs
FAIL_ABOVE=${FAIL_ABOVE:-25}    # the gate: inclusive time may grow by at most this many percent,
MIN_TIME=${MIN_TIME:-5ms}       # ... or by at most this much (noise on tiny functions),
CALLS_ABOVE=${CALLS_ABOVE-10}   # ... and a function's calls by at most this many percent ("": no limit)

rm -rf "$OUT"
mkdir -p "$OUT/bin" "$OUT/profiles"

# 1. Build with instrumentation: your build, with these flags added.
cc -finstrument-functions -g -O2 -fno-optimize-sibling-calls examples/demo/*.c -o "$OUT/bin/demo"

# 2. Run the tests under callprof, $RUNS times: each run in a folder of its own, every process
#    writing its own profile there (%p is its pid).  A test runner that starts the programs
#    itself: run it with LD_PRELOAD=.../libcallprof.so and
#    CALLPROF_OUTPUT=$PWD/$OUT/profiles/run-$run/%p.json instead (or link the runtime and set
#    only CALLPROF_OUTPUT).
run=1
while [ "$run" -le "$RUNS" ]; do
	mkdir -p "$OUT/profiles/run-$run"
	for words in 1000 "${DEMO_WORDS:-100000}"; do
		"$CALLPROF" record -o "$OUT/profiles/run-$run/demo-%p.json" -- "$OUT/bin/demo" "$words" >/dev/null
	done
	run=$((run + 1))
done

# 3. The report of the first run (the others repeat it for the gate), and its summary.md as the
#    job summary.
"$CALLPROF" report -o "$OUT/report" "$OUT"/profiles/run-1/*.json
summary() {
	if [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -f "$1" ]; then cat "$1" >>"$GITHUB_STEP_SUMMARY"; fi
	if [ -n "${GITLAB_CI:-}" ] && [ -f "$1" ]; then cat "$1"; fi
}
summary "$OUT/report/summary.md"

# 4. Against the main branch's profiles: a diff site, and the gate.
status=0
if [ -d "$BASELINE" ] && find "$BASELINE" -name '*.json' | grep -q .; then
	set -- --fail-above "$FAIL_ABOVE" --min-time "$MIN_TIME"
	if [ -n "$CALLS_ABOVE" ]; then set -- "$@" --fail-on-calls "$CALLS_ABOVE"; fi
	"$CALLPROF" diff -o "$OUT/diff" "$@" "$BASELINE" "$OUT/profiles" || status=$?
	summary "$OUT/diff/summary.md"
fi
exit "$status"
