#!/bin/sh
# tests/diff/t-diff.sh: `callprof diff`.  A program built twice, the second time with one function
# made 50 times slower: it ranks first, and the gate trips below its growth and not above it, while
# a tiny function's big relative change stays under --min-time.  Hand-written dumps with exact
# figures: renamed, added, removed, moved and same-named functions, the gate at its boundaries,
# golden pages.  Links, escaping of hostile names, several dumps per side, bad input.
# Runs the sanitizer build ($SAN_B/callprof).  UPDATE_GOLDEN=1 rewrites tests/diff/golden/.
set -u
. "$TOP/tests/lib.sh"
cd "$TOP"
FIX=tests/diff/fixtures
GOLD=tests/diff/golden
workdir diff
build build "$W/build.log" all && build_san build "$W/build.log" || exit 1
CP=$SAN_B/callprof


# names TABLE PAGE: the function names of a table's rows, in order, one line.
names() {
	sed -n "/id=\"$1\"/,/<\/table>/p" "$2" | grep '^<tr>' |
		sed -e 's/<span class="nm-short">[^<]*<\/span><span class="nm-full">\([^<]*\)<\/span>/\1/g' \
		    -e 's/^<tr><td class="name"><a class="fn" href="[^"]*"\( title="[^"]*"\)\{0,1\}>\([^<]*\)<\/a>\( <span class="fn-file"[^>]*>\([^<]*\)<\/span>\)\{0,1\}.*/\2\4/' |
		tr '\n' ' '
}

# ---- a program made slower (built as fast and as slow: its module matches under both names) ----
CFLAGS="-finstrument-functions -g -O2"
# shellcheck disable=SC2086
if ! cc $CFLAGS tests/diff/slow.c -o "$W/fast" 2>"$W/cc.err" || ! cc $CFLAGS -DSLOW tests/diff/slow.c -o "$W/slow" 2>>"$W/cc.err"; then
	fail "build the slow program" "$(head -n 3 "$W/cc.err" | tr '\n' ' ')"
	exit 1
fi
# quiet NAME: records $W/NAME into $W/NAME.json, unpreempted, again until a run the
# scheduler never preempted while main() ran (where unpreempted cannot keep others off, a
# preemption puts milliseconds into one function's time, which these tests are not about),
# at most 5 times; false if record fails.
quiet() {
	_i=1
	while unpreempted "$B/callprof" record -o "$W/$1.json" -- "$W/$1" >"$W/$1.run"; do
		_p=$(sed -n 's/^preempted //p' "$W/$1.run")
		echo "# $1: run $_i preempted $_p times"
		[ "$_p" = 0 ] && return 0
		[ $_i -eq 5 ] && { echo "# $1: preempted in each of 5 runs; the last is used"; return 0; }
		_i=$((_i + 1))
	done
	return 1
}
quiet fast && quiet slow || fail "record the slow program" "callprof record failed"

