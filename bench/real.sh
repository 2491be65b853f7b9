#!/bin/sh
# bench/real.sh: real programs nobody here wrote (jq, Lua 5.4, SQLite's shell, zstd), from
# Debian's source packages, built in variants that differ only in their instrumentation, and
# timed on generated workloads.  bench/run.sh runs `real.sh bench` for RESULTS.md section 5;
# later work adds a variant (a build, a CALLPROF_* setting) with a line of the tables below.
#
#   sh bench/real.sh fetch [PROG...]      the sources into $B/bench/src: apt-get source, after
#                                         adding a deb-src entry for Debian's archive (as root)
#   sh bench/real.sh build PROG VARIANT   builds one variant; cached: a stamp per program and
#                                         variant says what it was built from and how
#   sh bench/real.sh input PROG           writes the program's generated workload inputs
#   sh bench/real.sh cmd PROG RUN [WORK]  the bench/timeit.c command line of a run, per workload
#   sh bench/real.sh run PROG RUN [WORK]  runs it once, its output on stdout
#   sh bench/real.sh bench                the whole benchmark: RESULTS.md's section on stdout
#   sh bench/real.sh list                 the tables: programs, builds, runs, workloads
#
# Knobs: B=DIR (the build directory), BENCH_QUICK=1 or 2 (smaller inputs, fewer rounds; 2 is
# the smoke run of tests/bench: Lua alone), BENCH_REAL_PROGS="jq lua sqlite zstd" (which).
# Everything goes to $B/bench/src (sources), $B/bench/real (trees, binaries, inputs, runs).

# -nt (newer than) is in dash, bash and busybox sh alike.
# shellcheck disable=SC3013
set -eu

. "$(dirname "$0")/paths.sh"
SRC=$W/src
R=$W/real
LIB=$W/lib
QUICK=${BENCH_QUICK:-0}
REALCC=$S/realcc.sh
# Every compile of every variant ends with these, whatever the program's own build passes.
COMMON_CFLAGS="-O2 -g"
JOBS=2
# Bump when a recipe below changes how a program is built: every tree is then rebuilt.
RECIPE=3
SOURCES_FILE=/etc/apt/sources.list.d/callprof-bench-src.sources

# Programs: name, Debian source package, the binary in its built tree.
programs() {
	cat <<'EOF'
jq	jq	jq
lua	lua5.4	src/lua
sqlite	sqlite3	sqlite3
zstd	libzstd	programs/zstd
EOF
}

# Builds: name, the tree it is compiled in (builds of one tree share their objects and differ
# in what they are linked with), the compiler, compile flags, link flags ('-': none).
# fentry is callprof's -pg -mfentry front-end: gprof's objects linked with the runtime.
builds() {
	cat <<EOF
plain	plain	gcc	-	-
fi	fi	gcc	-finstrument-functions	-
empty	fi	gcc	-finstrument-functions	$R/hooks_empty.o
callprof	fi	gcc	-finstrument-functions	-L$LIB -Wl,-rpath,$LIB -Wl,-z,now -lcallprof
pg	pg	gcc	-pg -mfentry	-pg
fentry	pg	gcc	-pg -mfentry	-L$LIB -Wl,-rpath,$LIB -lcallprof
clang	clang	clang	-	-
clang-callprof	clang-fi	clang	-finstrument-functions	-L$LIB -Wl,-rpath,$LIB -Wl,-z,now -lcallprof
clang-real	clang-ai	clang	-finstrument-functions-after-inlining	-L$LIB -Wl,-rpath,$LIB -Wl,-z,now -lcallprof
EOF
}

