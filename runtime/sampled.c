/* sampled.c: estimating a calling context's self time from its timed calls (sampled.h). */
#include "sampled.h"

double sampled_self(const struct cct_node *n, double *var)
{
	double self = (double)n->incl_ticks - (double)n->child_ticks; /* may be below 0 */
	double first, later, m = (double)n->sample_calls, mean, s2;

	*var = 0;
	if (n->calls <= CCT_TIMED_FIRST)
		return self;
	first = self - (double)n->sample_self;
	later = (double)n->calls - CCT_TIMED_FIRST;
	mean = m >= 1 ? (double)n->sample_self / m : first / CCT_TIMED_FIRST;
	if (m < 2) {
		*var = later * mean * later * mean;
	} else {
		s2 = ((double)n->sample_self_sq - (double)n->sample_self * mean) / (m - 1);
		*var = s2 > 0 && later > m ? later * later * s2 / m * (1 - m / later) : 0;
	}
	return first + later * mean;
}

double sampled_se(double var)
{
	double x = var > 1 ? var : 1;

	if (!(var > 0))
		return 0;
	for (int i = 0; i < 200; i++) { /* Newton's method, from above: it only falls */
		double next = 0.5 * (x + var / x);
		if (next >= x)
			break;
		x = next;
	}
	return x;
}
