/*
 * hijack.c: the cold half of the return hijack (hijack.h): the thread's stack
 * and records, enters the fast path leaves, exits off the fast path, records
 * found dead, non-local exits, the unwinder's personality routine, and
 * backtrace() and _Unwind_Backtrace run with the real return addresses.
 */
#include "hijack.h"

#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <unwind.h>

#include "options.h"

#define RECORDS_INITIAL 1024u
#define MAPS_LINE 128 /* bytes of a /proc/self/maps line kept: addresses, and "[stack]" */

typedef int (*backtrace_fn)(void **buffer, int size);
typedef _Unwind_Reason_Code (*unwind_backtrace_fn)(_Unwind_Trace_Fn trace, void *arg);

/* The interposed functions' real definitions, found at start-up. */
static backtrace_fn real_backtrace;
static unwind_backtrace_fn real_unwind_backtrace;
/* The exit hook (hijack_set_exit_hook). */
static hijack_exit_hook exit_hook;

/* What the hot half (hijack_fast.c) reaches through pointers (hijack.h). */
static _Unwind_Reason_Code personality(int version, _Unwind_Action actions,
				       _Unwind_Exception_Class cls, struct _Unwind_Exception *exc,
				       struct _Unwind_Context *ctx);
static uintptr_t exit_slow(uintptr_t slot, uintptr_t regs, uintptr_t now, const void *state);

void hijack_setup(void)
{
	*(void **)&real_backtrace = dlsym(RTLD_NEXT, "backtrace");
	*(void **)&real_unwind_backtrace = dlsym(RTLD_NEXT, "_Unwind_Backtrace");
}

void hijack_set_exit_hook(hijack_exit_hook hook)
{
	exit_hook = hook;
}

/* ---- the thread's stack -------------------------------------------------- */

static uintptr_t hex(const char **p)
{
	uintptr_t v = 0;

	for (;; (*p)++) {
		char c = **p;
		if (c >= '0' && c <= '9')
			v = v << 4 | (uintptr_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v << 4 | (uintptr_t)(c - 'a' + 10);
		else
			return v;
	}
}

/* What find_stack learns from the mappings, one line at a time. */
struct maps_walk {
	uintptr_t sp;       /* an address on the thread's stack */
	uintptr_t prev_end; /* the end of the mapping before this one */
	uintptr_t lo, hi;   /* the answer; hi 0 until found */
};

static void maps_line(struct maps_walk *w, const char *line, size_t len)
{
	const char *p = line;
	uintptr_t start = hex(&p), end;

	if (*p++ != '-')
		return;
	end = hex(&p);
	if (!w->hi && w->sp >= start && w->sp < end) {
		/* The process's first stack grows down into the gap below it. */
		bool grows = len >= 7 && !memcmp(line + len - 7, "[stack]", 7);
		w->lo = grows ? w->prev_end : start;
		w->hi = end;
	}
	w->prev_end = end;
}

/*
 * The mapping that holds `sp`, as [lo, hi), read from /proc/self/maps with
 * nothing but system calls (a probe may run inside malloc).  False if unknown.
 */
static bool find_stack(uintptr_t sp, uintptr_t *lo, uintptr_t *hi)
{
	char buf[4096], line[MAPS_LINE];
	size_t len = 0;
	struct maps_walk w = { sp, 0, 0, 0 };
	ssize_t n;
	int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] != '\n') {
				if (len < sizeof(line) - 1)
					line[len++] = buf[i];
				continue;
			}
			line[len] = '\0';
			maps_line(&w, line, len);
			len = 0;
		}
	}
	close(fd);
	*lo = w.lo;
	*hi = w.hi;
	return w.hi != 0;
}

