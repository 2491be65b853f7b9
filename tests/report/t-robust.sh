#!/bin/sh
# tests/report/t-robust.sh: the report tool on hostile input (t-report.sh has the first bad
# inputs; these add to them): broken dumps refused in one line with the JSON path; valid but
# extreme dumps (megabyte names, figures near 2^63 that overflow when summed, 2,500 threads,
# absurd calibration) give a correct site; 100 MB files; a dump with markup and script in every
# string that reaches a page; progress on a terminal and not elsewhere.
set -u
. "$TOP/tests/lib.sh"
cd "$TOP"
FIX=tests/report/fixtures
workdir report-robust
build build "$W/build.log" "$B/callprof" && build_san build "$W/build.log" || exit 1
CP=$SAN_B/callprof

# ---- broken dumps: exit 2, one line naming the file and where, nothing written ------------
BAD=$W/bad
mkdir -p "$BAD"
"$CP" report -o "$BAD/site" "$FIX/c-small.json" >/dev/null 2>&1
snapshot "$BAD/site" >"$BAD/before.txt"
# bad NAME 'WANT' SED...: c-small.json edited by SED must be refused with WANT in the message.
bad() {
	_name=$1 _want=$2
	shift 2
	_f=$BAD/$_name.json
	sed "$@" "$FIX/c-small.json" >"$_f"
	if cmp -s "$_f" "$FIX/c-small.json"; then
		fail "broken: $_name" "the edit did not apply"
		return
	fi
	"$CP" report -o "$BAD/site" "$_f" >"$BAD/out" 2>"$BAD/err"
	_rc=$?
	"$CP" report -o "$BAD/new" "$_f" >/dev/null 2>&1
	if [ $_rc -ne 2 ]; then
		fail "broken: $_name" "exit status $_rc, not 2: $(head -c 300 "$BAD/err")"
	elif [ "$(wc -l <"$BAD/err")" -ne 1 ] || ! grep -q "^callprof: .* in '$_f'$" "$BAD/err"; then
		fail "broken: $_name" "want one line naming '$_f', got: $(head -c 300 "$BAD/err")"
	elif ! grep -qF -- "$_want" "$BAD/err"; then
		fail "broken: $_name" "no '$_want' in: $(cat "$BAD/err")"
	elif [ -s "$BAD/out" ] || [ -e "$BAD/new" ] || ls -a "$BAD" | grep -q 'tmp-' ||
		! snapshot "$BAD/site" | cmp -s - "$BAD/before.txt"; then
		fail "broken: $_name" "something was written or changed"
	else
		ok "broken: $_name: $(sed "s|$BAD/||" "$BAD/err")"
	fi
}
bad nan-calls 'not NaN, at threads[0].functions[2].calls' -e 's/"calls": 1005,/"calls": NaN,/'
bad infinite-time 'not 1e999, at threads[0].functions[3].inclusive_ns' \
	-e 's/"inclusive_ns": 70000000, "self_ns": 40000000, "raw/"inclusive_ns": 1e999, "self_ns": 40000000, "raw/'
bad infinity-literal 'not Infinity, at wall_ns' -e 's/"wall_ns": 101234567/"wall_ns": Infinity/'
bad negative-time 'not -5, at threads[0].functions[2].self_ns' -e 's/"self_ns": 18500000,/"self_ns": -5,/'
bad fraction-count 'not 2.5, at threads[0].edges[1].calls' -e 's/"caller": 0, "callee": 1, "calls": 1,/"caller": 0, "callee": 1, "calls": 2.5,/'
bad count-2e64 'below 2^63, not 18446744073709551615, at threads[0].functions[2].calls' \
	-e 's/"calls": 1005,/"calls": 18446744073709551615,/'
bad count-past-uint64 'below 2^63, not 18446744073709551615, at threads[0].functions[2].calls' \
	-e 's/"calls": 1005,/"calls": 99999999999999999999999,/'
