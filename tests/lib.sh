# tests/lib.sh: helpers for test suites (sourced).  See tests/run.sh for the protocol.

# ok NAME / fail NAME WHY: report one test.
ok() { echo "ok - $1"; }
fail() { echo "not ok - $1: $2"; }

# check NAME COMMAND...: runs COMMAND, reports ok if it exits 0, else its last output line.
check() {
	_name=$1
	shift
	if _out=$("$@" 2>&1); then
		ok "$_name"
	else
		fail "$_name" "$(printf '%s\n' "$_out" | tail -n 3 | tr '\n' ' ')"
	fi
}
