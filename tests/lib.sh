# tests/lib.sh: the harness every suite sources.  tests/run.sh runs the suites and gives them
# TOP (the repository), B (the build directory, absolute) and SAN_B (the sanitizer build of
# the tool); a suite prints one line per test, "ok - NAME" or "not ok - NAME: WHY".
#
#   reporting     ok, fail, skip, check, has
#   scratch       workdir, rel, normalise, snapshot, searchable, unpreempted
#   building      build, build_san: make in $TOP exactly as `make check` builds;
#                 job, run_jobs: test programs built in parallel
#   the matrix    VARIANTS, MODES, FRONTENDS, E2E_PROGS..., cc_of, cxx_of, level_of, family_of,
#                 frontend_flags
#                 (from tests/matrix.mk, which tests/rules.mk includes too)
#   one run       begin, problem, verdict, run, checked, dumpchecked, key, want, fid,
#                 threads_of, calls: a profiled run and the checks of its dump

DC=$B/tests/dumpcheck # the dump checker: invariants, and expectations (tests/dumpcheck)
REC=$B/callprof       # the tool, for `callprof record`

# ---- reporting ------------------------------------------------------------------------

# ok NAME / fail NAME WHY / skip NAME WHY: report one test (a skip counts as neither).
ok() { echo "ok - $1"; }
fail() { echo "not ok - $1: $2"; }
skip() { echo "skip - $1: $2"; }

# check NAME COMMAND...: runs COMMAND, reports ok if it exits 0, else its last output lines.
check() {
	_name=$1
	shift
	if _out=$("$@" 2>&1); then
		ok "$_name"
	else
		fail "$_name" "$(printf '%s\n' "$_out" | tail -n 3 | tr '\n' ' ')"
	fi
}

# has NAME FILE PATTERN: ok when FILE holds the extended regular expression PATTERN.
has() {
	if grep -Eq -- "$3" "$2"; then ok "$1"; else fail "$1" "no /$3/ in $2"; fi
}

# ---- scratch files ------------------------------------------------------------------------

# workdir NAME: W=$B/tests/NAME, emptied: each suite writes only there.
workdir() {
	W=$B/tests/$1
	rm -rf "$W"
	mkdir -p "$W"
}

