#!/bin/sh
# tests/export/t-export.sh: `callprof export` in each format, read back by the format's real
# reader and compared with the dumps (tests/export/consumers.js): pprof by pprof-format,
# speedscope JSON and folded stacks by speedscope's own importer, callgrind by Valgrind's
# callgrind_annotate; folded stacks also as FlameGraph's flamegraph.pl parses its input.
# The node packages are installed here on first use (tests/export/package.json, its lockfile).
set -u
. "$TOP/tests/lib.sh"
cd "$TOP"
workdir export
build build "$W/build.log" all || exit 1
CP=$B/callprof
for c in node npm callgrind_annotate perl jq; do
	command -v $c >/dev/null || { fail "$c" "needs $c (make test-deps)"; exit 1; }
done
if [ ! -f tests/export/node_modules/speedscope/package.json ] || [ ! -f tests/export/node_modules/pprof-format/package.json ]; then
	echo "installing pprof-format and speedscope into tests/export/node_modules"
	if ! (cd tests/export && npm ci --no-audit --no-fund --loglevel=error) >"$W/npm.log" 2>&1; then
		fail "npm ci" "$(tail -n 3 "$W/npm.log" | tr '\n' ' ')"
		exit 1
	fi
fi
v() { sed -n 's/.*"version": "\(.*\)".*/\1/p' "tests/export/node_modules/$1/package.json"; }
ok "readers: pprof-format $(v pprof-format), speedscope $(v speedscope), $(callgrind_annotate --version 2>&1 | head -n 1)"