diffrun slow "$W/fast.json" "$W/slow.json"
status "diff of a slowed program exits 0 without a gate" 0
same "diff prints the index and nothing else" "$W/slow.out" "$(cd "$W/site-slow" 2>/dev/null && pwd)/index.html"
# What ranks first is what the two dumps say changed most, which on a loaded machine need not be
# target: steady() spins as long, and a few time slices lost there outweigh target's growth.  So
# the order is checked against the dumps' own figures, and target's growth on its own.
# The diff compares times with each thread's wait for a CPU taken out: a thread's times scaled by
# the share of its wall time it did not wait (runs.h).  WAIT_SCALE is that share, in JavaScript.
WAIT_SCALE='const scale = (t) => (t.runq_wait_ns === undefined || !t.wall_ns ? 1 : 1 - Math.min(t.runq_wait_ns, t.wall_ns) / t.wall_ns);'
# self_changes: "NAME DELTA" per function of the two dumps (self time, new - base), biggest change first.
self_changes() {
	node -e "$WAIT_SCALE"'
const fs = require("fs");
const self = (p) => {
	const d = JSON.parse(fs.readFileSync(p, "utf8")), name = {}, s = {};
	for (const f of d.functions) name[f.id] = f.name;
	for (const t of d.threads) for (const f of t.functions) s[name[f.fn]] = (s[name[f.fn]] || 0) + scale(t) * f.self_ns;
	for (const n in s) s[n] = Math.round(s[n]);
	return s;
};
const a = self(process.argv[1]), b = self(process.argv[2]);
const all = [...new Set([...Object.keys(a), ...Object.keys(b)])].map((n) => [n, (b[n] || 0) - (a[n] || 0)]);
all.sort((x, y) => Math.abs(y[1]) - Math.abs(x[1]));
for (const [n, d] of all) console.log(n, d);' "$1" "$2"
}
self_changes "$W/fast.json" "$W/slow.json" >"$W/slow-changes.txt"
first=$(names functions-table "$W/site-slow/index.html" | cut -d' ' -f1)
want=$(head -n 1 "$W/slow-changes.txt" | cut -d' ' -f1)
if [ -n "$want" ] && [ "$first" = "$want" ]; then ok "the biggest change in self time ranks first: $first"; else
	fail "the biggest change in self time ranks first" "want $want: order: $(names functions-table "$W/site-slow/index.html")"; fi
want=$(awk '$2 > 1000000 { print $1; exit }' "$W/slow-changes.txt")
has "summary.md puts the biggest growth first among the regressions" "$W/site-slow/summary.md" "^1\. \`$want\` — self "
# figure NAME KEY DUMP: NAME's KEY (calls, self_ns, inclusive_ns) summed over the dump's threads, times
# with the waits for a CPU taken out as the diff takes them out.
figure() {
	node -e "$WAIT_SCALE"'
const d = JSON.parse(require("fs").readFileSync(process.argv[3], "utf8"));
const id = d.functions.find((f) => f.name === process.argv[1]).id;
let s = 0;
for (const t of d.threads) for (const f of t.functions) if (f.fn === id) s += (process.argv[2] === "calls" ? 1 : scale(t)) * f[process.argv[2]];
console.log(Math.round(s));' "$@"
}
if [ "$(figure target self_ns "$W/slow.json")" -gt $((10 * $(figure target self_ns "$W/fast.json"))) ]; then
	ok "the slowed function's self time grew more than tenfold"
else
	fail "the slowed function's self time grew more than tenfold" "$(grep '^target ' "$W/slow-changes.txt")"
fi
has "the site shows summary.md" "$W/site-slow/index.html" '<code>target</code> — self'

# The gate at half and at twice target's measured growth: how fast the two builds ran varies with
# the machine's load, but the tenfold growth leaves main's and steady's far below half of it.
growth=$(awk -v a="$(figure target inclusive_ns "$W/fast.json")" -v b="$(figure target inclusive_ns "$W/slow.json")" \
	'BEGIN { printf "%d", (a > 0 ? 100 * (b / a - 1) : 0) }')
lo=$((growth / 2)) hi=$((growth * 2 + 1))
gate_line="^callprof diff: target: inclusive [0-9.]+ [^ ]+ -> [0-9.]+ ms \\(\\+[0-9.]+%, \\+[0-9.]+ ms\\), above $lo% and 1.00 ms\$"
diffrun gate-below "$W/fast.json" "$W/slow.json" --fail-above "$lo"
status "the gate trips below the slowed function's growth of $growth% (exit 3)" 3
if [ "$(wc -l <"$W/gate-below.err")" -eq 1 ] && grep -Eq "$gate_line" "$W/gate-below.err"; then
	ok "the gate names the slowed function, alone, on one line"
else
	fail "the gate names the slowed function, alone, on one line" "$(cat "$W/gate-below.err")"
