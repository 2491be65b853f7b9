#!/bin/sh
# tests/ci/t-ci-sharded.sh: the sharded CI jobs of docs/ci.md work.  docs/ci.md shows
# docs/ci-sharded.sh verbatim and its workflow runs it; here it runs as that workflow runs it,
# in a scratch copy of the project: three shard jobs, each uploading its merged profile, then
# the final job with every shard's file downloaded into callprof-out/shards/.  The final report
# must be the report of every profile of every shard together.
set -u
. "$TOP/tests/lib.sh"
cd "$TOP"
workdir ci-sharded
build build "$W/build.log" all "$DC" || exit 1

# ---- the documentation shows what is tested ------------------------------------------------
sed -n '/^<!-- begin docs\/ci-sharded.sh/,/^<!-- end docs\/ci-sharded.sh/p' docs/ci.md | sed -e '1,2d' -e '$d' |
	sed '$d' >"$W/doc-script.sh"
if cmp -s "$W/doc-script.sh" docs/ci-sharded.sh; then
	ok "docs/ci.md shows docs/ci-sharded.sh verbatim"
else
	fail "docs/ci.md shows docs/ci-sharded.sh verbatim" "$(diff docs/ci-sharded.sh "$W/doc-script.sh" | head -n 4 | tr '\n' ' ')"
fi
awk '/^```yaml$/ { n++; keep = 1; next } /^```$/ { keep = 0 } keep { print > ("'"$W"'/workflow-" n ".yml") }' docs/ci.md
Y=$(grep -l 'ci-sharded.sh' "$W"/workflow-*.yml 2>/dev/null | head -n 1)
if [ -z "$Y" ]; then
	fail "docs/ci.md has the sharded workflow" "no yaml block runs docs/ci-sharded.sh"
	exit 1
fi
if python3 -c 'import yaml' 2>/dev/null; then
	check "the sharded workflow is valid YAML" python3 -c 'import sys, yaml; yaml.safe_load(open(sys.argv[1]))' "$Y"
fi
has "the shard jobs are a matrix" "$Y" '^        shard: \[1, 2, 3, 4\]$'
has "each shard runs its part" "$Y" 'run: sh docs/ci-sharded.sh shard \$\{\{ matrix.shard \}\} 4$'
has "each shard uploads its merged profile" "$Y" 'path: callprof-out/shard-\$\{\{ matrix.shard \}\}.json'
has "the final job waits for the shards" "$Y" '^    needs: shard$'
has "the final job downloads every shard into callprof-out/shards" "$Y" '^          path: callprof-out/shards$'
has "the final job merges and reports" "$Y" 'run: sh docs/ci-sharded.sh report'
has "the workflow installs protobuf-c and zlib for the build" "$Y" 'libprotobuf-c-dev protobuf-c-compiler zlib1g-dev'

# ---- the script, as the workflow runs it ---------------------------------------------------
P=$W/project
mkdir -p "$P/docs" "$P/examples" "$W/artifacts"
cp -r examples/demo "$P/examples/"
cp docs/ci-sharded.sh "$P/docs/"
export CALLPROF="$B/callprof" TESTS=7
unset OUT GITHUB_STEP_SUMMARY
for shard in 1 2 3; do
	rm -rf "$P/callprof-out"
	if (cd "$P" && sh docs/ci-sharded.sh shard $shard 3) >"$W/shard$shard.out" 2>"$W/shard$shard.err"; then
		ok "shard $shard of 3: exit 0"
	else
		fail "shard $shard of 3: exit 0" "$(tail -n 3 "$W/shard$shard.err" | tr '\n' ' ')"
	fi
	n=$(ls "$P"/callprof-out/profiles/*.json 2>/dev/null | wc -l)
	want=$(( (TESTS - shard) / 3 + 1 ))
	[ "$n" -eq "$want" ] && ok "shard $shard: one profile per test ($n)" || fail "shard $shard: one profile per test" "$n, not $want"
	mkdir -p "$W/all-profiles"
	cp "$P"/callprof-out/profiles/*.json "$W/all-profiles/" 2>/dev/null
	cp "$P/callprof-out/shard-$shard.json" "$W/artifacts/" 2>/dev/null ||
		fail "shard $shard uploads callprof-out/shard-$shard.json" "missing"
done
# The final job: a fresh checkout, the artifacts downloaded into callprof-out/shards.
rm -rf "$P/callprof-out"
mkdir -p "$P/callprof-out/shards"
cp "$W"/artifacts/*.json "$P/callprof-out/shards/"
: >"$W/summary.md"
if (cd "$P" && GITHUB_STEP_SUMMARY="$W/summary.md" sh docs/ci-sharded.sh report) >"$W/report.out" 2>"$W/report.err"; then
	ok "the final job: exit 0"
else
	fail "the final job: exit 0" "$(tail -n 3 "$W/report.err" | tr '\n' ' ')"
fi
O=$P/callprof-out
check "the merged dump meets every invariant" "$B/tests/dumpcheck" "$O/all.json"
n=$(jq '.threads | length' "$O/all.json")
[ "$n" = "$TESTS" ] && ok "the merged dump holds every test's process ($n)" || fail "the merged dump holds every test's process" "$n threads"
check "the report's links" node tests/report/linkcheck.js "$O/report"
has "the job summary is the report's summary.md" "$W/summary.md" '^# callprof: demo$'
[ -s "$O/profile.pb.gz" ] && [ -s "$O/profile.speedscope.json" ] && ok "the final job exports pprof and speedscope" ||
	fail "the final job exports pprof and speedscope" "missing"
# The final report is the report of every profile together, as listed by pid (the merged
# dump's thread order: shard by shard, each shard's profiles in name order).
"$CALLPROF" top "$O/all.json" | tail -n +2 >"$W/top-merged.txt"
"$CALLPROF" top "$W"/all-profiles/*.json | tail -n +2 >"$W/top-all.txt"
if cmp -s "$W/top-merged.txt" "$W/top-all.txt"; then
	ok "the final profile is every shard's profiles together (callprof top)"
else
	fail "the final profile is every shard's profiles together (callprof top)" "$(diff "$W/top-merged.txt" "$W/top-all.txt" | head -n 3 | tr '\n' ' ')"
fi
want=$(jq -s '[.[].threads[].functions[].calls] | add' "$W"/all-profiles/*.json)
got=$(jq '[.threads[].functions[].calls] | add' "$O/all.json")
[ "$got" = "$want" ] && ok "every call of every test is in the merged dump ($got)" || fail "every call of every test is in the merged dump" "$got, not $want"
(cd "$P" && sh docs/ci-sharded.sh) >/dev/null 2>"$W/usage.err"
[ $? -eq 1 ] && ok "no mode: the script says how to run it (exit 1)" || fail "no mode: the script says how to run it (exit 1)" "$(cat "$W/usage.err")"
exit 0