/* Maps the records (or maps them twice as large); false at the limit or without memory. */
static bool grow(struct hijack_stack *h)
{
	uint32_t cap = h->cap ? h->cap * 2 : RECORDS_INITIAL;
	struct hijack_rec *p;

	if (!h->max_cap)
		h->max_cap =
			options.max_stack > RECORDS_INITIAL ? options.max_stack : RECORDS_INITIAL;
	if (cap > h->max_cap)
		cap = h->max_cap;
	if (cap <= h->cap)
		return false;
	/* Before the first hijack: the hot half reaches the cold one through these. */
	hijack_exit_slow = exit_slow;
	hijack_personality_fn = (void *)personality;
	p = mmap(NULL, (size_t)cap * sizeof(*p), PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return false;
	if (h->base) {
		memcpy(p, h->base, (size_t)h->depth * sizeof(*p));
		munmap(h->base, (size_t)h->cap * sizeof(*p));
	}
	h->base = p;
	h->cap = cap;
	return true;
}

/* ---- which returns are hijacked -------------------------------------------- */

/* Where a slot lies. */
enum region { ON_THREAD_STACK, ON_ALT_STACK, ELSEWHERE };

/* True if `slot` lies on the thread's alternate signal stack (a system call). */
static bool on_alt_stack(const uintptr_t *slot)
{
	stack_t ss;

	return sigaltstack(NULL, &ss) == 0 && !(ss.ss_flags & SS_DISABLE) &&
	       (uintptr_t)slot - (uintptr_t)ss.ss_sp < ss.ss_size;
}

/* Where `slot` lies.  An alternate stack may be carved out of a frame of the
 * thread's own: `precise` looks for it there too, at the price of a system call. */
static enum region region_of(const struct hijack_stack *h, const uintptr_t *slot, bool precise)
{
	bool on_thread = (uintptr_t)slot - h->stack_lo < h->stack_hi - h->stack_lo;

	if (on_thread && !precise)
		return ON_THREAD_STACK;
	if (on_alt_stack(slot))
		return ON_ALT_STACK;
	return on_thread ? ON_THREAD_STACK : ELSEWHERE;
}

/*
 * Pops the records an enter at `slot` finds dead, and says whether its
 * return may be hijacked.  A record is dead when its slot lost the trampoline
 * (the unwinder restored it, or a later call wrote there), or when it lies
 * below a new handler's slot on the alternate stack (a handler left by a
 * jump).  A record below the slot otherwise looks dead but may not be (a
 * coroutine on a stack carved out of a frame): the call is not hijacked.
 */
static bool settle_records(struct hijack_stack *h, uintptr_t *slot, enum region where)
{
	while (h->depth) {
		struct hijack_rec *r = &h->base[h->depth - 1];
		enum region theirs;

		if (*r->slot != HIJACK_TRAMPOLINE) {
			h->depth--;
			continue;
		}
		if (r->slot >= slot)
			return true; /* a caller, or the call that jumped here (the same slot) */
		if (where == ON_THREAD_STACK)
			where = region_of(h, slot, true);
		theirs = region_of(h, r->slot, true);
		if (theirs == ON_ALT_STACK && where == ON_ALT_STACK) {
			h->depth--;
			continue;
		}
		/* On the thread's stack below an alternate one: a handler over live code. */
		return theirs == ON_THREAD_STACK && where == ON_ALT_STACK;
	}
	return true;
}

/* The records' state for a hijack at `slot` on this thread: false when it cannot be. */
static bool may_hijack(struct hijack_stack *h, uintptr_t *slot)
{
	enum region where;

	if (h->unhooked_hi)
		return false; /* backtrace is reading the real addresses */
	if (!h->stack_hi) {
		uintptr_t here = (uintptr_t)__builtin_frame_address(0);
		if (!find_stack(here, &h->stack_lo, &h->stack_hi))
			h->stack_lo = h->stack_hi = 1; /* unknown: nothing is on it */
	}
	where = region_of(h, slot, false);
	if (where == ELSEWHERE || !settle_records(h, slot, where))
		return false;
	return h->depth < h->cap || grow(h);
}

/* The real return address of a call returning through `slot`: the bottom record
 * of the chain of tail calls sharing it, when the slot holds the trampoline. */
static uintptr_t real_return(const struct hijack_stack *h, const uintptr_t *slot)
{
	uintptr_t v = *slot;

	for (uint32_t i = h->depth; i > 0 && v == HIJACK_TRAMPOLINE; i--)
		if (h->base[i - 1].slot == slot)
			v = h->base[i - 1].orig;
	return v;
}

uintptr_t hijack_return_address(const uintptr_t *slot)
{
	struct tstate *t = tstate_self;
	uintptr_t v;
	bool held;

	if (*slot != HIJACK_TRAMPOLINE || !t)
		return *slot;
	held = probe_hold(t);
	v = real_return(&t->ret, slot);
	if (held)
		probe_release(t);
	return v;
}

bool hijack_enter_held(struct tstate *t, uintptr_t fn, uintptr_t *slot, enum probe_kind kind,
		       uintptr_t word, uintptr_t aux)
{
	struct hijack_stack *h = &t->ret;
	bool hijack;

	hijack = may_hijack(h, slot);
	if (hijack)
		hijack_push(h, slot, fn, aux); /* before the core reads the entry time */
	if (probe_open_marked_held(t, fn, real_return(h, slot), HIJACK_SP(slot), kind, word,
				   hijack) != PROBE_FRAMED) {
		if (hijack) /* not recorded, or dropped for want of memory: undone */
			*slot = h->base[--h->depth].orig;
		hijack = false;
	} else if (hijack && t->stack.depth < t->stack.cap) {
		t->stack.base[t->stack.depth].sp = 0; /* nothing above it yet: hijack_restamp */
	}
	return hijack;
}

bool hijack_enter_slow(uintptr_t fn, uintptr_t *slot, enum probe_kind kind, uintptr_t word,
		       uintptr_t aux)
{
	struct tstate *t = probe_hold_enter();
	bool hijacked;

	if (!t)
		return false;
	hijacked = hijack_enter_held(t, fn, slot, kind, word, aux);
	probe_release(t);
	return hijacked;
}

/* ---- exits ------------------------------------------------------------------- */

/* A hijacked return with no record of its slot: nowhere to go. */
static __attribute__((noreturn)) void lost_return(const uintptr_t *slot)
{
	static const char msg[] =
		"callprof: a hijacked return has no record of its return address; "
		"cannot continue\n";

	(void)slot;
	if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0)
		abort();
	abort();
}

