#!/bin/sh
# tests/build/t-build.sh: the build itself.  A change of compiler or flags rebuilds what it
# affects and nothing else (in a build directory of its own, on one small source of the
# runtime and one of the tool); check, demo and bench build nothing in the make that read
# pkg-config before their dependencies were installed; make format rewrites only the files
# that differ from .clang-format, and format-check names them; the matrix is spelled once.
. "$TOP/tests/lib.sh"
set -u
workdir build

# ---- build flags tracked ----------------------------------------------------------------
# The smallest source of each: quick to compile, and present whatever files come and go.
smallest() { ls -S "$TOP/$1"/*.c | tail -n 1; }
RT_O=$W/b/runtime/$(basename "$(smallest runtime)" .c).o
TOOL_O=$W/b/report/$(basename "$(smallest report)" .c).o

# compiled STEP [VAR=VALUE...]: makes both objects with the settings (on top of plain ones,
# whatever the environment says); $compiled lists the objects it compiled (base names, sorted).
compiled() {
	_step=$1
	shift
	make -s --no-print-directory -C "$TOP" B="$(rel "$W/b")" CC=cc CI= SAN= "$@" "$(rel "$RT_O")" "$(rel "$TOOL_O")" \
		>"$W/$_step.log" 2>&1 || echo "make failed: $(tail -n 2 "$W/$_step.log")" >>"$W/$_step.log"
	compiled=$(sed -n 's|^  CC *.*/\([^/]*\)$|\1|p' "$W/$_step.log" | sort | tr '\n' ' ')
}
rt=$(basename "$RT_O") tool=$(basename "$TOOL_O")
both=$(printf '%s\n' "$rt" "$tool" | sort | tr '\n' ' ')

# rebuilds NAME WANT STEP [VAR=VALUE...]: the step compiles exactly WANT.
rebuilds() {
	_n=$1 _want=$2
	shift 2
	compiled "$@"
	if [ "$compiled" = "$_want" ]; then ok "$_n"; else
		fail "$_n" "compiled '$compiled', expected '$_want': $(grep -v '^  CC' "$W/$1.log" | head -n 2 | tr '\n' ' ')"; fi
}
rebuilds "a first make compiles both objects" "$both" first
rebuilds "a second make compiles nothing" "" second
rebuilds "V=1 compiles nothing: it changes no flag" "" verbose V=1
rebuilds "SAN=address,undefined recompiles the tool's object, not the runtime's" "$tool " san SAN=address,undefined
rebuilds "the same SAN again compiles nothing" "" san-again SAN=address,undefined
rebuilds "back to no SAN recompiles the tool's object again" "$tool " plain
rebuilds "CC=clang recompiles both" "$both" clang CC=clang
rebuilds "CI=true (-Werror) recompiles both" "$both" ci CC=clang CI=true
rebuilds "back to the default compiler recompiles both" "$both" default
# A compiler upgraded in place: the same name, another --version.
printf '#!/bin/sh\n[ "$1" = --version ] && { echo "cc $CC_RELEASE"; exit 0; }\nexec cc "$@"\n' >"$W/cc"
chmod +x "$W/cc"
CC_RELEASE=1
export CC_RELEASE
compiled cc1 CC="$W/cc"
CC_RELEASE=2 rebuilds "a compiler upgraded under the same name recompiles both" "$both" cc2 CC="$W/cc"
CC_RELEASE=2 rebuilds "the same release again compiles nothing" "" cc3 CC="$W/cc"

# ---- dependencies installed before anything is built ------------------------------------
# The make that runs `make check` read pkg-config before test-deps installed json-c and the
# rest: it may build nothing itself, its recipe starts a new make (tests/deps.sh installs).
make -pq -C "$TOP" FORCE >"$W/db.txt" 2>/dev/null
for t in check:test-deps demo:deps bench:deps; do
	got=$(sed -n "s/^${t%%:*}: *//p" "$W/db.txt" | head -n 1)
	if [ "$got" = "${t#*:}" ]; then ok "make ${t%%:*} builds nothing before ${t#*:}"; else
		fail "make ${t%%:*} builds nothing before ${t#*:}" "its prerequisites: '$got'"; fi
done

# ---- make format, make format-check -----------------------------------------------------
F=$W/fmt
mkdir -p "$F"
cp "$TOP/.clang-format" "$F/"
printf 'int  twice (int x) {return 2*x;}\n' >"$F/bad.c"
printf 'static int twice(int x)\n{\n\treturn 2 * x;\n}\n' >"$F/good.c"
cp "$F/good.c" "$F/good.orig"
if ! command -v clang-format >/dev/null; then
	fail "make format" "clang-format is missing (make test-deps installs it)"
	exit 1
fi
touch -d '2001-01-01' "$F/good.c"
make -s --no-print-directory -C "$TOP" format-check FORMAT_FILES="$F/good.c $F/bad.c" >"$F/check1.out" 2>"$F/check1.err"
rc=$?
if [ $rc -ne 0 ] && [ "$(cat "$F/check1.out")" = "$F/bad.c" ] && grep -q '^1 of 2 files differ' "$F/check1.err"; then
	ok "make format-check names the file that differs, and fails"
else
	fail "make format-check names the file that differs, and fails" "status $rc: $(head -n 3 "$F/check1.out" | tr '\n' ' ')"
fi
# As `git diff --name-only` gives them: one a line.
make -s --no-print-directory -C "$TOP" format FORMAT_FILES="$F/good.c
$F/bad.c" >"$F/format.out" 2>&1
if [ "$(cat "$F/format.out")" = "  FORMAT  $F/bad.c" ] && clang-format "$F/bad.c" | cmp -s - "$F/bad.c" &&
	grep -q '^int twice(int x)$' "$F/bad.c"; then
	ok "make format rewrites the file that differs"
else
	fail "make format rewrites the file that differs" "$(head -n 3 "$F/format.out" | tr '\n' ' ')"
fi
if cmp -s "$F/good.c" "$F/good.orig" && [ -z "$(find "$F/good.c" -newermt '2001-01-02')" ]; then
	ok "make format leaves a formatted file alone, its time too"
else
	fail "make format leaves a formatted file alone, its time too" "$(ls -l --time-style=+%F "$F/good.c")"
fi
check "make format-check passes once formatted" \
	make -s --no-print-directory -C "$TOP" format-check FORMAT_FILES="$F/good.c $F/bad.c"

# ---- the matrix, spelled once -------------------------------------------------------------
# tests/matrix.mk has it; tests/rules.mk and tests/lib.sh read it.  No suite spells it again.
if grep -n --exclude=t-build.sh -e 'gcc-O0 gcc-O2' -e '"link preload"' "$TOP"/tests/*/t-*.sh "$TOP/tests/rules.mk" \
	>"$W/matrix.txt"; then
	fail "the compiler x level x mode matrix is spelled only in tests/matrix.mk" "$(head -n 2 "$W/matrix.txt" | tr '\n' ' ')"
else
	ok "the compiler x level x mode matrix is spelled only in tests/matrix.mk"
fi
mk=$(sed -n 's/^VARIANTS *= *//p' "$W/db.txt" | head -n 1)
if [ -n "$mk" ] && [ "$mk" = "$VARIANTS" ] && [ -n "$MODES" ]; then
	ok "make and the suites read the same variants: $VARIANTS"
else
	fail "make and the suites read the same variants" "make: '$mk', tests/lib.sh: '$VARIANTS'"
fi
