/* adapt.c: settling which calling contexts keep fenced reads (see adapt.h). */
#include "adapt.h"

#include "calib.h"
#include "tstate.h"

void adapt_decide(struct cct_node *n)
{
	double own;

	/* A context with callees reads plainly: its callees' reads are what time
	 * them, and fencing it would only add cost.  A leaf is never recursive
	 * through its node, so every sampled activation has finished by now.  The
	 * longest one is left out: the first call of a function pays for cold
	 * caches and page faults, and would decide alone. */
	if (n->first_child || !calib.done || n->fenced_calls < 2) {
		n->fence = CCT_FENCE_PLAIN;
		return;
	}
	own = (double)(n->incl_ticks - n->max_ticks) / (double)(n->fenced_calls - 1) -
	      calib.fenced_o_in_ticks;
	n->fence = own >= calib.o_in_ticks + calib.o_out_ticks ? CCT_FENCE_FENCED : CCT_FENCE_PLAIN;
}

void adapt_exit_close(struct tstate *t, struct frame *top, uint64_t now)
{
	frame_close(top, top - 1, adapt_stamp_exit(top, now));
	adapt_after_close(top);
	t->stack.depth--;
	cp_barrier();
	t->busy = 0;
}
