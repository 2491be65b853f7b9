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

# A run shorter than ten times what calibration took at start-up is not measured again:
# its figures are start-up's.  filt.c runs for a millisecond or so; a run the machine slowed
# past that bound says nothing, and at least one of the five must be short.
short=0
for i in 1 2 3 4 5; do
	jq -e '.calibration.startup_cost_ns * 10 > .wall_ns' "$W/run$i.json" >/dev/null || continue
	short=$((short + 1))
	jq -e '.calibration | (.measured_again | not) and .end_o_in_ns == 0 and
		.end_o_out_ns == 0 and .o_in_ns == .start_o_in_ns and .o_out_ns == .start_o_out_ns' \
		"$W/run$i.json" >/dev/null &&
		ok "a short run: calibration at start-up only (run $i)" ||
		fail "a short run: calibration at start-up only (run $i)" "$(jq -c .calibration "$W/run$i.json")"
done
[ $short -gt 0 ] || fail "a short run: calibration at start-up only" \
	"no run was shorter than ten times its calibration: $(jq -s -c 'map([.wall_ns, .calibration.startup_cost_ns])' "$W"/run*.json)"

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

# Sampled timing calibrates a lent call (calib.h): its time is read off the loop it is lent to,
# every round the expected shape, so o_in is there; and an untimed call's whole cost apart.
if [ "$(jq -r .clock.source "$W/run1.json")" = tsc ]; then
	CALLPROF_TIMING=sampled CALLPROF_OUTPUT="$W/sampled.json" "$W/prog"
	jq -e -s '.[0].calibration as $all | .[1] | .clock.timing == "sampled" and
		.calibration as $c | $c.compensated == true and $c.o_in_ns > 0 and $c.o_out_ns >= 0 and
		$c.rounds == $all.rounds and $c.untimed_ns > 0 and ($c.method | test("lent whole")) and
		($all.method | test("lent") | not)' "$W/run1.json" "$W/sampled.json" >/dev/null &&
		ok "CALLPROF_TIMING=sampled: a lent call's o_in and o_out, every round good" ||
		fail "CALLPROF_TIMING=sampled: a lent call's o_in and o_out, every round good" \
			"$(jq -c '[.clock, .calibration]' "$W/sampled.json")"
fi

# tsc-adaptive: every calling context's first 16 calls read the clock with fences; then a
# leaf most of whose sampled calls' own work outweighs the plain probes keeps them, and every
# other context reads plainly.  The counts of fenced calls are exact.
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
	fenced spiky 16    # its sample only: 2 long calls of 16 do not decide
	fenced mostly 100  # every call: 14 long calls of 16 do
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

# Metering (meter.h): with every call metered, each of the leaf's 5000 calls but its first
# (a new call path) gives a sample or is discarded; the counts stay exact; the plain kind's
# o_in and o_out are calibration's mean plus what the program added; a run with fewer
# metered calls than that says nothing, and so do CALLPROF_METER=0 and other clocks.
cc -O1 -g -finstrument-functions "$TOP/tests/calib/meter.c" -L"$B" -lcallprof -Wl,-rpath,"$B" \
	-o "$W/meter" || fail "build meter.c" "see the log"
