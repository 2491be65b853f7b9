#!/bin/sh
# tests/browser/t-browser.sh: a report opened from file:// in headless Chromium (Debian's
# /usr/bin/chromium), driven by playwright-core (installed here on first use), clicked
# through from the hottest function down; screenshots go to $B/tests/screens/.
set -u
. "$TOP/tests/lib.sh"
cd "$TOP"
workdir browser
rm -rf "$B/tests/screens"
mkdir -p "$W/tmp" "$B/tests/screens"

build build "$W/build.log" "$B/callprof" || exit 1
if [ ! -x /usr/bin/chromium ] || ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	fail browser "needs /usr/bin/chromium, node and npm (make test-deps)"
	exit 1
fi
# The version package.json pins (one that runs on Debian 12's Node.js 18), installed again
# when another is there.
want=$(sed -n 's/.*"playwright-core": "\(.*\)".*/\1/p' tests/browser/package.json)
have=$(sed -n 's/^  "version": "\(.*\)".*/\1/p' tests/browser/node_modules/playwright-core/package.json 2>/dev/null)
if [ "$have" != "$want" ]; then
	echo "installing playwright-core into tests/browser/node_modules"
	if ! (cd tests/browser && npm install --no-audit --no-fund --loglevel=error) >"$W/npm.log" 2>&1; then
		fail "npm install" "$(tail -n 3 "$W/npm.log" | tr '\n' ' ')"
		exit 1
	fi
fi
ok "playwright-core $(sed -n 's/.*"version": "\(.*\)".*/\1/p' tests/browser/node_modules/playwright-core/package.json)"

for s in c-small cpp-hostile; do
	if ! "$B/callprof" report -o "$W/site-$s" "tests/report/fixtures/$s.json" >/dev/null 2>"$W/$s.err"; then
		fail "report $s" "$(cat "$W/$s.err")"
		exit 1
	fi
done
# Markup and script in every string of a dump, the title and the notes (tests/report/hostile-dump.js).
node tests/report/hostile-dump.js "$W/every-field.json"
printf '# <script>alert(1)</script>\n[x](javascript:alert(2)) <img src=x onerror=alert(3)>\n' >"$W/notes.md"
if ! "$B/callprof" report -o "$W/site-every-field" --title '<script>alert(4)</script>"' --notes "$W/notes.md" \
	"$W/every-field.json" >/dev/null 2>"$W/every-field.err"; then
	fail "report every-field" "$(cat "$W/every-field.err")"
	exit 1
fi
# Chromium's fresh profile directory goes under the build folder, and away with it.
TMPDIR=$W/tmp node tests/browser/browser.js "$W/site-c-small" tests/report/fixtures/c-small.json \
	"$B/tests/screens" "$W/site-cpp-hostile" "$W/site-every-field" </dev/null
