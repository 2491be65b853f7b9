# tables.awk: turns the benchmarks' raw figures into the Markdown tables of RESULTS.md.
# POSIX awk (mawk is Debian's default): no asort, no gensub.  Selected by -v mode=...:
#   probe    SUMMARY.tsv (bench/timeit.c's), -v workload=W -v calls=N -v figs=FILE: one
#            table row per variant; appends "W variant ns_per_call ratio" lines to FILE;
#            -v pgcalls=N -v xraycalls=N: the calls gprof's and XRay's builds probe
#   fixed    SUMMARY.tsv of fib(1) runs: each variant's fixed cost per process
#   targets  FIGS, -v workloads="fib wide ...": the probe-cost targets, met or not
#   accuracy ACC.tsv ("kind run phase value" lines): truth vs raw vs compensated
#   overhead ACC.tsv: per-call probe cost implied by each phase vs the calibration
#   overlap  OVERLAP.tsv ("kind leaf value" lines): probe cost and the leaf's profiled
#            time by kind of work, for the plain and the ordered TSC
#   median   one number a line: their median
#   real     the real programs (bench/real.sh), -v work=W: "run NAME LABEL" lines (the rows, in
#            order), "notyet NAME WHY", SUMMARY.tsv lines named W:NAME, "dump W:NAME calls
#            main_ns main_raw_ns dumps" and "gprof W calls": one workload's table
#   topten   "MODE RUN FUNCTION NS" lines (bench/topten.sh; MODE all or sampled, NS a dump's
#            compensated inclusive time, summed over the run's dumps): the ten functions with
#            the highest median with every call timed, against sampled timing, and the verdict

function median(arr, n,    i, j, t) {
	for (i = 2; i <= n; i++) {
		t = arr[i]
		for (j = i - 1; j >= 1 && arr[j] > t; j--)
			arr[j + 1] = arr[j]
		arr[j + 1] = t
	}
	if (n == 0)
		return ""
	return n % 2 ? arr[(n + 1) / 2] : (arr[n / 2] + arr[n / 2 + 1]) / 2
}

function label(v) {
	if (v == "plain") return "no instrumentation (gcc)"
	if (v == "empty") return "-finstrument-functions, empty hooks"
	if (v == "empty-so") return "-finstrument-functions, empty hooks in a shared library (PLT calls, like callprof's)"
	if (v == "tsc") return "-finstrument-functions, TSC-only hooks"
	if (v == "callprof") return "**callprof** (link mode, default clock: tsc)"
	if (v == "callprof-none") return "**callprof**, CALLPROF_CLOCK=none"
	if (v == "callprof-nocpu") return "**callprof**, CPU time off (CALLPROF_CPU=0)"
	if (v == "callprof-adaptive") return "**callprof**, CALLPROF_CLOCK=tsc-adaptive"
	if (v == "callprof-sampled") return "**callprof**, CALLPROF_TIMING=sampled (one call in 64 timed past each context's first 64)"
	if (v == "fentry-sampled") return "**callprof**, -pg -mfentry front-end, CALLPROF_TIMING=sampled"
	if (v == "callprof-ordered") return "**callprof**, CALLPROF_CLOCK=tsc-ordered (fenced reads)"
	if (v == "callprof-static") return "**callprof**, static archive (direct calls, no PLT)"
	if (v == "callprof-static-none") return "**callprof**, static archive, CALLPROF_CLOCK=none"
	if (v == "gprof") return "gprof (-pg)"
	if (v == "fentry") return "**callprof**, -pg -mfentry front-end (link mode, default clock: tsc)"
	if (v == "fentry-none") return "**callprof**, -pg -mfentry front-end, CALLPROF_CLOCK=none"
	if (v == "fentry-static") return "**callprof**, -pg -mfentry front-end, static archive"
	if (v == "fentry-glibc") return "-pg -mfentry with glibc's __fentry__ (returns at once): that mechanism's floor"
	if (v == "uftrace-fi") return "uftrace record (-finstrument-functions)"
	if (v == "uftrace-pg") return "uftrace record (-pg)"
	if (v == "clang") return "no instrumentation (clang)"
	if (v == "xray-prof") return "XRay profiling mode (clang)"
	if (v == "xray-basic") return "XRay basic mode, default options (clang)"
	return v
}