/* The index + 1 of the innermost record of `slot`, or 0. */
static uint32_t record_of(const struct hijack_stack *h, const uintptr_t *slot)
{
	uint32_t i = h->depth;

	while (i > 0 && h->base[i - 1].slot != slot)
		i--;
	return i;
}

/*
 * Every exit hijack_exit leaves: records above this one (calls that can no
 * longer return: this one's callees, left by a jump), an exit hook, a frame
 * that is not the top one, a probe already running (the record is popped
 * all the same, since the return must go on).
 */
static uintptr_t exit_slow(uintptr_t slot_addr, uintptr_t regs, uintptr_t now, const void *state)
{
	uintptr_t *slot = (uintptr_t *)(slot_addr & ~HIJACK_EXIT_HELD);
	struct tstate *t = tstate_self;
	struct hijack_stack *h;
	struct hijack_rec rec;
	uint32_t i = 0;
	bool held = slot_addr & HIJACK_EXIT_HELD;

	if (held) {
		i = t->ret.depth; /* hijack_exit found the record on top, and holds the probe */
	} else {
		/* The record is on the level the call's enter went to: the first whose
		 * probe is not running (a signal handler's call, inside probes, went to
		 * the level below them: probe_hold_enter), or failing that, any. */
		while (t && t->busy && t->sig)
			t = __atomic_load_n(&t->sig, __ATOMIC_ACQUIRE);
		if (t && !(i = record_of(&t->ret, slot)))
			for (t = tstate_self; t && !(i = record_of(&t->ret, slot));)
				t = __atomic_load_n(&t->sig, __ATOMIC_ACQUIRE);
		if (!t || !i)
			lost_return(slot);
		held = probe_hold(t);
		if (held)
			now = stamp_exit_first(); /* once held: probe.h */
	}
	h = &t->ret;
	rec = h->base[i - 1];
	h->depth = i - 1;
	*slot = rec.orig;
	if (held) {
		if (rec.aux && exit_hook)
			exit_hook(t, &rec, (const uintptr_t *)regs, state, now);
		probe_close_held(t, rec.fn, HIJACK_SP(slot), now);
		probe_release(t);
	}
	return rec.orig;
}

/* ---- non-local exits ----------------------------------------------------------- */

/* Pops the records of calls below `sp` (where a jump or a catch resumes) on its stack. */
static void pop_below(struct hijack_stack *h, uintptr_t sp)
{
	enum region where = region_of(h, (const uintptr_t *)sp, true);

	while (h->depth && (uintptr_t)h->base[h->depth - 1].slot < sp &&
	       region_of(h, h->base[h->depth - 1].slot, true) == where)
		h->depth--;
}

void hijack_unwind(uintptr_t sp)
{
	struct tstate *t;

	probe_unwind(sp);
	t = tstate_self;
	if (!sp || !probe_hold(t))
		return;
	pop_below(&t->ret, sp);
	probe_release(t);
}

void hijack_unwind_alt(uintptr_t lo, uintptr_t hi, uintptr_t target)
{
	struct tstate *t;
	struct hijack_stack *h;

	probe_unwind_alt(lo, hi, target);
	t = tstate_self;
	if (!probe_hold(t))
		return;
	h = &t->ret;
	while (h->depth && (uintptr_t)h->base[h->depth - 1].slot - lo < hi - lo)
		h->depth--;
	pop_below(h, target);
	probe_release(t);
}

/*
 * The personality routine of the trampoline's unwind information: the
 * unwinder calls it on reaching a return into the trampoline, before it reads
 * the return address from the slot (CFA - 8).  The slot gets its real
 * address back; the records stay, to be found dead (the slot no longer holds
 * the trampoline) once the frames are gone.  Only frames the unwinder really
 * leaves are restored: it stops at the frame that catches.
 */
