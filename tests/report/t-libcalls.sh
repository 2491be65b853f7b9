#!/bin/sh
# tests/report/t-libcalls.sh: the report of a dump with library functions (issue 13): each
# labelled with its module wherever it is named (pages, `callprof top`, `callprof diff`), its
# page listing its callers and the callbacks it made, the index's time per module and its
# notices of calls not probed, a caller's page splitting what was its self time between its
# own code and each library function, the coverage page leaving library functions out; an
# older dump reads as before; the loader's checks of the new keys; `callprof merge` keeps them.
# Runs the sanitizer build.
set -u
. "$TOP/tests/lib.sh"
cd "$TOP"
# The shared harness's helpers, where this checkout's lib.sh lacks them.
type has >/dev/null 2>&1 || has() { if grep -Eq -- "$3" "$2"; then ok "$1"; else fail "$1" "no /$3/ in $2"; fi; }
type rel >/dev/null 2>&1 || rel() { case $1 in "$TOP"/*) echo "${1#"$TOP"/}" ;; *) echo "$1" ;; esac; }
FIX=tests/report/fixtures
W=$B/tests/report-libcalls
rm -rf "$W"
mkdir -p "$W"
make -s --no-print-directory SAN=address,undefined B="$(rel "$SAN_B")" "$(rel "$SAN_B")/callprof" \
	>"$W/build.log" 2>&1
CP=$SAN_B/callprof
[ -x "$CP" ] || { fail build "cannot build the tool (see $W/build.log)"; exit 1; }

L=$W/site
if "$CP" report -o "$L" "$FIX/c-libcalls.json" >"$W/report.out" 2>"$W/report.err" && [ ! -s "$W/report.err" ]; then
	ok "report of a dump with library functions"
else
	fail "report of a dump with library functions" "$(head -n 3 "$W/report.err")"
	exit 1
fi
check "links of a dump with library functions" node tests/report/linkcheck.js "$L" 7

# ---- the index -------------------------------------------------------------------------------
has "index: library functions labelled with their module" "$L/index.html" \
	'fn/0/4.html">qsort</a> <span class="fn-lib">libc.so.6</span>'
has "index: program functions carry no label" "$L/index.html" 'fn/0/5.html">cmp</a></td>'
has "index: library calls in the facts" "$L/index.html" \
	'Library calls</dt><dd>probed: 101 calls to 3 library functions'
has "index: the library probes' calibrated cost" "$L/index.html" \
	'library calls 18.0 ns per call \(9.5 ns inside the callee, 8.5 ns outside\)'
has "index: time per module, libc" "$L/index.html" \
	'<code>libc.so.6</code></td><td>library</td><td class="num" data-v="5500">5.50 µs</td>'
has "index: time per module, the program" "$L/index.html" \
	'<code>prog</code></td><td>instrumented</td><td class="num" data-v="4400">4.40 µs</td>'
has "index: the flat profile's hint on self time" "$L/index.html" 'Self time excludes library functions'
has "index: lazily bound slots are listed as not probed" "$L/index.html" \
	'to 1 library function were not probed: their GOT slots were still lazily bound.*<code>puts</code>'
has "index: calls through a GOT entry are listed as not probed" "$L/index.html" \
	'go through a GOT entry that also holds the function.s address.*<code>memcpy</code>'

# ---- function pages --------------------------------------------------------------------------
has "library page: what it is" "$L/fn/0/4.html" \
	'A library function of <code>libc.so.6</code>, probed where instrumented code called it through its GOT: 1 of its 1 calls'
has "library page: its callbacks into the program" "$L/fn/0/4.html" '<h2>Callbacks into the program</h2>'
has "library page: the callback cmp, 50 calls" "$L/fn/0/4.html" \
	'fn/0/5.html">cmp</a></td><td class="num" data-v="50">50</td>'
if sed -n '/id="callers"/,/<\/table>/p' "$L/fn/0/4.html" | grep -q 'fn/0/3.html">sort_them<'; then
	ok "library page: called by sort_them"
else
	fail "library page: called by sort_them" "$(sed -n '/id="callers"/,/<\/table>/p' "$L/fn/0/4.html" | head -n 3)"
fi
has "a function never returning: counted without a frame" "$L/fn/0/6.html" '1 counted without a frame'
has "caller's page: its own code in the split of its self time" "$L/fn/0/1.html" \
	'id="self-split".*|<td class="name">its own code</td><td class="num" data-v="1500">'
if sed -n '/id="self-split"/,/<\/table>/p' "$L/fn/0/1.html" | grep -q 'fn/0/2.html">strlen</a> <span class="fn-lib">libc.so.6</span></td><td class="num" data-v="2500">'; then
	ok "caller's page: strlen's share of what was its self time"
else
	fail "caller's page: strlen's share of what was its self time" "$(sed -n '/id="self-split"/,/<\/table>/p' "$L/fn/0/1.html" | head -n 6)"
fi
has "caller's page: its heading is Calls" "$L/fn/0/1.html" '<h2>Calls</h2>'

# ---- coverage, top, diff -------------------------------------------------------------------------
has "coverage: the program's uncalled function" "$L/coverage.html" 'unused_helper'
if grep -q -e 'libc.so.6' -e '>qsort<' -e '>strlen<' "$L/coverage.html"; then
	fail "coverage: no library function or library module" "$(grep -m 2 -e libc -e qsort -e strlen "$L/coverage.html")"
else
	ok "coverage: no library function or library module"
fi
"$CP" top "$FIX/c-libcalls.json" >"$W/top.out" 2>&1
has "top: library functions labelled with their module" "$W/top.out" '^ +1 +3.00 µs .* qsort \[libc.so.6\]$'
has "top: program functions unlabelled" "$W/top.out" ' cmp$'
if "$CP" diff -o "$W/diff" "$FIX/c-libcalls.json" "$FIX/c-libcalls.json" >"$W/diff.out" 2>&1; then
	has "diff: library functions labelled with their module" "$W/diff/index.html" \
		'>qsort</a> <span class="fn-lib">libc.so.6</span>'
else
	fail "diff of dumps with library functions" "$(head -n 3 "$W/diff.out")"
fi

# ---- an older dump reads as before ------------------------------------------------------------------
"$CP" report -o "$W/old" "$FIX/c-small.json" >/dev/null 2>&1
if grep -q -e 'Library calls' -e 'id="modules"' -e 'fn-lib' "$W/old/index.html"; then
	fail "an older dump: no word of library calls" "$(grep -m 2 -e 'Library calls' -e modules -e fn-lib "$W/old/index.html")"
else
	ok "an older dump: no word of library calls"
fi
has "an older dump: the flat profile's hint as before" "$W/old/index.html" \
	'Self time includes time in callees that were not instrumented'

# ---- the loader's checks of the new keys ---------------------------------------------------------------
# rejected NAME SED MESSAGE: the fixture edited by SED is refused with exit 2 and MESSAGE.
rejected() {
	sed "$2" "$FIX/c-libcalls.json" >"$W/bad.json"
	if cmp -s "$FIX/c-libcalls.json" "$W/bad.json"; then
		fail "$1" "the edit changed nothing"
		return
	fi
	"$CP" report -o "$W/bad" "$W/bad.json" >/dev/null 2>"$W/bad.err"
	rc=$?
	if [ $rc -eq 2 ] && grep -qF -- "$3" "$W/bad.err" && [ "$(wc -l <"$W/bad.err")" -eq 1 ]; then
		ok "$1"
	else
		fail "$1" "status $rc: $(cat "$W/bad.err")"
	fi
}
rejected "loader: library_probes must be on, off or unavailable" 's/"library_probes": "on"/"library_probes": "maybe"/' \
	'expected on, off or unavailable at library_probes'
rejected "loader: library must be a boolean" '0,/"library": true/s//"library": "yes"/' 'functions[2]'
rejected "loader: library and counted calls within calls" \
	's/"fn": 6, "calls": 1, "inclusive_ns": 0, "self_ns": 0, "raw_inclusive_ns": 0, "raw_self_ns": 0, "min_ns": 0, "max_ns": 0, "library_calls": 0, "counted_calls": 1/"fn": 6, "calls": 1, "inclusive_ns": 0, "self_ns": 0, "raw_inclusive_ns": 0, "raw_self_ns": 0, "min_ns": 0, "max_ns": 0, "library_calls": 1, "counted_calls": 1/' \
	'library_calls and counted_calls add up to more than calls 1'
rejected "loader: lazy names are strings" 's/"lazy": \[/"lazy": [3, /' 'modules[0].library_calls.lazy[0]'
rejected "loader: no more slots probed than there are" 's/"probed": 4/"probed": 9/' 'probed 9 is more than slots 5'

# ---- callprof merge keeps what the library probes said ------------------------------------------------
if "$CP" merge -o "$W/merged.json" "$FIX/c-libcalls.json" "$FIX/c-libcalls.json" >"$W/merge.out" 2>&1; then
	check "merge: the merged dump meets every invariant" "$B/tests/dumpcheck" "$W/merged.json"
	if [ "$(jq -c '[.library_probes, ([.functions[] | select(.library) | .name] | sort),
		(.modules[0].library_calls | .probed, .lazy), (.modules[1] | has("uncalled")),
		([.threads[].functions[] | .library_calls // 0] | add), .calibration.library_o_in_ns]' "$W/merged.json")" = \
		'["on",["exit","qsort","strlen"],4,["puts"],false,202,9.5]' ]; then
		ok "merge: library functions, the modules' library calls and the library probes' cost kept"
	else
		fail "merge: library functions, the modules' library calls and the library probes' cost kept" \
			"$(jq -c '[.library_probes, [.functions[] | select(.library) | .name], .modules]' "$W/merged.json" | head -c 300)"
	fi
else
	fail "merge of dumps with library functions" "$(head -n 3 "$W/merge.out")"
fi