function base_of(v) {
	return (v == "clang" || v ~ /^xray/) ? "clang" : "plain"
}

function pct(x) {
	return sprintf("%+.1f%%", 100 * x)
}

mode == "probe" || mode == "fixed" { med[$1] = $2; fails[$1] = $6; inmain[$1] = $7; order[++nv] = $1; next }

mode == "targets" { net[$1, $2] = $3; seen[$1] = 1; next }

mode == "accuracy" || mode == "overhead" {
	key = $1 SUBSEP $3
	cnt[key]++
	val[key, cnt[key]] = $4
	runval[$1, $2, $3] = $4
	if (!($2 in isrun)) { isrun[$2] = 1; runs[++nr] = $2 }
	if (!($3 in isphase) && $3 ~ /^phase_/) { isphase[$3] = 1; phases[++np] = $3 }
	next
}

mode == "median" { m[++mn] = $1; next }

mode == "topten" { tns[$1, $2, $3] += $4; tfn[$3] = 1; truns[$1 SUBSEP $2] = 1; next }

mode == "real" && $1 == "run" { rrun[++rn] = $2; rlabel[$2] = $3; next }
mode == "real" && $1 == "notyet" { rnot[$2] = $3; next }
mode == "real" && $1 == "dump" { split($2, k, ":"); if (k[1] == work) { rcalls[k[2]] = $3; rmain[k[2]] = $4; rraw[k[2]] = $5 }; next }
mode == "real" && $1 == "gprof" { if ($2 == work) rgprof = $3; next }
mode == "real" { split($1, k, ":"); if (k[1] == work) { rwall[k[2]] = $2; rfail[k[2]] = $6; rcpu[k[2]] = $8 }; next }

# spread: "plain N ns", "profiled N ns", "calib N o_ns", "comp N ns", "nodes N rows" (per run)
mode == "spread" {
	if (!($2 in isn)) { isn[$2] = 1; sn[++nn] = $2 }
	scnt[$1, $2]++
	sval[$1, $2, scnt[$1, $2]] = $3
	next
}

mode == "overlap" {
	if ($1 == "plain" && !($2 in isleaf)) { isleaf[$2] = 1; leaves[++nl] = $2 }
	if ($1 == "plain" || $1 == "tsc" || $1 == "tsc-ordered" || $1 == "tsc-adaptive") {
		if (!(($1, $2) in best) || $3 < best[$1, $2]) best[$1, $2] = $3
	} else {
		ocnt[$1, $2]++
		oval[$1, $2, ocnt[$1, $2]] = $3
	}
	next
}

function collect(kind, phase, out,    i, n) {
	n = cnt[kind, phase]
	for (i = 1; i <= n; i++)
		out[i] = val[kind, phase, i]
	return n
}

function med_of(kind, phase,    tmp, n) {
	n = collect(kind, phase, tmp)
	return median(tmp, n)
}

function failed(v) {
	return fails[v] > 0 ? " (" fails[v] " runs failed)" : ""
}

# The calls a variant's probes run for: gprof (and uftrace of its build) and XRay probe
# only the functions the compiler did not inline, and their counts are passed apart.
function calls_for(v) {
	if ((v == "gprof" || v == "uftrace-pg") && pgcalls > 0)
		return pgcalls
	if (v ~ /^xray/ && xraycalls > 0)
		return xraycalls
	if (v ~ /^fentry/ && fentrycalls > 0)
		return fentrycalls
	return calls
}