bad count-2e63 'below 2^63, not 9223372036854775808, at threads[0].functions[2].calls' \
	-e 's/"calls": 1005,/"calls": 9223372036854775808,/'
bad row-count-2e64 'out of range (2^63 or more) at threads[0].tree.rows[2][3] (calls)' \
	-e 's/\[2, 1, 2, 1000,/[2, 1, 2, 18446744073709551615,/'
bad row-count-20-digits 'out of range (2^63 or more) at threads[0].tree.rows[2][3] (calls)' \
	-e 's/\[2, 1, 2, 1000,/[2, 1, 2, 19000000000000000000,/'
bad row-nan 'not NaN, at threads[0].tree.rows[2][3] (calls)' -e 's/\[2, 1, 2, 1000,/[2, 1, 2, NaN,/'
bad row-negative 'non-negative integer at threads[0].tree.rows[2][4] (inclusive_ns)' \
	-e 's/\[2, 1, 2, 1000, 18000000,/[2, 1, 2, 1000, -18000000,/'
bad calibration-nan 'finite non-negative number, not NaN, at calibration.per_call_ns' -e 's/"per_call_ns": 7.9/"per_call_ns": NaN/'
bad calibration-infinite 'not 1e999, at calibration.o_in_ns' -e 's/"o_in_ns": 3.1/"o_in_ns": 1e999/'
bad calibration-negative 'not -3.1, at calibration.o_in_ns' -e 's/"o_in_ns": 3.1/"o_in_ns": -3.1/'
bad cycle-later-parent 'parent 5 is not an earlier row at threads[0].tree.rows[1]' -e 's/\[1, 0, 1, 1,/[1, 5, 1, 1,/'
bad cycle-root-own-parent 'parent 0 is not an earlier row at threads[0].tree.rows[0]' -e 's/\[0, null, 0, 1,/[0, 0, 0, 1,/'
bad duplicate-row-id 'duplicate tree node id 1 at threads[0].tree.rows[2]' -e 's/\[2, 1, 2, 1000,/[1, 1, 2, 1000,/'
bad row-fn-out-of-range 'function id 44 is not in functions[] at threads[0].tree.rows[4]' -e 's/\[4, 3, 4, 10,/[4, 3, 44, 10,/'
bad row-fn-null 'expected a function id, not null, at threads[0].tree.rows[4][2]' -e 's/\[4, 3, 4, 10,/[4, 3, null, 10,/'
bad row-short 'row has 4 fields for 8 columns at threads[0].tree.rows[4]' \
	-e 's/\[4, 3, 4, 10, 25000000, 5000000, 25001700, 5000050\]/[4, 3, 4, 10]/'
bad rows-object 'expected an array, not an object, at threads[0].tree.rows' -e 's/"rows": \[/"rows": {"a": [/' -e 's/^        \]$/        ]}/'
bad columns-lack-fn 'threads[0].tree.columns lacks "fn"' -e 's/"columns": \["id", "parent", "fn",/"columns": ["id", "parent", "fun",/'
bad caller-out-of-range 'function id 55 is not in functions[] at threads[0].edges[8].caller' -e 's/"caller": 5, "callee": 2,/"caller": 55, "callee": 2,/'
bad fstat-fn-negative 'function id -1 is not in functions[] at threads[0].functions[0].fn' -e 's/{ "fn": 0, "calls": 1,/{ "fn": -1, "calls": 1,/'
bad module-out-of-range 'module id 7 is not in modules[] at functions[3].module' \
	-e 's/"id": 3, "name": "compute", "module": 0/"id": 3, "name": "compute", "module": 7/'
