# topten.awk: bench/topten.sh's table.  Input lines "MODE RUN FUNCTION NS" (MODE all or
# sampled; NS a dump's compensated inclusive time of the function, summed over the run's
# dumps); output: the ten functions with the highest median with every call timed, each
# with its median and range under both modes, their ratio, and its rank under sampling;
# then the verdict on issue 14's target (same order, each within 10%).  Run with -F'\t'.

{
	ns[$1, $2, $3] += $4
	fns[$3] = 1
	seen[$1 SUBSEP $2] = 1
}

# sort_num A N: A[1..N] ascending.
function sort_num(a, n, i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
}

# figures M F: fills med[M, F], lo[M, F], hi[M, F] over M's runs (a run without F counts 0).
function figures(m, f, v, n, r, k) {
	n = 0
	for (k in seen) {
		split(k, r, SUBSEP)
		if (r[1] != m)
			continue
		v[++n] = ((m SUBSEP r[2] SUBSEP f) in ns) ? ns[m, r[2], f] : 0
	}
	if (!n)
		return
	sort_num(v, n)
	med[m, f] = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
	lo[m, f] = v[1]
	hi[m, f] = v[n]
}

function ms(x) {
	return x >= 1e6 ? sprintf("%.2f ms", x / 1e6) : sprintf("%.1f µs", x / 1e3)
}

# rank_by M OUT: OUT[1..] the functions by M's median, highest first; returns how many.
function rank_by(m, out, n, f, i, j, t) {
	n = 0
	for (f in fns)
		out[++n] = f
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && med[m, out[j - 1]] < med[m, out[j]]; j--) {
			t = out[j]; out[j] = out[j - 1]; out[j - 1] = t
		}
	return n
}

END {
	for (f in fns) {
		figures("all", f)
		figures("sampled", f)
	}
	n = rank_by("all", ref)
	m = rank_by("sampled", smp)
	for (i = 1; i <= m; i++)
		srank[smp[i]] = i
	top = n < 10 ? n : 10
	if (!top || !(("sampled" SUBSEP ref[1]) in med)) {
		print "No dumps to compare."
		exit
	}
	print "| rank | function | every call timed: median (range) | sampled: median (range) | sampled / all | within 10% | rank under sampling |"
	print "|---:|---|---:|---:|---:|:-:|---:|"
	same = 1
	within = 0
	for (i = 1; i <= top; i++) {
		f = ref[i]
		a = med["all", f]
		s = med["sampled", f]
		ratio = a > 0 ? s / a : 0
		ok = a > 0 && ratio >= 0.9 && ratio <= 1.1
		within += ok
		if (srank[f] != i)
			same = 0
		printf "| %d | %s | %s (%s .. %s) | %s (%s .. %s) | %.3f | %s | %d |\n", i, f, ms(a),
			ms(lo["all", f]), ms(hi["all", f]), ms(s), ms(lo["sampled", f]), ms(hi["sampled", f]),
			ratio, ok ? "yes" : "**no**", srank[f]
	}
	# How far the reference moves by itself: the widest range of a top-ten function, as a share
	# of its median (a target of 10% cannot be judged where the reference moves more).
	wide = 0
	for (i = 1; i <= top; i++)
		if (med["all", ref[i]] > 0 && (hi["all", ref[i]] - lo["all", ref[i]]) / med["all", ref[i]] > wide) {
			wide = (hi["all", ref[i]] - lo["all", ref[i]]) / med["all", ref[i]]
			widef = ref[i]
		}
	printf "\nSame order as with every call timed: %s. Within 10%%: %d of %d. ", same ? "**yes**" : "**no**", within, top
	printf "Target %s. ", same && within == top ? "**met**" : "**missed**"
	if (wide > 0)
		printf "The reference's own widest range over its runs: %.1f%% of its median (%s).\n", 100 * wide, widef
	else
		print "The reference did not move over its runs."
}
