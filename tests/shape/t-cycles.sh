#!/bin/sh
# tests/shape/t-cycles.sh: the objects of runtime/ form no dependency cycle, nor do those of
# report/ (DESIGN.md: no runtime file depends on one above it).  Object A depends on object B
# when A uses a global symbol that B defines, calls the compiler writes included;
# tests/shape/cycles.sh draws that graph with nm and names every cycle.  The checker is
# tested first, on small objects compiled here.
. "$TOP/tests/lib.sh"
set -u
workdir shape
CY=$TOP/tests/shape/cycles.sh
S=$W/syn
mkdir -p "$S"
build build "$W/build.log" all || exit 1

# obj NAME [CFLAGS...]: compiles the C text on stdin into $S/NAME.o.
obj() {
	_o=$1
	shift
	cat >"$S/$_o.c"
	cc -c "$@" "$S/$_o.c" -o "$S/$_o.o" 2>>"$W/syn.log" || echo "cannot compile $_o.c" >>"$W/syn.log"
}

# verdict_of NAME STATUS PATTERN OBJECT...: cycles.sh on the objects exits STATUS and prints
# a line matching the extended regular expression PATTERN.
verdict_of() {
	_n=$1 _want=$2 _pat=$3
	shift 3
	"$CY" "$@" >"$W/out" 2>&1
	_rc=$?
	if [ $_rc -ne "$_want" ]; then
		fail "$_n" "exit status $_rc, expected $_want: $(head -n 3 "$W/out" | tr '\n' ' ')"
	elif ! grep -Eq -- "$_pat" "$W/out"; then
		fail "$_n" "no /$_pat/ in: $(head -n 4 "$W/out" | tr '\n' ' ')"
	else
		ok "$_n"
	fi
}

# ---- the checker, on objects made for it -----------------------------------------------
obj a2 <<'C'
int b2(void);
int a2(void) { return b2() + 1; }
C
obj b2 <<'C'
int a2(void);
int b2(void) { return 2; }
int b2_back(void) { return a2(); }
C
verdict_of "checker: two objects that use each other are a cycle" 1 \
	'^  shortest: a2\.o -> b2\.o -> a2\.o$' "$S/a2.o" "$S/b2.o"
verdict_of "checker: each edge of a cycle names its symbols" 1 '^  b2\.o -> a2\.o: a2$' "$S/a2.o" "$S/b2.o"

obj top <<'C'
int mid(void);
int low(void);
int top(void) { return mid() + low(); }
C
obj mid <<'C'
int low(void);
int mid(void) { return low(); }
C
obj low <<'C'
#include <stdio.h>
int low(void) { return puts("low"); }
C
verdict_of "checker: layers with a shortcut are no cycle" 0 '^no cycle among 3 objects$' \
	"$S/top.o" "$S/mid.o" "$S/low.o"

obj c1 <<'C'
int c2(void);
int c1(void) { return c2(); }
C
obj c2 <<'C'
int c3(void);
int c2(void) { return c3(); }
C
obj c3 <<'C'
int c1(void);
int c3(void) { return c1(); }
C
obj out <<'C'
int c1(void);
int out(void) { return c1(); }
C
verdict_of "checker: a cycle of three is named, and an object that only calls into it is not" 1 \
	'^cycle among 3 objects: c1\.o c2\.o c3\.o$' "$S/out.o" "$S/c1.o" "$S/c2.o" "$S/c3.o"
verdict_of "checker: the shortest cycle of three" 1 '^  shortest: c1\.o -> c2\.o -> c3\.o -> c1\.o$' \
	"$S/out.o" "$S/c1.o" "$S/c2.o" "$S/c3.o"
"$CY" "$S/a2.o" "$S/b2.o" "$S/c1.o" "$S/c2.o" "$S/c3.o" "$S/top.o" "$S/mid.o" "$S/low.o" >"$W/two.out" 2>&1
n=$(grep -c '^cycle among' "$W/two.out")
if [ "$n" -eq 2 ]; then ok "checker: two separate cycles are both named"; else
	fail "checker: two separate cycles are both named" "$n cycles: $(head -n 3 "$W/two.out" | tr '\n' ' ')"; fi

# The compiler's calls count: an instrumented file uses the probes it does not call by name.
obj probed -finstrument-functions <<'C'
int probed(void) { return 1; }
C
obj probes <<'C'
int probed(void);
static int depth;
void __cyg_profile_func_enter(void *fn, void *site) { (void)fn; (void)site; depth += probed(); }
void __cyg_profile_func_exit(void *fn, void *site) { (void)fn; (void)site; depth--; }
C
verdict_of "checker: the probes an instrumented object calls are edges" 1 \
	'^  probed\.o -> probes\.o: __cyg_profile_func_enter __cyg_profile_func_exit$' "$S/probed.o" "$S/probes.o"

# A weak reference binds to a definition when there is one: an edge too.
obj weak <<'C'
extern int strong(void) __attribute__((weak));
int weak(void) { return strong ? strong() : 0; }
C
obj strong <<'C'
int weak(void);
int strong(void) { return weak(); }
C
verdict_of "checker: a weak reference is an edge" 1 '^  weak\.o -> strong\.o: strong$' "$S/weak.o" "$S/strong.o"

# A static function shares no name with the world, and libc's symbols are no object here.
obj st1 <<'C'
#include <stdio.h>
static int helper(void) { return puts("st1"); }
int st1(void) { return helper(); }
C
obj st2 <<'C'
int st1(void);
int helper(void);
int helper(void) { return st1(); }
C
verdict_of "checker: static functions and libc calls are no edges" 0 '^no cycle among 2 objects$' \
	"$S/st1.o" "$S/st2.o"

verdict_of "checker: an object it cannot read is an error" 2 "cannot read the symbols of '$S/none.o'" \
	"$S/a2.o" "$S/none.o"

# ---- runtime/ and report/ ------------------------------------------------------------------
# The objects of the sources there now (a stale object of a removed source would mislead).
# tree NAME DIR: DIR's objects, as the Makefile builds them into $B/DIR, form no cycle.
tree() {
	_objs=
	for _c in "$TOP/$2"/*.c; do
		_objs="$_objs $B/$2/$(basename "$_c" .c).o"
	done
	# shellcheck disable=SC2086
	if "$CY" $_objs >"$W/$2.out" 2>&1; then
		ok "$1"
		sed "s|^|# $1: |" "$W/$2.out"
	else
		sed "s|^|# $1: |" "$W/$2.out"
		fail "$1" "$(grep -e '^cycle among' -e '^  shortest' -e '^cycles.sh' "$W/$2.out" | tr '\n' ' ' | sed 's/  */ /g')"
	fi
}
tree "runtime/: no dependency cycle among its objects" runtime
tree "report/: no dependency cycle among its objects" report
