#!/bin/sh
# tests/e2e/t-matrix.sh: every e2e program, built by each compiler at each level of the matrix
# (tests/matrix.mk), run linked to the runtime and preloaded by `callprof record` (a few also
# linked with libcallprof.a); each run's exit status, stderr and dump are checked.
. "$TOP/tests/lib.sh"
E=$TOP/tests/e2e
P=$B/tests/e2e
workdir e2e-matrix
# -k: what did build still runs; a case whose binary is missing fails alone.
build "e2e build" "$W/build.log" -k -j2 tests-e2e
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

# e2e_case MODE VARIANT PROG NAME: one run of PROG, its status, stderr and dumps checked.
e2e_case() {
	begin "$4"
	run "$1" "$2" "$3" "$4" $(args_of "$3" "$4")
	cp "$E/$3.expect" "$W/$4.expect"
	if [ "$3" = qsort ]; then
		n=$(cat "$out")
		# Library probes on (the default): qsort is a node, the comparator below it.
		printf 'calls cmp_int %s\ncalls qsort 1\nedge sorter qsort 1\nedge qsort cmp_int %s\n' \
			"$n" "$n" >>"$W/$4.expect"
	fi
	checked "$(status_of "$3")" "$W/$4.expect"
	if [ "$3" = api ] && [ -f "$dump" ] && ! _o=$("$DC" "$W/$4.mid.json" "$E/api-mid.expect" 2>&1); then
		problem "callprof_dump(MID): $(printf '%s\n' "$_o" | head -n 3 | tr '\n' ' ')"
	fi
	verdict
}

for v in $VARIANTS; do
	for p in $E2E_PROGS; do
		for mode in $MODES; do
			e2e_case "$mode" "$v" "$p" "$v-$p-$mode"
		done
	done
done
for p in $E2E_STATIC; do
	e2e_case link static "$p" "static-$p"
done
# Coverage of a program linked with libcallprof.a: the runtime's code, inside the program's
# module (runtime/archive.ld), is none of the program's functions, called or not, and its
# debug information is not read; the program's functions keep their source lines.  The same
# objects linked to the shared library give the same.
t="linked with libcallprof.a: coverage lists the program's functions, not the runtime's"
cov='[(.modules[] | select(.symtab_functions != null) | .symtab_functions,
	[.uncalled[] | .name, (.file | sub(".*/"; "")), .line]),
	[.functions[] | .name, (.file | sub(".*/"; "")), .line]]'
got=$(jq -c "$cov" "$W/static-basic.json" 2>&1)
want=$(jq -c "$cov" "$W/gcc-O2-basic-link.json" 2>&1)
if [ "$got" = "$want" ] && printf '%s' "$got" | grep -q '^\[7,\["never_called","basic.c",[0-9]*\],\['; then
	ok "$t"
else
	fail "$t" "libcallprof.a: $got; libcallprof.so: $want"
fi

# clang probes the C library's inline wrappers where it inlines them (glibc's atoi, under
# libc's address): atoi is a function of the profile, but the C library, whose own code calls
# no probe, lists no coverage (its thousands of functions are not the program's).
t="clang -O2 probes libc's inline atoi: the profile has it, libc's coverage is not listed"
printf '#include <stdlib.h>\nint main(int argc, char **argv)\n{\n\treturn argc > 1 ? atoi(argv[1]) : 0;\n}\n' \
	>"$W/inline_atoi.c"
if clang -O2 -g -finstrument-functions "$W/inline_atoi.c" -L"$B" -lcallprof -Wl,-rpath,"$B" \
	-o "$W/inline_atoi" 2>"$W/inline_atoi.log"; then
	CALLPROF_OUTPUT="$W/inline_atoi.json" "$W/inline_atoi" 7
	rc=$?
	got=$(jq -c '[([.functions[].name] | sort),
		[.modules[] | [(.path | sub(".*/"; "")), .symtab_functions, (.uncalled | length)]]]' \
		"$W/inline_atoi.json" 2>&1)
	[ $rc = 7 ] && [ "$got" = '[["atoi","main"],[["inline_atoi",1,0],["libc.so.6",null,0]]]' ] &&
		ok "$t" || fail "$t" "status $rc, [functions, modules]: $(printf '%s' "$got" | head -c 300)"
else
	fail "$t" "does not build: $(head -n 2 "$W/inline_atoi.log" | tr '\n' ' ')"
fi

leftover=$(find "$W" -name '*.tmp*' | head -n 3)
if [ -z "$leftover" ]; then
	ok "no temporary dump files left behind"
else
	fail "no temporary dump files left behind" "$leftover"
fi