bad id-out-of-range 'id out of range at functions[3].id' -e 's/"id": 3, "name": "compute"/"id": 18446744073709551615, "name": "compute"/'
bad duplicate-function-id 'duplicate function id 1 at functions[2]' -e 's/"id": 2, "name": "parse_line"/"id": 1, "name": "parse_line"/'
bad missing-functions 'missing key "functions" at the top level' -e 's/"functions": \[$/"functionz": [/'
bad missing-name 'missing key "name" at functions[2]' -e 's/"id": 2, "name": "parse_line",/"id": 2,/'
bad missing-calls 'missing key "calls" at threads[0].functions[1]' -e 's/{ "fn": 1, "calls": 1,/{ "fn": 1,/'
bad name-not-string 'expected a string, not an integer, at functions[2].name' -e 's/"name": "parse_line"/"name": 12/'
bad fn-object 'expected an integer id, not an object, at threads[0].functions[3].fn' -e 's/"fn": 3, "calls": 10,/"fn": {}, "calls": 10,/'
bad wall-string 'not "101234567", at wall_ns' -e 's/"wall_ns": 101234567/"wall_ns": "101234567"/'
bad argv-not-strings 'expected a string, not an integer, at program.argv[1]' -e 's/"--size"/42/'
bad running-not-bool 'expected a boolean, not a string, at threads[0].running' -e 's/"tid": 4242,/"tid": 4242, "running": "yes",/'
bad huge-bad-value 'xxxxxxx..., at wall_ns' -e "s/\"wall_ns\": 101234567/\"wall_ns\": \"$(head -c 100000 /dev/zero | tr '\0' x)\"/"

# Whole documents that are not objects (the fuzz target found "null" gave an empty message).
for c in 'null:the document is null' '[]:the document is an array' '42:the document is an integer' \
	'"x":the document is a string' 'true:the document is a boolean'; do
	printf '\n %s \n' "${c%%:*}" >"$BAD/doc.json"
	"$CP" top "$BAD/doc.json" >/dev/null 2>"$BAD/err"
	rc=$?
	if [ $rc -eq 2 ] && [ "$(wc -l <"$BAD/err")" -eq 1 ] && grep -q "not a callprof dump (${c#*:}.* in '$BAD/doc.json'" "$BAD/err"; then
		ok "a document of ${c%%:*}: $(sed "s|$BAD/||" "$BAD/err")"
	else
		fail "a document of ${c%%:*}" "status $rc: $(cat "$BAD/err")"
	fi
done
# A file name with a newline and an escape character: still one line, the bytes shown as '?'.
nl_name=$(printf '%s/new\nline\033[31m.json' "$BAD")
printf '{"format":"callprof"}' >"$nl_name"
"$CP" top "$nl_name" "$BAD/missing
file.json" >/dev/null 2>"$BAD/err"
rc=$?
if [ $rc -eq 2 ] && [ "$(wc -l <"$BAD/err")" -eq 1 ] && grep -q "missing key \"version\" at the top level in '$BAD/new?line?\[31m.json'$" "$BAD/err"; then
	ok "a file name with control characters stays on one line: $(sed "s|$BAD/||" "$BAD/err")"
else
	fail "a file name with control characters stays on one line" "status $rc: $(cat -v "$BAD/err")"
fi
"$CP" top "$BAD/missing
file.json" >/dev/null 2>"$BAD/err"
if [ "$(wc -l <"$BAD/err")" -eq 1 ] && grep -q "cannot open '$BAD/missing?file.json': No such file" "$BAD/err"; then
	ok "a missing file with a newline in its name: one line"
else
	fail "a missing file with a newline in its name: one line" "$(cat -v "$BAD/err")"
fi
printf '{"format":"callprof","version":1,"functions":[],"threads":[]}\0' >"$BAD/nul.json"
"$CP" top "$BAD/nul.json" >/dev/null 2>"$BAD/err"
if [ $? -eq 2 ] && grep -q 'unexpected data after the document at byte 61' "$BAD/err"; then
	ok "a NUL byte after the document is refused"
else
	fail "a NUL byte after the document is refused" "$(cat "$BAD/err")"
fi

