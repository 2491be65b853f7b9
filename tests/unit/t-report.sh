#!/bin/sh
# tests/unit/t-report.sh: builds and runs the report tool's unit tests (ASan+UBSan, one process each).
. "$TOP/tests/lib.sh"
log=$B/tests/unit-report-build.log
if ! make -s -C "$TOP" B="$B" tests-unit-report >"$log" 2>&1; then
	fail "report unit tests build" "$(tail -n 3 "$log" | tr '\n' ' ')"
	exit 1
fi
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} "$B/tests/unit/report/unit"
