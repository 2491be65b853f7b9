#!/bin/sh
# tests/fuzz/t-fuzz.sh: the dump reader's fuzz target (libFuzzer, ASan+UBSan): every past
# finding in tests/fuzz/regressions/ and every seed in tests/fuzz/corpus/ replayed, through the
# fuzz target and through the tool itself, then FUZZ_CHECK_SECONDS (default 15) of fresh fuzzing.
# `make fuzz` runs the fuzzer for longer (FUZZ_SECONDS).
set -u
. "$TOP/tests/lib.sh"
cd "$TOP"
workdir fuzz/check
mkdir -p "$W/corpus" "$W/site"

FZ=$B/tests/fuzz/fuzz-load
build build "$W/build.log" "$FZ" && build_san build "$W/build.log" || exit 1
CP=$SAN_B/callprof

# Each finding, and each seed, replayed once through the fuzz target: no crash, no sanitizer report.
for f in tests/fuzz/regressions/* tests/fuzz/corpus/*; do
	[ -f "$f" ] || continue
	if "$FZ" -timeout=5 -rss_limit_mb=2048 "$f" >"$W/replay.log" 2>&1; then
		ok "replay $f"
	else
		fail "replay $f" "$(grep -m1 -E 'ERROR|SUMMARY|runtime error' "$W/replay.log")"
	fi
done

# The same inputs through the tool: exit 0 with a site, or exit 2 with one line naming the file.
for f in tests/fuzz/regressions/*; do
	[ -f "$f" ] || continue
	rm -rf "$W/site"
	"$CP" report -o "$W/site" "$f" >"$W/tool.out" 2>"$W/tool.err"
	rc=$?
	if [ $rc -eq 0 ] && [ -f "$W/site/index.html" ] && [ ! -s "$W/tool.err" ]; then
		ok "tool reads $f: a site"
	elif [ $rc -eq 2 ] && [ "$(wc -l <"$W/tool.err")" -eq 1 ] && grep -q "'$f'" "$W/tool.err" && [ ! -e "$W/site" ]; then
		ok "tool reads $f: $(cut -c 1-120 "$W/tool.err")"
	else
		fail "tool reads $f" "status $rc: $(head -c 300 "$W/tool.err")"
	fi
done

# Fresh fuzzing from the seeds; what it finds goes to $W (add it to tests/fuzz/regressions/).
secs=${FUZZ_CHECK_SECONDS:-15}
"$FZ" -max_total_time="$secs" -timeout=5 -rss_limit_mb=2048 -max_len=65536 -dict=tests/fuzz/dump.dict \
	-artifact_prefix="$W/" -print_final_stats=1 "$W/corpus" tests/fuzz/corpus >"$W/fuzz.log" 2>&1
rc=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$W/fuzz.log")
if [ $rc -eq 0 ]; then
	ok "fuzzing for ${secs}s: ${runs:-?} inputs, no finding"
else
	fail "fuzzing for ${secs}s" "$(grep -m1 -E 'ERROR|SUMMARY' "$W/fuzz.log"); input: $(ls "$W" | grep -E '^(crash|leak|timeout|oom|slow-unit)-' | head -n 1) in $W (log $W/fuzz.log)"
fi
exit 0
