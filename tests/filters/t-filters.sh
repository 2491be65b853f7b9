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

# Calls left unrecorded still run their probes, in the time of the recorded frame they hang
# from: each such frame's function counts them (unrecorded_calls, exact), calibration measures
# what one costs (unrecorded_ns), and compensation takes that out of the function's inclusive
# time as it does every recorded callee's probes: arithmetic on the dump's own figures.
# unrecorded DUMP FN [KEY]: FN's unrecorded_calls, or KEY (0 when absent).
unrecorded() {
	jq -r --arg fn "$2" --arg key "${3:-unrecorded_calls}" '(.functions[] | select(.name == $fn) | .id) as $id |
		[.threads[].functions[] | select(.fn == $id) | .[$key] // 0] | add // "none"' "$1"
}
# cpu_reads_below($id): the calls under function $id's rows in thread 0's tree that read the
# CPU clock (docs/dump-format.md, "CPU time"): their reads cost cpu_read_ns each, in its time.
cpu_reads_below='def cpu_reads_below($id): .threads[0].tree as $t | $t.columns as $c |
	($c | index("cpu_calls")) as $k | ($c | index("parent")) as $p | ($c | index("fn")) as $fi |
	(reduce $t.rows[] as $r ({}; .[$r[0] | tostring] = $r)) as $byid |
	if $k == null then 0 else [$t.rows[] | select([recurse(if .[$p] == null then empty
		else $byid[.[$p] | tostring] end)] | .[1:] | any(.[$fi] == $id)) | .[$k]] | add // 0 end;'
# compensated DUMP FN BELOW: true when FN's inclusive time is its raw one less its own o_in,
# the BELOW recorded calls under it at per_call_ns (and their CPU clock reads at cpu_read_ns)
# and its unrecorded calls at unrecorded_ns (a rounding slack of 2 ns and a millionth), and the
# calibration measured unrecorded_ns.
compensated() {
	jq -r --arg fn "$2" --argjson below "$3" "$cpu_reads_below"'.calibration as $c |
		(.functions[] | select(.name == $fn) | .id) as $id |
		(.threads[0].functions[] | select(.fn == $id)) as $f |
		($f.raw_inclusive_ns - $f.calls * $c.o_in_ns - $below * $c.per_call_ns -
		 cpu_reads_below($id) * ($c.cpu_read_ns // 0) -
		 ($f.unrecorded_calls // 0) * ($c.unrecorded_ns // 0)) as $want |
		($c.unrecorded_ns // 0) > 0 and
		(($f.inclusive_ns - $want) | fabs) <= 2 + $f.raw_inclusive_ns / 1000000' "$1"
}
# unrecorded_case NAME FN=CALLS[/BELOW]...: in both variants, the run NAME counts FN's
# unrecorded calls so, and where it has some, with BELOW recorded calls under FN, they are
# compensated.
unrecorded_case() {
	_name=$1
	shift
	for v in link pre; do
		_got="" _want="" _comp=""
		for _fc in "$@"; do
			_f=${_fc%%=*} _n=${_fc#*=}
			_got="$_got $_f=$(unrecorded "$W/$_name-$v.json" "$_f")"
			_want="$_want $_f=${_n%/*}"
			[ "${_n%/*}" = 0 ] || _comp="$_comp $(compensated "$W/$_name-$v.json" "$_f" "${_n#*/}")"
		done
		[ "$_got" = "$_want" ] && ok "$_name: unrecorded calls counted where they ran ($v)" ||
			fail "$_name: unrecorded calls counted where they ran ($v)" "got$_got, want$_want"
		case $_comp in
		*false* | *null* | "") fail "$_name: their probes' cost taken out of the caller's inclusive time ($v)" \
			"${_comp:-nothing checked}" ;;
		*) ok "$_name: their probes' cost taken out of the caller's inclusive time ($v)" ;;
		esac
	done
}
# top calls helper_mid 5 times; main's unrecorded top, helper_mid and busy_excluded all hang
# from main; below depth 2, every call under top hangs from it (5 + 15 + 1 + 1 + 2); below
# depth 3, helper_mid's 15 calls of leaf and busy_excluded's 2.  After the slash: the recorded
# calls under the function (leaf 18 times, busy_excluded once).
unrecorded_case "CALLPROF_EXCLUDE: callees attach to the caller" main=0 top=5/19
unrecorded_case "CALLPROF_EXCLUDE of two globs" top=6/18
unrecorded_case "CALLPROF_INCLUDE keeps only matches" main=7/18
unrecorded_case "CALLPROF_MAX_DEPTH=2 keeps two levels" main=0 top=24/0
unrecorded_case "CALLPROF_MAX_DEPTH=3 keeps three levels" top=0 helper_mid=15/0 busy_excluded=2/0
# -pg -mfentry: an excluded function's call is counted and left alone, neither hijacked nor
# given a frame; its callees attach to the caller all the same, the depth limit still holds,
# and its cost is its own kind's, fentry_unrecorded_ns.
gcc -O2 -g -pg -mfentry "$TOP/tests/filters/filt.c" -L"$B" -lcallprof -Wl,-rpath,"$B" -o "$W/filt-fentry" ||
	fail "build gcc -O2 -pg -mfentry" "see above"
rm -f "$W/fentry-excl.json"
(cd "$W" && unpreempted env CALLPROF_EXCLUDE='helper_*' CALLPROF_OUTPUT="$W/fentry-excl.json" "$W/filt-fentry")
printf 'calls main 1\ncalls top 1\nabsent helper_mid\ncalls leaf 18\nedge top leaf 16\nedge busy_excluded leaf 2\n' \
	>"$W/fentry-excl.expect"
check "-pg -mfentry, CALLPROF_EXCLUDE: callees attach to the caller" "$DC" "$W/fentry-excl.json" "$W/fentry-excl.expect"
rm -f "$W/fentry-depth.json"
(cd "$W" && unpreempted env CALLPROF_MAX_DEPTH=2 CALLPROF_OUTPUT="$W/fentry-depth.json" "$W/filt-fentry")
printf 'calls main 1\ncalls top 1\nedge main top 1\nabsent helper_mid\nabsent leaf\nabsent busy_excluded\n' \
	>"$W/fentry-depth.expect"
check "-pg -mfentry, CALLPROF_MAX_DEPTH=2 keeps two levels" "$DC" "$W/fentry-depth.json" "$W/fentry-depth.expect"
[ "$(unrecorded "$W/fentry-depth.json" top fentry_unrecorded_calls)" = 24 ] &&
	ok "-pg -mfentry, CALLPROF_MAX_DEPTH=2: every call under top unrecorded, counted there (24)" ||
	fail "-pg -mfentry, CALLPROF_MAX_DEPTH=2: every call under top unrecorded, counted there (24)" \
		"$(unrecorded "$W/fentry-depth.json" top fentry_unrecorded_calls)"
got="$(unrecorded "$W/fentry-excl.json" top fentry_unrecorded_calls) $(unrecorded "$W/fentry-excl.json" main \
	fentry_unrecorded_calls) $(unrecorded "$W/fentry-excl.json" top)"
[ "$got" = "5 0 0" ] && ok "-pg -mfentry, CALLPROF_EXCLUDE: top's 5 calls of helper_mid unrecorded, of that kind" ||
	fail "-pg -mfentry, CALLPROF_EXCLUDE: top's 5 calls of helper_mid unrecorded, of that kind" \
		"top, main, top's plain ones: $got"

got=$(jq -r "$cpu_reads_below"'.calibration as $c | (.functions[] | select(.name == "top") | .id) as $id |
	(.threads[0].functions[] | select(.fn == $id)) as $f |
	($f.raw_inclusive_ns - $c.fentry_o_in_ns - 19 * ($c.fentry_o_in_ns + $c.fentry_o_out_ns) -
	 cpu_reads_below($id) * ($c.cpu_read_ns // 0) -
	 $f.fentry_unrecorded_calls * $c.fentry_unrecorded_ns) as $want |
	$c.fentry_unrecorded_ns > 0 and (($f.inclusive_ns - $want) | fabs) <= 2 + $f.raw_inclusive_ns / 1000000' \
	"$W/fentry-excl.json" 2>&1)
[ "$got" = true ] && ok "-pg -mfentry: their cost (fentry_unrecorded_ns) taken out of top's inclusive time" ||
	fail "-pg -mfentry: their cost (fentry_unrecorded_ns) taken out of top's inclusive time" "$got"

for v in link pre; do
	for fn in main top helper_mid busy_excluded; do
		[ "$(unrecorded "$W/no filter-$v.json" $fn)" = 0 ] || fail "no filter: no unrecorded calls ($v)" "$fn has some"
	done
	ok "no filter: no unrecorded calls ($v)"
	[ "$(jq '.calibration | has("unrecorded_ns")' "$W/no filter-$v.json")" = false ] &&
		ok "no filter: no unrecorded calls' cost measured ($v)" ||
		fail "no filter: no unrecorded calls' cost measured ($v)" "unrecorded_ns in the calibration"
done

# The report says so on the function's page; callprof merge keeps the counts and costs.
d2="$W/CALLPROF_MAX_DEPTH=2 keeps two levels-link.json"
rm -rf "$W/site-unrec"
if "$B/callprof" report -o "$W/site-unrec" "$d2" >/dev/null 2>"$W/site-unrec.err"; then
	find "$W/site-unrec/fn" -name "*.html" -exec cat {} + >"$W/site-unrec.fn"
	has "the function page says its 24 unrecorded calls, their probes taken out" "$W/site-unrec.fn" \
		'id="unrecorded"><span data-v="24">24</span> calls it made were not recorded .*their probes. cost was taken out of its times'
else
	fail "the report of a filtered dump" "$(head -n 2 "$W/site-unrec.err")"
fi
"$B/callprof" merge -o "$W/merged-unrec.json" "$d2" "$W/fentry-excl.json" 2>"$W/merged-unrec.err"
got=$(jq -c '[[.threads[].functions[] | .unrecorded_calls // 0, .fentry_unrecorded_calls // 0] | add],
	(.calibration | has("unrecorded_ns"), has("fentry_unrecorded_ns"))' "$W/merged-unrec.json" 2>&1 | tr '\n' ' ')
[ "$got" = "[29] true true " ] && ok "merge keeps the unrecorded calls and their costs" ||
	fail "merge keeps the unrecorded calls and their costs" "$got"

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
