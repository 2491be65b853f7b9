#!/bin/sh
# tests/calib: the calibration figures are present, positive and stable in order of
# magnitude across runs, with the plain and the ordered TSC; CALLPROF_COMPENSATE=0 and
# CALLPROF_CLOCK=none turn compensation off; compensated figures never exceed raw ones.  Ratios between runs, no absolute times.
. "$TOP/tests/lib.sh"
set -u
workdir calib
build build "$W/build.log" "$B/libcallprof.so" || exit 1
command -v jq >/dev/null || { fail "calib" "jq is missing (make check installs it)"; exit 1; }
cc -O2 -g -finstrument-functions "$TOP/tests/filters/filt.c" -L"$B" -lcallprof -Wl,-rpath,"$B" \
	-o "$W/prog" || { fail "build" "see the log"; exit 1; }

i=1
while [ $i -le 5 ]; do
	CALLPROF_OUTPUT="$W/run$i.json" "$W/prog" || fail "run $i" "exit status $?"
	i=$((i + 1))
done

for i in 1 2 3 4 5; do
	if jq -e '.calibration | .compensated == true and .o_in_ns > 0 and .o_out_ns >= 0 and
		.per_call_ns > 0 and (.per_call_ns - .o_in_ns - .o_out_ns | fabs) < 0.01 and
		.rounds > 0 and .calls_per_round > 0 and (.method | length) > 0' "$W/run$i.json" >/dev/null; then
		ok "calibration present and positive (run $i)"
	else
		fail "calibration present and positive (run $i)" "$(jq -c .calibration "$W/run$i.json")"
	fi
done

# Stable in order of magnitude: the largest per-call cost within 10x of the smallest.
jq -s 'map(.calibration.per_call_ns) | (max / min) < 10' "$W"/run*.json | grep -qx true &&
	ok "calibration stable in order of magnitude across 5 runs" ||
	fail "calibration stable in order of magnitude across 5 runs" \
		"$(jq -s -c 'map(.calibration.per_call_ns)' "$W"/run*.json)"

# Compensation never raises a figure, anywhere.
jq -e '[.threads[] | (.functions[], .edges[]) | select(.inclusive_ns > .raw_inclusive_ns or
	.self_ns > .raw_self_ns)] | length == 0' "$W/run1.json" >/dev/null &&
	ok "compensated figures never exceed raw ones" ||
	fail "compensated figures never exceed raw ones" "see $W/run1.json"

CALLPROF_COMPENSATE=0 CALLPROF_OUTPUT="$W/off.json" "$W/prog"
jq -e '.calibration.compensated == false and ([.threads[] | (.functions[], .edges[]) |
	select(.inclusive_ns != .raw_inclusive_ns or .self_ns != .raw_self_ns)] | length == 0) and
	([.threads[].tree.rows[] | select(.[4] != .[6] or .[5] != .[7])] | length == 0)' \
	"$W/off.json" >/dev/null &&
	ok "CALLPROF_COMPENSATE=0 keeps raw figures" ||
	fail "CALLPROF_COMPENSATE=0 keeps raw figures" "see $W/off.json"

CALLPROF_CLOCK=none CALLPROF_OUTPUT="$W/none.json" "$W/prog"
jq -e '.calibration.compensated == false and .calibration.per_call_ns == 0 and
	.clock.source == "none"' "$W/none.json" >/dev/null &&
	ok "CALLPROF_CLOCK=none: no calibration" ||
	fail "CALLPROF_CLOCK=none: no calibration" "$(jq -c .calibration "$W/none.json")"

# The ordered TSC drives the same calibration through its fenced probes: dearer, still measured.
CALLPROF_CLOCK=tsc-ordered CALLPROF_OUTPUT="$W/ordered.json" "$W/prog"
if [ "$(jq -r .clock.source "$W/run1.json")" = tsc ]; then
	jq -e '.clock.source == "tsc-ordered" and
		.calibration.compensated == true and .calibration.o_in_ns > 0 and
		.calibration.per_call_ns > 0 and .calibration.rounds > 0' "$W/ordered.json" >/dev/null &&
		ok "CALLPROF_CLOCK=tsc-ordered: calibration present and positive" ||
		fail "CALLPROF_CLOCK=tsc-ordered: calibration present and positive" \
			"$(jq -c '[.clock, .calibration]' "$W/ordered.json")"
else
	jq -e '.clock.source == "monotonic"' "$W/ordered.json" >/dev/null &&
		ok "CALLPROF_CLOCK=tsc-ordered without an invariant TSC falls back to monotonic" ||
		fail "CALLPROF_CLOCK=tsc-ordered without an invariant TSC falls back to monotonic" \
			"$(jq -c .clock "$W/ordered.json")"
fi

# tsc-adaptive: every calling context's first 16 calls read the clock with fences; then a
# leaf whose own work outweighs the plain probes keeps them, and every other context reads
# plainly.  The counts of fenced calls are exact.
cc -O1 -g -finstrument-functions "$TOP/tests/calib/adapt.c" -L"$B" -lcallprof -Wl,-rpath,"$B" \
	-o "$W/adapt" || fail "build adapt.c" "see the log"
CALLPROF_CLOCK=tsc-adaptive CALLPROF_OUTPUT="$W/adapt.json" "$W/adapt"
if [ "$(jq -r .clock.source "$W/adapt.json")" = tsc-adaptive ]; then
	# fenced NAME WANT: the function's fenced calls in the dump.
	fenced() {
		got=$(jq --arg n "$1" '.functions as $f | [.threads[].functions[] |
			select($f[.fn].name == $n) | .fenced_calls] | add' "$W/adapt.json")
		[ "$got" = "$2" ] && ok "tsc-adaptive: $1 has $2 fenced calls" ||
			fail "tsc-adaptive: $1 has $2 fenced calls" "$got"
	}
	fenced heavy 200   # every call: 100 from main, 100 from parent
	fenced parent 16   # its sample only: it has callees
	fenced tiny 32     # its sample in each of its two contexts
	fenced main 1      # a single call, still in its sample
	jq -e '.calibration | .fenced_o_in_ns > 0 and .fenced_o_out_ns >= 0' "$W/adapt.json" >/dev/null &&
		ok "tsc-adaptive: fenced reads calibrated" ||
		fail "tsc-adaptive: fenced reads calibrated" "$(jq -c .calibration "$W/adapt.json")"
	jq -e '[.threads[].functions[] | select(.fenced_calls > .calls)] | length == 0' \
		"$W/adapt.json" >/dev/null && ok "tsc-adaptive: fenced calls never exceed calls" ||
		fail "tsc-adaptive: fenced calls never exceed calls" "see $W/adapt.json"
	CALLPROF_OUTPUT="$W/plain.json" "$W/adapt"
	jq -e '.clock.source == "tsc" and ([.threads[].functions[] | select(has("fenced_calls"))] |
		length == 0) and (.calibration | has("fenced_o_in_ns") | not)' "$W/plain.json" >/dev/null &&
		ok "the default clock (tsc): plain reads only" ||
		fail "the default clock (tsc): plain reads only" "$(jq -c .clock "$W/plain.json")"
else
	ok "tsc-adaptive # SKIP: no invariant TSC here ($(jq -r .clock.source "$W/adapt.json"))"
fi
