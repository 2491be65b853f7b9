#!/bin/sh
# tests/install: `make install DESTDIR=...` installs a working tool, library (with its soname
# and links), header, callprof.pc and man page; a program builds against the installed
# callprof.pc, in either order under --as-needed, and profiles itself; callprof.pc adds a run
# path only outside /usr; `make uninstall` removes it all.
. "$TOP/tests/lib.sh"
set -u
workdir install
D="$W/root"
P=/opt/callprof

build "make install DESTDIR" "$W/install.log" install DESTDIR="$D" PREFIX="$P" && ok "make install DESTDIR"
for f in bin/callprof lib/libcallprof.so.0.1.0 lib/libcallprof.a include/callprof.h \
	lib/pkgconfig/callprof.pc share/man/man1/callprof.1; do
	if [ -f "$D$P/$f" ]; then ok "installed $f"; else fail "installed $f" "missing"; fi
done
# The shared library's soname carries its version, reached by the usual links (issue 16 item 30).
if [ "$(readlink "$D$P/lib/libcallprof.so.0")" = libcallprof.so.0.1.0 ] &&
	[ "$(readlink "$D$P/lib/libcallprof.so")" = libcallprof.so.0 ]; then
	ok "installed the links libcallprof.so -> libcallprof.so.0 -> libcallprof.so.0.1.0"
else
	fail "installed the links" "libcallprof.so.0 -> '$(readlink "$D$P/lib/libcallprof.so.0")', libcallprof.so -> '$(readlink "$D$P/lib/libcallprof.so")'"
fi
soname=$(readelf -d "$D$P/lib/libcallprof.so.0.1.0" 2>/dev/null | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
if [ "$soname" = libcallprof.so.0 ]; then ok "the shared library's soname is libcallprof.so.0"; else
	fail "the shared library's soname is libcallprof.so.0" "soname '$soname'"; fi

# A program built only through the installed callprof.pc (the prefix is staged in DESTDIR,
# so pkg-config is pointed at it with --define-prefix).
cat >"$W/prog.c" <<'C'
#include <callprof.h>
#include <stdio.h>
__attribute__((noinline)) static int twice(int x) { return 2 * x; }
int main(void) { int s = 0; for (int i = 0; i < 7; i++) s += twice(i); printf("%d %d\n", s, callprof_enabled()); return 0; }
C
cat >"$W/prog.expect" <<'X'
calls main 1
calls twice 7
edge main twice 7
X
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
check "profile of the installed build is exact" "$DC" "$W/prog.json" "$W/prog.expect"
needed=$(readelf -d "$W/prog" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(libcallprof[^]]*\)\]/\1/p')
[ "$needed" = libcallprof.so.0 ] && ok "a program linked through callprof.pc needs libcallprof.so.0" ||
	fail "a program linked through callprof.pc needs libcallprof.so.0" "NEEDED '$needed'"
# Under --as-needed (some distributions' default), with the libraries before or after the
# sources: the runtime stays, and its probes run rather than glibc's empty ones (issue 16 item 29).
for order in before after; do
	t="the documented link line survives --as-needed (libraries $order the sources)"
	rm -f "$W/asneeded" "$W/asneeded.json"
	if [ $order = before ]; then
		cc -Wl,--as-needed $flags "$W/prog.c" -o "$W/asneeded" 2>"$W/cc.err"
	else
		cc -Wl,--as-needed "$W/prog.c" $flags -o "$W/asneeded" 2>"$W/cc.err"
	fi
	if out=$(CALLPROF_OUTPUT="$W/asneeded.json" "$W/asneeded") && [ "$out" = "42 1" ] &&
		"$DC" "$W/asneeded.json" "$W/prog.expect" >"$W/dc.out" 2>&1; then
		ok "$t"
	else
		fail "$t" "output '$out': $(cat "$W/cc.err" "$W/dc.out" 2>/dev/null | head -n 2 | tr '\n' ' ')"
	fi
done
sed -n 's/^Libs: //p' "$D$P/lib/pkgconfig/callprof.pc" >"$W/pc-opt.libs"
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
left=$(find "$D" ! -type d | wc -l)
if [ "$left" -eq 0 ]; then ok "make uninstall removes every file and link"; else
	fail "make uninstall removes every file and link" "$left left: $(find "$D" ! -type d | head -n 3 | tr '\n' ' ')"; fi

# PREFIX=/usr: the dynamic linker looks in /usr/lib anyway, so callprof.pc adds no run path
# (issue 16 item 30); elsewhere it does.
U=$W/usr-root
if build "make install PREFIX=/usr" "$W/install-usr.log" install DESTDIR="$U" PREFIX=/usr; then
	libs=$(sed -n 's/^Libs: //p' "$U/usr/lib/pkgconfig/callprof.pc")
	case $libs in
	*rpath*) fail "PREFIX=/usr: callprof.pc adds no run path" "Libs: $libs" ;;
	*) ok "PREFIX=/usr: callprof.pc adds no run path" ;;
	esac
fi
if grep -q -- '-Wl,-rpath,${libdir}' "$W/pc-opt.libs"; then ok "PREFIX=$P: callprof.pc adds the run path"; else
	fail "PREFIX=$P: callprof.pc adds the run path" "Libs: $(cat "$W/pc-opt.libs")"; fi
