#!/bin/sh
# tests/report/t-coverage.sh: a real program profiled, then reported: the coverage page lists the
# functions never called with exact per-file counts (one run, and two runs merged, where a function
# one run called is called); function pages show the source line each callee is called from;
# dumps without coverage keys still get a coverage page.  Runs the sanitizer build ($SAN_B/callprof).
set -u
. "$TOP/tests/lib.sh"
cd "$TOP"
workdir coverage
build build "$W/build.log" all && build_san build "$W/build.log" || exit 1
CP=$SAN_B/callprof

# rows TABLE PAGE: the rows of a table, tags stripped, cells separated by '|', rows ended by ';'.
rows() {
	sed -n "/id=\"$1\"/,/<\/table>/p" "$2" | grep '^<tr>' | sed -e 's|</td><td[^>]*>|\||g' -e 's/<[^>]*>//g' |
		tr '\n' ';'
}

# same NAME GOT WANT
same() {
	if [ "$2" = "$3" ]; then ok "$1"; else fail "$1" "got: $2"; fi
}

SRC=$TOP/tests/report/coverage
if ! cc -finstrument-functions -g -O0 "$SRC/cov_a.c" "$SRC/cov_b.c" -o "$W/prog" 2>"$W/cc.err"; then
	fail "build the program" "$(head -n 3 "$W/cc.err" | tr '\n' ' ')"
	exit 1
fi
"$B/callprof" record -o "$W/one.json" -- "$W/prog" >/dev/null
"$B/callprof" record -o "$W/two.json" -- "$W/prog" calls-more >/dev/null

# ---- one run: 3 of 6 functions called ---------------------------------------------------------
if "$CP" report -o "$W/site-one" "$W/one.json" >/dev/null 2>"$W/one.err"; then ok "report one run"; else
	fail "report one run" "$(head -c 300 "$W/one.err")"; fi
C=$W/site-one/coverage.html
has "the index links the coverage page" "$W/site-one/index.html" '<a href="coverage.html">Coverage</a>'
has "coverage: 3 of 6 functions called in all" "$C" 'id="coverage-total" data-called="3" data-total="6">3 of 6 functions called \(50.0%\) in 1 module'
has "coverage: the module is the program" "$C" '<h2><code>prog</code> <span class="count" id="m0-count" data-called="3" data-total="6">'
same "coverage: called / functions / share / never called, per source file" "$(rows m0-files "$C")" \
	"$SRC/cov_a.c|2|3|66.7%|1;$SRC/cov_b.c|1|3|33.3%|2;"
same "coverage: the functions never called, where they are declared" "$(rows m0-uncalled "$C")" \
	"never_a|cov_a.c:9;never_b|cov_b.c:7;never_c|cov_b.c:12;"
has "coverage: the symbol table's count" "$C" 'its symbol table has [0-9]+ functions'
check "links with the coverage page" node tests/report/linkcheck.js "$W/site-one" 3

# ---- call sites on function pages -------------------------------------------------------------
main=$(grep -l '<h1 class="fn-name"><code>main</code>' "$W"/site-one/fn/*/*.html)
used=$(grep -l '<h1 class="fn-name"><code>used</code>' "$W"/site-one/fn/*/*.html)
has "main's calls: used is called from cov_a.c:25" "$main" '>used</a></td>.*<td class="site"><span title="[^"]*/cov_a.c">cov_a.c:25</span></td></tr>'
has "main's calls: helper is called from cov_a.c:28" "$main" '>helper</a></td>.*<td class="site"><span title="[^"]*/cov_a.c">cov_a.c:28</span></td></tr>'
has "used is called by main from cov_a.c:25" "$used" '>main</a></td>.*<td class="site"><span title="[^"]*/cov_a.c">cov_a.c:25</span></td></tr>'

# ---- two runs merged: what either run called is called ------------------------------------------
if "$CP" report -o "$W/site-two" "$W/one.json" "$W/two.json" >/dev/null 2>"$W/two.err"; then ok "report two runs"; else
	fail "report two runs" "$(head -c 300 "$W/two.err")"; fi
C=$W/site-two/coverage.html
has "merged coverage: 5 of 6 functions called" "$C" 'id="coverage-total" data-called="5" data-total="6"'
same "merged coverage: per source file" "$(rows m0-files "$C")" "$SRC/cov_a.c|3|3|100.0%|0;$SRC/cov_b.c|2|3|66.7%|1;"
same "merged coverage: only never_c was never called" "$(rows m0-uncalled "$C")" "never_c|cov_b.c:12;"
main=$(grep -l '<h1 class="fn-name"><code>main</code>' "$W"/site-two/fn/*/*.html)
has "the second run's call of never_a is at cov_a.c:27" "$main" '>never_a</a></td>.*<td class="site"><span title="[^"]*/cov_a.c">cov_a.c:27</span></td></tr>'

# ---- dumps without coverage, hostile names --------------------------------------------------------
if "$CP" report -o "$W/site-old" tests/report/fixtures/c-small.json >/dev/null 2>"$W/old.err"; then
	has "a dump without coverage keys: the page says so" "$W/site-old/coverage.html" 'id="coverage-total">These dumps do not list'
else
	fail "a dump without coverage keys" "$(head -c 300 "$W/old.err")"
fi
sed -e 's|"name": *"never_c"|"name":"<script>alert(1)</script>"|' -e 's|"file": *"[^"]*/cov_b.c", *"line": *12|"file":"src/<evil>\&.c","line":12|' \
	"$W/one.json" >"$W/hostile.json"
if grep -q '<script>' "$W/hostile.json" && "$CP" report -o "$W/site-hostile" "$W/hostile.json" >/dev/null 2>"$W/hostile.err"; then
	C=$W/site-hostile/coverage.html
	has "a hostile file name is shown as text" "$C" 'title="src/&lt;evil&gt;&amp;.c">&lt;evil&gt;&amp;.c:12<'
	if grep -q -e '<script>' -e '<evil>' "$C"; then fail "hostile uncalled names are escaped" "markup in $C"; else
		ok "hostile uncalled names are escaped"; fi
	has "a hostile uncalled name is shown as text" "$C" '<code>&lt;script&gt;alert\(1\)&lt;/script&gt;</code>'
else
	fail "hostile uncalled names" "$(head -c 300 "$W/hostile.err")"
fi
exit 0
