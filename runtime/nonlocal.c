/* nonlocal.c: interposed longjmp family and __cxa_begin_catch, closing the frames they abandon. */
#include "nonlocal.h"

#include <dlfcn.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>

#include "arch.h"
#include "clock.h"
#include "compat.h"
#include "shadow.h"
#include "tstate.h"

typedef void (*jump_fn)(struct __jmp_buf_tag *, int) __attribute__((noreturn));
typedef void *(*catch_fn)(void *);

/* The interposed functions' real definitions, found once at start-up. */
static jump_fn real_longjmp, real_siglongjmp, real__longjmp, real_longjmp_chk;
static catch_fn real_begin_catch;

static void *next_symbol(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

void nonlocal_setup(void)
{
	*(void **)&real_longjmp = next_symbol("longjmp");
	*(void **)&real_siglongjmp = next_symbol("siglongjmp");
	*(void **)&real__longjmp = next_symbol("_longjmp");
	*(void **)&real_longjmp_chk = next_symbol("__longjmp_chk");
	*(void **)&real_begin_catch = next_symbol("__cxa_begin_catch");
}

/* Closes this thread's frames of functions that ran below `sp`, where control resumes. */
static void unwind_to(uintptr_t sp)
{
	struct tstate *t = tstate_self;

	if (!t || t->busy || !sp)
		return; /* the off state is always busy */
	t->busy = 1;
	cp_barrier();
	t->resyncs += shadow_unwind_to(&t->stack, sp, clock_now());
	cp_barrier();
	t->busy = 0;
}

/*
 * A jump out of a signal handler running on the alternate stack: the
 * handler's frames (on that stack) end, then those the target is above.
 * Returns false when we are not on the alternate stack.
 */
static bool leave_alt_stack(uintptr_t target)
{
	struct tstate *t = tstate_self;
	stack_t ss;
	uintptr_t lo, hi;
	uint32_t keep;

	if (sigaltstack(NULL, &ss) != 0 || !(ss.ss_flags & SS_ONSTACK))
		return false;
	lo = (uintptr_t)ss.ss_sp;
	hi = lo + ss.ss_size;
	if (target >= lo && target < hi) { /* a jump within the handler */
		unwind_to(target);
		return true;
	}
	if (!t || t->busy)
		return true;
	t->busy = 1;
	cp_barrier();
	for (keep = t->stack.depth - 1; keep > 0; keep--)
		if (t->stack.base[keep].sp < lo || t->stack.base[keep].sp >= hi)
			break;
	t->resyncs += shadow_close_above(&t->stack, keep, clock_now());
	t->resyncs += shadow_unwind_to(&t->stack, target, clock_now());
	cp_barrier();
	t->busy = 0;
	return true;
}

static __attribute__((noreturn)) void jump(jump_fn real, struct __jmp_buf_tag *env, int val)
{
	uintptr_t target = arch_jmpbuf_sp(env);

	/* A target below us is no jump up the stack (another stack: a coroutine); leave it. */
	if (target && !leave_alt_stack(target) && target > (uintptr_t)__builtin_frame_address(0))
		unwind_to(target);
	if (!real)
		real = real_longjmp ? real_longjmp : real_siglongjmp;
	if (!real)
		abort(); /* no libc longjmp: cannot happen with glibc */
	real(env, val);
}

CP_EXPORT void longjmp(struct __jmp_buf_tag env[1], int val)
{
	jump(real_longjmp, env, val);
}

CP_EXPORT void siglongjmp(struct __jmp_buf_tag env[1], int val)
{
	jump(real_siglongjmp, env, val);
}

CP_EXPORT void _longjmp(struct __jmp_buf_tag env[1], int val)
{
	jump(real__longjmp, env, val);
}

CP_EXPORT void __longjmp_chk(struct __jmp_buf_tag env[1], int val);
void __longjmp_chk(struct __jmp_buf_tag env[1], int val)
{
	jump(real_longjmp_chk, env, val);
}

/* Called by a catch block: every instrumented function below the catcher was unwound. */
CP_EXPORT void *__cxa_begin_catch(void *exception);
void *__cxa_begin_catch(void *exception)
{
	unwind_to((uintptr_t)__builtin_frame_address(0) + SHADOW_PROBE_FRAME);
	if (!real_begin_catch) /* libstdc++ was loaded after start-up */
		*(void **)&real_begin_catch = next_symbol("__cxa_begin_catch");
	return real_begin_catch(exception);
}