# Runs, the rows of the results: name, build, NAME=VALUE words and a command put before the
# program ('-': none; DUMP is a dump file of its own for each run, W.RUN.PID.json: names of
# runs and workloads have no '.' or ':'), the row's label.  A run
# whose build is not in the table above is shown as "not yet".
runs() {
	cat <<EOF
plain	plain	-	no instrumentation (gcc $COMMON_CFLAGS)
empty	empty	-	-finstrument-functions, empty hooks linked in (bench/hooks_empty.c)
callprof	callprof	CALLPROF_OUTPUT=DUMP	**callprof**, link mode (-finstrument-functions)
callprof-nolib	callprof	CALLPROF_LIBCALLS=0 CALLPROF_OUTPUT=DUMP	**callprof**, link mode, library probes off (CALLPROF_LIBCALLS=0)
callprof-main	callprof	CALLPROF_INCLUDE=main CALLPROF_OUTPUT=DUMP	**callprof**, link mode, CALLPROF_INCLUDE=main (every other call unrecorded, its probes charged to main at unrecorded_ns)
callprof-nocpu	callprof	CALLPROF_CPU=0 CALLPROF_OUTPUT=DUMP	**callprof**, link mode, CPU time off (CALLPROF_CPU=0: no CPU clock read)
callprof-nometer	callprof	CALLPROF_METER=0 CALLPROF_OUTPUT=DUMP	**callprof**, link mode, metering off (CALLPROF_METER=0: compensation by calibration's loop alone, not what the program's probes were measured to add)
callprof-sampled	callprof	CALLPROF_TIMING=sampled CALLPROF_OUTPUT=DUMP	**callprof**, link mode, CALLPROF_TIMING=sampled (one call in 64 timed past each context's first 64)
record	fi	$LIB/callprof record -o DUMP --	**callprof record** (preloaded into the -finstrument-functions build)
record-nolib	fi	CALLPROF_LIBCALLS=0 $LIB/callprof record -o DUMP --	**callprof record**, library probes off (CALLPROF_LIBCALLS=0)
gprof	pg	-	gprof (-pg -mfentry: glibc's __fentry__ and gmon.out)
fentry	fentry	CALLPROF_OUTPUT=DUMP	**callprof**, -pg -mfentry front-end
fentry-args	fentry	CALLPROF_OUTPUT=DUMP CALLPROF_ARGS=$ARGS_HOT	**callprof**, -pg -mfentry front-end, CALLPROF_ARGS on a hot function ($ARGS_HOT: the program's one)
EOF
	# clang's rows compare with clang's uninstrumented build.  -after-inlining probes only the
	# functions left after inlining, as -pg -mfentry does: a preview of that front-end's probes.
	[ "$CLANG_ROWS" = 1 ] || return 0
	cat <<EOF
clang	clang	-	no instrumentation (clang $COMMON_CFLAGS)
clang-callprof	clang-callprof	CALLPROF_OUTPUT=DUMP	**callprof**, clang -finstrument-functions
clang-real	clang-real	CALLPROF_OUTPUT=DUMP	**callprof**, clang -finstrument-functions-after-inlining (the functions left after inlining)
EOF
}

# The hot function of each program whose arguments and return value the fentry-args run
# captures (CALLPROF_ARGS): a real function (not inlined) with typed arguments, called
# hundreds of thousands of times (lua_type: int(lua_State *, int); sqlite3VdbeAddOp3:
# int(Vdbe *, int, int, int, int); jv_get_kind: a 16-byte struct in registers).  zstd's hot
# functions are inlined: none of its own is named, so its row costs what the fentry row does.
ARGS_HOT=lua_type,sqlite3VdbeAddOp3,jv_get_kind

# Workload sizes: a few seconds at most uninstrumented in a full run.
# (-finstrument-functions probes every inlined helper: jq makes about 30,000 probed calls a
# record, Lua about 30 million a unit of LUA_SCALE, zstd -9 about 2,800 a line, and the
# profiled runs take 7-70x longer.)
if [ "$QUICK" = 2 ]; then
	JQ_N=300 LUA_SCALE=1 SQL_N=2000 ZSTD_N=2000 ZSTD_D_TIMES=1 ROUNDS=1
elif [ "$QUICK" = 1 ]; then
	JQ_N=2000 LUA_SCALE=2 SQL_N=50000 ZSTD_N=20000 ZSTD_D_TIMES=4 ROUNDS=3
else
	JQ_N=4000 LUA_SCALE=4 SQL_N=100000 ZSTD_N=40000 ZSTD_D_TIMES=8 ROUNDS=5
fi
# No warm-up round: the inputs were just written (they are in the page cache), and a profiled
# round of the four programs takes a minute.
WARMUP=0
# The clang rows: BENCH_REAL_CLANG=1 (they would take make bench past its 10 minutes).
CLANG_ROWS=${BENCH_REAL_CLANG:-0}
if [ "$QUICK" = 2 ]; then
	PROGS=${BENCH_REAL_PROGS:-lua}
else
	PROGS=${BENCH_REAL_PROGS:-jq lua sqlite zstd}
fi

# Workloads: program, name, the program's arguments (IN is the input directory; a word
# <FILE is the standard input; output goes to /dev/null), what it does.
workloads() {
	zd="IN/zstd-$ZSTD_N.txt.zst"
	i=1
	while [ $i -lt "$ZSTD_D_TIMES" ]; do
		zd="$zd IN/zstd-$ZSTD_N.txt.zst"
		i=$((i + 1))
	done
	cat <<EOF
jq	sort	-f $S/real_jq.jq IN/jq-$JQ_N.json	bench/real_jq.jq over $JQ_N generated records: sort_by, group_by, string handling
lua	script	$S/real_bench.lua $LUA_SCALE	bench/real_bench.lua $LUA_SCALE: fib(25) $LUA_SCALE times, string handling, table sorts with a comparator
sqlite	sql	-batch :memory: <IN/sqlite-$SQL_N.sql	the sqlite3 shell on a generated script: $SQL_N orders inserted, indexes, joins, group by, update, delete
zstd	c-T2	-q -9 -T2 -c IN/zstd-$ZSTD_N.txt	compress $ZSTD_N generated lines at -9 with -T2
zstd	c-single	-q -9 --single-thread -c IN/zstd-$ZSTD_N.txt	the same with --single-thread
zstd	d	-q -d -c $zd	decompress it, $ZSTD_D_TIMES times in one process
EOF
}

say() { printf '  REAL    %s\n' "$*" >&2; }
die() {
	printf 'real.sh: %s\n' "$*" >&2
	exit 1
}

# field TABLE KEY N: field N of the row of TABLE (a function above) whose first field is KEY.
field() {
	$1 | awk -F'\t' -v k="$2" -v n="$3" '$1 == k { print $n; found = 1; exit } END { exit !found }'
}

# x CMD...: runs a build command in the current directory, recording it in $CMDS first.
x() {
	for a in "$@"; do
		case $a in *[\ \*\']* | '') printf "'%s' " "$a" ;; *) printf '%s ' "$a" ;; esac
	done | sed 's/ $//' >> "$CMDS"
	echo >> "$CMDS"
	"$@"
}

# --- fetching -----------------------------------------------------------------------

# The deb-src entry: Debian's own archive, for the release this machine runs.
sources_entry() {
	printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: %s %s-updates\n' "$1" "$1"
	printf 'Components: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n'
}

# Makes apt know Debian's source packages: adds the entry in a file of its own and updates
# the lists, once.  Without root it prints the command and fails.
debsrc() {
	ls /var/lib/apt/lists/*_Sources* > /dev/null 2>&1 && return 0
	codename=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
	[ -n "$codename" ] || { echo "real.sh: no Debian release in /etc/os-release: cannot fetch sources" >&2; return 1; }
	want=$(sources_entry "$codename")
	if [ "$(id -u)" -ne 0 ]; then
		echo "real.sh: apt has no deb-src entry; the real programs need one, added as root by:" >&2
		printf "  printf '%%s\\\\n' %s > %s && apt-get update\n" \
			"$(sources_entry "$codename" | sed "s/.*/'&'/" | tr '\n' ' ')" "$SOURCES_FILE" >&2
		return 1
	fi
	if [ ! -f "$SOURCES_FILE" ] || [ "$(cat "$SOURCES_FILE")" != "$want" ]; then
		say "adding $SOURCES_FILE (deb-src, $codename)"
		printf '%s\n' "$want" > "$SOURCES_FILE.tmp" && mv "$SOURCES_FILE.tmp" "$SOURCES_FILE"
	fi
	say "apt-get update"
	apt-get update -qq > /dev/null 2>&1 || { echo "real.sh: apt-get update failed" >&2; return 1; }
}

# The unpacked source tree of a program (empty when not fetched).
srcdir() {
	pkg=$(field programs "$1" 2)
	[ -f "$SRC/$pkg.dir" ] && [ -d "$SRC/$(cat "$SRC/$pkg.dir")" ] && echo "$SRC/$(cat "$SRC/$pkg.dir")"
	return 0
}

fetch() {
	mkdir -p "$SRC"
	need=""
	for fp in "$@"; do
		fpkg=$(field programs "$fp" 2) || die "no program '$fp'"
		[ -n "$(srcdir "$fp")" ] || need="$need $fpkg"
	done
	[ -n "$need" ] || return 0
	debsrc || return 1
	command -v dpkg-source > /dev/null 2>&1 || { echo "real.sh: dpkg-source is missing (apt-get install dpkg-dev)" >&2; return 1; }
	say "apt-get source$need"
	# shellcheck disable=SC2086
	if ! (cd "$SRC" && apt-get source -qq $need) > "$SRC/fetch.log" 2>&1; then
		echo "real.sh: apt-get source$need failed: $(grep -m 1 '^E:' "$SRC/fetch.log" || tail -n 1 "$SRC/fetch.log")" >&2
		return 1
	fi
	for fpkg in $need; do
		fd=$(cd "$SRC" && ls -d "$fpkg"-*/ | sort -V | tail -n 1)
		[ -n "$fd" ] || { echo "real.sh: apt-get source $fpkg unpacked nothing" >&2; return 1; }
		echo "${fd%/}" > "$SRC/$fpkg.dir"
	done
}

# --- the programs' recipes ----------------------------------------------------------
# prep_P: once, in a pristine copy of the sources; conf_P: configures one tree; make_P: builds
# the binary in it; unlink_P: removes the binary so that make_P links it again.  Each runs in
# the tree's directory with REAL_CC, REAL_CFLAGS and REAL_LDFLAGS exported for bench/realcc.sh.

prep_jq() { x autoreconf -fi; }
conf_jq() {
	x ./configure -q CC="$REALCC" CFLAGS="$COMMON_CFLAGS" --disable-shared --enable-static \
		--disable-docs --disable-maintainer-mode --disable-valgrind --without-oniguruma
}
# `make jq` alone would not make the generated sources (automake's BUILT_SOURCES).
make_jq() { x make -j$JOBS all; }
unlink_jq() { rm -f jq; }

# Debian's src/Makefile builds shared and C++ libraries through libtool: put back the upstream
# one from the same package's .orig tarball and build the interpreter as `make linux` does.
# Debian's luaconf.h includes a header its debian/rules writes: write it the same way.
prep_lua() {
	echo "# > src/Makefile:" >> "$CMDS"
	x tar -xzf "$(ls "$SRC"/lua5.4_*.orig.tar.gz | tail -n 1)" --wildcards -O '*/src/Makefile' > src/Makefile
	ma=$(gcc -print-multiarch)
	echo "# > src/lua5.4-deb-multiarch.h: #define DEB_HOST_MULTIARCH \"$ma\", as debian/rules writes it" >> "$CMDS"
	printf '#ifndef _LUA_DEB_MULTIARCH_\n#define _LUA_DEB_MULTIARCH_\n#define DEB_HOST_MULTIARCH "%s"\n#endif\n' \
		"$ma" > src/lua5.4-deb-multiarch.h
}
conf_lua() { :; }
make_lua() {
	x make -C src -j$JOBS lua CC="$REALCC -std=gnu99" SYSCFLAGS=-DLUA_USE_LINUX SYSLIBS="-Wl,-E -ldl" \
		MYCFLAGS= MYLDFLAGS= MYLIBS=
}
unlink_lua() { rm -f src/lua; }

prep_sqlite() { :; }
conf_sqlite() {
	x ./configure -q CC="$REALCC" CFLAGS="$COMMON_CFLAGS" --disable-shared --enable-static \
		--disable-tcl --disable-readline --disable-editline
}
# BCC builds the generators (lemon, mkkeywordhash): never instrumented.
make_sqlite() { x make -j$JOBS sqlite3 BCC="gcc $COMMON_CFLAGS"; }
unlink_sqlite() { rm -f sqlite3; }

prep_zstd() { :; }
conf_zstd() { :; }
make_zstd() {
	x make -C programs -j$JOBS zstd CC="$REALCC" CFLAGS="$COMMON_CFLAGS" HAVE_ZLIB=0 HAVE_LZMA=0 HAVE_LZ4=0
}
unlink_zstd() { rm -f programs/zstd programs/obj/conf_*/zstd; }

# --- building (shell functions share variables: each names its own) ----------------

# Files named in link flags (objects, archives) enter the stamp by content.
files_sum() {
	for w in "$@"; do
		[ -f "$w" ] && cksum < "$w"
	done
	return 0
}

# base P: a copy of the sources, prepared (sqlite's documentation left out).
base() {
	bp=$1 bd=$R/$1/base
	bkey="recipe $RECIPE, $(basename "$(srcdir "$bp")")"
	[ -f "$bd.stamp" ] && [ "$(cat "$bd.stamp")" = "$bkey" ] && return 0
	say "$bp: preparing $(basename "$(srcdir "$bp")")"
	rm -rf "$bd" "$bd.stamp"
	mkdir -p "$bd"
	tar -C "$(srcdir "$bp")" --exclude=./www --exclude=./.pc -cf - . | tar -C "$bd" -xf -
	CMDS=$R/$bp/base.cmds
	: > "$CMDS"
	(cd "$bd" && "prep_$bp") > "$bd.log" 2>&1 || { echo "real.sh: preparing $bp failed: see $bd.log" >&2; return 1; }
	echo "$bkey" > "$bd.stamp"
}

# tree P TREE CC CFLAGS: a configured copy of the sources, compiled with CFLAGS.
tree() {
	tp=$1 td=$R/$1/$2 tcc=$3 tflags=$4
	tkey="recipe $RECIPE, $(basename "$(srcdir "$tp")"), $tcc $COMMON_CFLAGS $tflags, realcc $(cksum < "$REALCC")"
	[ -f "$td.stamp" ] && [ "$(cat "$td.stamp")" = "$tkey" ] && return 0
	base "$tp" || return 1
	say "$tp: compiling the $2 tree ($tcc $COMMON_CFLAGS${tflags:+ $tflags})"
	rm -rf "$td" "$td.stamp" "$td.linked"
	cp -a "$R/$tp/base" "$td"
	CMDS=$td.cmds
	cp "$R/$tp/base.cmds" "$CMDS"
	echo "# in a copy of the prepared sources, with REAL_CC=$tcc REAL_CFLAGS='$COMMON_CFLAGS $tflags' (bench/realcc.sh):" >> "$CMDS"
	if ! (cd "$td" && export REAL_CC="$tcc" REAL_CFLAGS="" REAL_LDFLAGS="" && "conf_$tp" &&
		export REAL_CFLAGS="$COMMON_CFLAGS $tflags" && "make_$tp") > "$td.log" 2>&1; then
		echo "real.sh: building $tp ($2) failed: $(grep -m 1 -E 'error:|Error [0-9]' "$td.log" || tail -n 1 "$td.log"); see $td.log" >&2
		return 1
	fi
	echo "-" > "$td.linked"
	echo "$tkey" > "$td.stamp"
}

hooks_empty() {
	mkdir -p "$R"
	[ -f "$R/hooks_empty.o" ] && [ "$R/hooks_empty.o" -nt "$S/hooks_empty.c" ] && return 0
	gcc -O2 -c "$S/hooks_empty.c" -o "$R/hooks_empty.o"
}

# The runtime and the tool the builds link with: bench/run.sh puts a private copy in $LIB.
runtime() {
	mkdir -p "$LIB"
	for rf in libcallprof.so libcallprof.so.0 libcallprof.a callprof; do
		[ -f "$LIB/$rf" ] || [ ! -f "$B/$rf" ] || cp "$B/$rf" "$LIB/$rf"
	done
}

# build P V: $R/P/bin/V, built unless its stamp says it is up to date.
build() {
	p=$1 v=$2
	bin=$(field programs "$p" 3) || die "no program '$p'"
	line=$(builds | awk -F'\t' -v v="$v" '$1 == v')
	[ -n "$line" ] || die "no build '$v' (bench/real.sh list)"
	t=$(echo "$line" | cut -f 2) cc=$(echo "$line" | cut -f 3)
	cflags=$(echo "$line" | cut -f 4) ldflags=$(echo "$line" | cut -f 5)
	[ "$cflags" = - ] && cflags=""
	[ "$ldflags" = - ] && ldflags=""
	[ -n "$(srcdir "$p")" ] || fetch "$p" || return 1
	hooks_empty
	runtime
	mkdir -p "$R/$p/bin"
	# shellcheck disable=SC2086
	key="recipe $RECIPE, $(basename "$(srcdir "$p")"), $cc $COMMON_CFLAGS $cflags, realcc $(cksum < "$REALCC"), link $ldflags $(files_sum $ldflags)"
	out=$R/$p/bin/$v
	[ -x "$out" ] && [ -f "$out.stamp" ] && [ "$(cat "$out.stamp")" = "$key" ] && return 0
	# One build at a time per program: builds of one tree share its directory.
	if command -v flock > /dev/null 2>&1; then
		exec 9> "$R/$p/.lock"
		flock 9
	fi
	tree "$p" "$t" "$cc" "$cflags" || return 1
	CMDS=$out.cmds
	cp "$R/$p/$t.cmds" "$CMDS"
	if [ "$(cat "$R/$p/$t.linked")" != "-$ldflags" ]; then
		say "$p: linking $v"
		echo "# then linked again with REAL_LDFLAGS='$ldflags':" >> "$CMDS"
		if ! (cd "$R/$p/$t" && export REAL_CC="$cc" REAL_CFLAGS="$COMMON_CFLAGS $cflags" \
			REAL_LDFLAGS="$ldflags" && "unlink_$p" && "make_$p") > "$out.log" 2>&1; then
			echo "real.sh: linking $p ($v) failed: see $out.log" >&2
			return 1
		fi
		echo "-$ldflags" > "$R/$p/$t.linked"
	fi
	cp "$R/$p/$t/$bin" "$out.tmp" && mv "$out.tmp" "$out"
	echo "$key" > "$out.stamp"
}

# --- workloads and runs ---------------------------------------------------------------

input() {
	p=$1 d=$R/input
	mkdir -p "$d"
	case $p in
	jq) f=$d/jq-$JQ_N.json what=json n=$JQ_N ;;
	sqlite) f=$d/sqlite-$SQL_N.sql what=sql n=$SQL_N ;;
	zstd) f=$d/zstd-$ZSTD_N.txt what=text n=$ZSTD_N ;;
	*) return 0 ;;
	esac
	if [ ! -s "$f" ] || [ "$S/real_gen.awk" -nt "$f" ]; then
		say "$p: generating $(basename "$f")"
		awk -v what=$what -v n="$n" -f "$S/real_gen.awk" > "$f.tmp" && mv "$f.tmp" "$f"
	fi
	# The decompression input, made by the uninstrumented build.
	if [ "$p" = zstd ] && { [ ! -s "$f.zst" ] || [ "$f" -nt "$f.zst" ]; }; then
		build zstd plain
		"$R/zstd/bin/plain" -q -9 -f "$f" -o "$f.zst"
	fi
}