# rel PATH: PATH relative to TOP when it lies inside it, else PATH.
rel() { case $1 in "$TOP"/*) echo "${1#"$TOP"/}" ;; *) echo "$1" ;; esac; }

# normalise SITE OUT: a copy of a report site without what changes from run to run (dates,
# the version) and without its static files, for comparing with golden pages.
normalise() {
	rm -rf "$2"
	mkdir -p "$2"
	(cd "$1" && find . -type f ! -path './static/*' ! -name .callprof-report) | sort | while read -r f; do
		mkdir -p "$2/$(dirname "$f")"
		sed -e 's|<span class="date">[^<]*</span>|<span class="date">DATE</span>|g' \
		    -e 's|callprof [0-9][0-9]*\.[0-9][0-9.]*|callprof VERSION|g' "$1/$f" >"$2/$f"
	done
}

# snapshot DIR: a checksum line per file under DIR, to tell whether anything changed.
snapshot() { (cd "$1" && find . -type f | sort | xargs md5sum); }

# searchable DIR: DIR and every directory above it let others pass (go+x), so that a program
# run as another user (nobody; a set-group-ID one checks the group bits) reaches files under
# DIR, as when the checkout is in /root.
searchable() {
	_d=$1
	while [ -n "$_d" ] && [ "$_d" != / ]; do
		chmod go+x "$_d" 2>/dev/null
		_d=$(dirname "$_d")
	done
}

# unpreempted COMMAND...: runs COMMAND with the real-time FIFO policy where this user may
# (root), so that no other process preempts it and ratios of its times hold on a loaded
# machine; elsewhere plainly.  Only for short programs that end by themselves.
if command -v chrt >/dev/null 2>&1 && chrt -f 10 true 2>/dev/null; then
	unpreempted() { chrt -f 10 "$@"; }
else
	unpreempted() { "$@"; }
fi

# ---- building ---------------------------------------------------------------------------

# build NAME LOG [-FLAG | VAR=VALUE | TARGET]...: brings the targets up to date with the one
# Makefile, the way `make check` does: from $TOP, with paths relative to it (or the
# dependency files would name other targets), B=$B unless a B= is given.  The output is
# added to LOG.  On failure, test NAME fails with the first errors, and build returns 1.
build() {
	_name=$1 _log=$2
	shift 2
	_n=$#
	for _a; do
		case $_a in
		-*) set -- "$@" "$_a" ;;
		*=*) set -- "$@" "${_a%%=*}=$(rel "${_a#*=}")" ;;
		*) set -- "$@" "$(rel "$_a")" ;;
		esac
	done
	shift "$_n"
	make -s --no-print-directory -C "$TOP" B="$(rel "$B")" "$@" >>"$_log" 2>&1 && return 0
	fail "$_name" "$({ grep -i -m 3 error "$_log" || tail -n 3 "$_log"; } | tr '\n' ' ')"
	return 1
}

# build_san NAME LOG: the tool built with AddressSanitizer and UBSan, $SAN_B/callprof.
build_san() { build "$1" "$2" SAN=address,undefined B="$SAN_B" "$SAN_B/callprof"; }

# ---- callprof diff's sites ---------------------------------------------------------------

# diffrun NAME ARGS...: $CP diff -o $W/site-NAME ARGS; output in $W/NAME.out/.err, status in $rc.
diffrun() {
	_n=$1
	shift
	"$CP" diff -o "$W/site-$_n" "$@" >"$W/$_n.out" 2>"$W/$_n.err"
	rc=$?
}

# status NAME WANT: the last diffrun exited with WANT.
status() {
	if [ "$rc" -eq "$2" ]; then ok "$1"; else fail "$1" "exit status $rc, not $2: $(head -c 300 "$W/$_n.err")"; fi
}

# same NAME FILE EXPECTED: FILE's contents are exactly EXPECTED.
same() {
	if [ "$(cat "$2")" = "$3" ]; then ok "$1"; else fail "$1" "got: $(head -c 400 "$2" | tr '\n' '|')"; fi
}

# ---- test programs, built in parallel ---------------------------------------------------
# job NAME "OUT..." "IN..." COMMANDS: queues COMMANDS (a shell script, run with set -e) to
# build OUT from IN, unless every OUT is newer than every IN; run_jobs runs the queue, as
# many at once as there are processors, and fails a test "build NAME" for each that fails.
# The queue lives in $W/jobs (workdir first).
njobs=0
fresh() {
	_outs=
	while [ "$1" != -- ]; do _outs="$_outs $1"; shift; done
	shift
	for _o in $_outs; do
		[ -e "$_o" ] || return 1
		for _i in "$@"; do [ "$_o" -nt "$_i" ] || return 1; done
	done
}
job() {
	# shellcheck disable=SC2086 # OUT and IN are lists of words
	fresh $2 -- $3 && return
	mkdir -p "$W/jobs"
	njobs=$((njobs + 1))
	printf 'set -e\n%s\n' "$4" >"$W/jobs/$1.sh"
}
run_jobs() {
	if [ "$njobs" -gt 0 ]; then
		for _j in "$W"/jobs/*.sh; do echo "$_j"; done |
			xargs -P "$(nproc 2>/dev/null || echo 2)" -n 1 \
				sh -c 'sh "$0" >"${0%.sh}.log" 2>&1 || echo "${0%.sh}" >>"'"$W"'/jobs/failed"'
		if [ -f "$W/jobs/failed" ]; then
			for _j in $(cat "$W/jobs/failed"); do
				fail "build $(basename "$_j")" "$(grep -m 2 -i error "$_j.log" | tr '\n' ' ')"
			done
		fi
	fi
	echo "built $njobs jobs"
	njobs=0
}

# ---- the matrix -------------------------------------------------------------------------
# Every "NAME = words" line of tests/matrix.mk becomes a shell variable.
while read -r _k _eq _v; do
	case $_k in [A-Za-z_]*) ;; *) continue ;; esac
	[ "$_eq" = = ] && eval "$_k=\$_v"
done <"$TOP/tests/matrix.mk"
E2E_PROGS="$E2E_PROGS_C $E2E_PROGS_CC"

# family_of, level_of, cc_of, cxx_of VARIANT: gcc or clang; -O0 or -O2; its C and C++ compilers.
family_of() { echo "${1%%-*}"; }
level_of() { echo "-${1#*-}"; }
cc_of() { eval "echo \"\$CC_${1%%-*}\""; }
cxx_of() { eval "echo \"\$CXX_${1%%-*}\""; }
# frontend_flags FRONTEND: the flags that build a program for it (finstrument, fentry).
frontend_flags() { eval "echo \"\$FRONTEND_FLAGS_$1\""; }

# ---- one profiled run, and the checks of its dump ---------------------------------------
# A test collects its problems in $W/problems: begin starts it, verdict reports them all in
# the log and the first three on its line.
# CLOCK_ENV: a VAR=VALUE word every run gets, named in every test it runs under.
# RUN_LABEL: words every test name ends with meanwhile (a front-end's, "-pg -mfentry").
CLOCK_ENV= RUN_LABEL=
begin() {
	tname=$1${RUN_LABEL:+ $RUN_LABEL}${CLOCK_ENV:+ ($CLOCK_ENV)}
	: >"$W/problems"
}
problem() { printf '%s\n' "$*" >>"$W/problems"; }
verdict() {
	if [ -s "$W/problems" ]; then
		sed "s|^|# $tname: |" "$W/problems"
		fail "$tname" "$(head -n 3 "$W/problems" | tr '\n' ' ')"
	else
		ok "$tname"
	fi
}

# run MODE VARIANT PROG NAME [ARGS...]: runs $P/VARIANT/PROG linked to the runtime (MODE
# link), or $P/VARIANT/PROG.pre under `callprof record` (MODE preload), with the words
# VAR=VALUE of $RUN_ENV in its environment and its dump in $DUMP (if set, else $W/NAME.json),
# then clears both.  Sets $dump and $rc; keeps stdout in $out and stderr in $err.
RUN_ENV= DUMP=
run() {
	_mode=$1 _v=$2 _prog=$3 _name=$4 _env="$RUN_ENV $CLOCK_ENV"
	shift 4
	dump=${DUMP:-$W/$_name.json} out=$W/$_name.out err=$W/$_name.err
	RUN_ENV= DUMP=
	_bin=$P/$_v/$_prog
	[ "$_mode" = preload ] && _bin=$_bin.pre
	if [ ! -x "$_bin" ]; then
		problem "$_bin was not built"
		rc=127
		return
	fi
	case $_mode in
	link) env $_env CALLPROF_OUTPUT="$dump" "$_bin" "$@" ;;
	preload) env $_env "$REC" record -o "$dump" -- "$_bin" "$@" ;;
	esac >"$out" 2>"$err"
	rc=$?
}

# checked STATUS EXPECT: the last run ended with STATUS and printed nothing on
# stderr; its dump meets every invariant and EXPECT, and names every function.
checked() {
	[ "$rc" -eq "$1" ] || problem "exit status $rc, expected $1: $(head -n 2 "$err" | tr '\n' ' ')"
	[ -s "$err" ] && [ "$rc" -eq "$1" ] && problem "stderr: $(head -n 2 "$err" | tr '\n' ' ')"
	dumpchecked "$dump" "$2"
}

# dumpchecked DUMP EXPECT: DUMP exists, meets every invariant and EXPECT, and
# every function has a name (not an address).
dumpchecked() {
	if [ ! -f "$1" ]; then
		problem "no dump $1"
		return 1
	fi
	_out=$("$DC" "$1" "$2" 2>&1) || problem "$(printf '%s\n' "$_out" | sed "s|$W/||g" | head -n 5)"
	_bad=$(jq -r '[.functions[].name | select(test("^(0x|\\?)"))] | join(" ")' "$1")
	[ -z "$_bad" ] || problem "functions without a name: $_bad"
}

# key FILTER: jq FILTER on the last dump, one line.
key() { jq -c "$1" "$dump" 2>&1 | tr '\n' ' ' | sed 's/ $//'; }

# want WHAT GOT EXPECTED: a problem unless GOT is EXPECTED.
want() { [ "$2" = "$3" ] || problem "$1: $2, expected $3"; }

# fid NAME: the id of the function named NAME in the last dump, for jq filters.
fid() { jq "[.functions[] | select(.name == \"$1\") | .id][0]" "$dump"; }

# threads_of NAME: the threads running function NAME, as a jq expression to pipe on.
threads_of() { echo "($(fid "$1")) as \$f | .threads[] | select(any(.functions[]; .fn == \$f))"; }

# calls NAME: the calls of NAME on the first thread of the last dump (0 if none).
calls() { key "[.threads[0].functions[] | select(.fn == $(fid "$1")) | .calls] | add // 0"; }
