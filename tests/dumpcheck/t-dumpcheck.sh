#!/bin/sh
# tests/dumpcheck/t-dumpcheck.sh: the dump checker accepts a good dump and catches
# each broken invariant and each unmet expectation.
. "$TOP/tests/lib.sh"
D=$TOP/tests/dumpcheck
workdir dumpcheck-work
build build "$W/build.log" "$DC" || exit 1

check "good dump" "$DC" "$D/good.json"
check "good dump meets its expectations" "$DC" "$D/good.json" "$D/good.expect"

# broken NAME SED_SCRIPT MESSAGE: the good dump edited by SED_SCRIPT fails with MESSAGE.
broken() {
	sed "$2" "$D/good.json" >"$W/broken.json"
	if cmp -s "$D/good.json" "$W/broken.json"; then
		fail "$1" "the edit '$2' changed nothing"
	elif out=$("$DC" "$W/broken.json" 2>&1); then
		fail "$1" "accepted"
	elif ! printf '%s\n' "$out" | grep -qF -- "$3"; then
		fail "$1" "expected '$3', got: $(printf '%s\n' "$out" | head -n 2 | tr '\n' ' ')"
	else
		ok "$1"
	fi
}

broken "wrong format" 's/"format": "callprof"/"format": "calprof"/' 'format: expected "callprof"'
broken "wrong version" 's/"version": 1/"version": 2/' 'version: expected 1, got 2'
broken "missing pid" 's/, "pid": 4242//' "missing key 'pid'"
broken "argv not strings" 's/"argv": \["prog", "x"\]/"argv": ["prog", 3]/' 'program.argv[1]: expected a string'
broken "unknown clock" 's/"source": "tsc"/"source": "sundial"/' "unknown source 'sundial'"
broken "missing calibration" 's/"calibration": { "per_call_ns": 7.9 },//' "missing key 'calibration'"
broken "missing raw time" 's/"raw_inclusive_ns": 1100, //' "missing key 'raw_inclusive_ns'"
broken "missing min_ns" '0,/"min_ns": 200, /s///' "missing key 'min_ns'"
broken "min above max" 's/"min_ns": 100, "max_ns": 130/"min_ns": 131, "max_ns": 130/' 'min_ns 131 > max_ns 130'
broken "duplicate function id" 's/"id": 1, "name": "a"/"id": 0, "name": "a"/' 'duplicate function id 0'
broken "duplicate module id" 's/"modules": \[ { "id": 0, "path": "\/tmp\/prog", "build_id": null } \]/"modules": [ { "id": 0, "path": "a", "build_id": null }, { "id": 0, "path": "b", "build_id": null } ]/' 'duplicate module id 0'
broken "bad module reference" 's/"module": 0, "address": "0x1010"/"module": 3, "address": "0x1010"/' 'no module with id 3'
broken "address not hex" 's/"address": "0x1020"/"address": "4128"/' 'not a 0x hex string'
broken "empty name" 's/"name": "b"/"name": ""/' 'name: empty'
broken "dangling callee" 's/{ "caller": 1, "callee": 3,/{ "caller": 1, "callee": 99,/' 'no function with id 99'
broken "dangling caller" 's/{ "caller": 1, "callee": 3,/{ "caller": 98, "callee": 3,/' 'no function with id 98'
broken "function listed twice" 's/{ "fn": 2, "calls": 1,/{ "fn": 1, "calls": 1,/' 'function a listed twice'
broken "edge listed twice" 's/{ "caller": 0, "callee": 2, "calls": 1,/{ "caller": 0, "callee": 1, "calls": 1,/' 'edge main -> a listed twice'
broken "edge calls off" 's/{ "caller": 1, "callee": 3, "calls": 2,/{ "caller": 1, "callee": 3, "calls": 3,/' 'edges into it sum to 3 calls'
broken "tree calls off" 's/\[2, 1, 3, 2,/[2, 1, 3, 1,/' 'tree rows sum to 1 calls'
broken "parent not earlier" 's/\[1, 0, 1, 2,/[1, 2, 1, 2,/' 'parent 2 is not the id of an earlier row'
broken "duplicate row id" 's/\[3, 0, 2, 1,/[2, 0, 2, 1,/' 'duplicate row id 2'
broken "row too short" 's/\[11, 10, 3, 4, 300, 300\]/[11, 10, 3, 4, 300]/' 'expected an array of 6 values'
broken "missing column" 's/"inclusive_ns", "self_ns"\]/"inclusive_ns", "selfns"]/' "no column 'self_ns'"
broken "function self above inclusive" 's/{ "fn": 2, "calls": 1, "inclusive_ns": 100, "self_ns": 100,/{ "fn": 2, "calls": 1, "inclusive_ns": 100, "self_ns": 101,/' 'self_ns 101 > inclusive_ns 100'
broken "edge self above inclusive" 's/{ "caller": 0, "callee": 4, "calls": 1, "inclusive_ns": 300, "self_ns": 100 }/{ "caller": 0, "callee": 4, "calls": 1, "inclusive_ns": 300, "self_ns": 301 }/' 'self_ns 301 > inclusive_ns 300'
broken "row self above inclusive" 's/\[3, 0, 2, 1, 100, 100, 110, 110\]/[3, 0, 2, 1, 100, 105, 110, 110]/' 'self_ns 105 > inclusive_ns 100'
broken "compensated above raw" 's/\[3, 0, 2, 1, 100, 100, 110, 110\]/[3, 0, 2, 1, 120, 100, 110, 110]/' 'inclusive_ns 120 > raw_inclusive_ns 110'
broken "negative time" 's/"wall_ns": 900/"wall_ns": -5/' 'negative time -5'
broken "fractional time" 's/{ "fn": 8, "calls": 1, "inclusive_ns": 800,/{ "fn": 8, "calls": 1, "inclusive_ns": 800.5,/' 'expected an integer of nanoseconds'
broken "inclusive beyond thread wall" 's/"wall_ns": 2000/"wall_ns": 999/' "> the thread's wall_ns 999"
broken "thread beyond process wall" 's/"wall_ns": 3000/"wall_ns": 1999/' "> the process's wall_ns 1999"
broken "recursion counted twice" 's/{ "fn": 4, "calls": 2, "inclusive_ns": 300, "self_ns": 300, "raw_inclusive_ns": 320,/{ "fn": 4, "calls": 2, "inclusive_ns": 500, "self_ns": 300, "raw_inclusive_ns": 530,/' 'its outermost tree rows sum to 300'
broken "self above its rows" 's/{ "fn": 1, "calls": 2, "inclusive_ns": 400, "self_ns": 200,/{ "fn": 1, "calls": 2, "inclusive_ns": 400, "self_ns": 210,/' "self_ns 210 exceeds its tree rows' sum 200"
broken "raw self not summed over rows" 's/"raw_inclusive_ns": 450, "raw_self_ns": 220,/"raw_inclusive_ns": 450, "raw_self_ns": 210,/' 'raw_self_ns 210, its tree rows sum to 220'
broken "children outgrow parent" 's/\[5, 4, 4, 1, 200, 200, 210, 210\]/[5, 4, 4, 1, 200, 200, 330, 330]/' "children's raw_inclusive_ns sum to 330"
broken "not json" '$d' 'not a readable JSON document'

# Every line of bad.expect is unmet, each with one line of its own.
out=$("$DC" "$D/good.json" "$D/bad.expect" 2>&1)
rc=$?
want=$(grep -cv '^#' "$D/bad.expect")
got=$(printf '%s\n' "$out" | grep -c "bad.expect:")
if [ $rc -eq 1 ] && [ "$got" -eq "$want" ]; then
	ok "unmet expectations, one line each"
else
	fail "unmet expectations, one line each" "exit $rc, $got lines for $want expectations"
fi

printf 'calls main\n' >"$W/syntax.expect"
"$DC" "$D/good.json" "$W/syntax.expect" >/dev/null 2>&1
[ $? -eq 2 ] && ok "bad expectation file is a usage error" || fail "bad expectation file is a usage error" "exit status not 2"
printf 'frobnicate main 1\n' >"$W/syntax.expect"
"$DC" "$D/good.json" "$W/syntax.expect" >/dev/null 2>&1
[ $? -eq 2 ] && ok "unknown expectation is a usage error" || fail "unknown expectation is a usage error" "exit status not 2"
