#!/bin/sh
# tests/run.sh: runs every test suite of `make check` and ends with "N passed, N failed".
#
# A suite is an executable file tests/<area>/t-*.sh.  It prints one line per test:
#   ok - NAME            or   not ok - NAME: WHY     (or skip - NAME: WHY, counted apart)
# and may print anything else (it is kept in build/tests/<suite>.log).  A suite
# that exits non-zero without reporting a failure counts as one failure.
# Suites see TOP (the repository), B (the build directory, absolute), and
# SAN_B (the sanitizer build of the tool, absolute), and source tests/lib.sh.
set -u
# One locale wherever make check runs (CI may set none): UTF-8 text, byte order for sorting.
if locale -a 2>/dev/null | grep -qix 'c\.utf-\{0,1\}8'; then
	LC_ALL=C.UTF-8
	export LC_ALL
fi
TOP=$(cd "$(dirname "$0")/.." && pwd)
B=${B:-$TOP/build}
SAN_B=${SAN_B:-$B/san}
export TOP B SAN_B
mkdir -p "$B/tests"

passed=0
failed=0
only=${1:-}
for suite in "$TOP"/tests/*/t-*.sh; do
	name=$(basename "$(dirname "$suite")")/$(basename "$suite" .sh)
	case "$name" in *"$only"*) ;; *) continue ;; esac
	log="$B/tests/$(echo "$name" | tr / _).log"
	start=$(date +%s)
	sh "$suite" >"$log" 2>&1
	rc=$?
	p=$(grep -c '^ok ' "$log")
	f=$(grep -c '^not ok ' "$log")
	s=$(grep -c '^skip ' "$log")
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "not ok - $name: suite exited with status $rc" >>"$log"
		f=1
	fi
	grep '^not ok ' "$log" | sed "s|^|  $name: |"
	echo "$name: $p passed, $f failed$([ "$s" -eq 0 ] || echo ", $s skipped") ($(( $(date +%s) - start ))s; log: $log)"
	passed=$((passed + p))
	failed=$((failed + f))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