fi
if [ -f "$W/site-gate-below/index.html" ]; then ok "a tripped gate still writes the site"; else
	fail "a tripped gate still writes the site" "no index.html"; fi
has "the site says the gate tripped" "$W/site-gate-below/index.html" '<section id="gate" class="gate tripped">'
has "summary.md says the gate tripped" "$W/site-gate-below/summary.md" "^- Gate \\(inclusive time up by more than $lo% and 1.00 ms\\): \\*\\*1 function tripped it\\*\\*: \`target\`\$"
diffrun gate-above "$W/fast.json" "$W/slow.json" --fail-above "$hi"
status "the gate does not trip above the slowed function's growth" 0
if [ -s "$W/gate-above.err" ]; then fail "a passed gate prints nothing on stderr" "$(cat "$W/gate-above.err")"; else
	ok "a passed gate prints nothing on stderr"; fi
has "the site says the gate passed" "$W/site-gate-above/index.html" '<section id="gate" class="gate passed">'
# small() grows 300 times, by some 50-200 µs: under the default --min-time of 1 ms, over 5 µs.
diffrun min-time "$W/fast.json" "$W/slow.json" --fail-above 1000 --min-time 5us
status "--min-time 5us lets the tiny function trip the gate too" 3
# (One run a side: a function that merely caught a preemption may trip too, and is named after
# the two whose growth it does not reach; the order of the two is what is checked.)
if [ "$(sed -n 's/^callprof diff: \(target\|small\): inclusive.*/\1/p' "$W/min-time.err" | tr '\n' ' ')" = "target small " ]; then
	ok "--min-time: both functions named, the bigger growth first"
else
	fail "--min-time: both functions named, the bigger growth first" "$(cat "$W/min-time.err")"
fi
if grep -q small "$W/gate-below.err"; then fail "the default --min-time ignores the tiny function" "it tripped"; else
	ok "the default --min-time ignores the tiny function"; fi
check "links of the slowed program's diff" node tests/report/linkcheck.js "$W/site-slow" 5