# cmd P RUN [WORK]: "WORK:RUN<TAB>words" for bench/timeit.c, one line per workload of P.
cmd() {
	p=$1 r=$2 only=${3:-}
	line=$(runs | awk -F'\t' -v r="$r" '$1 == r')
	[ -n "$line" ] || die "no run '$r' (bench/real.sh list)"
	b=$(echo "$line" | cut -f 2) pre=$(echo "$line" | cut -f 3)
	[ "$pre" = - ] && pre=""
	workloads | awk -F'\t' -v p="$p" -v only="$only" '$1 == p && (only == "" || $2 == only) { print $2 "\t" $3 }' |
		while IFS='	' read -r w args; do
			d=$(echo "$pre" | sed "s|DUMP|$R/run/$p/$w.$r.%p.json|g")
			printf '%s:%s\t%s%s %s\n' "$w" "$r" "${d:+$d }" "$R/$p/bin/$b" "$(echo "$args" | sed "s|IN/|$R/input/|g")"
		done
}

# run P RUN [WORK]: runs the command lines once, as timeit would (NAME=VALUE words, <FILE).
run() {
	mkdir -p "$R/run/$1"
	cmd "$@" | while IFS='	' read -r _name words; do
		in=/dev/stdin
		set --
		for w in $words; do
			case $w in "<"?*) in=${w#<} ;; *) set -- "$@" "$w" ;; esac
		done
		env "$@" < "$in"
	done
}

