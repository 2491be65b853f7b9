#!/bin/sh
# tests/shape/t-format.sh: the sources are as .clang-format writes them, so `make format`
# changes nothing a contributor did not touch (STYLE.md: formatting is the tool's job).
. "$TOP/tests/lib.sh"
set -u
workdir format
if ! command -v "${CLANG_FORMAT:-clang-format}" >/dev/null 2>&1; then
	fail "clang-format is installed (tests/deps.sh)" "not found"
	exit 0
fi
if make -s -C "$TOP" format-check >"$W/out" 2>&1; then
	ok "every C file of FORMAT_FILES is as .clang-format writes it"
else
	fail "every C file of FORMAT_FILES is as .clang-format writes it" \
		"$(tail -n 1 "$W/out"); first: $(head -n 3 "$W/out" | tr '\n' ' ')"
fi
# format itself is idempotent: a copy of one file, formatted twice, is the same both times.
f=$TOP/runtime/probe.c
"${CLANG_FORMAT:-clang-format}" "$f" >"$W/once.c" && "${CLANG_FORMAT:-clang-format}" "$W/once.c" >"$W/twice.c"
if cmp -s "$W/once.c" "$W/twice.c"; then
	ok "clang-format twice writes what it wrote once"
else
	fail "clang-format twice writes what it wrote once" "runtime/probe.c differs"
fi
