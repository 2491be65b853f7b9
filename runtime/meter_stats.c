/* meter_stats.c: the means of metered probes (meter.h), in floating point. */
#include "meter.h"

double meter_part_mean(const struct meter_sums *m, enum meter_part p)
{
	return m->weight ? (double)m->ticks[p] / (double)m->weight : 0;
}

double meter_mean(const struct meter_sums *m, enum meter_part a, enum meter_part b)
{
	return meter_part_mean(m, a) + meter_part_mean(m, b);
}

bool meter_extra(const struct meter_sums *program, const struct meter_sums *loop, double *in,
		 double *out)
{
	if (!meter_enough(program) || !meter_enough(loop))
		return false;
	*in = meter_mean(program, METER_ENTER_IN, METER_EXIT_IN) -
	      meter_mean(loop, METER_ENTER_IN, METER_EXIT_IN);
	*out = meter_mean(program, METER_ENTER_OUT, METER_EXIT_OUT) -
	       meter_mean(loop, METER_ENTER_OUT, METER_EXIT_OUT);
	return true;
}