# --- the benchmark (RESULTS.md section 5) -------------------------------------------------

# The benchmark's own tools, as bench/run.sh builds them (and here when this runs alone).
tools() {
	mkdir -p "$W"
	if [ ! -x "$W/timeit" ] || [ "$S/timeit.c" -nt "$W/timeit" ]; then
		gcc -O2 -Wall -o "$W/timeit" "$S/timeit.c"
	fi
	if [ ! -x "$W/dumpq" ] || [ "$S/dumpq.c" -nt "$W/dumpq" ]; then
		# shellcheck disable=SC2046
		gcc -O2 -Wall -o "$W/dumpq" "$S/dumpq.c" $(pkg-config --cflags --libs json-c)
	fi
}

note() {
	printf '%s\n' "$*" >> "$NOTES"
	say "note: $*"
}

# The median of the numbers on stdin, one a line.
median() {
	awk -v mode=median -f "$S/tables.awk"
}

# dump_figures P W RUN: "dump W:RUN calls main_ns main_raw_ns dumps" from the run's dumps
# (medians over the rounds), which it then removes.
dump_figures() {
	n=0
	: > "$R/run/$1.q"
	for f in "$R/run/$1/$2.$3".*.json; do
		[ -f "$f" ] || continue
		"$W/dumpq" "$f" >> "$R/run/$1.q" 2> /dev/null || continue
		n=$((n + 1))
	done
	[ $n -gt 0 ] || return 0
	printf 'dump\t%s:%s\t%s\t%s\t%s\t%s\n' "$2" "$3" \
		"$(awk -F'\t' '$1 == "total_calls" { print $2 }' "$R/run/$1.q" | median)" \
		"$(awk -F'\t' '$1 == "fn" && $2 == "main" { print $4 }' "$R/run/$1.q" | median)" \
		"$(awk -F'\t' '$1 == "fn" && $2 == "main" { print $6 }' "$R/run/$1.q" | median)" "$n"
	rm -f "$R/run/$1/$2.$3".*.json
}