function probe_table(    i, v, b, ns1) {
	print "| variant | time in main | ratio | ns/call | whole process | ratio | outside main |"
	print "|---|---:|---:|---:|---:|---:|---:|"
	for (i = 1; i <= nv; i++) {
		v = order[i]
		b = base_of(v)
		if (!(b in med) || inmain[b] <= 0)
			continue
		ns1 = v == b ? "-" : sprintf("%.1f", (inmain[v] - inmain[b]) / calls_for(v))
		printf "| %s%s | %.1f ms | %.2f | %s | %.1f ms | %.2f | %+.1f ms |\n", label(v), failed(v),
			inmain[v] / 1e6, inmain[v] / inmain[b], ns1, med[v] / 1e6, med[v] / med[b],
			((med[v] - inmain[v]) - (med[b] - inmain[b])) / 1e6
		if (v != b)
			printf "%s\t%s\t%s\t%.3f\n", workload, v, ns1, inmain[v] / inmain[b] >> figs
	}
}

function fixed_table(    i, v, b) {
	print "| variant | median wall, fib(1) | more than uninstrumented |"
	print "|---|---:|---:|"
	for (i = 1; i <= nv; i++) {
		v = order[i]
		b = base_of(v)
		printf "| %s%s | %.1f ms | %+.1f ms |\n", label(v), failed(v), med[v] / 1e6, (med[v] - med[b]) / 1e6
	}
}

function verdict(ok) {
	return ok ? "met" : "**missed**"
}

# ratio_row W WHAT A B LIMIT: a target row "A vs B ns: A/Bx", met when A/B <= LIMIT (no verdict
# for a LIMIT of 0: a figure, not a target); nothing when either is missing.
function ratio_row(w, what, a, b, limit) {
	if (a == "" || b == "" || b <= 0)
		return
	printf "| %s | %s | %.1f vs %.1f ns: %.2fx | %s |\n", w, what, a, b, a / b,
		limit ? verdict(a / b <= limit) : "-"
}

function target_rows(w,    cp, fl, none, gp, uf, xr) {
	cp = net[w, "callprof"]; fl = net[w, "tsc"]; none = net[w, "callprof-none"]
	gp = net[w, "gprof"]; uf = net[w, "uftrace-fi"]; xr = net[w, "xray-prof"]
	ratio_row(w, "callprof within 1.25x of the timed floor (TSC-only hooks)", cp, fl, 1.25)
	if (cp != "" && uf != "")
		printf "| %s | callprof >= 4x cheaper than uftrace record | %.1f vs %.1f ns: %.1fx | %s |\n",
			w, cp, uf, uf / cp, verdict(uf / cp >= 4)
	if (cp != "" && xr != "")
		printf "| %s | callprof >= 4x cheaper than XRay (profiling mode) | %.1f vs %.1f ns: %.1fx | %s |\n",
			w, cp, xr, xr / cp, verdict(xr / cp >= 4)
	if (none != "")
		printf "| %s | CALLPROF_CLOCK=none <= 5 ns/call | %.1f ns | %s |\n", w, none, verdict(none <= 5)
	if (none != "" && gp != "")
		printf "| %s | CALLPROF_CLOCK=none cheaper than gprof | %.1f vs %.1f ns | %s |\n",
			w, none, gp, verdict(none < gp)
	# The TSC-only and empty hooks are linked in, called directly; so is the static archive.
	none = net[w, "callprof-static-none"]
	ratio_row(w, "static archive: callprof within 1.25x of the timed floor", net[w, "callprof-static"], fl, 1.25)
	if (none != "")
		printf "| %s | static archive: CALLPROF_CLOCK=none <= 5 ns/call | %.1f ns | %s |\n", w, none, verdict(none <= 5)
	# Issue 12: the -pg -mfentry front-end against the -finstrument-functions one, same run, same floor.
	ratio_row(w, "-pg -mfentry probe within 1.25x of the -finstrument-functions one (link mode)",
		net[w, "fentry"], cp, 1.25)
	ratio_row(w, "the same, static archive", net[w, "fentry-static"], net[w, "callprof-static"], 1.25)
	if (none != "" && gp != "")
		printf "| %s | static archive: CALLPROF_CLOCK=none cheaper than gprof | %.1f vs %.1f ns | %s |\n",
			w, none, gp, verdict(none < gp)
	# Issue 14: sampled timing's probes against the timed floor (empty hooks and two TSC reads).
	ratio_row(w, "CALLPROF_TIMING=sampled: probe cost at most 0.45x the timed floor (TSC-only hooks)",
		net[w, "callprof-sampled"], fl, 0.45)
	ratio_row(w, "-pg -mfentry, sampled against every call timed (not a target)",
		net[w, "fentry-sampled"], net[w, "fentry"], 0)
	# CPU time (issue 14): what its tests on the fast paths and its reads cost (not a target).
	ratio_row(w, "callprof with CPU time against CALLPROF_CPU=0 (not a target)", cp,
		net[w, "callprof-nocpu"], 0)
}

