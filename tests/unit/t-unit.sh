#!/bin/sh
# tests/unit/t-unit.sh: builds and runs the runtime's unit tests (ASan+UBSan, one process each).
. "$TOP/tests/lib.sh"
log=$B/tests/unit-build.log
rm -f "$log"
build "unit tests build" "$log" tests-unit || exit 1
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} "$B/tests/unit/unit"
