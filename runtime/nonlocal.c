/* nonlocal.c: the front-end for non-local exits: interposed longjmp family and
 * __cxa_begin_catch, closing the frames they abandon through the probe core,
 * and popping the records of the returns hijacked in them (hijack.h). */
#include "nonlocal.h"

#include <dlfcn.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>

#include "arch.h"
#include "compat.h"
#include "hijack.h"
#include "shadow.h"

typedef void *(*catch_fn)(void *);
struct _Unwind_Context;
typedef void (*set_ip_fn)(struct _Unwind_Context *, uintptr_t);
typedef uintptr_t (*get_fn)(struct _Unwind_Context *);

/* The interposed functions' real definitions, found once at start-up. */
static jump_fn real_longjmp, real_siglongjmp, real_longjmp_chk;
/* The C library's longjmp where dlsym finds none: a static program (linkage.h). */
static jump_fn fallback_jump;
static catch_fn real_begin_catch;
/* The unwinder's (libgcc_s), found when first needed: it may be loaded later. */
static set_ip_fn real_set_ip;
static get_fn real_get_cfa, real_get_region_start;

static void *next_symbol(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

void nonlocal_setup(jump_fn fallback)
{
	fallback_jump = fallback;
	*(void **)&real_longjmp = next_symbol("longjmp");
	*(void **)&real_siglongjmp = next_symbol("siglongjmp");
	*(void **)&real_longjmp_chk = next_symbol("__longjmp_chk");
	*(void **)&real_begin_catch = next_symbol("__cxa_begin_catch");
}

/*
 * A jump out of a signal handler running on the alternate stack: the
 * handler's frames (on that stack) end, then those the target is above.
 * Returns false when we are not on the alternate stack.
 */
static bool leave_alt_stack(uintptr_t target)
{
	stack_t ss;
	uintptr_t lo, hi;

	if (sigaltstack(NULL, &ss) != 0 || !(ss.ss_flags & SS_ONSTACK))
		return false;
	lo = (uintptr_t)ss.ss_sp;
	hi = lo + ss.ss_size;
	if (target >= lo && target < hi) /* a jump within the handler */
		hijack_unwind(target);
	else
		hijack_unwind_alt(lo, hi, target);
	return true;
}

/* The real function `name`, looked up now if start-up has not (a jump before
 * the runtime's constructor ran); in a static program, the fallback. */
static jump_fn real_jump(jump_fn *real, const char *name)
{
	if (!*real)
		*(void **)real = next_symbol(name);
	if (!*real)
		*real = fallback_jump;
	return *real;
}

__attribute__((noreturn)) void nonlocal_jump(jump_fn *real, const char *name,
					     struct __jmp_buf_tag *env, int val)
{
	uintptr_t target = arch_jmpbuf_sp(env);
	jump_fn to = real_jump(real, name);

	/* A target below us is no jump up the stack (another stack: a coroutine); leave it. */
	if (target && !leave_alt_stack(target) && target > (uintptr_t)__builtin_frame_address(0))
		hijack_unwind(target);
	if (!to)
		to = real_longjmp ? real_longjmp : real_siglongjmp;
	if (!to)
		abort(); /* no libc longjmp: cannot happen with glibc */
	to(env, val);
}

CP_EXPORT void longjmp(struct __jmp_buf_tag env[1], int val)
{
	nonlocal_jump(&real_longjmp, "longjmp", env, val);
}

CP_EXPORT void siglongjmp(struct __jmp_buf_tag env[1], int val)
{
	nonlocal_jump(&real_siglongjmp, "siglongjmp", env, val);
}

CP_EXPORT void __longjmp_chk(struct __jmp_buf_tag env[1], int val);
void __longjmp_chk(struct __jmp_buf_tag env[1], int val)
{
	nonlocal_jump(&real_longjmp_chk, "__longjmp_chk", env, val);
}

/*
 * Called by a personality routine as the unwinder is about to resume in a
 * frame, at a landing pad (a catch, or a cleanup that unwinds on): every
 * instrumented function below that frame is gone.  A program linked with
 * -static-libstdc++ has its own __cxa_begin_catch, which no interposer sees,
 * but its personality routine still calls this one from libgcc_s; without
 * it, a function called next from the catching frame would probe level with
 * the first of the dead frames, which the liveness test cannot tell from a
 * live caller (shadow.h), and the whole unwound chain would stay open until
 * the catching function returned.  The frame is known by its canonical frame
 * address and the start of its function.
 */
CP_EXPORT void _Unwind_SetIP(struct _Unwind_Context *context, uintptr_t ip);
void _Unwind_SetIP(struct _Unwind_Context *context, uintptr_t ip)
{
	if (!real_set_ip) {
		*(void **)&real_get_cfa = next_symbol("_Unwind_GetCFA");
		*(void **)&real_get_region_start = next_symbol("_Unwind_GetRegionStart");
		*(void **)&real_set_ip = next_symbol("_Unwind_SetIP");
	}
	if (real_get_cfa && real_get_region_start)
		probe_unwind_frame(real_get_cfa(context), real_get_region_start(context));
	if (real_set_ip)
		real_set_ip(context, ip);
}

/* Called by a catch block: every instrumented function below the catcher was unwound. */
CP_EXPORT void *__cxa_begin_catch(void *exception);
void *__cxa_begin_catch(void *exception)
{
	hijack_unwind((uintptr_t)__builtin_frame_address(0) + SHADOW_PROBE_FRAME);
	if (!real_begin_catch) /* libstdc++ was loaded after start-up */
		*(void **)&real_begin_catch = next_symbol("__cxa_begin_catch");
	return real_begin_catch(exception);
}
