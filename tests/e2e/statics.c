/* statics.c: two static functions named helper, in statics_a.c and statics_b.c. */
#include "statics.h"

int main(void)
{
	return run_a() + run_b() == 6 + 15 ? 0 : 1;
}
