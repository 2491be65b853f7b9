/* pstat.c: adding up a function's figures over threads and dumps. */
#include "pstat.h"

#include <math.h>

void pstat_add(struct pstat *to, const struct pstat *from)
{
	if (from->has_minmax && from->calls) {
		if (!to->has_minmax || from->min_ns < to->min_ns)
			to->min_ns = from->min_ns;
		if (!to->has_minmax || from->max_ns > to->max_ns)
			to->max_ns = from->max_ns;
		to->has_minmax = 1;
	}
	if (from->has_fenced)
		to->has_fenced = 1;
	if (from->has_timed) {
		to->has_timed = 1;
		to->timed_calls = u64_add(to->timed_calls, from->timed_calls);
		to->incl_se_ns =
			(uint64_t)(hypot((double)to->incl_se_ns, (double)from->incl_se_ns) + 0.5);
		to->self_se_ns =
			(uint64_t)(hypot((double)to->self_se_ns, (double)from->self_se_ns) + 0.5);
	}
	to->calls = u64_add(to->calls, from->calls);
	to->fenced_calls = u64_add(to->fenced_calls, from->fenced_calls);
	to->library_calls = u64_add(to->library_calls, from->library_calls);
	to->fentry_calls = u64_add(to->fentry_calls, from->fentry_calls);
	to->counted_calls = u64_add(to->counted_calls, from->counted_calls);
	for (unsigned k = 0; k < UNREC_KINDS; k++)
		to->unrecorded_calls[k] =
			u64_add(to->unrecorded_calls[k], from->unrecorded_calls[k]);
	to->has_cpu |= from->has_cpu;
	to->cpu_calls = u64_add(to->cpu_calls, from->cpu_calls);
	to->cpu_ns = u64_add(to->cpu_ns, from->cpu_ns);
	to->cpu_self_ns = u64_add(to->cpu_self_ns, from->cpu_self_ns);
	to->capture_ns = u64_add(to->capture_ns, from->capture_ns);
	to->incl_ns = u64_add(to->incl_ns, from->incl_ns);
	to->self_ns = u64_add(to->self_ns, from->self_ns);
	to->raw_incl_ns = u64_add(to->raw_incl_ns, from->raw_incl_ns);
	to->raw_self_ns = u64_add(to->raw_self_ns, from->raw_self_ns);
}
