#!/bin/sh
# tests/unit/t-unit.sh: builds and runs the runtime's unit tests (ASan+UBSan, one process each).
. "$TOP/tests/lib.sh"
log=$B/tests/unit-build.log
if ! make -s -C "$TOP" B="$B" tests-unit >"$log" 2>&1; then
	fail "unit tests build" "$(tail -n 3 "$log" | tr '\n' ' ')"
	exit 1
fi
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} "$B/tests/unit/unit"
