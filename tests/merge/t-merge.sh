#!/bin/sh
# tests/merge/t-merge.sh: `callprof merge` writes a dump that every command reads again: it
# meets every invariant (tests/dumpcheck), merging is associative and commutative, the report
# of a merged dump is the report of its dumps together, copies of one static function stay
# apart, and bad input leaves what was there untouched.
set -u
. "$TOP/tests/lib.sh"
cd "$TOP"
workdir merge
build build "$W/build.log" all "$DC" || exit 1
CP=$B/callprof
if ! command -v node >/dev/null; then
	fail node "needs node (make test-deps)"
	exit 1
fi

# same NAME A B: ok when files A and B are equal (a diff's first lines otherwise).
same() {
	if cmp -s "$2" "$3"; then ok "$1"; else fail "$1" "$(diff "$2" "$3" | head -n 4 | tr '\n' ' ')"; fi
}
# merge NAME OUT DUMP...: callprof merge, a failure reported as test NAME.
merge() {
	_n=$1 _o=$2
	shift 2
	"$CP" merge -o "$_o" "$@" >"$W/merge.out" 2>&1 || fail "$_n" "callprof merge: $(head -n 2 "$W/merge.out" | tr '\n' ' ')"
}
# alike NAME A B: ok when dumps A and B are equal figure by figure (tests/merge/canon.js).
alike() { check "$1" node tests/merge/canon.js "$2" "$3"; }

# ---- the dumps: two runs of examples/demo, two of a program with copies of a static -------
CF="-finstrument-functions -g -O2 -fno-optimize-sibling-calls"
if ! cc $CF examples/demo/*.c -o "$W/demo" 2>"$W/cc.err" || ! cc $CF -Itests/merge tests/merge/copies.c \
	tests/merge/copies_a.c tests/merge/copies_b.c -o "$W/copies" 2>>"$W/cc.err"; then
	fail "build the programs" "$(head -n 3 "$W/cc.err" | tr '\n' ' ')"
	exit 1
fi
for run in "a demo 300" "b demo 1000" "c copies 3" "d copies 5" "e copies 3"; do
	set -- $run
	"$CP" record -o "$W/$1.json" -- "$W/$2" "$3" >/dev/null 2>"$W/$1.err" || fail "record $1" "$(head -n 2 "$W/$1.err")"
done

# ---- associative, commutative --------------------------------------------------------------
merge "merge a b" "$W/ab.json" "$W/a.json" "$W/b.json"
merge "merge ab c" "$W/ab_c.json" "$W/ab.json" "$W/c.json"
merge "merge b c" "$W/bc.json" "$W/b.json" "$W/c.json"
merge "merge a bc" "$W/a_bc.json" "$W/a.json" "$W/bc.json"
merge "merge a b c" "$W/abc.json" "$W/a.json" "$W/b.json" "$W/c.json"
merge "merge c b a" "$W/cba.json" "$W/c.json" "$W/b.json" "$W/a.json"
if cmp -s "$W/ab_c.json" "$W/a_bc.json"; then
	ok "merge(merge(a,b),c) and merge(a,merge(b,c)) are byte-identical"
else
	alike "merge(merge(a,b),c) and merge(a,merge(b,c)) are equal figure by figure" "$W/ab_c.json" "$W/a_bc.json"
fi
alike "merge(merge(a,b),c) and merge(a,b,c) are equal figure by figure" "$W/ab_c.json" "$W/abc.json"
alike "merge(c,b,a) and merge(a,b,c) are equal figure by figure" "$W/cba.json" "$W/abc.json"
# The comparison itself sees a difference: one call more.
jq '.threads[0].functions[0].calls += 1' "$W/abc.json" >"$W/abc-off.json"
if node tests/merge/canon.js "$W/abc.json" "$W/abc-off.json" >/dev/null; then
	fail "the figure-by-figure comparison sees one call more" "it does not"
else
	ok "the figure-by-figure comparison sees one call more"
fi
for m in ab ab_c a_bc cba; do
	check "dumpcheck: the merged dump $m meets every invariant" "$DC" "$W/$m.json"
done

# ---- copies of one static function stay apart --------------------------------------------
merge "merge c d" "$W/cd.json" "$W/c.json" "$W/d.json"
merge "merge c e" "$W/ce.json" "$W/c.json" "$W/e.json"
printf 'functions helper 2\ncalls helper 24\nedge run_a helper 8\nedge run_b helper 16\nthreads 2\n' >"$W/cd.expect"
check "merge of two runs: each copy of helper() keeps its own calls (8 and 16)" "$DC" "$W/cd.json" "$W/cd.expect"
printf 'functions helper 2\nedge run_a helper 6\nedge run_b helper 12\n' >"$W/ce.expect"
check "merge of two identical runs: each copy of helper() matches itself (6 and 12)" "$DC" "$W/ce.json" "$W/ce.expect"
got=$(jq -c '[.functions[] | select(.name == "helper") | .offset] | sort' "$W/cd.json")
want=$(jq -c '[.functions[] | select(.name == "helper") | .offset] | sort' "$W/c.json")
if [ "$got" = "$want" ]; then ok "the copies keep their offsets: $got"; else fail "the copies keep their offsets" "$got, not $want"; fi

# ---- the report of a merged dump is the report of its dumps together -----------------------
merge "merge a b c d" "$W/all.json" "$W/a.json" "$W/b.json" "$W/c.json" "$W/d.json"
merge "merge (a b) (c d)" "$W/all2.json" "$W/ab.json" "$W/cd.json"
"$CP" report -o "$W/site-merged" "$W/all2.json" >/dev/null 2>"$W/report.err" || fail "report of the merged dump" "$(cat "$W/report.err")"
"$CP" report -o "$W/site-together" "$W/a.json" "$W/b.json" "$W/c.json" "$W/d.json" >/dev/null 2>>"$W/report.err" ||
	fail "report of the dumps together" "$(cat "$W/report.err")"
# What must differ: one dump against four.  The index and summary.md name the dumps (file,
# pid, date, "merged") and their programs (a merged dump keeps the first one's), and show the
# first dump's calibration and clock, which a merged dump replaces with the dumps' weighted
# mean; each thread's page names its dump's file.  A function page's warning that its probes
# cost more than its own time is figured from that calibration too (per dump together, from
# the mean merged), so its figures, and near the line whether it shows, may differ: left out;
# the probes' estimated cost on the index and in summary.md likewise, compared as numbers below.
norm() {
	rm -rf "$2"
	mkdir -p "$2"
	(cd "$1" && find . -type f ! -path './static/*' ! -name .callprof-report) | sort | while read -r f; do
		mkdir -p "$2/$(dirname "$f")"
		perl -0pe 's|<div><dt>Programs?</dt>.*?\n(<div><dt>Arguments</dt>.*?\n)?|PROGRAM\n|; s|<div><dt>Dumps \(merged\)</dt><dd><details.*?</details></dd></div>|DUMPS|s' "$1/$f" |
		sed -E -e 's|<div><dt>Dumps? [^<]*</dt><dd>.*</dd></div>|DUMPS|' \
			-e 's|<div><dt>Dump</dt><dd>.*</dd></div>|DUMPS|' \
			-e 's|(<div><dt>Wall time</dt><dd>[^<(]*)( \(the longest dump\))?</dd>|\1</dd>|' \
			-e 's|<div><dt>Calibration</dt><dd>.*</dd></div>|CALIBRATION|' \
			-e '/<li class="warn" id="probe-exceeds">/d' \
			-e 's/(Instrumentation(<\/dt><dd>|: )about )[0-9.]+ .s, [0-9.]+%/\1COST/' \
			-e 's|(Program: .*) \((pid [0-9]+\|[0-9]+ dumps merged)\)|\1 (RUN)|' >"$2/$f"
	done
}
norm "$W/site-merged" "$W/norm-merged"
norm "$W/site-together" "$W/norm-together"
# The probes' estimated cost is figured from that calibration too: rounded to 0.1%, the two may
# fall on either side of a rounding boundary, so they are compared as numbers, one step of
# 0.1 apart at most (78.2 - 78.1 is a little over 0.1 in binary: the margin takes that).
pct() { sed -n 's/.*<dt>Instrumentation<\/dt><dd>about [^,]*, \([0-9.]*\)%.*/\1/p' "$1/index.html"; }
if awk -v a="$(pct "$W/site-merged")" -v b="$(pct "$W/site-together")" \
	'BEGIN { exit !(a != "" && b != "" && a - b <= 0.1001 && b - a <= 0.1001) }'; then
	ok "the probes' estimated cost: the merged dump's is the dumps' ($(pct "$W/site-merged")%, $(pct "$W/site-together")%)"
