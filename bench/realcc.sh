#!/bin/sh
# realcc.sh: the C compiler of the real programs' builds (bench/real.sh).  Runs $REAL_CC
# with the program's own arguments followed by $REAL_CFLAGS (the common -O2 -g and the
# variant's compile flags, which override whatever the program's build system chose) and,
# when it links, $REAL_LDFLAGS: every variant of every program is compiled alike.
link=1
for a in "$@"; do
	case $a in -c | -S | -E) link=0 ;; esac
done
# -x none: objects in REAL_LDFLAGS are objects even after the program's own `-x c -` (zstd's
# Makefile links a test program from standard input that way).
# shellcheck disable=SC2086
if [ $link = 1 ] && [ -n "${REAL_LDFLAGS:-}" ]; then
	exec ${REAL_CC:-gcc} "$@" $REAL_CFLAGS -x none $REAL_LDFLAGS
fi
# shellcheck disable=SC2086
exec ${REAL_CC:-gcc} "$@" $REAL_CFLAGS