# The run least disturbed by the rest of the machine: the smallest raw total over the phases.
function quietest_run(    i, j, r, sum, best, best_sum) {
	best = ""
	for (i = 1; i <= nr; i++) {
		r = runs[i]
		sum = 0
		for (j = 1; j <= np; j++)
			sum += runval["raw", r, phases[j]]
		if (best == "" || sum < best_sum) { best = r; best_sum = sum }
	}
	return best
}

function min_of(kind, phase,    tmp, n, j, m) {
	n = collect(kind, phase, tmp)
	m = ""
	for (j = 1; j <= n; j++)
		if (m == "" || tmp[j] < m) m = tmp[j]
	return m
}

function accuracy_table(    i, p, t, raw, comp, tmp, n, j, lo, hi, e, q, tq, cq) {
	q = quietest_run()
	print "| phase | truth (uninstrumented) | instrumented wall | raw inclusive | raw error | compensated inclusive | compensated error | range over runs | quietest run | within 10% |"
	print "|---|---:|---:|---:|---:|---:|---:|---:|---:|:-:|"
	for (i = 1; i <= np; i++) {
		p = phases[i]
		t = med_of("truth", p)
		raw = med_of("raw", p)
		comp = med_of("comp", p)
		if (t == "" || raw == "" || comp == "")
			continue
		n = collect("comp", p, tmp)
		lo = hi = ""
		for (j = 1; j <= n; j++) {
			e = tmp[j] / t - 1
			if (lo == "" || e < lo) lo = e
			if (hi == "" || e > hi) hi = e
		}
		tq = min_of("truth", p)
		cq = runval["comp", q, p]
		printf "| %s | %.2f ms | %.2f ms | %.2f ms | %s | %.2f ms | %s | %s .. %s | %s | %s |\n", p,
			t / 1e6, med_of("wall", p) / 1e6, raw / 1e6, pct(raw / t - 1), comp / 1e6,
			pct(comp / t - 1), pct(lo), pct(hi), pct(cq / tq - 1),
			(comp / t - 1 <= 0.10 && comp / t - 1 >= -0.10) ? "yes" : "**no**"
	}
	printf "\nThe *quietest run* column compares run %s (the callprof run with the smallest raw total, the one\n", q
	print "least disturbed by the rest of the machine) with the fastest uninstrumented time of each phase."
}

function overhead_table(    i, p, t, raw, d) {
	oin = med_of("o_in", "-")
	oout = med_of("o_out", "-")
	printf "Calibration (median over runs): o_in = %.2f ns, o_out = %.2f ns, o = %.2f ns per call.\n\n", oin, oout, oin + oout
	print "| phase | calls inside the phase | truth per call | probe cost per call implied by the phase: (raw - truth) / calls | calibrated o | difference |"
	print "|---|---:|---:|---:|---:|---:|"
	for (i = 1; i <= np; i++) {
		p = phases[i]
		t = med_of("truth", p)
		raw = med_of("raw", p)
		d = med_of("desc", p)
		if (t == "" || raw == "" || d == "" || d == 0)
			continue
		printf "| %s | %d | %.2f ns | %.2f ns | %.2f ns | %+.2f ns |\n", p, d, t / d, (raw - t - oin) / d,
			oin + oout, (raw - t - oin) / d - (oin + oout)
	}
	print ""
	print "Where the time lands, per call of each phase's leaf (nested: the inner leaf and its caller,"
	print "nest_mid, which also does work of its own). The leaf's compensated self time should be its"
	print "body's few instructions (o_in is subtracted from it); the caller's compensated self time"
	print "per leaf call should be one turn of its loop (o_out is subtracted from it)."
	print ""
	print "| phase | leaf: raw self per call | leaf: compensated | caller: raw self per leaf call | caller: compensated |"
	print "|---|---:|---:|---:|---:|"
	for (i = 1; i <= np; i++) {
		p = phases[i]
		if (med_of("leafraw", p) == "")
			continue
		printf "| %s | %.2f ns | %.2f ns | %.2f ns | %.2f ns |\n", p, med_of("leafraw", p),
			med_of("leafcomp", p), med_of("callerraw", p), med_of("callercomp", p)
	}
}

