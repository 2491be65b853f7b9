#!/bin/sh
# tests/probe: the probe core's promises.  A probe never changes errno; no probe
# allocates, locks or calls libdw (checked on the machine code, and by programs
# that count what a signal handler's probes do under filters); a fork while
# another thread makes first calls does not hang the child; a program with its
# own instrumented malloc starts; signal handlers that run while a thread
# attaches are counted; dlopen through the program's RUNPATH still finds its
# library; a library constructor that runs before the runtime's starts it; the static
# archive exports only the public API.  Programs are built
# by GCC at -O2 (linked) and Clang at -O0 (preloaded by `callprof record`),
# with exact counts checked by dumpcheck.
. "$TOP/tests/lib.sh"
set -u
T=$TOP/tests/probe
workdir probe
mkdir -p "$W/rp/lib"
command -v jq >/dev/null || { fail "probe" "jq is missing (make check installs it)"; exit 1; }
build "build the runtime" "$W/make.log" "$DC" "$B/libcallprof.so" "$B/libcallprof.a" "$B/callprof" || exit 1

# build_pair NAME SOURCE [FLAGS...]: NAME-link (gcc -O2, linked) and NAME-pre (clang -O0).
# -rdynamic: the runtime must see the functions these programs define in its place.
FLAGS="-g -finstrument-functions -D_GNU_SOURCE -rdynamic -I$TOP/tests/e2e"
build_pair() {
	name=$1 src=$2
	shift 2
	gcc -O2 $FLAGS "$src" -o "$W/$name-link" -L"$B" -lcallprof -Wl,-rpath,"$B" "$@" -lpthread -ldl \
		2>>"$W/build.log" || fail "build $name-link" "$(tail -n 2 "$W/build.log" | tr '\n' ' ')"
	clang -O0 $FLAGS "$src" -o "$W/$name-pre" "$@" -lpthread -ldl \
		2>>"$W/build.log" || fail "build $name-pre" "$(tail -n 2 "$W/build.log" | tr '\n' ' ')"
}
build_pair errno "$T/errno.c"
build_pair forkname "$T/forkname.c"
build_pair sigalloc "$T/sigalloc.c"
build_pair ownmalloc "$T/ownmalloc.c"
build_pair attachsig "$T/attachsig.c"
build_pair dlrunpath "$T/dlrunpath.c" -Wl,--enable-new-dtags,-rpath,'$ORIGIN/rp/lib'
gcc -O2 -g -fPIC -shared -finstrument-functions -I"$TOP/tests/e2e" "$TOP/tests/hostile/plugin_a.c" \
	-o "$W/libplugin_a.so" 2>>"$W/build.log" || fail "build libplugin_a.so" "see $W/build.log"
gcc -O2 -g -fPIC -shared -finstrument-functions -I"$TOP/tests/e2e" "$T/plugrp.c" \
	-o "$W/rp/lib/libplugrp.so" 2>>"$W/build.log" || fail "build libplugrp.so" "see $W/build.log"

# profile NAME VARIANT OUT [VAR=VALUE...] -- [ARGS...]: one profiled run (at most 60 s),
# stdout in OUT.out, stderr in OUT.err; sets $rc.
profile() {
	name=$1 variant=$2 out=$3
	shift 3
	envs=
	while [ $# -gt 0 ] && [ "$1" != -- ]; do envs="$envs $1"; shift; done
	[ $# -gt 0 ] && shift
	rm -f "$out.json"
	if [ "$variant" = link ]; then
		env $envs CALLPROF_OUTPUT="$out.json" timeout 60 "$W/$name-link" "$@"
	else
		env $envs timeout 60 "$B/callprof" record -o "$out.json" -- "$W/$name-pre" "$@"
	fi >"$out.out" 2>"$out.err"
	rc=$?
}

# expect_dump TEST FILE EXPECTATIONS: FILE meets the invariants and the expectations.
expect_dump() {
	printf '%s\n' "$3" >"$2.expect"
	check "$1" "$DC" "$2" "$2.expect"
}

# ---- errno ---------------------------------------------------------------------
ERRNO_COUNTS="calls main 1
calls fold 31
calls jumper 6
calls worker 1
calls plugin_a_entry 1
calls plugin_a_helper 2
threads 2"
for v in link pre; do
	for setting in CALLPROF_CLOCK=tsc CALLPROF_EXCLUDE=excluded CALLPROF_MAX_NODES=8 \
		CALLPROF_CLOCK=tsc-adaptive CALLPROF_CLOCK=monotonic; do
		t="errno unchanged by every probe, $setting ($v)"
		o=$W/errno-$v-$(echo "$setting" | tr '=' '-')
		profile errno $v "$o" "$setting" -- "$W"
		if [ $rc -ne 0 ] || ! grep -qx 'errno changed 0' "$o.out"; then
			fail "$t" "status $rc: $(cat "$o.out" "$o.err" | head -n 3 | tr '\n' ' ')"
			continue
		fi
		case $setting in
		*EXCLUDE*) more="absent excluded
calls leaf 3
edge main leaf 2" ;;
		*) more="calls excluded 1