# ---- the profiles: recorded runs, fixtures, and names each format must escape -------------
CF="-finstrument-functions -g -O2 -fno-optimize-sibling-calls"
if ! cc $CF examples/demo/*.c -o "$W/demo" 2>"$W/cc.err" || ! cc $CF -Itests/merge tests/merge/copies.c \
	tests/merge/copies_a.c tests/merge/copies_b.c -o "$W/copies" 2>>"$W/cc.err"; then
	fail "build the programs" "$(head -n 3 "$W/cc.err" | tr '\n' ' ')"
	exit 1
fi
# Raw times (CALLPROF_COMPENSATE=0): on a loaded machine calibration may overestimate the
# probes of a short run until its root's compensated time is clamped to 0, and such a tree
# is exported by calls (analyze.c's by_calls) while the readers' checks expect times.
# What is tested here is that each format carries the dumps' figures, whatever they are.
export CALLPROF_COMPENSATE=0
"$CP" record -o "$W/demo1.json" -- "$W/demo" 2000 >/dev/null 2>&1 || fail "record demo" "failed"
"$CP" record -o "$W/demo2.json" -- "$W/demo" 500 >/dev/null 2>&1 || fail "record demo" "failed"
"$CP" record -o "$W/copies.json" -- "$W/copies" 4 >/dev/null 2>&1 || fail "record copies" "failed"
unset CALLPROF_COMPENSATE
CALLPROF_CLOCK=none "$CP" record -o "$W/noclock.json" -- "$W/demo" 300 >/dev/null 2>&1 || fail "record demo" "failed"
# Names with the folded format's separator, a newline, a trailing number, a leading "(",
# markup and quotes: every format must carry them (escaped its own way) or say how it changed them.
jq '.functions[1].name = "a;b" | .functions[2].name = "new\nline" | .functions[3].name = "f 12" |
	.functions[4].name = "(anonymous namespace)::g(int)" | .functions[5].name = "x<y>&\"q\" \\\\ tab\there"' \
	tests/report/fixtures/c-small.json >"$W/names.json"
F=tests/report/fixtures
set_demo="$W/demo1.json $W/demo2.json"

# ---- each format, each profile, read by its reader ----------------------------------------
# export_all NAME DUMP...: every format of the dumps, each read back and compared.
export_all() {
	_set=$1
	shift
	for fmt in callgrind pprof speedscope folded; do
		out=$W/$_set.$fmt
		if ! "$CP" export --format $fmt -o "$out" "$@" >"$W/export.out" 2>&1; then
			fail "$_set: export $fmt" "$(head -n 2 "$W/export.out" | tr '\n' ' ')"
			continue
		fi
		case $fmt in
		callgrind)
			callgrind_annotate --threshold=100 --auto=no "$out" >"$out.annotate" 2>"$out.warn"
			[ -s "$out.warn" ] && fail "$_set: callgrind_annotate reads the file without a warning" "$(head -n 2 "$out.warn" | tr '\n' ' ')"
			check "$_set: callgrind_annotate's totals per function are the dumps'" node tests/export/consumers.js \
				callgrind-annotate "$out.annotate" "$@"
			callgrind_annotate --inclusive=yes --threshold=100 --auto=no "$out" >"$out.inclusive" 2>/dev/null
			check "$_set: callgrind_annotate's inclusive costs (the call arcs') are the dumps'" \
				node tests/export/consumers.js callgrind-inclusive "$out.inclusive" "$@"
			;;
		folded)
			check "$_set: speedscope imports the folded stacks with the dumps' totals" node tests/export/consumers.js \
				folded "$out" "$@"
			# flamegraph.pl: each line is /^(.*)\s+?(\d+(?:\.\d*)?)$/ (the stack, then the count); a stack
			# that itself ends in a number would be read as a differential line; frames split on ';'.
			if perl -ne 'chomp; my ($s, $n) = /^(.*)\s+?(\d+(?:\.\d*)?)$/ or die "unparsed line $.: $_\n";
				die "line $. reads as a differential line\n" if $s =~ /^(.*)\s+?(\d+(?:\.\d*)?)$/;
				die "an empty frame on line $.\n" if grep { $_ eq "" } split(/;/, $s, -1);
				$t += $n; END { print "$t\n" }' "$out" >"$out.total" 2>"$out.err"; then
				want=$(jq -s '[.[].threads[].tree | .columns as $c | ($c | index("self_ns")) as $s |
					($c | index("calls")) as $k | .rows[] | if $s then .[$s] else 0 end] | add' "$@")
				[ "$want" = 0 ] && want=$(jq -s '[.[].threads[].functions[].calls] | add' "$@")
				if [ "$(cat "$out.total")" = "$want" ]; then ok "$_set: flamegraph.pl's parse of the folded stacks adds up to the dumps' $want"
				else fail "$_set: flamegraph.pl's parse of the folded stacks adds up to the dumps'" "$(cat "$out.total"), not $want"; fi
			else
				fail "$_set: flamegraph.pl parses every folded line" "$(head -n 1 "$out.err")"
			fi
			;;
		*)
			check "$_set: $fmt read back by its reader with the dumps' totals" node tests/export/consumers.js $fmt "$out" "$@"
			;;
		esac
	done
}
export_all demo $set_demo
export_all copies "$W/copies.json"
export_all noclock "$W/noclock.json"
export_all threads $F/threads.json
export_all hostile $F/cpp-hostile.json
export_all merged $F/merge-a.json $F/merge-b.json
export_all names "$W/names.json"
export_all cpu $F/c-cpu.json

# ---- what each format says beyond the totals ------------------------------------------------
has "callgrind: names are compressed, each written once" "$W/demo.callgrind" '^fn=\(1\) [a-z_]+$'
has "callgrind: with CPU time, a third event, cpu" "$W/cpu.callgrind" '^events: ns calls cpu$'
has "callgrind: without a clock, the two events" "$W/noclock.callgrind" '^events: ns calls$'
has "callgrind: a call arc has its count and the callee's line" "$W/demo.callgrind" '^calls=[0-9]+ [0-9]+$'
has "callgrind: a newline in a name becomes ?" "$W/names.callgrind" '^c?fn=\([0-9]+\) new\?line$'
has "callgrind: a name beginning with ( stays a name" "$W/names.callgrind" '^c?fn=\([0-9]+\) \(anonymous namespace\)::g\(int\)$'
has "folded: ; in a name becomes :" "$W/names.folded" '(^|;)a:b(;| )'
has "folded: a name ending in a number keeps it, its blank made _" "$W/names.folded" '(^|;)f_12(;| )'
# callgrind names every function called, whatever its time (folded drops a path whose self
# time compensation leaves at 0, as a short helper's may be on a loaded machine).
n=$(grep -oE 'helper \(copies.h:[0-9]+ @0x[0-9a-f]+\)$' "$W/copies.callgrind" | sort -u | wc -l)
[ "$n" = 2 ] && ok "copies: the two copies of helper() are told apart by their labels (file:line and offset)" ||
	fail "copies: the two copies of helper() are told apart by their labels (file:line and offset)" "$n distinct labels in copies.callgrind"
has "speedscope: a sampled profile per thread" "$W/threads.speedscope" '"type":"sampled"'
n=$(jq '.profiles | length' "$W/threads.speedscope")
[ "$n" = 3 ] && ok "speedscope: three threads, three profiles" || fail "speedscope: three threads, three profiles" "$n"
gzip -t "$W/demo.pprof" 2>/dev/null && ok "pprof: a gzip file" || fail "pprof: a gzip file" "gzip -t fails"

# ---- bad input and output -------------------------------------------------------------------
echo "keep me" >"$W/out.txt"
echo '{"format": "callprof", "version": 1, "functions": [{"id": 0}], "threads": []}' >"$W/bad.json"
"$CP" export -f folded -o "$W/out.txt" "$W/demo1.json" "$W/bad.json" >/dev/null 2>"$W/bad.err"
rc=$?
if [ $rc -eq 2 ] && [ "$(wc -l <"$W/bad.err")" -eq 1 ] && grep -q "bad.json" "$W/bad.err" && [ "$(cat "$W/out.txt")" = "keep me" ]; then
	ok "a bad dump: exit 2, one line naming it, the output untouched"
else
	fail "a bad dump: exit 2, one line naming it, the output untouched" "status $rc: $(head -n 2 "$W/bad.err" | tr '\n' ' ')"
fi
mkdir -p "$W/adir"
"$CP" export -f pprof -o "$W/adir" "$W/demo1.json" >/dev/null 2>"$W/dir.err"
rc=$?
if [ $rc -eq 2 ] && [ "$(wc -l <"$W/dir.err")" -eq 1 ] && [ -z "$(ls -A "$W" | grep '^\.callprof-')" ]; then
	ok "an output that is a directory: exit 2, one line, no temporary file left"
else
	fail "an output that is a directory: exit 2, one line, no temporary file left" "status $rc: $(cat "$W/dir.err")"
fi
ln -s "$W/out.txt" "$W/link"
"$CP" export -f folded -o "$W/link" "$W/demo1.json" >/dev/null 2>"$W/link.err"
rc=$?
if [ $rc -eq 2 ] && [ -L "$W/link" ] && [ "$(cat "$W/out.txt")" = "keep me" ]; then
	ok "an output that is a symbolic link: neither followed nor replaced"
else
	fail "an output that is a symbolic link: neither followed nor replaced" "status $rc: $(cat "$W/link.err")"
fi
"$CP" export -f svg -o "$W/x" "$W/demo1.json" >/dev/null 2>"$W/fmt.err"
[ $? -eq 1 ] && grep -q "unknown format 'svg'" "$W/fmt.err" && ok "an unknown format: a usage error (exit 1)" ||
	fail "an unknown format: a usage error (exit 1)" "$(cat "$W/fmt.err")"
"$CP" export -f folded -o - "$W/demo1.json" >"$W/stdout.folded" 2>/dev/null
"$CP" export -f folded -o "$W/file.folded" "$W/demo1.json" 2>/dev/null
cmp -s "$W/stdout.folded" "$W/file.folded" && ok "-o - writes to the standard output" || fail "-o - writes to the standard output" "differs"
exit 0