# ---- functions and edges read ahead of json-c give what json-c gives ------------------------
# A boolean member makes rowscan leave an array to json-c: every page and every message the same.
slow() { sed -e 's/{ "fn": /{ "slow": true, "fn": /' -e 's/{ "caller": /{ "slow": true, "caller": /' "$@"; }
for f in c-small threads degraded c-adaptive; do
	slow "$FIX/$f.json" >"$W/$f-slow.json"
	"$CP" report -o "$W/fast-$f" "$FIX/$f.json" >/dev/null 2>&1
	"$CP" report -o "$W/slow-$f" "$W/$f-slow.json" >/dev/null 2>&1
	if ! grep -q '"slow": true' "$W/$f-slow.json"; then
		fail "fast and json-c functions and edges agree: $f" "the edit did not apply"
	elif diff -r -x static -x '.callprof-report' "$W/fast-$f" "$W/slow-$f" | grep '^[<>]' |
		grep -v -e 'dumpfile' -e '<code>[^<]*json</code>' -e 'class="date"' >"$W/slow-$f.diff"; then
		fail "fast and json-c functions and edges agree: $f" "$(head -n 4 "$W/slow-$f.diff" | tr '\n' ' ')"
	else
		ok "fast and json-c functions and edges agree: $f"
	fi
done
for c in 's/"self_ns": 18500000,/"self_ns": -5,/' 's/{ "fn": 1, "calls": 1,/{ "fn": 1,/' \
	's/"caller": 5, "callee": 2,/"caller": 5, "callee": 77,/' 's/{ "fn": 3, "calls": 10,/{ "fn": 33, "calls": 10,/' \
	's/"caller": 0, "callee": 1, "calls": 1,/"caller": 0, "callee": 1, "calls": -1,/' \
	's/"caller": 0, "callee": 1, "calls": 1,/"caller": 0, "callee": 1,/' \
	's/"fenced_calls": 16 }/"fenced_calls": -16 }/' 's/"fenced_calls": 16 }/"fenced_calls": 5001 }/'; do
	# The fenced_calls edits need a dump that has them; on c-small they would not apply.
	case $c in *fenced*) src=$FIX/c-adaptive.json ;; *) src=$FIX/c-small.json ;; esac
	sed "$c" "$src" >"$W/e-fast.json"
	slow "$W/e-fast.json" >"$W/e-slow.json"
	"$CP" top "$W/e-fast.json" >/dev/null 2>"$W/e-fast.err"
	"$CP" top "$W/e-slow.json" >/dev/null 2>"$W/e-slow.err"
	a=$(sed 's/e-fast.json/E/' "$W/e-fast.err") b=$(sed 's/e-slow.json/E/' "$W/e-slow.err")
	if [ -n "$a" ] && [ "$a" = "$b" ]; then ok "the same message either way: ${a#callprof: }"; else
		fail "the same message either way: $c" "fast: $a; json-c: $b"; fi
done

# ---- valid but extreme: a correct site, no overflow ---------------------------------------
# A megabyte-long name (and file and argument): links cut it, its own page shows it whole.
node -e '
const fs = require("fs"), d = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
d.functions[3].name = "compute_" + "A".repeat(1 << 20);
d.functions[4].name = "fib_" + "\u00e9".repeat(1 << 19);
d.functions[4].file = "/src/" + "C".repeat(1 << 20) + ".c";
d.program.argv.push("D".repeat(1 << 20));
fs.writeFileSync(process.argv[2], JSON.stringify(d));' "$FIX/c-small.json" "$W/bigname.json"
ELL=$(printf '\342\200\246') # the ellipsis that ends a cut name
if "$CP" report -o "$W/site-bigname" "$W/bigname.json" >/dev/null 2>"$W/bigname.err"; then
	biggest=$(find "$W/site-bigname" -type f -printf '%s %p\n' | sort -n | tail -n 1)
	if [ "${biggest%% *}" -lt 8000000 ] && [ "$(wc -c <"$W/site-bigname/fn/0/3.html")" -gt 1048576 ] &&
		grep -qF "$(head -c 4000 /dev/zero | tr '\0' A)</code></h1>" "$W/site-bigname/fn/0/3.html" &&
		grep -qF "AAAA$ELL (1,046,584 bytes more)</a>" "$W/site-bigname/index.html" &&
		grep -qF "$(printf '\303\251')$ELL (1,046,580 bytes more)</a>" "$W/site-bigname/index.html"; then
		ok "megabyte names: a site of $(du -sk "$W/site-bigname" | cut -f1) KiB, the largest page ${biggest%% *} bytes, names cut in links"
	else
		fail "megabyte names" "largest file: $biggest; or a name is not cut in links / not whole on its page"
	fi
	check "megabyte names: links" node tests/report/linkcheck.js "$W/site-bigname" 7