else
	fail "the probes' estimated cost: the merged dump's is the dumps'" "$(pct "$W/site-merged")% against $(pct "$W/site-together")%"
fi
if diff -r "$W/norm-merged" "$W/norm-together" >"$W/site.diff"; then
	ok "the report of merge((a b) (c d)) is the report of a b c d: $(find "$W/norm-merged" -type f | wc -l) pages alike"
else
	fail "the report of the merged dump is the report of the dumps together" "$(head -n 6 "$W/site.diff" | tr '\n' ' ')"
fi
"$CP" top "$W/all2.json" | tail -n +2 >"$W/top-merged.txt"
"$CP" top "$W/a.json" "$W/b.json" "$W/c.json" "$W/d.json" | tail -n +2 >"$W/top-together.txt"
same "top of the merged dump is top of the dumps together" "$W/top-merged.txt" "$W/top-together.txt"
mkdir -p "$W/parts"
cp "$W/a.json" "$W/b.json" "$W/c.json" "$W/d.json" "$W/parts/"
"$CP" diff -o "$W/site-diff" "$W/all2.json" "$W/parts" >/dev/null 2>"$W/diff.err"
if [ $? -eq 0 ] && grep -q '<a href="#appeared">0 appeared</a>, <a href="#vanished">0 vanished</a>' "$W/site-diff/index.html"; then
	ok "diff of the merged dump against its dumps: every function matched"
