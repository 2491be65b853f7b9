#!/bin/sh
# tests/unit/t-report.sh: builds and runs the report tool's unit tests (ASan+UBSan, one process each).
. "$TOP/tests/lib.sh"
log=$B/tests/unit-report-build.log
rm -f "$log"
build "report unit tests build" "$log" tests-unit-report || exit 1
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} "$B/tests/unit/report/unit"