# The median of val[a, b, 1..cnt[a, b]].
function med2(cnt, val, a, b,    tmp, n, i) {
	n = cnt[a, b]
	for (i = 1; i <= n; i++)
		tmp[i] = val[a, b, i]
	return median(tmp, n)
}

function omed(kind, leaf) {
	return med2(ocnt, oval, kind, leaf)
}

function overlap_table(    i, l, w, ot, oa, oo) {
	ot = omed("o-tsc", "-"); oa = omed("o-tsc-adaptive", "-"); oo = omed("o-tsc-ordered", "-")
	printf "Calibrated o (median over runs): %.1f ns per call with tsc, %.1f with tsc-adaptive's plain reads (its fenced ones: see the dumps), %.1f with tsc-ordered.\n\n", ot, oa, oo
	print "| leaf | work per call | tsc: probes cost | tsc: leaf in the profile | tsc-adaptive: probes cost | tsc-adaptive: leaf in the profile | calls fenced | tsc-ordered: probes cost | tsc-ordered: leaf in the profile |"
	print "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
	for (i = 1; i <= nl; i++) {
		l = leaves[i]
		w = best["plain", l]
		printf "| %s | %.1f ns | %.1f ns | %.1f ns | %.1f ns | %.1f ns | %.3g%% | %.1f ns | %.1f ns |\n", l, w,
			best["tsc", l] - w, omed("incl-tsc", l), best["tsc-adaptive", l] - w,
			omed("incl-tsc-adaptive", l), omed("fenced-tsc-adaptive", l),
			best["tsc-ordered", l] - w, omed("incl-tsc-ordered", l)
	}
}

function secs(ns) {
	return sprintf("%.3f s", ns / 1e9)
}

# A real program's row, against the uninstrumented build of its compiler.
function real_base(r) {
	return r ~ /^clang/ ? "clang" : "plain"
}