else
	fail "megabyte names" "$(head -c 300 "$W/bigname.err")"
fi
# Figures at 2^63-1 everywhere, two dumps merged: sums stop at 2^64-1 instead of wrapping.
MAXV=9223372036854775807
sed -E "s/(\"(calls|inclusive_ns|self_ns|raw_inclusive_ns|raw_self_ns|max_ns|min_ns|wall_ns)\": )[0-9]+/\1$MAXV/g; s/^( *\[[0-9]+, [0-9a-z]+, [0-9]+), [0-9]+, [0-9]+, [0-9]+, [0-9]+, [0-9]+\]/\1, $MAXV, $MAXV, $MAXV, $MAXV, $MAXV]/" \
	"$FIX/c-small.json" >"$W/max.json"
if "$CP" report -o "$W/site-max" "$W/max.json" "$W/max.json" >/dev/null 2>"$W/max.err"; then
	if grep -q '18,446,744,073,709,551,615 calls to 7 functions' "$W/site-max/index.html" &&
		grep -q 'id="fig-calls" data-v="18446744073709551614"' "$W/site-max/fn/0/3.html"; then
		ok "figures near 2^63 in two merged dumps: sums saturate at 2^64-1, no wrap"
	else
		fail "figures near 2^63" "totals wrapped: $(grep -o '[0-9,]* calls to [0-9]* functions' "$W/site-max/index.html")"
	fi
	check "figures near 2^63: links" node tests/report/linkcheck.js "$W/site-max" 7
else
	fail "figures near 2^63" "$(head -c 300 "$W/max.err")"
fi
"$CP" top "$W/max.json" "$W/max.json" >"$W/max-top.txt" 2>&1 && ok "figures near 2^63: top" ||
	fail "figures near 2^63: top" "$(head -c 200 "$W/max-top.txt")"
# 2,500 tiny threads: the first 1,000 get pages of their own, the site stays small and whole.
awk 'BEGIN { printf "{\"format\":\"callprof\",\"version\":1,\"functions\":[{\"id\":0,\"name\":\"main\"}],\"threads\":["
	for (i = 0; i < 2500; i++)
		printf "%s{\"tid\":%d,\"functions\":[{\"fn\":0,\"calls\":1,\"inclusive_ns\":5,\"self_ns\":5}],\"tree\":{\"columns\":[\"id\",\"parent\",\"fn\",\"calls\",\"inclusive_ns\",\"self_ns\"],\"rows\":[[0,null,0,1,5,5]]}}", i ? "," : "", i
	print "]}" }' >"$W/threads.json"
if "$B/callprof" report -o "$W/site-threads" "$W/threads.json" >/dev/null 2>"$W/threads.err"; then
	files=$(find "$W/site-threads" -type f | wc -l)
	# Per thread with pages: thread, tree, flame pages and the flame graph's data file.
	if [ "$files" -le 4100 ] && grep -q 'id="threads-hidden">1500 more threads made 1,500 calls' "$W/site-threads/index.html" &&
		grep -q 'id="fig-calls" data-v="2500"' "$W/site-threads/fn/0/0.html"; then
		ok "2,500 threads: $files files, pages for the first 1,000, every call counted"
	else
		fail "2,500 threads" "$files files, or no note, or calls not all counted"
	fi
	check "2,500 threads: links" node tests/report/linkcheck.js "$W/site-threads" 1