static _Unwind_Reason_Code personality(int version, _Unwind_Action actions,
				       _Unwind_Exception_Class cls, struct _Unwind_Exception *exc,
				       struct _Unwind_Context *ctx)
{
	uintptr_t *slot = (uintptr_t *)(_Unwind_GetCFA(ctx) - 8);
	struct tstate *t = tstate_self;
	bool held;

	(void)version;
	(void)actions;
	(void)cls;
	(void)exc;
	if (!t || *slot != HIJACK_TRAMPOLINE)
		return _URC_CONTINUE_UNWIND;
	held = probe_hold(t);
	*slot = real_return(&t->ret, slot);
	if (held)
		probe_release(t);
	return _URC_CONTINUE_UNWIND;
}

/* ---- backtrace() and _Unwind_Backtrace ----------------------------------------- */

/*
 * Gives every live slot of this thread its real return address, so an
 * unwinder walks the real stack; meanwhile nothing is hijacked (unhooked_hi).
 * Returns the state to give to rehook, or NULL when there is nothing to undo.
 * A restored record is marked by the low bit of its slot.
 */
static struct tstate *unhook(void)
{
	struct tstate *t = tstate_self;
	struct hijack_stack *h;

	if (!probe_hold(t))
		return NULL;
	h = &t->ret;
	if (h->unhooked_hi || !h->stack_hi) {
		probe_release(t);
		return NULL;
	}
	for (uint32_t i = h->depth; i > 0;
	     i--) { /* innermost first: a live record hides a dead one */
		struct hijack_rec *r = &h->base[i - 1];
		if (*r->slot == HIJACK_TRAMPOLINE && r->orig != HIJACK_TRAMPOLINE) {
			*r->slot = r->orig;
			r->slot = (uintptr_t *)((uintptr_t)r->slot | 1);
		}
	}
	h->unhooked_hi = h->stack_hi;
	h->stack_hi = h->stack_lo;
	probe_release(t);
	return t;
}

static void rehook(struct tstate *t)
{
	struct hijack_stack *h;

	if (!t || !probe_hold(t))
		return;
	h = &t->ret;
	for (uint32_t i = 0; i < h->depth; i++) {
		struct hijack_rec *r = &h->base[i];
		if ((uintptr_t)r->slot & 1) {
			r->slot = (uintptr_t *)((uintptr_t)r->slot & ~(uintptr_t)1);
			*r->slot = HIJACK_TRAMPOLINE;
		}
	}
	h->stack_hi = h->unhooked_hi;
	h->unhooked_hi = 0;
	probe_release(t);
}

/* The real backtrace into `buffer`, without the interposer's own frame. */
static int backtrace_unhooked(void **buffer, int size)
{
	void **all = size > 0 ? malloc(((size_t)size + 1) * sizeof(*all)) : NULL;
	int n;

	if (!all) { /* no room for the extra frame: the deepest one is lost */
		n = real_backtrace(buffer, size);
		if (n > 0)
			memmove(buffer, buffer + 1, (size_t)--n * sizeof(*buffer));
		return n;
	}
	n = real_backtrace(all, size + 1) - 1;
	if (n > 0)
		memcpy(buffer, all + 1, (size_t)n * sizeof(*buffer));
	free(all);
	return n > 0 ? n : 0;
}

CP_EXPORT int backtrace(void **buffer, int size);
int backtrace(void **buffer, int size)
{
	struct tstate *t;
	int n;

	if (!real_backtrace)
		*(void **)&real_backtrace = dlsym(RTLD_NEXT, "backtrace");
	if (!real_backtrace)
		return 0;
	t = unhook();
	n = backtrace_unhooked(buffer, size);
	rehook(t);
	return n;
}

/* The caller's trace function, shown every frame but the interposer's own. */
struct trace_shim {
	_Unwind_Trace_Fn trace;
	void *arg;
	bool skipped;
};

static _Unwind_Reason_Code trace_shim(struct _Unwind_Context *ctx, void *arg)
{
	struct trace_shim *s = arg;

	if (!s->skipped) {
		s->skipped = true;
		return _URC_NO_REASON;
	}
	return s->trace(ctx, s->arg);
}

CP_EXPORT _Unwind_Reason_Code _Unwind_Backtrace(_Unwind_Trace_Fn trace, void *arg);
_Unwind_Reason_Code _Unwind_Backtrace(_Unwind_Trace_Fn trace, void *arg)
{
	struct trace_shim shim = { trace, arg, false };
	struct tstate *t;
	_Unwind_Reason_Code rc;

	if (!real_unwind_backtrace)
		*(void **)&real_unwind_backtrace = dlsym(RTLD_NEXT, "_Unwind_Backtrace");
	if (!real_unwind_backtrace)
		return _URC_FATAL_PHASE1_ERROR;
	t = unhook();
	rc = real_unwind_backtrace(trace_shim, &shim);
	rehook(t);
	return rc;
}
