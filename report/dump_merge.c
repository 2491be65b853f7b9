/* dump_merge.c: several dumps into one dump (`callprof merge`): every thread kept, functions
 * matched by fnid.h, modules by path and build-id, the run's figures combined (see dump.h). */
#include <stdlib.h>
#include <string.h>

#include "dump.h"
#include "dump_merge.h"
#include "fnid.h"

/* One function of one input, with its key, for matching by sorting. */
struct merge_ref {
	const char *key;
	uint32_t dump, fn;
};

/* One uncalled entry of one input module, with its place in the inputs' order. */
struct merge_uncalled {
	const struct run_uncalled *u;
	uint32_t module; /* index into the merged modules */
	size_t seq;      /* order of appearance over the inputs */
};

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static int str_eq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static int str_cmp(const char *a, const char *b)
{
	return !a ? (b ? -1 : 0) : !b ? 1 : strcmp(a, b);
}

static int cmp_ref(const void *a, const void *b)
{
	const struct merge_ref *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	if (c)
		return c;
	if (x->dump != y->dump)
		return x->dump < y->dump ? -1 : 1;
	return x->fn < y->fn ? -1 : x->fn > y->fn;
}

static int cmp_first(const void *a, const void *b)
{
	const struct merge_ref *x = *(const struct merge_ref *const *)a,
			       *y = *(const struct merge_ref *const *)b;

	if (x->dump != y->dump)
		return x->dump < y->dump ? -1 : 1;
	return x->fn < y->fn ? -1 : x->fn > y->fn;
}

/* ---- modules ---- */

/* module_of: the merged module for input module m (same path and build-id), added if new. */
static int32_t module_of(struct dump *out, const struct run_module *m)
{
	struct run_module *to;

	for (size_t i = 0; i < out->run.nmodules; i++)
		if (str_eq(out->run.modules[i].path, m->path) &&
		    str_eq(out->run.modules[i].build_id, m->build_id))
			return (int32_t)i;
	out->run.modules =
		xreallocarray(out->run.modules, out->run.nmodules + 1, sizeof(*out->run.modules));
	to = memset(&out->run.modules[out->run.nmodules], 0, sizeof(*to));
	to->path = dup_or_null(m->path);
	to->build_id = dup_or_null(m->build_id);
	return (int32_t)out->run.nmodules++;
}