calls leaf 3
edge main leaf 1
edge excluded leaf 1" ;;
		esac
		expect_dump "$t" "$o.json" "$ERRNO_COUNTS
$more"
	done
	[ "$(jq '[.threads[].folded_calls] | add > 0' "$W/errno-$v-CALLPROF_MAX_NODES-8.json" 2>&1)" = true ] &&
		ok "errno: the node budget folded paths ($v)" ||
		fail "errno: the node budget folded paths ($v)" "no folded_calls"
done
# Disabled, the interposers still work (a longjmp used to abort: no real longjmp looked up).
profile errno link "$W/errno-disabled" CALLPROF_DISABLE=1 -- "$W"
[ $rc -eq 0 ] && grep -qx 'errno changed 0' "$W/errno-disabled.out" && [ ! -e "$W/errno-disabled.json" ] &&
	ok "CALLPROF_DISABLE=1: longjmp and dlclose work, errno unchanged, no dump" ||
	fail "CALLPROF_DISABLE=1: longjmp and dlclose work, errno unchanged, no dump" \
		"status $rc: $(cat "$W/errno-disabled.out" "$W/errno-disabled.err" | head -n 2 | tr '\n' ' ')"

# ---- nothing heavy inside a probe ---------------------------------------------------
# thread_ended is a thread's key destructor: the first probe registers it
# (tstate_setup), and the thread's end runs it, after its last probe, to hand
# its profile over under the registry's lock; no probe calls it.
BANNED='^(malloc|calloc|realloc|free|strdup|strndup|pthread_mutex_(lock|trylock)|pthread_once|pthread_rwlock_.*|v?f?printf|fputc|fputs|fwrite|fopen|dlsym|dlopen|dlmopen|dwfl_.*|dwarf_.*|elf_.*|__cxa_demangle|fnmatch)(@.*)?$'
if objdump -d --no-show-raw-insn "$B/libcallprof.so" >"$W/libcallprof.dis" 2>"$W/objdump.err" &&
	awk -f "$T/reach.awk" -v roots="__cyg_profile_func_enter __cyg_profile_func_exit" -v banned="$BANNED" \
		-v later="thread_ended" \
		"$W/libcallprof.dis" >"$W/reach.out" &&
	grep -q probe_enter_slow "$W/libcallprof.dis"; then
	ok "no function a probe can reach allocates, locks, prints or calls libdw"
else
	fail "no function a probe can reach allocates, locks, prints or calls libdw" \
		"$(head -n 3 "$W/reach.out" "$W/objdump.err" | tr '\n' ' ')"
fi

# ---- fork while another thread makes first calls under filters (issue 16 item 4) ----
for v in link pre; do
	t="fork while another thread makes first calls under filters: the child goes on ($v)"
	mkdir -p "$W/fork-$v"
	if [ $v = link ]; then
		CALLPROF_EXCLUDE=nomatch CALLPROF_OUTPUT="$W/fork-$v/%p.json" timeout 60 "$W/forkname-link" \
			>"$W/fork-$v.out" 2>"$W/fork-$v.err"
	else
		CALLPROF_EXCLUDE=nomatch timeout 60 "$B/callprof" record -o "$W/fork-$v/%p.json" -- \
			"$W/forkname-pre" >"$W/fork-$v.out" 2>"$W/fork-$v.err"
	fi
	rc=$?
	child=$(head -n 1 "$W/fork-$v.out")
	if [ $rc -ne 0 ] || [ ! -f "$W/fork-$v/$child.json" ]; then
		fail "$t" "status $rc (3: the child hung): $(head -n 2 "$W/fork-$v.err" | tr '\n' ' ')"
	else
		expect_dump "$t" "$W/fork-$v/$child.json" "calls child_fresh 1"
	fi
