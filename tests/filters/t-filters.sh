#!/bin/sh
# tests/filters: CALLPROF_INCLUDE / CALLPROF_EXCLUDE / CALLPROF_MAX_DEPTH keep exact counts
# for what they record; an excluded function's callees attach to the nearest recorded
# frame and its time stays in its caller's self time.  Built by GCC at -O2 (linked) and
# Clang at -O0 (preloaded through `callprof record`).
. "$TOP/tests/lib.sh"
set -u
workdir filters
build build "$W/build.log" "$B/libcallprof.so" "$REC" "$DC" || exit 1
command -v jq >/dev/null || { fail "filters" "jq is missing (make check installs it)"; exit 1; }

gcc -O2 -g -finstrument-functions "$TOP/tests/filters/filt.c" -L"$B" -lcallprof -Wl,-rpath,"$B" \
	-o "$W/filt-link" || fail "build gcc -O2" "see above"
clang -O0 -g -finstrument-functions "$TOP/tests/filters/filt.c" -o "$W/filt-pre" ||
	fail "build clang -O0" "see above"

# run VARIANT OUT [VAR=VALUE...]: one profiled run of the variant with the settings,
# unpreempted: the share of busy_excluded's time below is a ratio of times.
run() {
	variant=$1 out=$2
	shift 2
	if [ "$variant" = link ]; then
		unpreempted env "$@" CALLPROF_OUTPUT="$out" "$W/filt-link"
	else
		unpreempted env "$@" "$B/callprof" record -o "$out" -- "$W/filt-pre"
	fi
}

# expect NAME VARIANT EXPECTATIONS [VAR=VALUE...]: a run whose dump meets the expectations.
expect() {
	name=$1 variant=$2 want=$3
	shift 3
	printf '%s\n' "$want" >"$W/$name-$variant.expect"
	rm -f "$W/$name-$variant.json"
	if ! run "$variant" "$W/$name-$variant.json" "$@" 2>"$W/$name-$variant.err"; then
		fail "$name ($variant)" "the program failed: $(head -n 2 "$W/$name-$variant.err")"
		return
	fi
	check "$name ($variant)" "$DC" "$W/$name-$variant.json" "$W/$name-$variant.expect"
}

for v in link pre; do
	expect "no filter" $v "calls main 1
calls top 1
calls helper_mid 5
calls leaf 18
calls busy_excluded 1
edge top helper_mid 5
edge helper_mid leaf 15
edge top leaf 1
edge busy_excluded leaf 2"

	expect "CALLPROF_EXCLUDE: callees attach to the caller" $v "calls main 1
calls top 1
absent helper_mid
calls leaf 18
edge top leaf 16
edge busy_excluded leaf 2" CALLPROF_EXCLUDE='helper_*'

	expect "CALLPROF_EXCLUDE of two globs" $v "calls top 1
absent helper_mid
absent busy_excluded
calls leaf 18
edge top leaf 18" CALLPROF_EXCLUDE='helper_*,busy_*'

	expect "CALLPROF_INCLUDE keeps only matches" $v "calls main 1
absent top
absent helper_mid
absent busy_excluded
calls leaf 18
edge main leaf 18" CALLPROF_INCLUDE='main,leaf'

	expect "CALLPROF_INCLUDE by module file name" $v "calls main 1
calls top 1
calls helper_mid 5
calls leaf 18" CALLPROF_INCLUDE='filt-*'

	expect "CALLPROF_INCLUDE with CALLPROF_EXCLUDE" $v "calls top 1
absent main
absent helper_mid
calls leaf 18
edge top leaf 16" CALLPROF_INCLUDE='top,leaf,busy_*' CALLPROF_EXCLUDE='helper_*'

	expect "CALLPROF_MAX_DEPTH=2 keeps two levels" $v "calls main 1
calls top 1
edge main top 1
absent helper_mid
absent leaf
absent busy_excluded" CALLPROF_MAX_DEPTH=2

	expect "CALLPROF_MAX_DEPTH=3 keeps three levels" $v "calls helper_mid 5
calls busy_excluded 1
calls leaf 1
edge top leaf 1
edge helper_mid leaf 0
edge busy_excluded leaf 0" CALLPROF_MAX_DEPTH=3
done

# Time of an excluded function stays in its caller's self time: busy_excluded is most of
# the run, so top's self share of its inclusive time flips from small to large.  A ratio
# within one run each, never an absolute time.
share() { # share DUMP FN: FN's self time as a percentage of its inclusive time
	jq -r --arg fn "$2" '(.functions[] | select(.name == $fn) | .id) as $id |
		[.threads[].functions[] | select(.fn == $id)] | first |
		if .raw_inclusive_ns > 0 then (100 * .raw_self_ns / .raw_inclusive_ns | floor) else -1 end' "$1"
}
for v in link pre; do
	without=$(share "$W/no filter-$v.json" top)
	with=$(share "$W/CALLPROF_EXCLUDE of two globs-$v.json" top)
	if [ "$without" -ge 0 ] && [ "$without" -lt 50 ] && [ "$with" -gt 50 ]; then
		ok "excluded time stays in the caller's self time ($v)"
	else
		fail "excluded time stays in the caller's self time ($v)" \
			"top's self share: $without% unfiltered, $with% with busy_excluded excluded"
	fi
done

# A bad glob list is not an error: the runtime never stops the program.
out=$(CALLPROF_OUTPUT="$W/empty.json" CALLPROF_INCLUDE=',,' "$W/filt-link" 2>&1)
[ -z "$out" ] && ok "an empty glob list is ignored quietly" ||
	fail "an empty glob list is ignored quietly" "printed: $out"

# Everything excluded: the process still writes its profile, with no calls, so a CI job
# that profiles this way still has a file to report on.
rm -f "$W/all-excluded.json"
CALLPROF_EXCLUDE='*' CALLPROF_OUTPUT="$W/all-excluded.json" "$W/filt-link"
if [ -s "$W/all-excluded.json" ] && "$DC" "$W/all-excluded.json" >"$W/all-excluded.check" 2>&1 &&
	[ "$(jq '[.threads[].functions[]] | length' "$W/all-excluded.json")" = 0 ]; then
	ok "everything excluded: an empty profile is written"
else
	fail "everything excluded: an empty profile is written" "$(head -n 2 "$W/all-excluded.check" 2>/dev/null)"
fi
# A process that never runs instrumented code writes nothing, preloaded or not.
rm -f "$W/shell.json"
LD_PRELOAD="$B/libcallprof.so" CALLPROF_OUTPUT="$W/shell.json" sh -c true
[ ! -e "$W/shell.json" ] && ok "an uninstrumented process writes no profile" ||
	fail "an uninstrumented process writes no profile" "$W/shell.json exists"

# Any number of globs: the 70th still counts.
globs=$(i=1; while [ $i -le 69 ]; do printf 'nomatch%d,' $i; i=$((i + 1)); done)main
rm -f "$W/globs.json"
CALLPROF_INCLUDE="$globs" CALLPROF_OUTPUT="$W/globs.json" "$W/filt-link"
printf 'calls main 1\nabsent top\n' >"$W/globs.expect"
check "CALLPROF_INCLUDE with 70 globs keeps the 70th" "$DC" "$W/globs.json" "$W/globs.expect"
