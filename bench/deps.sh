#!/bin/sh
# bench/deps.sh: installs from Debian what the benchmarks compare against, when missing.
# As root it runs apt-get; otherwise it prints the exact command and goes on:
# run.sh then skips the comparisons whose tools are missing, and says so.
set -eu

# clang's XRay runtime comes in a package named after clang's major version.
clang_major=14
if command -v clang >/dev/null 2>&1; then
	clang_major=$(clang --version | sed -n 's/.*clang version \([0-9][0-9]*\).*/\1/p' | head -n 1)
fi
# gcc and libjson-c-dev build the harness and the dump reader; uftrace, clang
# (+ its XRay runtime) and binutils (gprof) are the profilers compared; dpkg-dev
# (apt-get source), autoconf, automake and libtool (jq) and tcl (SQLite's generators)
# build the real programs of bench/real.sh.
pkgs="gcc make pkg-config libjson-c-dev uftrace clang libclang-rt-${clang_major:-14}-dev binutils"
pkgs="$pkgs dpkg-dev autoconf automake libtool tcl"

missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

cmd="apt-get install -y --no-install-recommends$missing"
if [ "$(id -u)" -ne 0 ]; then
	echo "bench: missing packages:$missing" >&2
	echo "bench: run as root: apt-get update && $cmd" >&2
	exit 0
fi
echo "  APT    $missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