done

# ---- a signal handler's probes under filters (issue 16 item 5) ------------------------
for v in link pre; do
	t="a signal handler's first calls under filters allocate and lock nothing ($v)"
	profile sigalloc $v "$W/sigalloc-$v" CALLPROF_EXCLUDE=nomatch
	if [ $rc -ne 0 ] || ! grep -qx 'in handler: 0 allocations, 0 locks' "$W/sigalloc-$v.out"; then
		fail "$t" "status $rc: $(cat "$W/sigalloc-$v.out" "$W/sigalloc-$v.err" | head -n 2 | tr '\n' ' ')"
	else
		expect_dump "$t" "$W/sigalloc-$v.json" "calls on_signal 5
calls handler_a 5
calls handler_c 5
edge on_signal handler_a 5"
	fi
done

# ---- a program with its own instrumented malloc (issue 16 item 6) ---------------------
for v in link pre; do
	for setting in CALLPROF_CLOCK=tsc CALLPROF_EXCLUDE=nomatch; do
		t="a program with its own instrumented malloc starts and is profiled, $setting ($v)"
		profile ownmalloc $v "$W/ownmalloc-$v-${setting#*=}" "$setting"
		if [ $rc -ne 0 ] || ! grep -qx done "$W/ownmalloc-$v-${setting#*=}.out"; then
			fail "$t" "status $rc (124: it hung): $(head -n 2 "$W/ownmalloc-$v-${setting#*=}.err" | tr '\n' ' ')"
		else
			expect_dump "$t" "$W/ownmalloc-$v-${setting#*=}.json" "calls main 1
calls work 1
edge main work 1
edge work malloc 100
edge work free 100"
		fi
	done
done

# ---- signal handlers during thread attach (issue 16 item 24) --------------------------
# Library probes off: the program's own mmap makes library calls (syscall, raise) while the
# thread attaches, which would be dropped and counted beside the handlers' calls.
for v in link pre; do
	t="signal handlers that run while a thread attaches are counted ($v)"
	profile attachsig $v "$W/attachsig-$v" CALLPROF_LIBCALLS=0
	runs=$(sed -n 's/^runs //p' "$W/attachsig-$v.out")
	got=$(jq '.functions as $f | [.threads[] | select(any(.functions[]; $f[.fn].name == "first_call")) |
		.dropped_in_signal + ([.functions[] | select($f[.fn].name | test("^(on|in)_signal$")) | .calls] | add // 0)] |
		add' "$W/attachsig-$v.json" 2>&1)
	if [ $rc -ne 0 ] || [ -z "$runs" ] || [ "$runs" -lt 1 ]; then
		fail "$t" "status $rc, runs '$runs': $(head -n 2 "$W/attachsig-$v.err" | tr '\n' ' ')"
	elif [ "$got" != $((2 * runs)) ]; then
		fail "$t" "handler calls + dropped_in_signal on the thread: $got, expected 2 x $runs"
	else
		expect_dump "$t" "$W/attachsig-$v.json" "calls first_call 1
threads 2"
	fi
done

# ---- dlopen through the program's RUNPATH, and a constructor run inside dlopen --------
for v in link pre; do
	t="dlopen of a bare name finds it through the program's RUNPATH ($v)"
	profile dlrunpath $v "$W/dlrunpath-$v"
	[ $rc -eq 0 ] && expect_dump "$t" "$W/dlrunpath-$v.json" "calls load 1
calls plugrp_entry 1
calls plugrp_init 1
calls plugrp_init_work 1" || fail "$t" "status $rc: $(head -n 2 "$W/dlrunpath-$v.err" | tr '\n' ' ')"
	t="under filters too; its constructor's calls are undecided and counted ($v)"
	profile dlrunpath $v "$W/dlrunpath-f-$v" CALLPROF_EXCLUDE=nomatch
	if [ $rc -ne 0 ]; then
		fail "$t" "status $rc: $(head -n 2 "$W/dlrunpath-f-$v.err" | tr '\n' ' ')"
	elif [ "$(jq '[.threads[].undecided_calls] | add' "$W/dlrunpath-f-$v.json")" != 2 ]; then
		fail "$t" "undecided_calls: $(jq -c '[.threads[].undecided_calls]' "$W/dlrunpath-f-$v.json")"
	else
		expect_dump "$t" "$W/dlrunpath-f-$v.json" "calls load 1
calls plugrp_entry 1
absent plugrp_init
absent plugrp_init_work"
	fi
done

# ---- a library's constructor runs before the runtime's (preloaded) --------------------
# Its first probe starts the runtime; calibration still runs, from the runtime's constructor.
if gcc -O2 -g -fPIC -shared -finstrument-functions -I"$TOP/tests/e2e" "$T/early_lib.c" -o "$W/libearly.so" \
	2>>"$W/build.log" && clang -O0 -g -finstrument-functions -I"$TOP/tests/e2e" "$T/early.c" -o "$W/early" \
	-L"$W" -learly -Wl,-rpath,"$W" 2>>"$W/build.log"; then
	t="a library's constructor that runs first starts the runtime, calibration follows (pre)"
	"$B/callprof" record -o "$W/early.json" -- "$W/early" >"$W/early.out" 2>&1
	if [ $? -ne 0 ] || [ "$(jq '.calibration | .compensated and .rounds > 0' "$W/early.json" 2>&1)" != true ]; then
		fail "$t" "$(head -n 2 "$W/early.out" | tr '\n' ' ') $(jq -c .calibration "$W/early.json" 2>&1 | head -c 200)"
	else
		expect_dump "$t" "$W/early.json" "calls early_init 1
calls early_work 1
calls main 1
calls late 1"
	fi
	t="under filters, that constructor's calls are undecided and counted (pre)"
	CALLPROF_EXCLUDE=nomatch "$B/callprof" record -o "$W/early-f.json" -- "$W/early" >"$W/early-f.out" 2>&1
	[ "$(jq '[.threads[].undecided_calls] | add' "$W/early-f.json" 2>&1)" = 2 ] &&
		expect_dump "$t" "$W/early-f.json" "absent early_init
absent early_work
calls late 1" || fail "$t" "undecided_calls: $(jq -c '[.threads[].undecided_calls]' "$W/early-f.json" 2>&1)"
else
	fail "build early" "$(tail -n 2 "$W/build.log" | tr '\n' ' ')"
fi

# ---- the static archive's exports (issue 11) -----------------------------------------
t="a program with globals named options, process and calib links the static archive"
if gcc -O2 -g -finstrument-functions -I"$TOP/tests/e2e" "$T/names.c" -o "$W/names" "$B/libcallprof.a" \
	$(pkg-config --libs libdw) -lelf -ldl -lpthread 2>"$W/names.build"; then
	CALLPROF_OUTPUT="$W/names.json" "$W/names" >"$W/names.out" 2>"$W/names.err"
	[ $? -eq 0 ] && [ "$(cat "$W/names.out")" = "4 2 3" ] &&
		expect_dump "$t" "$W/names.json" "calls main 1
calls step 3" || fail "$t" "run: $(cat "$W/names.out" "$W/names.err" | head -n 2 | tr '\n' ' ')"
else
	fail "$t" "$(grep -m 2 -i 'error\|multiple' "$W/names.build" | tr '\n' ' ')"
fi
t="the static archive under filters: the program is decided (CALLPROF_EXCLUDE=main)"
CALLPROF_EXCLUDE=main CALLPROF_OUTPUT="$W/names-f.json" "$W/names" >"$W/names-f.out" 2>&1
[ -f "$W/names-f.json" ] && [ "$(jq '[.threads[].undecided_calls] | add' "$W/names-f.json")" = 0 ] &&
	expect_dump "$t" "$W/names-f.json" "absent main
calls step 3
edge - step 3" || fail "$t" "$(head -n 2 "$W/names-f.out" | tr '\n' ' ') $(jq -c '[.threads[].undecided_calls]' "$W/names-f.json" 2>&1)"
exports=$(nm -g --defined-only "$B/libcallprof.a" 2>/dev/null | awk 'NF == 3 { print $3 }' | sort | tr '\n' ' ')
# Those above the "shared library only" line (runtime/linkage.h).
want=$(sed -n '/global:/,/shared library only/s/^[[:space:]]*\([A-Za-z_][A-Za-z0-9_]*\);.*/\1/p' \
	"$TOP/runtime/libcallprof.map" | sort | tr '\n' ' ')
[ -n "$want" ] && [ "$exports" = "$want" ] &&
	ok "the static archive's global symbols are libcallprof.map's" ||
	fail "the static archive's global symbols are libcallprof.map's" "archive: $exports; map: $want"