else
	fail "diff of the merged dump against its dumps: every function matched" "$(head -n 2 "$W/diff.err")"
fi

# ---- what the merged dump says about its run ------------------------------------------------
want=$(jq -s '[.[] | .wall_ns] | max' "$W/a.json" "$W/b.json" "$W/c.json" "$W/d.json")
got=$(jq .wall_ns "$W/all.json")
[ "$got" = "$want" ] && ok "wall_ns is the longest dump's" || fail "wall_ns is the longest dump's" "$got, not $want"
got=$(jq -c '[.threads[] | [.pid, .tid]]' "$W/all.json")
want=$(jq -s -c '[.[] | .program.pid as $p | .threads[] | [$p, .tid]]' "$W/a.json" "$W/b.json" "$W/c.json" "$W/d.json")
[ "$got" = "$want" ] && ok "every thread is kept, with its process's pid" || fail "every thread is kept, with its process's pid" "$got"
# The probes' cost: the dumps' figures weighted by their calls.
got=$(jq '.calibration.o_in_ns' "$W/ab.json")
want=$(jq -s '[.[] | {c: ([.threads[].functions[].calls] | add), o: .calibration.o_in_ns}] |
	(map(.c * .o) | add) / (map(.c) | add) * 1000000 | round / 1000000' "$W/a.json" "$W/b.json")
awk -v a="$got" -v b="$want" 'BEGIN { exit !(a - b < 1e-6 && b - a < 1e-6) }' &&
	ok "calibration.o_in_ns is the dumps' mean weighted by calls ($got)" ||
	fail "calibration.o_in_ns is the dumps' mean weighted by calls" "$got, not $want"
# Clocks of different kinds: "mixed", and the times as they are (nanoseconds already).
CALLPROF_CLOCK=none "$CP" record -o "$W/n.json" -- "$W/copies" 3 >/dev/null 2>&1
merge "merge a clock-less dump" "$W/cn.json" "$W/c.json" "$W/n.json"
[ "$(jq -r .clock.source "$W/cn.json")" = mixed ] && ok "clocks that differ: source mixed" ||
	fail "clocks that differ: source mixed" "$(jq -c .clock "$W/cn.json")"
check "dumpcheck: a merge of a timed and a clock-less dump" "$DC" "$W/cn.json"
# Warnings, each once; clamped figures add up.
jq '.warnings = ["w one", "w two"] | .clamped_figures = 3' "$W/c.json" >"$W/cw.json"
jq '.warnings = ["w two", "w three"] | .clamped_figures = 4' "$W/d.json" >"$W/dw.json"
merge "merge warnings" "$W/cdw.json" "$W/cw.json" "$W/dw.json"
got=$(jq -c '[.warnings, .clamped_figures]' "$W/cdw.json")
[ "$got" = '[["w one","w two","w three"],7]' ] && ok "warnings each once, clamped figures summed" ||
	fail "warnings each once, clamped figures summed" "$got"
# A merged dump merges again, in place.
cp "$W/ab.json" "$W/inplace.json"
merge "merge in place" "$W/inplace.json" "$W/inplace.json" "$W/c.json"
same "merge -o X X c: X replaced by the merge" "$W/inplace.json" "$W/ab_c.json"
"$CP" merge -o - "$W/a.json" "$W/b.json" >"$W/stdout.json" 2>/dev/null
same "merge -o - writes to the standard output" "$W/stdout.json" "$W/ab.json"

# ---- bad input: one line naming the file, exit 2, nothing replaced -------------------------
echo '{"format": "callprof", "version": 1, "functions": [], "threads": [{"tree": 5}]}' >"$W/bad.json"
echo "keep me" >"$W/out.json"
"$CP" merge -o "$W/out.json" "$W/a.json" "$W/bad.json" >"$W/bad.out" 2>"$W/bad.err"
rc=$?
if [ $rc -eq 2 ] && [ "$(wc -l <"$W/bad.err")" -eq 1 ] && grep -q "bad.json" "$W/bad.err" && [ "$(cat "$W/out.json")" = "keep me" ]; then
	ok "a bad dump: exit 2, one line naming it, the output file untouched"
else
	fail "a bad dump: exit 2, one line naming it, the output file untouched" "status $rc: $(head -n 2 "$W/bad.err" | tr '\n' ' ')"
fi
mkdir -p "$W/adir"
"$CP" merge -o "$W/adir" "$W/a.json" >/dev/null 2>"$W/dir.err"
rc=$?
if [ $rc -eq 2 ] && [ -d "$W/adir" ] && [ "$(wc -l <"$W/dir.err")" -eq 1 ] && [ -z "$(ls -A "$W" | grep '^\.callprof-')" ]; then
	ok "an output that is a directory: exit 2, one line, nothing left behind"
else
	fail "an output that is a directory: exit 2, one line, nothing left behind" "status $rc: $(cat "$W/dir.err")"
fi
"$CP" merge "$W/a.json" >/dev/null 2>"$W/usage.err"
[ $? -eq 1 ] && ok "no -o: a usage error (exit 1)" || fail "no -o: a usage error (exit 1)" "$(cat "$W/usage.err")"
exit 0