else
	fail "2,500 threads" "$(head -c 300 "$W/threads.err")"
fi
sed 's/"o_in_ns": 3.1/"o_in_ns": 1e300/' "$FIX/c-small.json" >"$W/absurd-cal.json"
if "$CP" report -o "$W/site-cal" "$W/absurd-cal.json" >/dev/null 2>"$W/cal.err"; then
	ok "an absurd but finite calibration (1e300 ns) gives a site"
else
	fail "an absurd but finite calibration (1e300 ns) gives a site" "$(head -c 300 "$W/cal.err")"
fi

# ---- 100 MB files (made here, never committed; the optimised build) ------------------------
# A valid dump padded with a 100 MB string, the same cut in the middle, 100 MB of zeros.
sed 's/"method": "fixture"/"method": "PAD"/' "$FIX/c-small.json" >"$W/pad.json"
off=$(grep -bo '"PAD"' "$W/pad.json" | cut -d: -f1)
{ head -c $((off + 1)) "$W/pad.json"; head -c 100000000 /dev/zero | tr '\0' x; tail -c +$((off + 5)) "$W/pad.json"; } >"$W/100mb.json"
head -c 60000000 "$W/100mb.json" >"$W/100mb-cut.json"
head -c 100000000 /dev/zero >"$W/100mb-zeros.json"
if "$B/callprof" report -o "$W/site-100mb" "$W/100mb.json" >/dev/null 2>"$W/100mb.err" &&
	[ -f "$W/site-100mb/fn/0/3.html" ]; then
	ok "a valid 100 MB dump gives a site"
else
	fail "a valid 100 MB dump gives a site" "$(head -c 300 "$W/100mb.err")"
fi
for c in 100mb-cut:"truncated JSON" 100mb-zeros:"not valid JSON"; do
	name=${c%%:*}
	"$B/callprof" report -o "$W/site-$name" "$W/$name.json" >/dev/null 2>"$W/$name.err"
	rc=$?
	if [ $rc -eq 2 ] && [ "$(wc -l <"$W/$name.err")" -eq 1 ] && grep -q "${c#*:}.* in '$W/$name.json'" "$W/$name.err" &&
		[ ! -e "$W/site-$name" ]; then
		ok "$name: $(sed "s|$W/||" "$W/$name.err")"
	else
		fail "$name" "status $rc: $(head -c 300 "$W/$name.err")"
	fi
done
rm -f "$W"/100mb*.json

# ---- markup and script in every string that reaches a page --------------------------------
SEC=$W/sec
mkdir -p "$SEC/in"
hostile_file="$SEC/in/d<b>\"x'&.json"
node tests/report/hostile-dump.js "$hostile_file"
printf '# <script>alert("F_NOTES")</script>\n[x](javascript:alert(F_NOTES)) <img src=x onerror=alert(F_NOTES)>\n' >"$SEC/notes.md"
if ! "$CP" report -o "$SEC/site" --title '<script>alert("F_TITLE")</script>&"'"'" --notes "$SEC/notes.md" \
	"$hostile_file" >/dev/null 2>"$SEC/err"; then
	fail "hostile strings: report" "$(head -c 300 "$SEC/err")"
elif ! "$CP" diff -o "$SEC/diff" --title '<script>alert("F_TITLE")</script>' "$hostile_file" "$hostile_file" \
	>/dev/null 2>"$SEC/err"; then
	fail "hostile strings: diff" "$(head -c 300 "$SEC/err")"
