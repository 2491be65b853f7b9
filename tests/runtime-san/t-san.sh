#!/bin/sh
# tests/runtime-san: the runtime itself under AddressSanitizer and UndefinedBehaviorSanitizer.
# Its sources are compiled with the sanitizers straight into instrumented programs (threads,
# recursion, qsort callbacks, C++ exceptions, longjmp), whose runs must be clean and whose
# dumps must meet the usual exact expectations.  The preloaded .so cannot carry ASan, so
# this is how the runtime's own memory errors would show.
. "$TOP/tests/lib.sh"
set -u
workdir runtime-san
mkdir -p "$W/rt"
build build "$W/build.log" "$DC" || exit 1
SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
RTFLAGS="-std=c11 -g -O1 -D_GNU_SOURCE -fPIC -ftls-model=initial-exec $(pkg-config --cflags libdw) $SAN"
LIBS="$(pkg-config --libs libdw) -lelf -ldl -lpthread"

# The runtime's objects, once, as the archive has them (linked into the program; not the
# shared library's own linkage_shared.c and spawn.c: runtime/linkage.h): calib_target.c is
# its one instrumented file.
objs=""
for src in "$TOP"/runtime/*.c "$TOP"/runtime/*.S; do
	base=$(basename "$src"); base=${base%.[cS]}
	case $base in linkage_shared | spawn) continue ;; esac
	extra=""
	[ "$base" = calib_target ] && extra="-finstrument-functions"
	if ! cc $RTFLAGS $extra -c "$src" -o "$W/rt/$base.o" 2>"$W/rt/$base.err"; then
		fail "runtime $base.c builds with the sanitizers" "$(head -n 3 "$W/rt/$base.err" | tr '\n' ' ')"
		exit 1
	fi
	objs="$objs $W/rt/$base.o"
done
ok "runtime builds with ASan and UBSan"

export ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:halt_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1

# case NAME CC SOURCES...: builds the sources instrumented with the sanitized runtime,
# runs the program, and checks its dump against tests/e2e/NAME.expect.
case_() {
	name=$1 comp=$2
	shift 2
	if ! $comp -g -O1 -finstrument-functions $SAN -I"$TOP/runtime" -I"$TOP/tests/e2e" "$@" $objs $LIBS \
		-o "$W/$name" 2>"$W/$name.build"; then
		fail "$name under the sanitizers" "build: $(head -n 3 "$W/$name.build" | tr '\n' ' ')"
		return
	fi
	if ! CALLPROF_OUTPUT="$W/$name.json" "$W/$name" $ARGS >"$W/$name.out" 2>"$W/$name.err"; then
		fail "$name under the sanitizers" "$(grep -m 2 -E 'ERROR|runtime error' "$W/$name.err" | tr '\n' ' ')"
		return
	fi
	if [ -s "$W/$name.err" ]; then
		fail "$name under the sanitizers" "stderr: $(head -n 2 "$W/$name.err" | tr '\n' ' ')"
		return
	fi
	check "$name under the sanitizers" "$DC" "$W/$name.json" "$TOP/tests/e2e/$name.expect"
}

E=$TOP/tests/e2e
ARGS="" case_ threads cc "$E/threads.c"
ARGS="" case_ recurse cc "$E/recurse.c"
ARGS="" case_ qsort cc "$E/qsort.c"
ARGS="" case_ statics cc "$E/statics.c" "$E/statics_a.c" "$E/statics_b.c"
ARGS="" case_ cxx c++ "$E/cxx.cc"
# longjmp and exceptions through the interposed functions, and signals landing in the
# probes, from the hostile suite's programs and expectations.
H=$TOP/tests/hostile
hostile_case() { # hostile_case NAME CC SOURCE EXPECT [ARGS]
	name=$1 comp=$2 src=$3 expect=$4
	shift 4
	if ! $comp -g -O1 -finstrument-functions $SAN -I"$TOP/runtime" -I"$TOP/tests/e2e" "$src" $objs $LIBS \
		-o "$W/$name" 2>"$W/$name.build"; then
		fail "$name under the sanitizers" "build: $(head -n 3 "$W/$name.build" | tr '\n' ' ')"
		return
	fi
	if ! CALLPROF_OUTPUT="$W/$name.json" "$W/$name" "$@" >"$W/$name.out" 2>"$W/$name.err"; then
		fail "$name under the sanitizers" "$(grep -m 2 -E 'ERROR|runtime error' "$W/$name.err" | tr '\n' ' ')"
		return
	fi
	check "$name under the sanitizers" "$DC" "$W/$name.json" "$expect"
}
# The runtime linked into the program has no library probes (as libcallprof.a: its calls
# share the program's GOT): raise is no node, and setjmp and the longjmp family are not counted.
sed -e '/^calls \(raise\|_setjmp\|__sigsetjmp\|longjmp\|siglongjmp\) /d' -e '/^edge raiser3 raise /d' \
	-e '/^edge raiser3 on_usr1 0$/d' -e 's/^edge raise on_usr1 /edge raiser3 on_usr1 /' \
	-e 's/ raiser3 raise on_usr1 / raiser3 on_usr1 /' "$H/jmp.expect" >"$W/jmp.expect"
echo "absent raise" >>"$W/jmp.expect"
hostile_case jmp cc "$H/jmp.c" "$W/jmp.expect"
hostile_case exc c++ "$H/exc.cc" "$H/exc.expect"
hostile_case sig cc "$H/sig.c" /dev/null