# ---- hand-written dumps: exact figures ------------------------------------------------------
diffrun fx "$FIX/base.json" "$FIX/new.json"
status "fixture diff exits 0" 0
S=$W/site-fx
same "functions ordered by the change in self time" /dev/stdin "$(names functions-table "$S/index.html")" <<'X'
helper/src/x/util.c new_name parse old_name added removed helper/src/y/util.c main operator&lt;&lt;(std::ostream&amp;, Foo&lt;int&gt; const&amp;) &lt;script&gt;alert(1)&lt;/script&gt; 
X
has "a function that moved to another file still matches" "$S/index.html" 'fn/[0-9]+/[0-9]+.html">parse</a></td><td class="num pair" data-v="2" data-before="2">2 → 2</td><td class="num pair" data-v="6000000" data-before="4000000">4.00 ms → 6.00 ms</td><td class="num change up" data-v="2000000" data-ratio="0.5">\+2.00 ms <small>\+50.0%</small></td>'
same "appeared: the renamed and the added function" /dev/stdin "$(names appeared-table "$S/index.html")" <<'X'
new_name added 
X
same "vanished: the old name and the removed function" /dev/stdin "$(names vanished-table "$S/index.html")" <<'X'
old_name removed 
X
has "the renamed function is tagged new" "$S/index.html" '>new_name</a> <span class="tag new">new</span>'
has "the removed function is tagged gone" "$S/index.html" '>removed</a> <span class="tag gone">gone</span>'
has "the counts of matched, appeared, vanished" "$S/index.html" '6 in both builds, <a href="#appeared">2 appeared</a>, <a href="#vanished">2 vanished</a>'
has "profiled time before and after" "$S/index.html" 'Profiled time</dt><dd>10.9 ms → 15.4 ms \(\+4.50 ms, \+41.3%\)'
has "same-named functions match by file: x/util.c grew" "$S/index.html" 'helper</a> <span class="fn-file" title="/src/x/util.c">/src/x/util.c</span></td><td class="num pair" data-v="1" data-before="1">1 → 1</td><td class="num pair" data-v="3500000" data-before="1000000">1.00 ms → 3.50 ms</td>'
has "same-named functions match by file: y/util.c shrank" "$S/index.html" 'helper</a> <span class="fn-file" title="/src/y/util.c">/src/y/util.c</span></td><td class="num pair" data-v="1" data-before="1">1 → 1</td><td class="num pair" data-v="500000" data-before="1000000">1.00 ms → 500 µs</td><td class="num change down" data-v="-500000" data-ratio="-0.5">-500 µs <small>-50.0%</small></td>'
main=$(grep -l '<h1 class="fn-name"><code>main</code>' "$S"/fn/*/*.html)
parse=$(grep -l '<h1 class="fn-name"><code>parse</code>' "$S"/fn/*/*.html)
has "a function page shows its figures before and after" "$parse" 'id="fig-self" data-before="4000000" data-after="6000000">4.00 ms → 6.00 ms</dd><dd class="note">\+50.0%, \+2.00 ms'
same "main's page lists its callees of both builds, biggest change first" /dev/stdin "$(names callees "$main")" <<'X'
helper/src/x/util.c new_name parse old_name added removed helper/src/y/util.c operator&lt;&lt;(std::ostream&amp;, Foo&lt;int&gt; const&amp;) &lt;script&gt;alert(1)&lt;/script&gt; 
X
has "an edge of both builds: main -> parse, with the new call site" "$main" '>parse</a></td><td class="num pair" data-v="2" data-before="2">2 → 2</td>.*<td class="site"><span title="src/a.c">a.c:41</span></td></tr>'
has "an edge only the base had: main -> old_name" "$main" '>old_name</a> <span class="tag gone">gone</span></td><td class="num pair" data-v="0" data-before="1">1 → 0</td>'
has "calls changed on an edge: main -> operator<<" "$main" 'Foo&lt;int&gt; const&amp;\)</span></a></td><td class="num pair" data-v="3" data-before="1">1 → 3</td>'
has "the callee's page links back to its caller" "$parse" "<a class=\"fn\" href=\"../../fn/0/$(basename "$main")\">main</a>"
has "a vanished function's page says so" "$(grep -l '<code>removed</code>' "$S"/fn/*/*.html)" 'Only the base build ran it'
has "summary.md: the top regression" "$S/summary.md" '^1\. `helper` \(/src/x/util\.c\) — self 1.00 ms → 3.50 ms \(\+2.50 ms, \+250.0%\); inclusive 1.00 ms → 3.50 ms \(\+250.0%\); calls 1 → 1$'
has "summary.md: an appeared function among the regressions" "$S/summary.md" '^2\. `new_name` \(appeared\) — self 0 ns → 2.10 ms'
has "summary.md: the top improvement" "$S/summary.md" '^1\. `old_name` \(vanished\) — self 1.90 ms → 0 ns \(-1.90 ms, -100.0%\)'
has "summary.md: appeared and vanished" "$S/summary.md" '^- Appeared \(2\): `new_name`, `added`$'
check "links of the fixture diff" node tests/report/linkcheck.js "$S" 10