if [ "$(jq -r .clock.source "$W/run1.json")" = tsc ]; then
	CALLPROF_CPU=0 CALLPROF_METER=1 CALLPROF_OUTPUT="$W/meter.json" "$W/meter" >/dev/null
	jq -e '.calibration.metered as $m | $m.period == 1 and
		$m.program.samples + $m.program.discarded == 4999 and $m.loop.samples >= 64 and
		([.functions[] | select(.name == "leaf") | .id] as $leaf |
			[.threads[].functions[] | select(.fn == $leaf[0]) | .calls] == [5000])' \
		"$W/meter.json" >/dev/null &&
		ok "CALLPROF_METER=1: 4999 of 5000 calls metered, counts exact" ||
		fail "CALLPROF_METER=1: 4999 of 5000 calls metered, counts exact" \
			"$(jq -c .calibration.metered "$W/meter.json")"
	# Sampled timing meters the calls main lends only (meter.h): the leaf's first 64 (the
	# first, a new call path, gives none), the 64 after (main's first 64 callees not in their
	# own first calls: stamp.h), and about 1 in 64 of the rest (about 205), whose first read
	# the enter probe takes before knowing the callee, so never a call lent only for being
	# heavy, nor an untimed one.  Each weighs one call: main, their caller, has one call,
	# timed.  Calibration's loop lends every call of its leaf: a sample in about 16.
	CALLPROF_TIMING=sampled CALLPROF_CPU=0 CALLPROF_METER=1 CALLPROF_OUTPUT="$W/meter-sampled.json" \
		"$W/meter" >/dev/null
	jq -e '.clock.timing == "sampled" and .calibration.metered as $m | $m.period == 1 and
		($m.program.samples + $m.program.discarded) as $n | $n >= 63 and $n <= 1000 and
		$m.program.weight == $m.program.samples and $m.loop.samples >= 1000 and
		(.calibration.o_in_ns - ((if .calibration.measured_again then
			(.calibration.start_o_in_ns + .calibration.end_o_in_ns) / 2 else
			.calibration.start_o_in_ns end + $m.extra_o_in_ns) | if . > 0 then . else 0 end) |
			fabs) < 0.01 and
		([.functions[] | select(.name == "leaf") | .id] as $leaf |
			[.threads[].functions[] | select(.fn == $leaf[0]) | .calls] == [5000])' \
		"$W/meter-sampled.json" >/dev/null &&
		ok "CALLPROF_TIMING=sampled CALLPROF_METER=1: only lent calls metered, counts exact" ||
		fail "CALLPROF_TIMING=sampled CALLPROF_METER=1: only lent calls metered, counts exact" \
			"$(jq -c .calibration "$W/meter-sampled.json")"
	# o_in_ns, o_out_ns: the mean of start and end (start alone in a run too short to be
	# measured again), plus the extra, kept at 0 or more.  meter.c sleeping a second is long
	# enough: measured again, whatever the load.
	CALLPROF_CPU=0 CALLPROF_METER=1 CALLPROF_OUTPUT="$W/meter-long.json" "$W/meter" 1000 >/dev/null
	for run in meter meter-long; do
		jq -e '.calibration | def adds(s; e; x): ((if .measured_again then (s + e) / 2 else s
			end) + x) as $v | (if $v > 0 then $v else 0 end);
			(.o_in_ns - adds(.start_o_in_ns; .end_o_in_ns; .metered.extra_o_in_ns) | fabs) < 0.01 and
			(.o_out_ns - adds(.start_o_out_ns; .end_o_out_ns; .metered.extra_o_out_ns) | fabs) < 0.01 and
			(.metered.extra_o_in_ns - (.metered.program.o_in_ns - .metered.loop.o_in_ns) | fabs) < 0.01' \
			"$W/$run.json" >/dev/null &&
			ok "metered: o_in and o_out hold what the program added ($run)" ||
			fail "metered: o_in and o_out hold what the program added ($run)" \
				"$(jq -c .calibration "$W/$run.json")"
	done
	jq -e '.calibration | .measured_again and .end_o_in_ns > 0 and .end_o_out_ns >= 0' \
		"$W/meter-long.json" >/dev/null &&
		ok "a run of a second: calibration measured again at the dump" ||
		fail "a run of a second: calibration measured again at the dump" \
			"$(jq -c .calibration "$W/meter-long.json")"
	# metered_count DUMP KEY: the dump's metered calls of KEY (samples, not discards) as the
	# index writes them, with thousands separators.
	metered_count() {
		jq -r ".calibration.$2.program.samples" "$1" | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/' -e 'ta'
	}
	"$B/callprof" report "$W/meter.json" -o "$W/meter-site" >/dev/null 2>&1 &&
		grep -q "of which measured in this run beyond the calibration loop: [-+][0-9.]* ns inside, [-+][0-9.]* ns outside ($(metered_count "$W/meter.json" metered) calls metered)" \
			"$W/meter-site/index.html" &&
		ok "metered: the index's calibration says so" ||
		fail "metered: the index's calibration says so" "see $W/meter-site/index.html"
	# The -pg -mfentry front-end's calls are metered apart, against its own calibration.
	cc -O1 -g -pg -mfentry -fno-optimize-sibling-calls "$TOP/tests/calib/meter.c" -L"$B" \
		-lcallprof -Wl,-rpath,"$B" -o "$W/meter-fentry" || fail "build meter.c -pg -mfentry" "see the log"
	(cd "$W" && CALLPROF_CPU=0 CALLPROF_METER=1 CALLPROF_OUTPUT="$W/meter-fentry.json" \
		"$W/meter-fentry" >/dev/null)
	jq -e '.calibration | .fentry_metered as $m | $m.period == 1 and
		$m.program.samples + $m.program.discarded == 4999 and $m.loop.samples >= 64 and
		(has("metered") | not) and
		($m.extra_o_out_ns - ($m.program.o_out_ns - $m.loop.o_out_ns) | fabs) < 0.01 and
		($m.extra_o_in_ns - ($m.program.o_in_ns - $m.loop.o_in_ns) | fabs) < 0.01' \
		"$W/meter-fentry.json" >/dev/null &&
		ok "CALLPROF_METER=1, -pg -mfentry: 4999 of 5000 calls metered as fentry_metered" ||
		fail "CALLPROF_METER=1, -pg -mfentry: 4999 of 5000 calls metered as fentry_metered" \
			"$(jq -c .calibration "$W/meter-fentry.json")"
	"$B/callprof" report "$W/meter-fentry.json" -o "$W/meter-fentry-site" >/dev/null 2>&1 &&
		grep -q -- "-pg -mfentry calls measured in this run beyond their calibration loop: [-+][0-9.]* ns inside, [-+][0-9.]* ns outside ($(metered_count "$W/meter-fentry.json" fentry_metered) calls metered)" \
			"$W/meter-fentry-site/index.html" &&
		ok "metered, -pg -mfentry: the index's calibration says so" ||
		fail "metered, -pg -mfentry: the index's calibration says so" "see $W/meter-fentry-site/index.html"
	for env in "CALLPROF_METER=0" "CALLPROF_METER=2048" "CALLPROF_CLOCK=tsc-ordered CALLPROF_METER=1"; do
		env $env CALLPROF_CPU=0 CALLPROF_OUTPUT="$W/meter-off.json" "$W/meter" >/dev/null
		jq -e '(.calibration | has("metered") | not) and
			([.threads[].functions[].calls] | add) == 5001' "$W/meter-off.json" >/dev/null &&
			ok "$env: no metering in the dump, counts exact" ||
			fail "$env: no metering in the dump, counts exact" \
				"$(jq -c .calibration "$W/meter-off.json")"
	done
	# A dump whose metering lacks a figure: one line naming the file, nothing written.
	jq '.calibration.metered.loop |= del(.o_out_ns)' "$W/meter.json" >"$W/meter-bad.json"
	out=$("$B/callprof" report "$W/meter-bad.json" -o "$W/meter-bad-site" 2>&1)
	rc=$?
	[ $rc -ne 0 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] &&
		printf '%s' "$out" | grep -q "calibration.metered.loop needs o_in_ns and o_out_ns.*meter-bad.json" &&
		[ ! -e "$W/meter-bad-site/index.html" ] &&
		ok "a dump with a metered side missing o_out_ns: one line naming it" ||
		fail "a dump with a metered side missing o_out_ns: one line naming it" "rc $rc: $out"
	# Merged: each kind's metered calls add up on each side, their means weighted by them
	# (a copy whose program probes cost 3 ns more inside: the merge's are 1.5 ns more), and
	# a kind only one dump metered is kept as it was.
	jq '.calibration.metered.program.o_in_ns += 3' "$W/meter.json" >"$W/meter-more.json"
	if "$B/callprof" merge -o "$W/meter-merged.json" "$W/meter.json" "$W/meter-more.json" \
		"$W/meter-fentry.json" >/dev/null 2>"$W/meter-merge.err"; then
		jq -e --slurpfile a "$W/meter.json" --slurpfile f "$W/meter-fentry.json" '
			def near(x; y): ((x - y) | fabs) < 0.001;
			$a[0].calibration.metered as $o | $f[0].calibration.fentry_metered as $e |
			.calibration.metered as $m | .calibration.fentry_metered as $g |
			$m.program.samples == 2 * $o.program.samples and $m.loop.samples == 2 * $o.loop.samples and
			near($m.program.o_in_ns; $o.program.o_in_ns + 1.5) and
			near($m.program.o_out_ns; $o.program.o_out_ns) and near($m.loop.o_in_ns; $o.loop.o_in_ns) and
			near($m.extra_o_in_ns; $o.extra_o_in_ns + 1.5) and near($m.extra_o_out_ns; $o.extra_o_out_ns) and
			$g.program.samples == $e.program.samples and near($g.extra_o_in_ns; $e.extra_o_in_ns) and
			near($g.extra_o_out_ns; $e.extra_o_out_ns)' "$W/meter-merged.json" >/dev/null &&
			ok "merged: metered calls add up, their means weighted by them" ||
			fail "merged: metered calls add up, their means weighted by them" \
				"$(jq -c .calibration "$W/meter-merged.json")"
		"$B/callprof" report "$W/meter-merged.json" -o "$W/meter-merged-site" >/dev/null 2>&1 &&
			grep -q "of which measured in this run beyond the calibration loop: [-+][0-9.]* ns inside, [-+][0-9.]* ns outside ($(metered_count "$W/meter-merged.json" metered) calls metered).*-pg -mfentry calls measured in this run beyond their calibration loop: [-+][0-9.]* ns inside, [-+][0-9.]* ns outside ($(metered_count "$W/meter-fentry.json" fentry_metered) calls metered)" \
				"$W/meter-merged-site/index.html" &&
			ok "merged: the index's calibration gives both kinds' meterings" ||
			fail "merged: the index's calibration gives both kinds' meterings" "see $W/meter-merged-site/index.html"
	else
		fail "merge metered dumps" "$(head -c 300 "$W/meter-merge.err")"
	fi
else
	ok "metering # SKIP: no plain TSC here ($(jq -r .clock.source "$W/run1.json"))"
fi