else
	for s in site diff; do
		pages=$(find "$SEC/$s" -name '*.html' | sort)
		# Raw markup from the payload, raw quotes that could close an attribute, javascript: links.
		# shellcheck disable=SC2086
		if grep -l -e '<script>alert' -e '<img src=x' -e 'alert("F_' -e '="javascript:' -e "='javascript:" \
			-e '&javascript:' -e 'onerror=alert(F' $pages >"$SEC/hits.txt"; then
			fail "hostile strings ($s): nothing gets through as markup" "in $(sed "s|$SEC/||" "$SEC/hits.txt" | tr '\n' ' ')"
		else
			ok "hostile strings ($s): no markup, script, quote or javascript: link gets through in $(echo "$pages" | wc -l) pages"
		fi
		# The only scripts are the site's own, and every page keeps its Content-Security-Policy.
		# shellcheck disable=SC2086
		if grep -h -o '<script[^>]*>' $pages | sort -u | grep -v -x '<script src="\(\.\./\)\{0,2\}static/\(sort\|profile\|flame\|tree\|names\).js" defer>' >"$SEC/scripts.txt"; then
			fail "hostile strings ($s): only the site's own script" "$(head -n 3 "$SEC/scripts.txt" | tr '\n' ' ')"
		else
			ok "hostile strings ($s): only the site's own script"
		fi
		check "hostile strings ($s): summary.md has no live markup" node tests/report/mdcheck.js "$SEC/$s/summary.md"
		check "hostile strings ($s): the flame graph data holds every name exactly, escaped for a script" \
			node tests/report/datacheck.js "$SEC/$s" "$hostile_file"
	done
	# Every field that a page shows did reach the site (escaped), so the checks above saw it.
	missing=""
	for tag in F_DATE F_PROGRAM F_ARGV0 F_ARGV F_CLOCK F_WARNING F_MODULE F_UNCALLED F_UNCALLED_FILE F_NAME F_FILE \
		F_THREAD F_CALL_FILE F_TITLE F_NOTES 'd&lt;b&gt;&quot;x&#39;&amp;.json'; do
		grep -rqF -- "$tag" "$SEC/site" || missing="$missing $tag"
	done
	if [ -z "$missing" ]; then ok "hostile strings: every field reached the site, escaped"; else
		fail "hostile strings: every field reached the site" "not shown:$missing"; fi
	# shellcheck disable=SC2086
	if grep -l -E '(src|href|action)="(https?:|//|ftp:|data:)' $(find "$SEC/site" "$SEC/diff" -name '*.html') >"$SEC/remote.txt"; then
		fail "hostile strings: nothing remote" "in $(tr '\n' ' ' <"$SEC/remote.txt")"
	else
		ok "hostile strings: nothing remote (no http:, https:, //, data: source or link)"
	fi
fi

# ---- progress: on a terminal, not in CI, not into a file ---------------------------------
if command -v script >/dev/null 2>&1; then
	env -u CI script -qefc "'$B/callprof' report -o '$W/site-p1' '$FIX/threads.json'" "$W/pty.txt" >/dev/null 2>&1
	CI=true script -qefc "'$B/callprof' report -o '$W/site-p2' '$FIX/threads.json'" "$W/pty-ci.txt" >/dev/null 2>&1
	if grep -q 'writing function pages [0-9,]*/6' "$W/pty.txt" && grep -q "$(printf '\r\033\\[K')$W/site-p1/index.html" "$W/pty.txt"; then
		ok "progress on a terminal, cleared before the index's path"
	else
		fail "progress on a terminal" "$(tr '\r\033' '^~' <"$W/pty.txt" | head -c 300)"
	fi
	if grep -q 'callprof:' "$W/pty-ci.txt"; then fail "no progress with CI=true" "$(tr '\r\033' '^~' <"$W/pty-ci.txt" | head -c 300)"; else
		ok "no progress with CI=true"; fi
else
	fail "progress on a terminal" "needs script(1) from util-linux"
fi
"$B/callprof" report -o "$W/site-p3" "$FIX/threads.json" >/dev/null 2>"$W/p3.err"
if [ -s "$W/p3.err" ]; then fail "no progress into a file" "$(head -c 200 "$W/p3.err")"; else ok "no progress into a file"; fi
exit 0
