/* altstack.c: each profiled thread's alternate signal stack, mapped with a guard page below it. */
#include "altstack.h"

#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <sys/mman.h>
#include <unistd.h>

#include "compat.h"

/* Room for a handler that waits, and for the program's own SA_ONSTACK handlers
 * that now run on it; untouched pages cost nothing. */
#define ALTSTACK_BYTES (256u << 10)
#define ALTSTACK_GUARD (4096u)

bool altstack_wanted;
/* The mapping this thread was given (guard page included), or NULL. */
static __thread char *given __attribute__((tls_model("initial-exec")));

void altstack_ensure(void)
{
	int saved_errno = errno;
	stack_t old, ss;
	char *m;

	if (!altstack_wanted || given || sigaltstack(NULL, &old) != 0 ||
	    !(old.ss_flags & SS_DISABLE))
		goto out;
	m = mmap(NULL, ALTSTACK_GUARD + ALTSTACK_BYTES, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
	if (m == MAP_FAILED)
		goto out;
	mprotect(m, ALTSTACK_GUARD, PROT_NONE);
	ss.ss_sp = m + ALTSTACK_GUARD;
	ss.ss_size = ALTSTACK_BYTES;
	ss.ss_flags = 0;
	if (sigaltstack(&ss, NULL) == 0)
		given = m;
	else
		munmap(m, ALTSTACK_GUARD + ALTSTACK_BYTES);
out:
	errno = saved_errno;
}

void altstack_release(void)
{
	int saved_errno = errno;
	stack_t cur, off = { .ss_flags = SS_DISABLE };

	if (given && sigaltstack(NULL, &cur) == 0 && cur.ss_sp == given + ALTSTACK_GUARD &&
	    !(cur.ss_flags & SS_ONSTACK) && sigaltstack(&off, NULL) == 0) {
		munmap(given, ALTSTACK_GUARD + ALTSTACK_BYTES);
		given = NULL;
	}
	errno = saved_errno;
}
