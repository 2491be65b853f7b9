#!/bin/sh
# tests/report/t-site.sh: a report readable at real size and safe to write: call sites that say
# why they name no line (a real program at -O2: inlined callees, a qsort comparator), hundreds of
# dumps that keep the hot lists at the top, a huge argv cut or left out, function pages in
# folders of 1,000, names with a NUL kept apart, bidirectional controls escaped on a terminal,
# `top`'s options, summary.md's words, and the output folder made by someone else while the
# report runs (a FIFO template holds the report until the test has made it).
set -u
. "$TOP/tests/lib.sh"
cd "$TOP"
FIX=tests/report/fixtures
workdir site
build build "$W/build.log" all && build_san build "$W/build.log" || exit 1
CP=$SAN_B/callprof
has() {
	if grep -Eq -- "$3" "$2"; then ok "$1"; else fail "$1" "no /$3/ in $2"; fi
}
hasnt() {
	if grep -Eq -- "$3" "$2"; then fail "$1" "/$3/ in $2"; else ok "$1"; fi
}

# ---- call sites: inlined callees and a qsort comparator in the demo at -O2 -----------------------
if ! cc -finstrument-functions -g -O2 examples/demo/*.c -o "$W/demo" 2>"$W/cc.err"; then
	fail "build the demo" "$(head -n 3 "$W/cc.err" | tr '\n' ' ')"
	exit 1
fi
"$B/callprof" record -o "$W/demo.json" -- "$W/demo" 1000 >/dev/null 2>&1
# Library probes off: qsort's callback by_count attaches to rank_top, from other code.
CALLPROF_LIBCALLS=0 "$B/callprof" record -o "$W/demo-nolib.json" -- "$W/demo" 1000 >/dev/null 2>&1
# edge_site CALLER CALLEE: the dump's ($EDGE_DUMP, or demo.json) "site" (or "line FILE:N") of that edge.
edge_site() {
	node -e '
const d = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const id = (n) => d.functions.find((f) => f.name === n).id;
for (const t of d.threads) for (const e of t.edges)
	if (e.caller === id(process.argv[2]) && e.callee === id(process.argv[3]))
		console.log(e.site ? e.site : e.call_file ? "line " + e.call_file.replace(/.*\//, "") + ":" + e.call_line : "none");
' "${EDGE_DUMP:-$W/demo.json}" "$1" "$2"
}
s=$(edge_site words_count_text is_word_char)
if [ "$s" = inlined ]; then ok "dump: is_word_char, inlined into words_count_text, has no line but \"site\": \"inlined\""; else
	fail "dump: is_word_char, inlined into words_count_text, has no line but \"site\": \"inlined\"" "got '$s'"; fi
s=$(EDGE_DUMP=$W/demo-nolib.json edge_site rank_top by_count)
if [ "$s" = outside ]; then ok "dump: by_count, called back by qsort, has \"site\": \"outside\" (library probes off)"; else
	fail "dump: by_count, called back by qsort, has \"site\": \"outside\" (library probes off)" "got '$s'"; fi
# Library probes on: by_count is qsort's callee, whose call site lies in libc: neither line nor site.
s=$(edge_site qsort by_count)
if [ "$s" = none ]; then ok "dump: by_count below qsort (library probes on) has neither line nor site"; else
	fail "dump: by_count below qsort (library probes on) has neither line nor site" "got '$s'"; fi
s=$(edge_site main words_count_text)
case $s in "line main.c:"*) ok "dump: main -> words_count_text keeps its line ($s)" ;;
*) fail "dump: main -> words_count_text keeps its line" "got '$s'" ;; esac
"$CP" report -o "$W/site-demo" "$W/demo.json" >/dev/null 2>"$W/demo.err"
P=$(grep -l '<h1 class="fn-name"><code>words_count_text</code>' "$W"/site-demo/fn/*/*.html)
has "words_count_text's page: is_word_char's site reads \"inlined\", with the reason on hover" "$P" \
	'>is_word_char</a></td>.*<td class="site muted" title="Inlined: the callee was inlined into its caller[^"]*">inlined</td>'
has "words_count_text's page: a legend under the table says why" "$P" \
	'<p class="note site-legend">Call sites without a line: <b>inlined</b>: the callee was inlined'
