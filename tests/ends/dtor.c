/* dtor.c: linked with libdtor: main calls lib_entry() once; libdtor's destructor
 * calls lib_work() 3 more times at exit, which the profile must count. */
#include "e2e.h"

void lib_entry(void);

int main(void)
{
	lib_entry();
	return 0;
}
