#!/bin/sh
# Installs what the build ("build") or the tests ("test") need from Debian, when missing.
# As root it runs apt-get; otherwise it prints the exact command and fails.
set -eu
what=${1:-build}

pkgs="libdw-dev libelf-dev libjson-c-dev libcmark-dev pkg-config gcc make"
if [ "$what" = test ]; then
	pkgs="$pkgs clang g++ chromium nodejs npm"
fi

missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

cmd="apt-get install -y --no-install-recommends$missing"
if [ "$(id -u)" -ne 0 ]; then
	echo "callprof: missing packages:$missing" >&2
	echo "callprof: run as root: apt-get update && $cmd" >&2
	exit 1
fi
echo "  APT    $missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq --no-install-recommends $missing >/dev/null