# gprof_calls P W: "gprof W calls": the calls gprof counts in one run of the -pg build.
gprof_calls() {
	gd=$R/run/$1/gprof-$2
	rm -rf "$gd"
	mkdir -p "$gd"
	(cd "$gd" && run "$1" gprof "$2" > /dev/null 2>&1) || return 0
	[ -f "$gd/gmon.out" ] || return 0
	gprof -b -q "$R/$1/bin/pg" "$gd/gmon.out" 2> /dev/null |
		awk -v w="$2" '# each function primary line of the call graph: "N" calls, or "N+M" with M recursive ones
			/^\[[0-9]+\]/ && !/as a whole/ { n = split($5, c, "+"); s += c[1] + (n > 1 ? c[2] : 0) }
			END { if (s > 0) printf "gprof\t%s\t%d\n", w, s }'
}

# bench_prog P: builds P's variants, times every run on every workload, prints its tables.
bench_prog() {
	p=$1
	ok_runs=""
	: > "$R/run/$p.rows"
	for r in $(runs | cut -f 1); do
		rb=$(field runs "$r" 2)
		printf 'run\t%s\t%s\n' "$r" "$(field runs "$r" 4)" >> "$R/run/$p.rows"
		if ! builds | cut -f 1 | grep -qx "$rb"; then
			printf 'notyet\t%s\tnot yet (no build "%s" in bench/real.sh)\n' "$r" "$rb" >> "$R/run/$p.rows"
		elif build "$p" "$rb" 2> "$R/run/$p.err"; then
			cat "$R/run/$p.err" >&2
			ok_runs="$ok_runs $r"
		else
			cat "$R/run/$p.err" >&2
			note "$p: the $rb build failed: $(tail -n 1 "$R/run/$p.err")"
			printf 'notyet\t%s\tbuild failed (see the notes)\n' "$r" >> "$R/run/$p.rows"
		fi
	done
	case " $ok_runs " in
	*" plain "*) ;;
	*)
		note "$p: left out: its uninstrumented build failed"
		return 0
		;;
	esac
	input "$p"
	rm -rf "$R/run/$p"
	mkdir -p "$R/run/$p"
	: > "$R/run/$p.cmds"
	for r in $ok_runs; do cmd "$p" "$r" >> "$R/run/$p.cmds"; done
	say "$p: timing ($ROUNDS interleaved rounds of $(wc -l < "$R/run/$p.cmds") commands)"
	(cd "$R/run/$p" && "$W/timeit" -w "$WARMUP" -r "$ROUNDS" -o "$R/run/$p.raw" "$R/run/$p.cmds") \
		> "$R/run/$p.tsv" 2> "$R/run/$p.err" || note "$p: timeit failed: $(tail -n 1 "$R/run/$p.err")"
	if grep -q failed "$R/run/$p.err"; then
		note "$p: $(sort -u "$R/run/$p.err" | head -n 3 | tr '\n' ' ')"
	fi
	for w in $(workloads | awk -F'\t' -v p="$p" '$1 == p { print $2 }'); do
		for r in $ok_runs; do dump_figures "$p" "$w" "$r"; done >> "$R/run/$p.tsv"
		case " $ok_runs " in *" gprof "*) gprof_calls "$p" "$w" >> "$R/run/$p.tsv" ;; esac
		printf '\n### %s: %s\n%s.\n\n' "$p" "$w" \
			"$(workloads | awk -F'\t' -v p="$p" -v w="$w" '$1 == p && $2 == w { print $4 }')"
		cat "$R/run/$p.rows" "$R/run/$p.tsv" | awk -F'\t' -v mode=real -v work="$w" -f "$S/tables.awk"
	done
}

