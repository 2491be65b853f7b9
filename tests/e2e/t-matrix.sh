#!/bin/sh
# tests/e2e/t-matrix.sh: every e2e program, built by GCC and Clang at -O0 and -O2,
# run linked to the runtime and preloaded by `callprof record` (a few also linked
# with libcallprof.a); each run's exit status, stderr and dump are checked.
. "$TOP/tests/lib.sh"
E=$TOP/tests/e2e
P=$B/tests/e2e
W=$B/tests/e2e-matrix
DC=$B/tests/dumpcheck
rm -rf "$W"
mkdir -p "$W"
# -k: what did build still runs; a case whose binary is missing fails alone.
if ! make -k -s -C "$TOP" B="$B" -j2 tests-e2e >"$W/build.log" 2>&1; then
	fail "e2e build" "$(grep -m 3 -i 'error' "$W/build.log" | tr '\n' ' ')"
fi
[ -x "$DC" ] || exit 1

# The arguments each program runs with, and the exit status it must end with.
args_of() {
	case $1 in
	api) echo "$W/$2.mid.json" ;;
	exitcode) echo "deep 7" ;;
	esac
}
status_of() {
	case $1 in
	exitcode) echo 7 ;;
	*) echo 0 ;;
	esac
}

# verify NAME PROG STATUS: checks one finished run's status, stderr and dumps.
verify() {
	name=$1 prog=$2 status=$3
	want=$(status_of "$prog")
	if [ "$status" -ne "$want" ]; then
		fail "$name" "exit status $status, expected $want: $(head -n 2 "$W/$name.err" | tr '\n' ' ')"
		return
	fi
	if [ -s "$W/$name.err" ]; then
		fail "$name" "the runtime wrote to stderr: $(head -n 2 "$W/$name.err" | tr '\n' ' ')"
		return
	fi
	cp "$E/$prog.expect" "$W/$name.expect"
	if [ "$prog" = qsort ]; then
		n=$(cat "$W/$name.out")
		# Library probes on (the default): qsort is a node, the comparator below it.
		printf 'calls cmp_int %s\ncalls qsort 1\nedge sorter qsort 1\nedge qsort cmp_int %s\n' \
			"$n" "$n" >>"$W/$name.expect"
	fi
	if [ ! -f "$W/$name.json" ]; then
		fail "$name" "no dump written"
		return
	fi
	if [ "$prog" = api ] && ! out=$("$DC" "$W/$name.mid.json" "$E/api-mid.expect" 2>&1); then
		fail "$name" "callprof_dump(MID): $(printf '%s\n' "$out" | head -n 3 | tr '\n' ' ')"
		return
	fi
	check "$name" "$DC" "$W/$name.json" "$W/$name.expect"
}

# run_linked NAME PROG BIN / run_preloaded NAME PROG BIN: one run, then verify.
run_linked() {
	[ -x "$3" ] || { fail "$1" "$3 was not built"; return; }
	CALLPROF_OUTPUT=$W/$1.json "$3" $(args_of "$2" "$1") >"$W/$1.out" 2>"$W/$1.err"
	verify "$1" "$2" $?
}
run_preloaded() {
	[ -x "$3" ] && [ -x "$B/callprof" ] || { fail "$1" "$3 or $B/callprof was not built"; return; }
	"$B/callprof" record -o "$W/$1.json" -- "$3" $(args_of "$2" "$1") >"$W/$1.out" 2>"$W/$1.err"
	verify "$1" "$2" $?
}

for v in gcc-O0 gcc-O2 clang-O0 clang-O2; do
	for p in basic recurse qsort statics threads api exitcode cxx; do
		run_linked "$v-$p-link" "$p" "$P/$v/$p"
		run_preloaded "$v-$p-preload" "$p" "$P/$v/$p.pre"
	done
done
for p in basic threads api; do
	run_linked "static-$p" "$p" "$P/static/$p"
done

leftover=$(find "$W" -name '*.tmp*' | head -n 3)
if [ -z "$leftover" ]; then
	ok "no temporary dump files left behind"
else
	fail "no temporary dump files left behind" "$leftover"
fi