function real_table(    i, r, b, t, wp, cp, probes, fl, cr, mc, mv, mr, e, ew, cw, fw, aw) {
	print "| variant | wall | vs plain | CPU (user + sys) | vs plain | probes | main(), compensated | vs plain wall | main(), raw |"
	print "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
	for (i = 1; i <= rn; i++) {
		r = rrun[i]
		if (r in rnot) {
			printf "| %s | %s | | | | | | | |\n", rlabel[r], rnot[r]
			continue
		}
		wp = rwall[real_base(r)]; cp = rcpu[real_base(r)]
		if (!(r in rwall) || wp <= 0)
			continue
		if (r in rcalls)
			probes = sprintf("%d", rcalls[r])
		else if (r == "gprof" && rgprof > 0)
			probes = rgprof " (gprof's count)"
		else
			probes = "-"
		fl = rfail[r] > 0 ? " (" rfail[r] " runs failed)" : ""
		cr = cp > 0 ? sprintf("%.2fx", rcpu[r] / cp) : "-"
		# A dump with main has a raw time for it; its compensated one may be 0 (clamped).
		if ((r in rmain) && rraw[r] > 0) {
			mc = secs(rmain[r]); mv = pct(rmain[r] / wp - 1); mr = secs(rraw[r])
		} else
			mc = mv = mr = "-"
		printf "| %s%s | %s | %.2fx | %s | %s | %s | %s | %s | %s |\n", rlabel[r], fl, secs(rwall[r]),
			rwall[r] / wp, secs(rcpu[r]), cr, probes, mc, mv, mr
	}
	print ""
	wp = rwall["plain"]; ew = rwall["empty"]; cw = rwall["callprof"]
	if (ew > 0 && cw > wp && wp > 0)
		printf "Empty hooks: %s over plain, %.0f%% of callprof's slowdown (%s): the instrumented code itself (lost optimisations, calls to hooks that do nothing), which no probe can win back.\n",
			pct(ew / wp - 1), 100 * (ew - wp) / (cw - wp), pct(cw / wp - 1)
	fw = rwall["fentry"]; aw = rwall["fentry-args"]
	if (fw > 0 && cw > wp && wp > 0)
		printf "Issue 12's target, the -pg -mfentry front-end's slowdown at most half the -finstrument-functions one: %s against %s, %.2f of it (%s).\n",
			pct(fw / wp - 1), pct(cw / wp - 1), (fw - wp) / (cw - wp), verdict(fw - wp <= 0.5 * (cw - wp))
	if (fw > 0 && aw > 0)
		printf "CALLPROF_ARGS on the program's hot function: %s over the -pg -mfentry run without it.\n", pct(aw / fw - 1)
	t = ""
	for (i = 1; i <= rn; i++) {
		r = rrun[i]
		b = real_base(r)
		if (!(r in rmain) || rraw[r] <= 0 || rwall[b] <= 0)
			continue
		e = rmain[r] / rwall[b] - 1
		t = t (t == "" ? "" : ", ") r " " pct(e) " (" verdict(e <= 0.25 && e >= -0.25) ")"
	}
	if (t != "")
		printf "Issue 14's target, main()'s compensated time within 25%% of the uninstrumented process: %s.", t
	if (ew > 0 && rmain["callprof"] > wp && wp > 0)
		printf " Of callprof's excess in main() (%+.3f s), the empty-hooks build's slowdown is %.0f%% (%+.3f s).",
			(rmain["callprof"] - wp) / 1e9, 100 * (ew - wp) / (rmain["callprof"] - wp), (ew - wp) / 1e9
	if (t != "")
		print ""
}

function smed(kind, n) {
	return med2(scnt, sval, kind, n)
}

function spread_table(    i, n, p, q, o, c) {
	print "| callees in rotation | tree nodes | uninstrumented, per call of an f | profiled | probes' cost per call, in the program | calibrated o | in the program / calibrated | drive(), compensated, against uninstrumented |"
	print "|---:|---:|---:|---:|---:|---:|---:|---:|"
	for (i = 1; i <= nn; i++) {
		n = sn[i]
		p = smed("plain", n); q = smed("profiled", n); o = smed("calib", n); c = smed("comp", n)
		# Two probed calls (an f and the leaf) per call of an f.
		printf "| %d | %d | %.1f ns | %.1f ns | %.1f ns | %.1f ns | %.2fx | %s |\n", n, smed("nodes", n), p, q,
			(q - p) / 2, o, (o > 0 ? (q - p) / 2 / o : 0), (p > 0 ? pct(c / p - 1) : "-")
	}
}

# topten_figures M F: tmed[M, F], tlo[M, F], thi[M, F] over M's runs (a run without F counts 0).
function topten_figures(m, f,    v, n, r, k) {
	n = 0
	for (k in truns) {
		split(k, r, SUBSEP)
		if (r[1] == m)
			v[++n] = ((m SUBSEP r[2] SUBSEP f) in tns) ? tns[m, r[2], f] : 0
	}
	if (!n)
		return
	tmed[m, f] = median(v, n) # which sorts v
	tlo[m, f] = v[1]
	thi[m, f] = v[n]
}

function topten_ms(x) {
	return x >= 1e6 ? sprintf("%.2f ms", x / 1e6) : sprintf("%.1f µs", x / 1e3)
}

# topten_rank M OUT: OUT[1..] the functions by M's median, highest first; returns how many.
function topten_rank(m, out,    n, f, i, j, t) {
	n = 0
	for (f in tfn)
		out[++n] = f
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && tmed[m, out[j - 1]] < tmed[m, out[j]]; j--) {
			t = out[j]; out[j] = out[j - 1]; out[j - 1] = t
		}
	return n
}

