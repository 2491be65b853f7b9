/*
 * args_capture.c: the capture of args.h: the globs, each thread's value
 * profiles, reading a call's arguments at its enter and its time and return
 * value at its exit.  Runs in the -pg -mfentry front-end's cold path, the
 * probe held and the vector state saved: no lock, no malloc (profiles are
 * mapped), no libdw.
 */
#include "args.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "args_sketch.h"
#include "hijack.h"
#include "probe.h"
#include "safecopy.h"
#include "stamp.h"

#define GLOBS_MAX 64
#define STRING_READ (ARGS_STRING_BYTES + 1) /* one more byte tells a longer string */

bool args_on;
uint32_t args_entries = 64;
/* The globs, split from CALLPROF_ARGS once. */
static char *globs_text;
static const char *globs[GLOBS_MAX];
static unsigned nglobs;

void args_setup(const char *list, uint32_t entries)
{
	char *save = NULL;

	if (!list || !(globs_text = strdup(list)))
		return;
	for (char *tok = strtok_r(globs_text, ",", &save); tok && nglobs < GLOBS_MAX;
	     tok = strtok_r(NULL, ",", &save))
		if (*tok)
			globs[nglobs++] = tok;
	args_entries = entries;
	if (!nglobs)
		return;
	safecopy_setup();
	hijack_set_exit_hook(args_exit);
	args_on = true;
}

bool args_selects(const char *name)
{
	for (unsigned i = 0; i < nglobs; i++)
		if (fnmatch(globs[i], name, 0) == 0)
			return true;
	return false;
}

/* ---- the thread's profiles -------------------------------------------------------- */

static void *map_zeroed(size_t bytes)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

static size_t stride_of(uint16_t bytes)
{
	return (sizeof(struct sketch_entry) + bytes + 7) / 8 * 8;
}

static struct vprof *new_profile(const struct args_plan *p)
{
	size_t ts = stride_of(p->tuple_bytes), rs = stride_of(p->ret_bytes);
	size_t tuple_bytes = sketch_bytes(args_entries, ts);
	struct vprof *v =
		map_zeroed(sizeof(struct vprof) + tuple_bytes + sketch_bytes(args_entries, rs));

	if (!v)
		return NULL;
	v->plan = p;
	sketch_init(&v->tuples, args_entries, ts, v + 1);
	sketch_init(&v->rets, args_entries, rs, (char *)(v + 1) + tuple_bytes);
	return v;
}

/* Makes room for plan ids below `id` + 1.  The old array stays mapped: a dump
 * on another thread may be reading it. */
static bool room_for(struct args_thread *a, uint32_t id)
{
	uint32_t cap = a->cap ? a->cap : 16;
	struct vprof **more;

	while (cap <= id)
		cap *= 2;
	if (cap == a->cap)
		return true;
	if (!(more = map_zeroed(cap * sizeof(*more))))
		return false;
	if (a->by_plan)
		memcpy(more, a->by_plan, a->cap * sizeof(*more));
	__atomic_store_n(&a->by_plan, more, __ATOMIC_RELEASE);
	__atomic_store_n(&a->cap, cap, __ATOMIC_RELEASE);
	return true;
}

static struct vprof *profile_of(struct tstate *t, const struct args_plan *p)
{
	struct args_thread *a = t->args;
	struct vprof *v;

	if (!a) {
		if (!(a = map_zeroed(sizeof(*a))))
			return NULL;
		__atomic_store_n(&t->args, a, __ATOMIC_RELEASE);
	}
	if (p->id >= a->cap && !room_for(a, p->id))
		return NULL;
	if (!(v = a->by_plan[p->id])) {
		if (!(v = new_profile(p)))
			return NULL;
		__atomic_store_n(&a->by_plan[p->id], v, __ATOMIC_RELEASE);
	}
	return v;
}

void args_thread_clear(struct tstate *t)
{
	struct args_thread *a = t ? t->args : NULL;

	for (uint32_t i = 0; a && i < a->cap; i++) {
		struct vprof *v = a->by_plan[i];
		if (v) {
			v->calls = v->returns = 0;
			sketch_clear(&v->tuples);
			sketch_clear(&v->rets);
		}
	}
}

/* ---- the sketches ------------------------------------------------------------------ */

static uint64_t hash_of(const unsigned char *data, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */

	for (size_t i = 0; i < len; i++)
		h = (h ^ data[i]) * 0x100000001b3ull;
	return h | 1; /* never 0: a record's aux of 0 means no hook */
}

/* ---- reading values -------------------------------------------------------------- */

/* Where the values of one moment are: the argument or return registers saved,
 * the vector state, the stack arguments. */
struct at {
	const uintptr_t *gprs;
	const void *state;
	const char *stack;
};

/* The x87 stack's top value from the saved state, if one (and only one) is there. */
static bool st0(const void *state, unsigned char out[16])
{
	const unsigned char *fx = state;
	uint16_t fsw;

	memcpy(&fsw, fx + 2, sizeof(fsw));
	memset(out, 0, 16);
	if (((fsw >> 11) & 7) != 7 || !(fx[4] & 0x80)) /* TOP = 7, physical register 7 valid */
		return false;
	memcpy(out, fx + 32, 10);
	return true;
}

static uint64_t extend(uint64_t v, const struct args_scalar *s)
{
	unsigned bits = 8u * s->size;

	if (bits >= 64)
		return v;
	v &= ((uint64_t)1 << bits) - 1;
	if (s->show == ARGS_SIGNED && (v >> (bits - 1) & 1))
		v |= ~(((uint64_t)1 << bits) - 1);
	return v;
}

