#!/bin/sh
# tests/install: `make install DESTDIR=...` installs a working tool, library, header,
# callprof.pc and man page; a program builds against the installed callprof.pc and
# profiles itself; `make uninstall` removes it all.
. "$TOP/tests/lib.sh"
set -u
workdir install
D="$W/root"
P=/opt/callprof

build "make install DESTDIR" "$W/install.log" install DESTDIR="$D" PREFIX="$P" && ok "make install DESTDIR"
for f in bin/callprof lib/libcallprof.so lib/libcallprof.a include/callprof.h \
	lib/pkgconfig/callprof.pc share/man/man1/callprof.1; do
	if [ -f "$D$P/$f" ]; then ok "installed $f"; else fail "installed $f" "missing"; fi
done

# A program built only through the installed callprof.pc (the prefix is staged in DESTDIR,
# so pkg-config is pointed at it with --define-prefix).
cat >"$W/prog.c" <<'C'
#include <callprof.h>
#include <stdio.h>
__attribute__((noinline)) static int twice(int x) { return 2 * x; }
int main(void) { int s = 0; for (int i = 0; i < 7; i++) s += twice(i); printf("%d %d\n", s, callprof_enabled()); return 0; }
C
flags=$(PKG_CONFIG_PATH="$D$P/lib/pkgconfig" pkg-config --define-prefix --cflags --libs callprof 2>"$W/pc.err")
if [ -n "$flags" ] && cc "$W/prog.c" $flags -o "$W/prog" 2>"$W/cc.err"; then
	ok "build against installed callprof.pc"
else
	fail "build against installed callprof.pc" "$(cat "$W/pc.err" "$W/cc.err" | head -n 3 | tr '\n' ' ')"
fi
if out=$(cd "$W" && CALLPROF_OUTPUT="$W/prog.json" ./prog) && [ "$out" = "42 1" ]; then
	ok "installed library profiles the program"
else
	fail "installed library profiles the program" "output '$out'"
fi
cat >"$W/prog.expect" <<'X'
calls main 1
calls twice 7
edge main twice 7
X
check "profile of the installed build is exact" "$DC" "$W/prog.json" "$W/prog.expect"
check "installed tool runs" "$D$P/bin/callprof" --version
if "$D$P/bin/callprof" record -o "$W/rec.json" -- "$W/prog" >/dev/null && [ -s "$W/rec.json" ]; then
	ok "installed tool finds its runtime for record"
else
	fail "installed tool finds its runtime for record" "no profile written"
fi
if command -v man >/dev/null 2>&1; then
	check "man page renders" sh -c "MANWIDTH=80 man -l '$D$P/share/man/man1/callprof.1' >/dev/null"
fi

build "make uninstall" "$W/install.log" uninstall DESTDIR="$D" PREFIX="$P"
left=$(find "$D" -type f | wc -l)
if [ "$left" -eq 0 ]; then ok "make uninstall removes every file"; else fail "make uninstall removes every file" "$left left"; fi