static int cmp_uncalled(const void *a, const void *b)
{
	const struct merge_uncalled *x = a, *y = b;
	int c;

	if (x->module != y->module)
		return x->module < y->module ? -1 : 1;
	if ((c = strcmp(x->u->name, y->u->name)) || (c = str_cmp(x->u->file, y->u->file)) ||
	    (c = str_cmp(x->u->offset, y->u->offset)))
		return c;
	if (x->u->line != y->u->line)
		return x->u->line < y->u->line ? -1 : 1;
	if (x->u->name_nul != y->u->name_nul || x->u->file_nul != y->u->file_nul)
		return x->u->name_nul + 2 * x->u->file_nul < y->u->name_nul + 2 * y->u->file_nul
			       ? -1
			       : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int same_uncalled(const struct merge_uncalled *x, const struct merge_uncalled *y)
{
	return x->module == y->module && !strcmp(x->u->name, y->u->name) &&
	       str_eq(x->u->file, y->u->file) && str_eq(x->u->offset, y->u->offset) &&
	       x->u->line == y->u->line && x->u->name_nul == y->u->name_nul &&
	       x->u->file_nul == y->u->file_nul;
}

static int cmp_seq(const void *a, const void *b)
{
	const struct merge_uncalled *x = a, *y = b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static char **names_copy(char *const *v, size_t n)
{
	char **out = xcalloc(n + 1, sizeof(*out));

	for (size_t i = 0; i < n; i++)
		out[i] = xstrdup(v[i]);
	return out;
}

/* libcalls_copy: what the library probes did to the module's slots, as its first input with it says
 * (every input ran the same module). */
static void libcalls_copy(struct run_module *to, const struct run_module *src)
{
	to->has_libcalls = 1;
	to->libcalls = src->libcalls;
	to->libcalls.lazy = names_copy(src->libcalls.lazy, src->libcalls.nlazy);
	to->libcalls.through_got = names_copy(src->libcalls.through_got, src->libcalls.nthrough);
}

/*
 * merge_modules maps every input module to a merged one (mods[d][m]): one per
 * path and build-id, in order of appearance.  A merged module's functions in
 * its symbol table are the most any input says; its uncalled functions are
 * every input's, each once (one that another input called stays listed: the
 * coverage page counts it called, as it does for the inputs together).
 */
static void merge_modules(struct dump *out, const struct dump *in, size_t n, int32_t **mods)
{
	size_t total = 0, k = 0, kept = 0;
	struct merge_uncalled *all;

	for (size_t d = 0; d < n; d++) {
		mods[d] = xmalloc((in[d].run.nmodules + 1) * sizeof(**mods));
		for (size_t m = 0; m < in[d].run.nmodules; m++) {
			const struct run_module *src = &in[d].run.modules[m];
			int32_t to = mods[d][m] = module_of(out, src);

			if (src->symtab_functions > out->run.modules[to].symtab_functions)
				out->run.modules[to].symtab_functions = src->symtab_functions;
			if (src->has_libcalls && !out->run.modules[to].has_libcalls)
				libcalls_copy(&out->run.modules[to], src);
			total += src->nuncalled;
		}
	}
	all = xmalloc((total + 1) * sizeof(*all));
	for (size_t d = 0; d < n; d++)
		for (size_t m = 0; m < in[d].run.nmodules; m++)
			for (size_t u = 0; u < in[d].run.modules[m].nuncalled; u++, k++)
				all[k] = (struct merge_uncalled){ &in[d].run.modules[m].uncalled[u],
								  (uint32_t)mods[d][m], k };
	qsort(all, total, sizeof(*all), cmp_uncalled);
	for (size_t i = 0; i < total; i++) /* of equal entries, the first to appear stays */
		if (!i || !same_uncalled(&all[i - 1], &all[i]))
			all[kept++] = all[i];
	qsort(all, kept, sizeof(*all), cmp_seq);
	for (size_t i = 0; i < kept; i++) {
		struct run_module *to = &out->run.modules[all[i].module];

		to->uncalled =
			xreallocarray(to->uncalled, to->nuncalled + 1, sizeof(*to->uncalled));
		to->uncalled[to->nuncalled++] = (struct run_uncalled){
			xstrdup(all[i].u->name), dup_or_null(all[i].u->file),
			all[i].u->line,          dup_or_null(all[i].u->offset),
			all[i].u->name_nul,      all[i].u->file_nul
		};
	}
	free(all);
}

/* ---- functions ---- */

/*
 * merge_functions maps every input function to a merged one (fns[d][i]): one
 * per key, in order of first appearance; it keeps the first one's name,
 * file, line, address and offset, the first front-end any of them names, and
 * their captured values merged (dump_merge_args).
 */
static void merge_functions(struct dump *out, const struct dump *in, size_t n, int32_t *const *mods,
			    uint32_t **fns)
{
	size_t total = 0, k = 0, groups = 0;
	char ***keys = xcalloc(n + 1, sizeof(*keys));
	struct merge_ref *refs, **firsts;
	const struct dump_args **args = xcalloc(n + 1, sizeof(*args));

	for (size_t d = 0; d < n; d++) {
		keys[d] = fnid_keys(&in[d]);
		total += in[d].nfunctions;
		fns[d] = xmalloc((in[d].nfunctions + 1) * sizeof(**fns));
	}
	refs = xmalloc((total + 1) * sizeof(*refs));
	for (size_t d = 0; d < n; d++)
		for (size_t i = 0; i < in[d].nfunctions; i++)
			refs[k++] = (struct merge_ref){ keys[d][i], (uint32_t)d, (uint32_t)i };
	qsort(refs, total, sizeof(*refs), cmp_ref);
	firsts = xmalloc((total + 1) * sizeof(*firsts));
	for (size_t i = 0; i < total; i++)
		if (!i || strcmp(refs[i - 1].key, refs[i].key))
			firsts[groups++] = &refs[i];
	qsort(firsts, groups, sizeof(*firsts), cmp_first);
	out->nfunctions = groups;
	out->functions = xcalloc(groups + 1, sizeof(*out->functions));
	for (size_t g = 0; g < groups; g++) {
		const struct merge_ref *r = firsts[g];
		const struct dump_function *src = &in[r->dump].functions[r->fn];
		struct dump_function *to = &out->functions[g];

		to->name = xstrdup(src->name);
		to->module = src->module >= 0 ? mods[r->dump][src->module] : -1;
		to->file = dup_or_null(src->file);
		to->line = src->line;
		to->address = dup_or_null(src->address);
		to->offset = src->offset;
		to->has_offset = src->has_offset;
		to->library = src->library;
		to->name_nul = src->name_nul;
		to->file_nul = src->file_nul;
		/* every member of the group maps here: the refs of one key sit together after r */
		size_t nargs = 0;
		for (const struct merge_ref *x = r; x < refs + total && !strcmp(x->key, r->key);
		     x++) {
			const struct dump_function *m = &in[x->dump].functions[x->fn];

			fns[x->dump][x->fn] = (uint32_t)g;
			if (!to->front_end && m->front_end)
				to->front_end = xstrdup(m->front_end);
			if (m->args && nargs < n)
				args[nargs++] = m->args;
		}
		to->args = dump_merge_args(args, nargs);
	}
	free(args);
	free(firsts);
	free(refs);
	for (size_t d = 0; d < n; d++)
		fnid_keys_free(keys[d], in[d].nfunctions);
	free(keys);
}

/* ---- threads ---- */

static void copy_thread(struct dump_thread *to, const struct dump_thread *t, const struct dump *d,
			const uint32_t *fns)
{
	*to = *t;
	to->name = dup_or_null(t->name);
	if (!t->has_pid && d->run.has_pid) {
		to->pid = d->run.pid;
		to->has_pid = 1;
	}
	to->folded_first_fn = t->folded_first_fn >= 0 ? (int32_t)fns[t->folded_first_fn] : -1;
	to->funcs = xmalloc((t->nfuncs + 1) * sizeof(*to->funcs));
	for (size_t i = 0; i < t->nfuncs; i++) {
		to->funcs[i] = t->funcs[i];
		to->funcs[i].fn = fns[t->funcs[i].fn];
	}
	to->edges = xmalloc((t->nedges + 1) * sizeof(*to->edges));
	for (size_t i = 0; i < t->nedges; i++) {
		to->edges[i] = t->edges[i];
		to->edges[i].caller =
			t->edges[i].caller >= 0 ? (int32_t)fns[t->edges[i].caller] : -1;
		to->edges[i].callee = fns[t->edges[i].callee];
		to->edges[i].call_file = dup_or_null(t->edges[i].call_file);
		to->edges[i].site = dup_or_null(t->edges[i].site);
	}
	to->nodes = xmalloc((t->nnodes + 1) * sizeof(*to->nodes));
	for (size_t i = 0; i < t->nnodes; i++) {
		to->nodes[i] = t->nodes[i];
		to->nodes[i].fn = fns[t->nodes[i].fn];
	}
}

/* ---- the run ---- */

/* dump_calls: the calls of a dump, and of those the calls read with fences, the -pg -mfentry ones
 * and the library calls. */
static uint64_t dump_calls(const struct dump *d, uint64_t *fenced, uint64_t *fentry,
			   uint64_t *library)
{
	uint64_t calls = 0;

	*fenced = *fentry = *library = 0;
	for (size_t t = 0; t < d->nthreads; t++)
		for (size_t i = 0; i < d->threads[t].nfuncs; i++) {
			calls = u64_add(calls, d->threads[t].funcs[i].st.calls);
			*fenced = u64_add(*fenced, d->threads[t].funcs[i].st.fenced_calls);
			*fentry = u64_add(*fentry, d->threads[t].funcs[i].st.fentry_calls);
			*library = u64_add(*library, d->threads[t].funcs[i].st.library_calls);
		}
	return calls;
}

/* One calibration figure, averaged over the inputs that have it, weighted by their calls. */
struct merge_mean {
	double sum, weight;
};

static void mean_add(struct merge_mean *m, int has, double value, uint64_t weight)
{
	if (has) {
		m->sum += value * (double)weight;
		m->weight += (double)weight;
	}
}

/* mean_get stores the mean into *value and returns 1, or 0 when no input has the figure. */
static unsigned mean_get(const struct merge_mean *m, int any, double *value)
{
	if (!any)
		return 0;
	*value = m->weight > 0 ? m->sum / m->weight : 0;
	return 1;
}

/* raw_differs: a dump without calibration.compensated whose raw figures say it was compensated. */
static int raw_differs(const struct dump *d)
{
	for (size_t t = 0; t < d->nthreads; t++)
		for (size_t i = 0; i < d->threads[t].nfuncs; i++) {
			const struct pstat *st = &d->threads[t].funcs[i].st;

			if (st->raw_self_ns != st->self_ns || st->raw_incl_ns != st->incl_ns)
				return 1;
		}
	return 0;
}

/* The cost of an unrecorded call of each front-end: the inputs' mean, weighted by
 * their unrecorded calls of it (where none made such calls, the plain mean). */
static void merge_unrecorded_costs(struct run *r, const struct dump *in, size_t n)
{
	for (unsigned k = 0; k < UNREC_KINDS; k++) {
		struct merge_mean weighted = { 0, 0 }, plain = { 0, 0 };
		int any = 0;

		for (size_t d = 0; d < n; d++) {
			int has = (in[d].run.has_unrecorded >> k) & 1;

			mean_add(&weighted, has, in[d].run.unrecorded_ns[k],
				 dump_unrecorded_calls(&in[d], k));
			mean_add(&plain, has, in[d].run.unrecorded_ns[k], 1);
			any |= has;
		}
		if (mean_get(weighted.weight > 0 ? &weighted : &plain, any, &r->unrecorded_ns[k]))
			r->has_unrecorded |= 1u << k;
	}
}

/* merge_metered_side: one side of the inputs' meterings of kind k, its means weighted
 * by each input's samples on that side. */
static struct run_metered_side merge_metered_side(const struct dump *in, size_t n, unsigned k,
						  int loop)
{
	struct merge_mean m_in = { 0, 0 }, m_out = { 0, 0 };
	struct run_metered_side out = { 0, 0, 0 };

	for (size_t d = 0; d < n; d++) {
		const struct run_metered *m = &in[d].run.metered[k];
		const struct run_metered_side *s = loop ? &m->loop : &m->program;

		mean_add(&m_in, m->has, s->in_ns, s->samples);
		mean_add(&m_out, m->has, s->out_ns, s->samples);
		if (m->has)
			out.samples = u64_add(out.samples, s->samples);
	}
	mean_get(&m_in, 1, &out.in_ns);
	mean_get(&m_out, 1, &out.out_ns);
	return out;
}

/* merge_metered: each kind's metering where some input has one: the program's and
 * the loop's metered calls added up, their means weighted by them. */
static void merge_metered(struct run *r, const struct dump *in, size_t n)
{
	for (unsigned k = 0; k < RUN_METERED_KINDS; k++) {
		int any = 0;

		for (size_t d = 0; d < n; d++)
			any |= in[d].run.metered[k].has;
		if (!any)
			continue;
		r->metered[k].program = merge_metered_side(in, n, k, 0);
		r->metered[k].loop = merge_metered_side(in, n, k, 1);
		r->metered[k].has = 1;
	}
}

/*
 * merge_calibration: the probes' costs as the means of the inputs' costs,
 * weighted by their calls (the fenced, -pg -mfentry and library costs by
 * their fenced, -pg -mfentry and library calls), so the
 * cost the report estimates for the merged dump is the sum of the inputs'.
 */
static void merge_calibration(struct run *r, const struct dump *in, size_t n)
{
	struct merge_mean per_call = { 0, 0 }, o_in = { 0, 0 }, o_out = { 0, 0 }, f_in = { 0, 0 },
			  f_out = { 0, 0 };
	struct merge_mean e_in = { 0, 0 }, e_out = { 0, 0 }, l_in = { 0, 0 }, l_out = { 0, 0 };
	struct merge_mean untimed = { 0, 0 };
	int any_untimed = 0;
	int any_per_call = 0, any_o_in = 0, any_o_out = 0, any_f_in = 0, any_f_out = 0,
	    any_e_in = 0, any_e_out = 0;
	int any_l_in = 0, any_l_out = 0;

	r->compensated = -1;
	for (size_t d = 0; d < n; d++) {
		const struct run *s = &in[d].run;
		uint64_t fenced, fentry, library,
			calls = dump_calls(&in[d], &fenced, &fentry, &library);

		mean_add(&per_call, s->has_per_call, s->per_call_ns, calls);
		mean_add(&o_in, s->has_o_in, s->o_in_ns, calls);
		mean_add(&o_out, s->has_o_out, s->o_out_ns, calls);
		mean_add(&f_in, s->has_fenced_o_in, s->fenced_o_in_ns, fenced);
		mean_add(&f_out, s->has_fenced_o_out, s->fenced_o_out_ns, fenced);
		any_per_call |= s->has_per_call, any_o_in |= s->has_o_in, any_o_out |= s->has_o_out;
		any_f_in |= s->has_fenced_o_in, any_f_out |= s->has_fenced_o_out;
		mean_add(&e_in, s->has_fentry_o_in, s->fentry_o_in_ns, fentry);
		mean_add(&e_out, s->has_fentry_o_out, s->fentry_o_out_ns, fentry);
		any_e_in |= s->has_fentry_o_in, any_e_out |= s->has_fentry_o_out;
		mean_add(&l_in, s->has_library_o_in, s->library_o_in_ns, library);
		mean_add(&l_out, s->has_library_o_out, s->library_o_out_ns, library);
		any_l_in |= s->has_library_o_in, any_l_out |= s->has_library_o_out;
		mean_add(&untimed, s->has_untimed, s->untimed_ns, dump_untimed_calls(&in[d]));
		any_untimed |= s->has_untimed;
		/* library probes: on if any input had them on, else what the inputs say */
		if (s->library_probes && (!r->library_probes || !strcmp(s->library_probes, "on"))) {
			free(r->library_probes);
			r->library_probes = xstrdup(s->library_probes);
		}
		if (s->compensated > 0 || (s->compensated < 0 && raw_differs(&in[d])))
			r->compensated = 1;
		else if (s->compensated == 0 && r->compensated < 0)
			r->compensated = 0;
	}
	r->has_per_call = mean_get(&per_call, any_per_call, &r->per_call_ns) & 1;
	r->has_o_in = mean_get(&o_in, any_o_in, &r->o_in_ns) & 1;
	r->has_o_out = mean_get(&o_out, any_o_out, &r->o_out_ns) & 1;
	r->has_fenced_o_in = mean_get(&f_in, any_f_in, &r->fenced_o_in_ns) & 1;
	r->has_fenced_o_out = mean_get(&f_out, any_f_out, &r->fenced_o_out_ns) & 1;
	r->has_fentry_o_in = mean_get(&e_in, any_e_in, &r->fentry_o_in_ns) & 1;
	r->has_fentry_o_out = mean_get(&e_out, any_e_out, &r->fentry_o_out_ns) & 1;
	r->has_library_o_in = mean_get(&l_in, any_l_in, &r->library_o_in_ns) & 1;
	r->has_library_o_out = mean_get(&l_out, any_l_out, &r->library_o_out_ns) & 1;
	r->has_untimed = mean_get(&untimed, any_untimed, &r->untimed_ns) & 1;
	merge_unrecorded_costs(r, in, n);
	merge_metered(r, in, n);
}

/*
 * merge_clock: the inputs' clock source where they agree, else "mixed".  The
 * times are nanoseconds already, so the rate only informs: where the sources
 * agree it is the first input's (each run measures its own, a little apart).
 */
static void merge_clock(struct run *r, const struct dump *in, size_t n)
{
	int same_source = 1;

	for (size_t d = 1; d < n; d++)
		same_source &= str_eq(in[d].run.clock_source, in[0].run.clock_source);
	for (size_t d = 0; d < n; d++) { /* any sampled input: the figures are estimates */
		if (in[d].run.sample_rate > r->sample_rate)
			r->sample_rate = in[d].run.sample_rate;
		if (in[d].run.sample_rate && in[d].run.timed_first > r->timed_first)
			r->timed_first = in[d].run.timed_first;
	}
	r->clock_source = same_source ? dup_or_null(in[0].run.clock_source) : xstrdup("mixed");
	r->ticks_per_second = same_source ? in[0].run.ticks_per_second : 0;
}

/* is_start_time: "2026-01-02T03:04:05Z", as the runtime writes start_time (not a file's date). */
static int is_start_time(const char *s)
{
	return s && strlen(s) == 20 && s[4] == '-' && s[10] == 'T' && s[19] == 'Z';
}

static void add_warning(struct run *r, const char *w)
{
	for (size_t i = 0; i < r->nwarnings; i++)
		if (!strcmp(r->warnings[i], w))
			return;
	r->warnings = xreallocarray(r->warnings, r->nwarnings + 1, sizeof(*r->warnings));
	r->warnings[r->nwarnings++] = xstrdup(w);
}

/* merge_run: the program is the first input's; times and counts add up or take the extreme. */
static void merge_run(struct run *r, const struct dump *in, size_t n)
{
	const struct run *first = &in[0].run;

	r->program = dup_or_null(first->program);
	r->argc = first->argc;
	r->argv = xcalloc(first->argc + 1, sizeof(*r->argv));
	for (size_t i = 0; i < first->argc; i++)
		r->argv[i] = xstrdup(first->argv[i]);
	r->pid = first->pid;
	r->has_pid = first->has_pid;
	merge_clock(r, in, n);
	merge_calibration(r, in, n);
	for (size_t d = 0; d < n; d++) {
		const struct run *s = &in[d].run;

		if (s->wall_ns > r->wall_ns)
			r->wall_ns = s->wall_ns;
		r->has_wall |= s->has_wall;
		r->clamped_figures = u64_add(r->clamped_figures, s->clamped_figures);
		r->threads_lost = u64_add(r->threads_lost, s->threads_lost);
		r->lost_calls = u64_add(r->lost_calls, s->lost_calls);
		if (is_start_time(s->date) && (!r->date || strcmp(s->date, r->date) < 0)) {
			free(r->date);
			r->date = xstrdup(s->date);
		}
		for (size_t i = 0; i < s->nwarnings; i++)
			add_warning(r, s->warnings[i]);
	}
}

int dump_merge(struct dump *out, const struct dump *in, size_t n, const char *path)
{
	int32_t **mods = xcalloc(n + 1, sizeof(*mods));
	uint32_t **fns = xcalloc(n + 1, sizeof(*fns));
	size_t t = 0;

	memset(out, 0, sizeof(*out));
	out->run.path = xstrdup(path);
	if (n) {
		merge_run(&out->run, in, n);
		merge_modules(out, in, n, mods);
		merge_functions(out, in, n, mods, fns);
	}
	for (size_t d = 0; d < n; d++)
		out->nthreads += in[d].nthreads;
	out->threads = xcalloc(out->nthreads + 1, sizeof(*out->threads));
	for (size_t d = 0; d < n; d++)
		for (size_t i = 0; i < in[d].nthreads; i++)
			copy_thread(&out->threads[t++], &in[d].threads[i], &in[d], fns[d]);
	for (size_t d = 0; d < n; d++) {
		free(mods[d]);
		free(fns[d]);
	}
	free(mods);
	free(fns);
	return 0;
}