# topten_tied A B: true when reference medians A and B lie within 1% of each other: functions
# whose inclusive times are one by construction (a chain of wrappers, each calling the next and
# nothing else), whose order in the reference is its noise.
function topten_tied(a, b) {
	return a >= b ? a <= b * 1.01 : b <= a * 1.01
}

function topten_table(    f, n, m, i, k, lo, hi, ref, smp, srank, top, same, tied_same, within, a, s, ratio, ok, wide, widef, w) {
	for (f in tfn) {
		topten_figures("all", f)
		topten_figures("sampled", f)
	}
	n = topten_rank("all", ref)
	m = topten_rank("sampled", smp)
	for (i = 1; i <= m; i++)
		srank[smp[i]] = i
	top = n < 10 ? n : 10
	if (!top || !(("sampled" SUBSEP ref[1]) in tmed)) {
		print "No dumps to compare."
		return
	}
	print "| rank | function | every call timed: median (range) | sampled: median (range) | sampled / all | within 10% | rank under sampling |"
	print "|---:|---|---:|---:|---:|:-:|---:|"
	same = tied_same = 1
	within = 0
	for (i = 1; i <= top; i++) {
		f = ref[i]
		a = tmed["all", f]
		s = tmed["sampled", f]
		ratio = a > 0 ? s / a : 0
		ok = a > 0 && ratio >= 0.9 && ratio <= 1.1
		within += ok
		if (srank[f] != i)
			same = 0
		# With ties: its rank under sampling among those of the functions tied with it.
		for (lo = i; lo > 1 && topten_tied(tmed["all", ref[lo - 1]], a); lo--)
			;
		for (hi = i; hi < n && topten_tied(tmed["all", ref[hi + 1]], a); hi++)
			;
		if (srank[f] < lo || srank[f] > hi)
			tied_same = 0
		printf "| %d | %s | %s (%s .. %s) | %s (%s .. %s) | %.3f | %s | %d |\n", i, f, topten_ms(a),
			topten_ms(tlo["all", f]), topten_ms(thi["all", f]), topten_ms(s), topten_ms(tlo["sampled", f]),
			topten_ms(thi["sampled", f]), ratio, ok ? "yes" : "**no**", srank[f]
	}
	# How far the reference moves by itself: the widest range of a top-ten function, as a share
	# of its median (a target of 10% cannot be judged where the reference moves more).
	wide = 0
	for (i = 1; i <= top; i++) {
		f = ref[i]
		w = tmed["all", f] > 0 ? (thi["all", f] - tlo["all", f]) / tmed["all", f] : 0
		if (w > wide) {
			wide = w
			widef = f
		}
	}
	printf "\nSame order as with every call timed: %s", same ? "**yes**" : "**no**"
	if (!same)
		printf "; with functions whose reference medians lie within 1%% of each other taken as tied (in any order among themselves): %s", tied_same ? "**yes**" : "**no**"
	printf ". Within 10%%: %d of %d. ", within, top
	printf "Target %s. ", tied_same && within == top ? "**met**" : "**missed**"
	if (wide > 0)
		printf "The reference's own widest range over its runs: %.1f%% of its median (%s).\n", 100 * wide, widef
	else
		print "The reference did not move over its runs."
}

END {
	if (mode == "spread")
		spread_table()
	else if (mode == "real")
		real_table()
	else if (mode == "overlap")
		overlap_table()
	else if (mode == "probe")
		probe_table()
	else if (mode == "fixed")
		fixed_table()
	else if (mode == "targets") {
		print "| workload | target | measured (ns/call in main) | verdict |"
		print "|---|---|---|---|"
		nw = split(workloads, ws, " ")
		for (i = 1; i <= nw; i++)
			if (ws[i] in seen)
				target_rows(ws[i])
	} else if (mode == "accuracy")
		accuracy_table()
	else if (mode == "overhead")
		overhead_table()
	else if (mode == "median")
		print median(m, mn)
	else if (mode == "topten")
		topten_table()
}
