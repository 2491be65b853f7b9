#!/bin/sh
# Installs what the build ("build") or the tests ("test") need from Debian, when missing.
# As root it runs apt-get; otherwise it prints the exact command and fails.
# Libraries are checked with pkg-config, tools by command, so a tool installed
# another way (a Node.js from elsewhere, say) is used as it is.
set -eu
what=${1:-build}

missing=""
need_pkg() { # need_pkg PACKAGE: when dpkg does not have it (and it is not listed yet)
	case " $missing " in *" $1 "*) return 0 ;; esac
	dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "ok installed" || missing="$missing $1"
}
need_cmd() { # need_cmd COMMAND PACKAGE: when COMMAND is not on PATH
	command -v "$1" >/dev/null 2>&1 || missing="$missing $2"
}

need_cmd cc gcc
need_cmd make make
need_cmd pkg-config pkg-config
pkg-config --exists libdw 2>/dev/null || missing="$missing libdw-dev"
[ -e /usr/include/libelf.h ] || missing="$missing libelf-dev"
pkg-config --exists json-c 2>/dev/null || missing="$missing libjson-c-dev"
pkg-config --exists libcmark 2>/dev/null || missing="$missing libcmark-dev"
# callprof export --format pprof: protobuf-c (its compiler generates the C from report/profile.proto) and zlib.
pkg-config --exists libprotobuf-c 2>/dev/null || missing="$missing libprotobuf-c-dev"
need_cmd protoc-c protobuf-c-compiler
pkg-config --exists zlib 2>/dev/null || missing="$missing zlib1g-dev"
if [ "$what" = test ]; then
	need_cmd clang clang
	need_cmd g++ g++
	need_cmd node nodejs
	need_cmd npm npm
	need_cmd jq jq
	need_cmd clang-format clang-format
	# tests/export: callgrind_annotate reads the callgrind export back.
	need_cmd callgrind_annotate valgrind
	[ -x /usr/bin/chromium ] || missing="$missing chromium"
	[ -e /usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.asan-x86_64.a ] ||
		[ -n "$(ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.asan-x86_64.a 2>/dev/null)" ] ||
		need_pkg libclang-rt-dev
	# libFuzzer (tests/fuzz) comes in the same package as clang's ASan runtime.
	[ -n "$(ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a 2>/dev/null)" ] ||
		need_pkg libclang-rt-dev
fi
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