# The gate at its boundaries: main grew 41.3%, parse 50%, helper (x/util.c) 250%.
for c in "45::helper parse" "41::main helper parse" "45:2ms:helper" "249.9::helper" "250::" "0:10ms:"; do
	pct=${c%%:*}
	rest=${c#*:}
	min=${rest%%:*}
	want=${rest#*:}
	set -- --fail-above "$pct"
	[ -n "$min" ] && set -- "$@" --min-time "$min"
	diffrun gate "$FIX/base.json" "$FIX/new.json" "$@"
	got=$(sed -n 's/^callprof diff: \([a-z]*\).*/\1/p' "$W/gate.err" | tr '\n' ' ')
	if [ -n "$want" ] && [ "$rc" -eq 3 ] && [ "$got" = "$want " ]; then
		ok "gate $*: exit 3, tripped by $want"
	elif [ -z "$want" ] && [ "$rc" -eq 0 ] && [ ! -s "$W/gate.err" ]; then
		ok "gate $*: passes"
	else
		fail "gate $*" "status $rc, stderr: $(tr '\n' '|' <"$W/gate.err")"
	fi
done
diffrun gate "$FIX/base.json" "$FIX/new.json" --fail-above 45
same "the gate's lines, exactly" "$W/gate.err" "callprof diff: helper (/src/x/util.c): inclusive 1.00 ms -> 3.50 ms (+250.0%, +2.50 ms), above 45% and 1.00 ms
callprof diff: parse: inclusive 4.00 ms -> 6.00 ms (+50.0%, +2.00 ms), above 45% and 1.00 ms"

# Golden pages of the fixture diff (dates and the version normalised, static files left out).
normalise "$S" "$W/norm-fx"
if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
	rm -rf "${GOLD:?}/fixtures"
	mkdir -p "$GOLD"
	cp -r "$W/norm-fx" "$GOLD/fixtures"
	ok "golden fixtures (updated)"
elif diff -r "$GOLD/fixtures" "$W/norm-fx" >"$W/golden.diff" 2>&1; then
	ok "golden fixtures"
else
	fail "golden fixtures" "pages differ from $GOLD/fixtures: $(head -n 4 "$W/golden.diff" | tr '\n' ' ')"
fi

# ---- hostile names ----------------------------------------------------------------------------
pages=$(find "$S" -name '*.html' | sort)
# shellcheck disable=SC2086
if grep -l -e '<script>alert' -e 'Foo<int>' -e '<evil>' $pages >"$W/hostile.txt"; then
	fail "hostile names never appear as markup" "in $(tr '\n' ' ' <"$W/hostile.txt")"
else
	ok "hostile names never appear as markup"
fi
has "<script> name escaped in the table" "$S/index.html" '>&lt;script&gt;alert\(1\)&lt;/script&gt;</a>'
has "<script> name escaped on its page" "$(grep -l 'fn-name"><code>&lt;script' "$S"/fn/*/*.html)" 'src/&lt;evil&gt;.cpp:1'
has "summary.md keeps hostile names in code spans" "$S/summary.md" '`operator<<\(std::ostream&, Foo<int> const&\)`|`<script>alert\(1\)</script>`|^- '
# shellcheck disable=SC2086
if grep -l -i -E 'href="javascript|<script>|<script [^>]*>[^<]| style=|<style| on[a-z]+="' $pages >"$W/inline.txt"; then
	fail "no inline script, style or handler" "in $(tr '\n' ' ' <"$W/inline.txt")"
else
	ok "no inline script, style or handler"
fi
# shellcheck disable=SC2086
n_csp=$(grep -l "Content-Security-Policy\" content=\"default-src 'none'; script-src 'self'" $pages | wc -l)
if [ "$(echo "$pages" | wc -l)" -eq "$n_csp" ]; then ok "every page has the Content-Security-Policy"; else
	fail "every page has the Content-Security-Policy" "$n_csp pages have it"; fi
# The report's hostile fixture against itself with two figures changed.
sed -e 's/"inclusive_ns": 1500000, "self_ns": 900000/"inclusive_ns": 2500000, "self_ns": 1900000/' \
	tests/report/fixtures/cpp-hostile.json >"$W/hostile-new.json"
diffrun hostile tests/report/fixtures/cpp-hostile.json "$W/hostile-new.json" --title 'Nightly <diff> & co'
status "hostile dumps diff" 0
has "--title is escaped" "$W/site-hostile/index.html" '<title>Overview · Nightly &lt;diff&gt; &amp; co</title>'
has "a hostile name's change is shown escaped" "$W/site-hostile/index.html" '&lt;script&gt;alert\(1\)&lt;/script&gt;</a></td><td class="num pair" data-v="3" data-before="3">3 → 3</td><td class="num pair" data-v="1900000" data-before="900000">900 µs → 1.90 ms</td>'
if grep -q -e '<i>x</i>' -e '<b>main</b>' -e 'href="javascript' "$W"/site-hostile/*.html "$W"/site-hostile/fn/*/*.html; then
	fail "hostile program arguments and thread names stay text" "markup found"
else
	ok "hostile program arguments and thread names stay text"
fi
check "links of the hostile diff" node tests/report/linkcheck.js "$W/site-hostile" 7

# ---- several dumps per side -----------------------------------------------------------------
# merge-a.json and merge-b.json are a parent and its forked child: one run of `prog`, whose two
# dumps add up when they sit in one run directory (a subdirectory), and are two runs of one
# command line otherwise (median: the mean of two).
FX=tests/report/fixtures
mkdir -p "$W/side-one/run-1" "$W/side-two/run-1" "$W/side-two/run-2"
cp "$FX/merge-a.json" "$FX/merge-b.json" "$W/side-one/run-1/"
cp "$FX/merge-a.json" "$FX/merge-b.json" "$W/side-two/run-1/"
cp "$FX/merge-a.json" "$FX/merge-b.json" "$W/side-two/run-2/"
diffrun several "$W/side-one" "$W/side-two" --fail-above 0 --min-time 0 --fail-on-calls 0
status "one run directory against two of the same dumps: no change, the gates pass" 0
has "several dumps: the base is one run of two dumps" "$W/site-several/index.html" 'Base \(merged\)</dt><dd>pid 500.*pid 501'
has "several dumps: the new side is two runs of one workload" "$W/site-several/index.html" 'New \(merged\)</dt><dd>2 runs of 1 workload: '
has "several dumps: everything matched" "$W/site-several/index.html" '5 in both builds, <a href="#appeared">0 appeared</a>, <a href="#vanished">0 vanished</a>'
has "several dumps: work has 8 calls in a run on each side" "$W/site-several/index.html" '>work</a></td><td class="num pair" data-v="8" data-before="8">8 → 8</td>'
diffrun several-files --base "$FX/merge-a.json" --base "$FX/merge-b.json" --new "$FX/merge-a.json" --new "$FX/merge-b.json"
status "--base and --new twice: two runs of prog on each side" 0
has "two dumps of one command line are two runs: work's median is 4 calls" "$W/site-several-files/index.html" '>work</a></td><td class="num pair" data-v="4" data-before="4">4 → 4</td>'
diffrun dirs "$W/side-two" "$W/side-two"
status "BASE and NEW may be directories" 0

# ---- many functions: the index shows the 1,000 biggest changes, functions.html all -----------------
sh tests/report/gen-dump.sh 1200 6000 >"$W/many.json"
sed 's/"calls":1,/"calls":2,/' "$W/many.json" >"$W/many2.json"
diffrun many "$W/many.json" "$W/many2.json"
status "a diff of 1,200 functions" 0
n=$(sed -n '/id="functions-table"/,/<\/table>/p' "$W/site-many/index.html" | grep -c '^<tr>')
if [ "$n" -eq 1000 ]; then ok "the index lists 1,000 functions"; else fail "the index lists 1,000 functions" "$n rows"; fi
has "the index links the page of all functions" "$W/site-many/index.html" '200 more functions with smaller changes: see <a href="functions.html">all functions</a>'
n=$(sed -n '/id="functions-table"/,/<\/table>/p' "$W/site-many/functions.html" | grep -c '^<tr>')
if [ "$n" -eq 1200 ]; then ok "functions.html lists all 1,200"; else fail "functions.html lists all 1,200" "$n rows"; fi
check "links of a diff of 1,200 functions" node tests/report/linkcheck.js "$W/site-many" 1200
if [ -e "$S/functions.html" ]; then fail "a small diff has no functions.html" "it has"; else ok "a small diff has no functions.html"; fi

# ---- bad input and usage ----------------------------------------------------------------------
BAD=$W/bad
mkdir -p "$BAD/empty"
printf 'hello, not json\n' >"$BAD/notjson.json"
sed 's/"format": "callprof"/"format": "gprof"/' "$FIX/base.json" >"$BAD/format.json"
for c in "missing:$BAD/missing.json" "notjson:$BAD/notjson.json" "format:$BAD/format.json" "empty:$BAD/empty"; do
	name=${c%%:*}
	f=${c#*:}
	for order in base new; do
		if [ $order = base ]; then diffrun "bad-$name-$order" "$f" "$FIX/new.json"; else diffrun "bad-$name-$order" "$FIX/base.json" "$f"; fi
		if [ "$rc" -ne 2 ]; then
			fail "bad input $name as $order" "exit status $rc, not 2"
		elif [ "$(wc -l <"$W/bad-$name-$order.err")" -ne 1 ] || ! grep -q "^callprof: .*'$f'" "$W/bad-$name-$order.err"; then
			fail "bad input $name as $order" "want one line naming '$f', got: $(head -c 300 "$W/bad-$name-$order.err")"
		elif [ -e "$W/site-bad-$name-$order" ] || ls -a "$W" | grep -q 'tmp-'; then
			fail "bad input $name as $order" "something was written"
		else
			ok "bad input $name as $order: $(cat "$W/bad-$name-$order.err")"
		fi
	done
done
mkdir -p "$W/notsite"
: >"$W/notsite/keep.txt"
"$CP" diff -o "$W/notsite" "$FIX/base.json" "$FIX/new.json" >/dev/null 2>&1
rc=$?
if [ $rc -eq 1 ] && [ -e "$W/notsite/keep.txt" ] && [ ! -e "$W/notsite/index.html" ]; then
	ok "a directory that is not a site is left alone"
else
	fail "a directory that is not a site is left alone" "status $rc"
fi
for args in "" "$FIX/base.json" "$FIX/base.json $FIX/new.json $FIX/new.json" "--fail-above x $FIX/base.json $FIX/new.json" \
	"--fail-above -5 $FIX/base.json $FIX/new.json" "--min-time 5parsecs $FIX/base.json $FIX/new.json" \
	"--base $FIX/base.json $FIX/base.json $FIX/new.json" "--base $FIX/base.json" "--bogus $FIX/base.json $FIX/new.json"; do
	# shellcheck disable=SC2086
	"$CP" diff -o "$W/usage" $args >/dev/null 2>"$W/usage.err"
	rc=$?
	if [ $rc -eq 1 ] && [ ! -e "$W/usage" ] && head -n 1 "$W/usage.err" | grep -q '^callprof diff: '; then
		ok "usage error exits 1: diff $args"
	else
		fail "usage error exits 1: diff $args" "status $rc: $(head -n 1 "$W/usage.err")"
	fi
done
# Every command's help: CMD --help, help CMD, and the list in callprof --help.
"$CP" --help >"$W/help.txt" 2>&1
for c in record report top diff; do
	if "$CP" "$c" --help >"$W/help-$c.txt" 2>&1 && head -n 1 "$W/help-$c.txt" | grep -q "^usage: callprof $c " &&
		"$CP" help "$c" 2>&1 | cmp -s - "$W/help-$c.txt" && grep -q "^  $c  " "$W/help.txt"; then
		ok "help for $c: '$c --help', 'help $c', listed by --help"
	else
		fail "help for $c" "$(head -n 2 "$W/help-$c.txt" | tr '\n' ' ')"
	fi
done
if "$CP" --version | grep -Eq '^callprof [0-9]+\.[0-9]+\.[0-9]+$'; then ok "--version"; else fail "--version" "$("$CP" --version 2>&1)"; fi
exit 0