# The section's opening paragraph.
bench_intro() {
	cat <<EOF

## 5. Real programs nobody here wrote

jq, Lua 5.4, SQLite's shell and zstd from Debian's source packages (\`apt-get source\`; nothing of
theirs is committed), each built from its own source tree by its own build system, driven by
bench/real.sh: bench/realcc.sh appends \`$COMMON_CFLAGS\` and the variant's flags to every compile,
so every variant is compiled alike. Builds are cached (\`sh bench/real.sh build PROG VARIANT\`
rebuilds only what its stamp says changed). Medians over $ROUNDS interleaved rounds
(bench/timeit.c; no warm-up round). *CPU* is user + system time of the process.
*probes* is the calls the dump counts (every thread; -finstrument-functions also probes inlined
functions), and for gprof the calls gprof counts (functions that were not inlined). *main()* is
main's compensated inclusive time in the dump (median over the rounds' dumps) against the plain
build's whole process, issue 14's "within 25%"; *raw* is the same before compensation. The
machine is shared (load average at the start of this section: $1; at the end: REAL_LOAD_END).
EOF
}

# The section's closing parts: notes, the builds and the exact commands.
bench_commands() {
	printf '\n### Notes\n'
	if [ -s "$NOTES" ]; then sed 's/^/- /' "$NOTES"; else echo "- none"; fi
	printf '\n### Builds\n| build | tree | compiler | compile flags | link flags |\n|---|---|---|---|---|\n'
	builds | awk -F'\t' '{ printf "| %s | %s | %s | `%s` | `%s` |\n", $1, $2, $3, $4, $5 }'
	printf '\nEach program as built (the callprof build; the others differ in the flags above):\n'
	for p in $PROGS; do
		[ -f "$R/$p/bin/callprof.cmds" ] || continue
		printf '\n%s:\n```\n' "$p"
		grep -v '^$' "$R/$p/bin/callprof.cmds"
		printf '```\n'
	done
	printf '\nThe timed commands (NAME=VALUE words set the environment, <FILE is the standard input):\n```\n'
	for p in $PROGS; do
		[ -f "$R/run/$p.cmds" ] && tr '\t' ' ' < "$R/run/$p.cmds"
	done
	printf '```\n'
}

bench() {
	mkdir -p "$R/run"
	NOTES=$R/notes.txt
	: > "$NOTES"
	tools
	bench_intro "$(cut -d' ' -f1-3 /proc/loadavg)"
	# shellcheck disable=SC2086
	if ! fetch $PROGS 2> "$R/fetch.err"; then
		printf '\nSkipped: the sources could not be fetched. %s\n' "$(tr '\n' ' ' < "$R/fetch.err")"
		say "skipped: $(head -n 1 "$R/fetch.err")"
		return 0
	fi
	printf '\nSources:'
	for p in $PROGS; do
		printf ' %s' "$(cd "$SRC" && ls "$(field programs "$p" 2)"_*.dsc | sort -V | tail -n 1 | sed 's/\.dsc$//')"
	done
	printf '.\n'
	for p in $PROGS; do bench_prog "$p"; done
	bench_commands
}

list() {
	echo "programs (name, Debian source package, binary):"
	programs | sed 's/^/  /'
	echo "builds (name, tree, compiler, compile flags, link flags):"
	builds | sed 's/^/  /'
	echo "runs (name, build, prefix, label):"
	runs | sed 's/^/  /'
	echo "workloads (program, name, arguments, what):"
	workloads | cut -f 1-3 | sed 's/^/  /'
}

case ${1:-} in
fetch)
	shift
	[ $# -gt 0 ] || set -- $PROGS
	fetch "$@"
	;;
build)
	[ $# = 3 ] || die "usage: real.sh build PROG VARIANT"
	build "$2" "$3"
	echo "$R/$2/bin/$3"
	;;
input)
	[ $# = 2 ] || die "usage: real.sh input PROG"
	input "$2"
	;;
cmd)
	[ $# -ge 3 ] || die "usage: real.sh cmd PROG RUN [WORK]"
	shift
	cmd "$@"
	;;
run)
	[ $# -ge 3 ] || die "usage: real.sh run PROG RUN [WORK]"
	shift
	run "$@"
	;;
bench)
	mkdir -p "$R"
	bench > "$R/section.md"
	sed "s|$ROOT/||g; s|REAL_LOAD_END|$(cut -d' ' -f1-3 /proc/loadavg)|" "$R/section.md"
	;;
list)
	list
	;;
*)
	sed -n '2,/^$/p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 1
	;;
esac
