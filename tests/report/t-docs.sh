#!/bin/sh
# tests/report/t-docs.sh: the documentation says what the tool does: the README's commands
# ("Three ways to use it") run as written from the repository root, and every option each
# command's --help prints is in the man page (docs/callprof.1), under that command.
set -u
. "$TOP/tests/lib.sh"
cd "$TOP"
workdir report-docs
build build "$W/build.log" all || exit 1
CP=$B/callprof

# ---- every option of every command is in the man page ------------------------------------
# man_section CMD: the man page's text about CMD (its .SS section), fonts and \- undone.
man_section() {
	sed -n "/^\.SS $1\$/,/^\.S[SH] /p" docs/callprof.1 | sed -e 's/\\f[BIRP]//g' -e 's/\\-/-/g'
}
# help_options CMD: the options CMD --help lists, one a line (-o and --output apart).
help_options() {
	"$CP" "$1" --help | sed -n -E 's/^  ((-[a-zA-Z], )?(--[a-z][-a-z]*|-[a-zA-Z]))( .*|$)/\1/p' | tr ',' '\n' | tr -d ' '
}
commands=$("$CP" --help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p')
if [ -z "$commands" ]; then
	fail "callprof --help lists the commands" "none found"
fi
for c in $commands; do
	man_section "$c" >"$W/man-$c.txt"
	if [ ! -s "$W/man-$c.txt" ]; then
		fail "the man page has a section for $c" "no '.SS $c' in docs/callprof.1"
		continue
	fi
	opts=$(help_options "$c")
	if [ -z "$opts" ]; then
		fail "options of $c" "'callprof $c --help' lists no options"
		continue
	fi
	missing=""
	for o in $opts; do
		grep -Eq -- "(^|[^-a-z])$o([^-a-z]|\$)" "$W/man-$c.txt" || missing="$missing $o"
	done
	if [ -z "$missing" ]; then
		ok "the man page has every option of $c: $(printf '%s ' $opts)"
	else
		fail "the man page has every option of $c" "missing under .SS $c:$missing"
	fi
done

# ---- the README's commands, as written, from a repository root ---------------------------
# The root is a copy made of links: every entry of this repository (report/ with the tool's
# sources among them), build/ the build under test, and the program the README calls prog.c.
# A staged `make install` stands in for the real one the README's pkg-config line assumes.
R=$W/root
mkdir -p "$R" "$W/bin"
for e in "$TOP"/* "$TOP"/.[!.]*; do
	[ -e "$e" ] || continue
	case $(basename "$e") in build | .git) ;; *) ln -s "$e" "$R/$(basename "$e")" ;; esac
done
ln -s "$B" "$R/build"
cat >"$R/prog.c" <<'C'
#include <stdio.h>
#include <string.h>
__attribute__((noinline)) static int leaf(int x) { return x * 3; }
__attribute__((noinline)) static int work(int n) { int s = 0; for (int i = 0; i < n; i++) s += leaf(i); return s; }
int main(int argc, char **argv) { printf("%d\n", work(argc > 1 ? (int)strlen(argv[1]) + 5 : 5)); return 0; }
C
D=$W/stage
build "README: a staged make install" "$W/install.log" install DESTDIR="$D"
pc_dir=$(dirname "$(find "$D" -name callprof.pc | head -n 1)")
real_pc=$(command -v pkg-config)
cat >"$W/bin/pkg-config" <<SH
#!/bin/sh
PKG_CONFIG_PATH="$pc_dir\${PKG_CONFIG_PATH:+:\$PKG_CONFIG_PATH}" exec "$real_pc" --define-prefix "\$@"
SH
chmod +x "$W/bin/pkg-config"

# The commands of the sh blocks of "Three ways to use it": a trailing comment dropped, a
# comment line skipped unless it is a command itself ("# static: cc ...").
sed -n '/^## Three ways to use it/,/^## /p' README.md |
	awk '/^```sh/ { on = 1; next } /^```/ { on = 0; next } on' |
	sed -e 's/^# static: //' -e '/^#/d' -e 's/  *#.*$//' -e '/^ *$/d' >"$W/readme.sh"
n=$(wc -l <"$W/readme.sh")
if [ "$n" -lt 8 ] || ! grep -q '^build/callprof report' "$W/readme.sh"; then
	fail "README: commands found" "$n lines: $(tr '\n' '|' <"$W/readme.sh")"
fi
while IFS= read -r cmd; do
	case $cmd in *old.json*) cp "$R/prog.json" "$R/old.json" && cp "$R/prog.json" "$R/new.json" ;; esac
	# shellcheck disable=SC2016
	(cd "$R" && PATH="$W/bin:$PATH" sh -c "$cmd") >"$W/cmd.out" 2>"$W/cmd.err" </dev/null
	rc=$?
	index=$(grep 'index.html$' "$W/cmd.out")
	if [ $rc -ne 0 ]; then
		fail "README from the root: $cmd" "exit status $rc: $(head -c 300 "$W/cmd.err")"
	elif [ -n "$index" ] && [ ! -f "$index" ]; then
		fail "README from the root: $cmd" "printed $index, which is not there"
	else
		ok "README from the root: $cmd${index:+ -> ${index#"$R"/}}"
	fi
done <"$W/readme.sh"
if [ -f "$R/callprof.json" ] && [ -f "$R/prog.json" ] && [ -f "$R/callprof-report/index.html" ]; then
	ok "README from the root: the profiles and the default site are there"
else
	fail "README from the root: the profiles and the default site are there" "$(ls "$R" | tr '\n' ' ')"
fi
if [ -e "$R/gmon.out" ]; then
	fail "README from the root: its one-step -pg -mfentry link leaves no gmon.out" "gmon.out is there"
else
	ok "README from the root: its one-step -pg -mfentry link leaves no gmon.out"
fi
if [ -L "$R/report" ] && [ "$(readlink "$R/report")" = "$TOP/report" ] && [ -f "$TOP/report/report.c" ]; then
	ok "README from the root: the source folder report/ is left alone"
else
	fail "README from the root: the source folder report/ is left alone" "$(ls -ld "$R/report")"
fi
exit 0