/* The raw bits of scalar `s`, at most 16 bytes. */
static void read_raw(const struct args_scalar *s, const struct at *at, unsigned char out[16])
{
	uint64_t v = 0;
	size_t size = s->size > 16 ? 16 : s->size;

	memset(out, 0, 16);
	switch (s->where) {
	case ARGS_GPR:
		v = at->gprs[s->reg] >> (8 * s->offset);
		memcpy(out, &v, sizeof(v));
		return;
	case ARGS_XMM:
		memcpy(out, (const char *)hijack_saved_xmm(at->state, s->reg) + s->offset, size);
		return;
	case ARGS_STACK: memcpy(out, at->stack + s->offset, size); return;
	case ARGS_ST0: out[15] = st0(at->state, out); return;
	}
}

static size_t encode_string(uint64_t ptr, unsigned char *out)
{
	char buf[STRING_READ];
	struct safecopy_result r;
	size_t len;

	if (!ptr || !safecopy_ready()) {
		out[0] = ptr ? STR_UNREADABLE : STR_NULL;
		memcpy(out + 1, &ptr, sizeof(ptr));
		return 1 + sizeof(ptr);
	}
	r = safecopy_string(buf, (const char *)(uintptr_t)ptr, sizeof(buf));
	if (r.fault) {
		out[0] = STR_UNREADABLE;
		memcpy(out + 1, &ptr, sizeof(ptr));
		return 1 + sizeof(ptr);
	}
	len = r.n && !buf[r.n - 1] ? r.n - 1 : r.n;
	out[0] = len > ARGS_STRING_BYTES ? STR_LONGER : STR_READ;
	if (len > ARGS_STRING_BYTES)
		len = ARGS_STRING_BYTES;
	out[1] = (unsigned char)len;
	memcpy(out + 2, buf, len);
	return 2 + len;
}

/* Encodes the `n` scalars `s` (args_sketch.h); returns the bytes written. */
static uint16_t encode(const struct args_scalar *s, uint16_t n, const struct at *at,
		       unsigned char *out)
{
	size_t len = 0;

	for (uint16_t i = 0; i < n; i++) {
		unsigned char raw[16];
		uint64_t v;
		read_raw(&s[i], at, raw);
		if (s[i].show == ARGS_LDOUBLE) {
			memcpy(out + len, raw, 16);
			len += 16;
			continue;
		}
		memcpy(&v, raw, sizeof(v));
		v = extend(v, &s[i]);
		if (s[i].show == ARGS_BOOL)
			v = (v & 0xff) != 0;
		if (s[i].show == ARGS_STRING) {
			len += encode_string(v, out + len);
			continue;
		}
		memcpy(out + len, &v, sizeof(v));
		len += sizeof(v);
	}
	return (uint16_t)len;
}

uintptr_t args_enter(struct tstate *t, const struct args_plan *plan, const uintptr_t *slot,
		     const uintptr_t *regs, const void *state)
{
	unsigned char buf[ARGS_TUPLE_BYTES];
	struct at at = { regs, state, (const char *)(slot + 1) };
	struct vprof *v = profile_of(t, plan);
	uint16_t len;
	uint64_t hash;

	if (!v)
		return 0;
	len = encode(plan->scalars + plan->ret.n, (uint16_t)(plan->nscalars - plan->ret.n), &at,
		     buf);
	hash = hash_of(buf, len);
	v->calls++;
	sketch_count(&v->tuples, buf, len, hash);
	return (uintptr_t)hash;
}

/* The time the call of `rec` took until `now`, into *d: its frame's, if it is
 * still open.  False for a call sampled timing left untimed (stamp.h). */
static bool duration(const struct tstate *t, const struct hijack_rec *rec, uint64_t now,
		     uint64_t *d)
{
	uintptr_t sp = HIJACK_SP(rec->slot);

	*d = 0;
	for (uint32_t i = t->stack.depth - 1; i > 0; i--) {
		const struct frame *f = &t->stack.base[i];
		if (frame_fn(f) != rec->fn || (f->sp & ~(uintptr_t)7) != sp)
			continue;
		if (frames_sampled && !frame_is_marked(f) && !f->t_enter_ticks)
			return false;
		*d = frame_is_marked(f) || now < frame_enter_ticks(f) ? 0
								      : now - frame_enter_ticks(f);
		break;
	}
	return true;
}

void args_exit(struct tstate *t, const struct hijack_rec *rec, const uintptr_t regs[2],
	       const void *state, uint64_t now)
{
	const struct args_plan *plan = args_plan_of(rec->fn);
	struct args_thread *a = t->args;
	struct vprof *v = plan && a && plan->id < a->cap ? a->by_plan[plan->id] : NULL;
	struct sketch_entry *e;
	unsigned char buf[ARGS_TUPLE_BYTES];
	struct at at = { regs, state, NULL };
	uint16_t len;
	uint64_t d;

	if (!v)
		return;
	if ((e = sketch_find(&v->tuples, rec->aux)) &&
	    duration(t, rec, stamp_exit_resolve(now), &d)) {
		e->timed++;
		e->incl_ticks += d;
		if (d < e->min_ticks)
			e->min_ticks = d;
		if (d > e->max_ticks)
			e->max_ticks = d;
	}
	if (!plan->ret.type)
		return;                                     /* void */
	len = encode(plan->scalars, plan->ret.n, &at, buf); /* nothing: shown by its type's name */
	v->returns++;
	sketch_count(&v->rets, buf, len, hash_of(buf, len));
}
