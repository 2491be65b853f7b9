#!/bin/sh
# ci-sharded.sh: the sharded profiling jobs of docs/ci.md, for this repository's examples/demo.
# Run it from the project's root, in one of two ways:
#   sh docs/ci-sharded.sh shard N M   a shard job: runs the tests numbered N, N+M, N+2M ... of
#                                     1..TESTS under callprof, one profile per process, then
#                                     merges them into $OUT/shard-N.json, the shard's artifact
#   sh docs/ci-sharded.sh report      the final job, once every shard's artifact is in
#                                     $OUT/shards/: merges them into $OUT/all.json, writes the
#                                     report, a pprof and a speedscope file, and the job summary
# For your project, change steps 1 and 2; tests/ci/t-ci-sharded.sh runs this file as it is.
set -eu

CALLPROF=${CALLPROF:-callprof}  # the tool: installed, or build/callprof
OUT=${OUT:-callprof-out}        # what the jobs publish
TESTS=${TESTS:-6}               # how many tests there are in all

if [ "${1:-}" = shard ]; then
	shard=$2 shards=$3
	rm -rf "$OUT/bin" "$OUT/profiles"
	mkdir -p "$OUT/bin" "$OUT/profiles"
	# 1. Build with instrumentation: your build, with these flags added.
	cc -finstrument-functions -g -O2 -fno-optimize-sibling-calls examples/demo/*.c -o "$OUT/bin/demo"
	# 2. This shard's tests under callprof; every process writes its own profile (%p: its pid).
	t=$shard
	while [ "$t" -le "$TESTS" ]; do
		"$CALLPROF" record -o "$OUT/profiles/test$t-%p.json" -- "$OUT/bin/demo" $((t * 500)) >/dev/null
		t=$((t + shards))
	done
	# 3. One file per shard: the shard's profiles merged.
	"$CALLPROF" merge -o "$OUT/shard-$shard.json" "$OUT"/profiles/*.json
elif [ "${1:-}" = report ]; then
	# 4. Every shard's file merged (merging again what was merged is fine), then the report.
	"$CALLPROF" merge -o "$OUT/all.json" "$OUT"/shards/*.json
	"$CALLPROF" report -o "$OUT/report" "$OUT/all.json"
	"$CALLPROF" export --format pprof -o "$OUT/profile.pb.gz" "$OUT/all.json"
	"$CALLPROF" export --format speedscope -o "$OUT/profile.speedscope.json" "$OUT/all.json"
	if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then cat "$OUT/report/summary.md" >>"$GITHUB_STEP_SUMMARY"; fi
else
	echo "usage: sh docs/ci-sharded.sh shard N M | report" >&2
	exit 1
fi