hasnt "words_count_text's page names no line of main for is_word_char" "$P" '>is_word_char</a></td>.*main\.c:'
"$CP" report -o "$W/site-nolib" "$W/demo-nolib.json" >/dev/null 2>"$W/demo-nolib.err"
P=$(grep -l '<h1 class="fn-name"><code>rank_top</code>' "$W"/site-nolib/fn/*/*.html)
has "rank_top's page: by_count was called from other code (qsort)" "$P" \
	'>by_count</a></td>.*<td class="site muted" title="Other code: [^"]*qsort[^"]*">other code</td>'

# ---- hundreds of dumps: the hot lists stay at the top ------------------------------------------
mkdir -p "$W/many"
i=0
while [ $i -lt 300 ]; do
	sed -e "s/\"pid\": 4242/\"pid\": $((5000 + i))/" "$FIX/c-small.json" >"$W/many/d-$i.json"
	i=$((i + 1))
done
"$CP" report -o "$W/site-many" "$W"/many/*.json >/dev/null 2>"$W/many.err"
I=$W/site-many/index.html
has "300 dumps: folded into one line that counts them" "$I" '<details class="dumps"><summary>300 dumps, from pid '
before=$(sed -n '1,/Hottest by self time/p' "$I" | grep -v '^<li>pid ' | wc -c)
listed=$(grep -c '^<li>pid ' "$I")
if [ "$listed" -eq 300 ] && [ "$before" -lt 12000 ]; then
	ok "300 dumps: all listed inside the fold, the hot list begins within 12 kB ($before bytes)"
else
	fail "300 dumps: all listed inside the fold, the hot list begins within 12 kB" "$listed listed, $before bytes before"
fi

# ---- a huge argv: cut, or left out -----------------------------------------------------------
node -e '
const fs = require("fs");
const d = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
d.program.argv = ["prog", "A".repeat(1500000), "--secret=hunter2"];
fs.writeFileSync(process.argv[2], JSON.stringify(d));' "$FIX/c-small.json" "$W/argv.json"
"$CP" report -o "$W/site-argv" "$W/argv.json" >/dev/null 2>"$W/argv.err"
size=$(wc -c <"$W/site-argv/index.html")
if [ "$size" -lt 60000 ] && [ "$(wc -c <"$W/site-argv/summary.md")" -lt 5000 ]; then
	ok "a 1.5 MB argv: index.html ($size bytes) and summary.md stay small"
else
	fail "a 1.5 MB argv: index.html and summary.md stay small" "index.html $size bytes"
fi
has "the index says how much of the arguments was cut" "$W/site-argv/index.html" 'A… \(1,499,017 bytes more\)</code>'
has "summary.md says it too" "$W/site-argv/summary.md" 'A… \(1,499,017 bytes more\)`'
for f in callgrind pprof; do
	"$CP" export --format $f -o "$W/argv.$f" "$W/argv.json" 2>"$W/argv-$f.err" || fail "export $f of a 1.5 MB argv" "$(cat "$W/argv-$f.err")"
done
gzip -dc "$W/argv.pprof" >"$W/argv.pprof.raw" 2>/dev/null
if [ "$(wc -c <"$W/argv.callgrind")" -lt 5000 ] && grep -q '^cmd: prog A*… (1,499,022 bytes more)$' "$W/argv.callgrind" &&
	grep -aq 'prog A*… (1,499,022 bytes more)' "$W/argv.pprof.raw" && [ "$(wc -c <"$W/argv.pprof.raw")" -lt 5000 ]; then
	ok "export: callgrind's cmd and pprof's comment cut the argv as the site does"
else
	fail "export: callgrind's cmd and pprof's comment cut the argv as the site does" "$(wc -c "$W/argv.callgrind" "$W/argv.pprof.raw" | tr '\n' ' ')"
fi
"$CP" report --no-argv -o "$W/site-noargv" "$W/argv.json" >/dev/null 2>"$W/noargv.err"
if grep -rq -e AAAA -e hunter2 "$W/site-noargv"; then fail "--no-argv: no argument anywhere in the site" "found"; else
	ok "--no-argv: no argument anywhere in the site"; fi
has "--no-argv: the index says they were left out" "$W/site-noargv/index.html" 'Arguments</dt><dd><span class="muted">left out \(--no-argv\)</span>'
"$CP" diff --no-argv -o "$W/site-noargv-diff" "$W/argv.json" "$W/argv.json" >/dev/null 2>&1
if grep -rq -e AAAA -e hunter2 "$W/site-noargv-diff"; then fail "diff --no-argv: no argument anywhere in the site" "found"; else
	ok "diff --no-argv: no argument anywhere in the site"; fi

# ---- function pages in folders of 1,000 ---------------------------------------------------------
sh tests/report/gen-dump.sh 2500 10000 >"$W/big.json"
"$B/callprof" report -o "$W/site-big" "$W/big.json" >/dev/null 2>"$W/big.err"
counts=$(for d in 0 1 2; do ls "$W/site-big/fn/$d" 2>/dev/null | wc -l; done | tr '\n' ' ')
if [ "$counts" = "1000 1000 500 " ] && [ "$(ls "$W/site-big/fn" | wc -l)" -eq 3 ]; then
	ok "2,500 functions: fn/0, fn/1, fn/2 hold 1,000, 1,000 and 500 pages"
else
	fail "2,500 functions: fn/0, fn/1, fn/2 hold 1,000, 1,000 and 500 pages" "$counts"
fi
check "2,500 functions: every link right, every page reachable" node tests/report/linkcheck.js "$W/site-big" 2500

# ---- names with a NUL, and bidirectional controls on a terminal -----------------------------------
node -e '
const fs = require("fs");
const d = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
d.functions[1].name = "dup\u0000one";
d.functions[2].name = "dup\u0000two";
d.functions[3].name = "evil\u202etxt.exe\u2066x\u2069";
fs.writeFileSync(process.argv[2], JSON.stringify(d));' "$FIX/c-small.json" "$W/nul.json"
"$CP" top "$W/nul.json" >"$W/nul-top.txt" 2>&1
if grep -q '  dup\\0one$' "$W/nul-top.txt" && grep -q '  dup\\0two$' "$W/nul-top.txt"; then
	ok "a NUL in a name: both names whole, apart"
else
	fail "a NUL in a name: both names whole, apart" "$(grep dup "$W/nul-top.txt" | tr '\n' '|')"
fi
# A name that reads as the escaped one ("dup\0one" written with a backslash) is another function;
# callprof merge writes the NUL back as it was.
node -e '
const fs = require("fs");
const d = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
d.functions[4].name = "dup\\0one";
d.modules[0].uncalled = [{ name: "never\u0000called", offset: "0x9990", file: "a.c", line: 1 }];
fs.writeFileSync(process.argv[2], JSON.stringify(d));' "$W/nul.json" "$W/nul-lookalike.json"
"$CP" merge -o "$W/nul-merged.json" "$W/nul.json" "$W/nul-lookalike.json" 2>"$W/nul-merge.err"
got=$(jq -c '[.functions[].name | select(startswith("dup"))] | sort' "$W/nul-merged.json" 2>/dev/null)
got="$got $(jq -c '[.modules[].uncalled[].name | select(startswith("never"))]' "$W/nul-merged.json" 2>/dev/null)"
if [ "$got" = '["dup\u0000one","dup\u0000two","dup\\0one"] ["never\u0000called"]' ]; then
	ok "merge: NULs written back as they were, a look-alike name kept apart"
else
	fail "merge: NULs written back as they were, a look-alike name kept apart" "$got $(cat "$W/nul-merge.err")"
fi
if grep -q "$(printf '\342\200\256')" "$W/nul-top.txt"; then fail "top: no raw bidirectional override" "found"; else
	ok "top: no raw bidirectional override"; fi
has "top: the override and the isolates shown escaped" "$W/nul-top.txt" 'evil<U\+202E>txt\.exe<U\+2066>x<U\+2069>$'
sed 's/"inclusive_ns":70000000/"inclusive_ns":90000000/' "$W/nul.json" >"$W/nul2.json"
"$CP" diff -o "$W/site-nul-diff" --fail-above 1 --min-time 1ms "$W/nul.json" "$W/nul2.json" >/dev/null 2>"$W/nul-diff.err"
if grep -q 'evil<U+202E>txt.exe<U+2066>x<U+2069>: inclusive' "$W/nul-diff.err" &&
	! grep -q "$(printf '\342\200\256')" "$W/nul-diff.err"; then
	ok "diff: the gate's line shows the override escaped"
else
	fail "diff: the gate's line shows the override escaped" "$(cat "$W/nul-diff.err")"
fi

# ---- top's options ---------------------------------------------------------------------------------
"$CP" top --sort calls -n 2 "$FIX/c-small.json" >"$W/top-calls.txt" 2>&1
if [ "$(sed -n '4,5s/.*  //p' "$W/top-calls.txt" | tr '\n' ' ')" = "cmp_int parse_line " ]; then
	ok "top --sort calls: the most called first"
else
	fail "top --sort calls: the most called first" "$(tr '\n' '|' <"$W/top-calls.txt")"
fi
"$CP" top --sort avg --match 'f*' --regex 'i' "$FIX/c-small.json" >"$W/top-match.txt" 2>&1
if [ "$(sed -n '4,$s/.*  //p' "$W/top-match.txt" | tr '\n' ' ')" = "fib " ]; then ok "top --match and --regex filter by name"; else
	fail "top --match and --regex filter by name" "$(tr '\n' '|' <"$W/top-match.txt")"; fi
"$CP" top --threads -n 1 "$FIX/threads.json" >"$W/top-threads.txt" 2>&1
if [ "$(grep -c '^thread [0-9]* (tid ' "$W/top-threads.txt")" -ge 3 ]; then ok "top --threads: one table per thread"; else
	fail "top --threads: one table per thread" "$(head -n 8 "$W/top-threads.txt" | tr '\n' '|')"; fi
"$CP" top --format json --threads "$FIX/degraded.json" >"$W/top.json" 2>"$W/top-json.err"
if node -e '
const j = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
if (!j.tables.length || !j.tables[0].functions.length || j.tables[0].thread === null) process.exit(1);
if (!j.warnings.some((w) => /folded/.test(w))) process.exit(2);' "$W/top.json"; then
	ok "top --format json: valid JSON, tables per thread, the folding warning"
else
	fail "top --format json: valid JSON, tables per thread, the folding warning" "$(head -c 300 "$W/top.json")"
fi
has "top --format json: the warnings on stderr too" "$W/top-json.err" '^warning: 400 calls were folded'
"$CP" top "$FIX/degraded.json" >"$W/top-warn.txt" 2>&1
has "top: the folded calls said before the table" "$W/top-warn.txt" '^warning: 400 calls were folded to one level of context'
"$CP" top --format csv "$FIX/cpp-hostile.json" >"$W/top.csv" 2>&1
if head -n 1 "$W/top.csv" | grep -q '^thread,calls,self_ns,inclusive_ns,avg_ns,self_share,name,file,line,module$' &&
	grep -q '^all,[0-9]*,[0-9]*,[0-9]*,[0-9]*,[0-9.]*,"operator<<(std::ostream&, Point const&)",' "$W/top.csv"; then
	ok "top --format csv: a header, names with commas quoted"
else
	fail "top --format csv: a header, names with commas quoted" "$(head -n 3 "$W/top.csv" | tr '\n' '|')"
fi
for bad in "--sort size" "--format xml" "--regex ("; do
	# shellcheck disable=SC2086
	"$CP" top $bad "$FIX/c-small.json" >/dev/null 2>"$W/top-bad.err"
	rc=$?
	if [ $rc -eq 1 ] && grep -q '^callprof top: ' "$W/top-bad.err"; then ok "top $bad: a usage error"; else
		fail "top $bad: a usage error" "status $rc"; fi
done

# ---- summary.md's words --------------------------------------------------------------------------
has "summary.md: its heading reads as written" "$W/site-demo/summary.md" '^# callprof: demo$'
hasnt "summary.md: never \"1 calls\"" "$W/site-demo/summary.md" '(^|[^0-9,])1 calls'
# main's place among the top ten is a matter of time, which a live run measures as it finds it
# (on a host whose probes cost less than calibrated, compensation may leave it near 0): the
# fixture's times are fixed, its main called once and first by inclusive time.
has "summary.md: \"1 call\" where main was called once" "$W/site-argv/summary.md" '`main` — .*, 1 call$'

# ---- the output folder made by someone else while the report runs ----------------------------------
# The report reads the style sheet from --templates after it has made its temporary folder: a
# FIFO there holds it until the test has created the output folder with a file of its own.
mkdir -p "$W/tpl"
mkfifo "$W/tpl/style.css"
"$B/callprof" report -o "$W/theirs" --templates "$W/tpl" "$FIX/c-small.json" >"$W/race.out" 2>"$W/race.err" &
pid=$!
{
	mkdir "$W/theirs"
	echo "not yours" >"$W/theirs/keep.txt"
	cat static/style.css
} >"$W/tpl/style.css"
wait $pid
rc=$?
if [ $rc -ne 0 ] && [ "$(cat "$W/theirs/keep.txt" 2>/dev/null)" = "not yours" ] && [ ! -e "$W/theirs/index.html" ]; then
	ok "a folder made at the output path meanwhile is left as it is (exit $rc)"
else
	fail "a folder made at the output path meanwhile is left as it is" "status $rc, $(ls "$W/theirs" 2>&1 | tr '\n' ' ')"
fi
has "the report says why, in one line" "$W/race.err" "^callprof: '.*theirs' appeared while the report was written and is not a callprof report"
if ls -a "$W" | grep -q '\.theirs\.tmp-'; then fail "nothing is left behind" "$(ls -a "$W" | grep tmp)"; else
	ok "nothing is left behind"; fi
# The same race with an earlier report there: replaced, as a report at the output path always is.
rm -rf "$W/theirs"
cp -r "$W/site-demo" "$W/earlier"
"$B/callprof" report -o "$W/ours" --templates "$W/tpl" "$FIX/c-small.json" >"$W/race2.out" 2>"$W/race2.err" &
pid=$!
{
	cp -r "$W/earlier" "$W/ours"
	cat static/style.css
} >"$W/tpl/style.css"
wait $pid
rc=$?
if [ $rc -eq 0 ] && grep -q 'dumpfile">[^<]*c-small.json<' "$W/ours/index.html" && ! grep -q 'demo.json' "$W/ours/index.html"; then
	ok "an earlier report made there meanwhile is replaced"
else
	fail "an earlier report made there meanwhile is replaced" "status $rc: $(cat "$W/race2.err")"
fi
exit 0
