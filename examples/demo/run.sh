#!/bin/sh
# examples/demo/run.sh BUILD OUT: builds the demo with instrumentation, profiles it, writes its site.
set -eu
B=$(cd "$1" && pwd)
mkdir -p "$2"
OUT=$(cd "$2" && pwd)
SRC=$(cd "$(dirname "$0")" && pwd)

echo "  DEMO    building examples/demo with -finstrument-functions -g"
${CC:-cc} -finstrument-functions -g -O2 -fno-optimize-sibling-calls "$SRC"/*.c -o "$OUT/demo"
echo "  DEMO    running: callprof record -o $OUT/callprof.json -- demo"
"$B/callprof" record -o "$OUT/callprof.json" -- "$OUT/demo"
echo
"$B/callprof" top -n 12 "$OUT/callprof.json"
echo
"$B/callprof" report -o "$OUT/report" "$OUT/callprof.json" >/dev/null
echo "The report: file://$OUT/report/index.html"
