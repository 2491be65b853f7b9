/*
 * args_plan.c: the plans of args.h: a selected function's parameters and
 * return value read from its DWARF, placed by the x86-64 System V convention,
 * checked against where DWARF says they are, and published for the probes.
 * Cold: runs as a module is loaded, under filter.c's lock.
 */
#include "args.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "debuginfo.h"
#include "fentry.h"

#define MIN_SLOTS ((size_t)256)
#define NAME_BYTES 256 /* a type's name, at most */
#define NEST_LIMIT 8   /* struct members inside members, at most */
#define GPR_ARGS 6
#define XMM_ARGS 8
#define DW_REG_XMM0 17                                 /* DWARF's number of xmm0 on x86-64 */
#define STRING_VALUE_BYTES (8 + 2 + ARGS_STRING_BYTES) /* pointer, status, length, bytes */

/* The plans by key (args.h), read lock-free (a table published whole, the
 * old one left mapped for readers still in it), and every plan ever made. */
struct plan_slot {
	uintptr_t fn;                 /* 0: empty */
	const struct args_plan *plan; /* NULL: dropped */
};
struct plan_table {
	size_t mask, used;
	struct plan_slot e[];
};
static struct plan_table *table;
static struct args_plan **plans;
static uint32_t nplans, cap_plans;
/* The line saying arguments need -pg -mfentry was written. */
static bool said_finstrument;

/* ---- the table ----------------------------------------------------------------- */

static uint64_t fn_hash(uintptr_t fn)
{
	return (uint64_t)fn * 0x9E3779B97F4A7C15ull;
}

const struct args_plan *args_plan_of(uintptr_t fn)
{
	const struct plan_table *t = __atomic_load_n(&table, __ATOMIC_ACQUIRE);

	for (size_t i = t ? (size_t)(fn_hash(fn) >> 32) & t->mask : 0; t; i = (i + 1) & t->mask) {
		uintptr_t key = __atomic_load_n(&t->e[i].fn, __ATOMIC_ACQUIRE);
		if (key == fn)
			return __atomic_load_n(&t->e[i].plan, __ATOMIC_ACQUIRE);
		if (!key)
			break;
	}
	return NULL;
}

static struct plan_slot *slot_of(struct plan_table *t, uintptr_t fn)
{
	size_t i = (size_t)(fn_hash(fn) >> 32) & t->mask;

	while (t->e[i].fn && t->e[i].fn != fn)
		i = (i + 1) & t->mask;
	return &t->e[i];
}

static int grow_table(void)
{
	size_t slots = table ? (table->mask + 1) * 2 : MIN_SLOTS;
	size_t bytes = sizeof(struct plan_table) + slots * sizeof(struct plan_slot);
	struct plan_table *t =
		mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (t == MAP_FAILED)
		return -1;
	t->mask = slots - 1;
	for (size_t i = 0; table && i <= table->mask; i++) {
		if (!table->e[i].fn || !table->e[i].plan)
			continue;
		*slot_of(t, table->e[i].fn) = table->e[i];
		t->used++;
	}
	__atomic_store_n(&table, t, __ATOMIC_RELEASE);
	return 0;
}

/* Publishes `p`; false without memory. */
static bool publish(struct args_plan *p)
{
	struct plan_slot *s;

	if (nplans == cap_plans) {
		uint32_t cap = cap_plans ? cap_plans * 2 : 64;
		struct args_plan **more = realloc(plans, cap * sizeof(*more));
		if (!more)
			return false;
		plans = more;
		cap_plans = cap;
	}
	if ((!table || 2 * (table->used + 1) > table->mask + 1) && grow_table() < 0)
		return false;
	p->id = nplans;
	plans[nplans++] = p;
	s = slot_of(table, p->key);
	__atomic_store_n(&s->plan, p, __ATOMIC_RELEASE);
	if (!s->fn) {
		__atomic_store_n(&s->fn, p->key, __ATOMIC_RELEASE);
		table->used++;
	}
	return true;
}

void args_module_unloaded(const uintptr_t *lo, const uintptr_t *hi, size_t n)
{
	for (uint32_t k = 0; k < nplans; k++) {
		struct args_plan *p = plans[k];
		for (size_t i = 0; i < n && !p->unloaded; i++) {
			if (p->fn < lo[i] || p->fn >= hi[i])
				continue;
			p->unloaded = true;
			if (table && args_plan_of(p->key) == p)
				__atomic_store_n(&slot_of(table, p->key)->plan, NULL,
						 __ATOMIC_RELEASE);
		}
	}
}

/* Every plan made so far (args_dump.c). */
struct args_plan *const *args_plans(uint32_t *n);
struct args_plan *const *args_plans(uint32_t *n)
{
	*n = nplans;
	return plans;
}

/* ---- types --------------------------------------------------------------------- */

/* What the DWARF walk needs to know of the unit. */
struct unit {
	bool cplusplus; /* names of structs and enums without their keyword */
};

static bool attr_udata(Dwarf_Die *die, unsigned name, Dwarf_Word *out)
{
	Dwarf_Attribute a;

	return dwarf_attr_integrate(die, name, &a) && dwarf_formudata(&a, out) == 0;
}

/* The DIE that `die`'s DW_AT_type names; false for none (void). */
static bool type_of(Dwarf_Die *die, Dwarf_Die *out)
{
	Dwarf_Attribute a;

	return dwarf_attr_integrate(die, DW_AT_type, &a) && dwarf_formref_die(&a, out);
}

/* The type under typedefs and qualifiers; false for void. */
static bool peel(Dwarf_Die *type, Dwarf_Die *out)
{
	*out = *type;
	for (int i = 0; i < 32; i++) {
		switch (dwarf_tag(out)) {
		case DW_TAG_typedef:
		case DW_TAG_const_type:
		case DW_TAG_volatile_type:
		case DW_TAG_restrict_type:
		case DW_TAG_atomic_type:
			if (!type_of(out, out))
				return false;
			continue;
		default: return true;
		}
	}
	return false;
}

static size_t size_of(Dwarf_Die *t)
{
	Dwarf_Die u;
	Dwarf_Word n;

	if (!peel(t, &u))
		return 0;
	if (dwarf_tag(&u) == DW_TAG_pointer_type || dwarf_tag(&u) == DW_TAG_reference_type ||
	    dwarf_tag(&u) == DW_TAG_rvalue_reference_type)
		return sizeof(void *);
	return attr_udata(&u, DW_AT_byte_size, &n) ? (size_t)n : 0;
}

/* A fixed-size text being built. */
struct text {
	char s[NAME_BYTES];
	size_t n;
};

static void put(struct text *b, const char *s)
{
	size_t len = strlen(s);

	if (b->n + len >= sizeof(b->s))
		len = sizeof(b->s) - 1 - b->n;
	memcpy(b->s + b->n, s, len);
	b->n += len;
	b->s[b->n] = '\0';
}

/* Writes the name of type `t` (NULL: void) as C writes it, more or less. */
static void type_name(const struct unit *u, Dwarf_Die *t, struct text *b, int depth)
{
	Dwarf_Die inner;
	const char *name = t ? dwarf_diename(t) : NULL;
	char num[32];
	Dwarf_Word count;

	if (!t) {
		put(b, "void");
		return;
	}
	if (depth > 8) {
		put(b, "...");
		return;
	}
	switch (dwarf_tag(t)) {
	case DW_TAG_base_type:
	case DW_TAG_typedef: put(b, name ? name : "?"); return;
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
	case DW_TAG_union_type:
	case DW_TAG_enumeration_type:
		if (!u->cplusplus || !name)
			put(b, dwarf_tag(t) == DW_TAG_union_type         ? "union "
			       : dwarf_tag(t) == DW_TAG_enumeration_type ? "enum "
									 : "struct ");
		put(b, name ? name : "{...}");
		return;
	case DW_TAG_const_type:
	case DW_TAG_volatile_type: {
		const char *q = dwarf_tag(t) == DW_TAG_const_type ? "const" : "volatile";
		bool has = type_of(t, &inner);
		if (has && dwarf_tag(&inner) == DW_TAG_pointer_type) {
			type_name(u, &inner, b, depth + 1);
			put(b, " ");
			put(b, q);
		} else {
			put(b, q);
			put(b, " ");
			type_name(u, has ? &inner : NULL, b, depth + 1);
		}
		return;
	}
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
		if (type_of(t, &inner) && dwarf_tag(&inner) == DW_TAG_subroutine_type) {
			put(b, "function pointer");
			return;
		}
		type_name(u, type_of(t, &inner) ? &inner : NULL, b, depth + 1);
		put(b, dwarf_tag(t) == DW_TAG_pointer_type     ? " *"
		       : dwarf_tag(t) == DW_TAG_reference_type ? " &"
							       : " &&");
		return;
	case DW_TAG_array_type:
		type_name(u, type_of(t, &inner) ? &inner : NULL, b, depth + 1);
		if (dwarf_child(t, &inner) == 0 && attr_udata(&inner, DW_AT_count, &count))
			snprintf(num, sizeof(num), "[%llu]", (unsigned long long)count);
		else if (dwarf_child(t, &inner) == 0 &&
			 attr_udata(&inner, DW_AT_upper_bound, &count))
			snprintf(num, sizeof(num), "[%llu]", (unsigned long long)count + 1);
		else
			snprintf(num, sizeof(num), "[]");
		put(b, num);
		return;
	default: put(b, name ? name : "?");
	}
}

static char *type_string(const struct unit *u, Dwarf_Die *t)
{
	struct text b = { "", 0 };

	type_name(u, t, &b, 0);
	return strdup(b.s);
}

/* ---- classification (System V x86-64, 3.2.3) ------------------------------------ */

enum cls { C_NONE, C_INT, C_SSE, C_SSEUP };

/* The classes of a value's eightbytes, as a walk over its members finds them. */
struct classes {
	enum cls c[2];
	bool memory;       /* passed in memory (too large, unaligned, x87, non-trivial) */
	bool by_reference; /* a C++ type that is not trivially copyable: passed as a pointer */
	bool unknown;      /* a type this cannot place (wide vectors): the plan is refused */
};

static void mark(struct classes *x, uint64_t off, size_t size, enum cls c)
{
	uint64_t first = off / 8, last = (off + (size ? size : 1) - 1) / 8;

	if (last > 1) {
		x->memory = true;
		return;
	}
	for (uint64_t e = first; e <= last; e++) {
		enum cls was = x->c[e];
		if (c == C_SSEUP)
			x->c[e] = e == first ? C_SSE : C_SSEUP;
		else if (was == C_NONE || was == C_SSEUP)
			x->c[e] = c;
		else if (was == C_SSE && c == C_INT)
			x->c[e] = C_INT;
	}
}

static bool is_long_double(Dwarf_Die *base)
{
	const char *name = dwarf_diename(base);

	return name && !strcmp(name, "long double");
}

static void classify(Dwarf_Die *type, uint64_t off, struct classes *x, int depth);

/* True if the member function `m` of class `cls` is a copy or move constructor:
 * named after the class, its first parameter after `this` a reference to it. */
static bool copies(Dwarf_Die *m, Dwarf_Die *cls)
{
	Dwarf_Die p, ref, to;
	const char *name = dwarf_diename(m), *cname = dwarf_diename(cls);

	if (!name || !cname || strcmp(name, cname) || dwarf_child(m, &p) != 0)
		return false;
	do {
		if (dwarf_tag(&p) != DW_TAG_formal_parameter || dwarf_hasattr(&p, DW_AT_artificial))
			continue;
		if (!type_of(&p, &ref) || (dwarf_tag(&ref) != DW_TAG_reference_type &&
					   dwarf_tag(&ref) != DW_TAG_rvalue_reference_type))
			return false;
		return type_of(&ref, &to) && peel(&to, &to) && dwarf_diename(&to) &&
		       !strcmp(dwarf_diename(&to), cname);
	} while (dwarf_siblingof(&p, &p) == 0);
	return false;
}

/*
 * True if a C++ class is not trivially copyable, so the convention passes it
 * through a hidden pointer: DWARF 5 says so (DW_AT_calling_convention), and
 * where a compiler does not, a destructor or a copy or move constructor it
 * declares (not defaulted in the class), or a member or base that is so.
 */
static bool by_reference(Dwarf_Die *t, int depth)
{
	Dwarf_Die m, mt;
	Dwarf_Word conv;

	if (attr_udata(t, DW_AT_calling_convention, &conv))
		return conv == DW_CC_pass_by_reference;
	if (depth > NEST_LIMIT || dwarf_child(t, &m) != 0)
		return false;
	do {
		const char *name = dwarf_diename(&m);
		switch (dwarf_tag(&m)) {
		case DW_TAG_subprogram:
			if (dwarf_hasattr(&m, DW_AT_artificial) ||
			    dwarf_hasattr(&m, DW_AT_defaulted))
				continue;
			if ((name && name[0] == '~') || copies(&m, t))
				return true;
			continue;
		case DW_TAG_member:
		case DW_TAG_inheritance:
			if (dwarf_hasattr(&m, DW_AT_external) || !type_of(&m, &mt) ||
			    !peel(&mt, &mt))
				continue;
			if ((dwarf_tag(&mt) == DW_TAG_structure_type ||
			     dwarf_tag(&mt) == DW_TAG_class_type) &&
			    by_reference(&mt, depth + 1))
				return true;
			continue;
		default: continue;
		}
	} while (dwarf_siblingof(&m, &m) == 0);
	return false;
}

/* The members (and base classes) of a struct, class or union at `off`. */
static void classify_members(Dwarf_Die *t, uint64_t off, struct classes *x, int depth)
{
	Dwarf_Die m, mt;
	Dwarf_Word loc, bits;

	if (dwarf_child(t, &m) != 0)
		return;
	do {
		int tag = dwarf_tag(&m);
		if (tag != DW_TAG_member && tag != DW_TAG_inheritance)
			continue;
		if (dwarf_hasattr(&m, DW_AT_external) || dwarf_hasattr(&m, DW_AT_declaration))
			continue; /* a static member */
		if (!attr_udata(&m, DW_AT_data_member_location, &loc))
			loc = 0; /* a union's members */
		if (!type_of(&m, &mt))
			continue;
		if (attr_udata(&m, DW_AT_bit_size, &bits)) {
			Dwarf_Word bit_off = 0;
			if (attr_udata(&m, DW_AT_data_bit_offset, &bit_off))
				loc = bit_off / 8;
			mark(x, off + loc, 1, C_INT);
			continue;
		}
		classify(&mt, off + loc, x, depth + 1);
	} while (dwarf_siblingof(&m, &m) == 0);
}

static void classify_array(Dwarf_Die *t, uint64_t off, struct classes *x, int depth)
{
	Dwarf_Die elem, sub;
	Dwarf_Word count = 0;
	size_t esize;

	if (!type_of(t, &elem) || !(esize = size_of(&elem)))
		return;
	if (dwarf_hasattr(t, DW_AT_GNU_vector)) {
		size_t size = size_of(t);
		if (size > 16)
			x->unknown = true;
		else
			mark(x, off, size, size > 8 ? C_SSEUP : C_SSE);
		return;
	}
	if (dwarf_child(t, &sub) == 0 && !attr_udata(&sub, DW_AT_count, &count) &&
	    attr_udata(&sub, DW_AT_upper_bound, &count))
		count++;
	for (Dwarf_Word i = 0; i < count && !x->memory; i++)
		classify(&elem, off + i * esize, x, depth + 1);
}

static void classify_base(Dwarf_Die *t, uint64_t off, struct classes *x)
{
	Dwarf_Word enc = 0;
	size_t size = size_of(t);

	attr_udata(t, DW_AT_encoding, &enc);
	if (enc == DW_ATE_float) {
		if (is_long_double(t))
			x->memory = true; /* x87 */
		else
			mark(x, off, size, size > 8 ? C_SSEUP : C_SSE);
	} else if (enc == DW_ATE_complex_float) {
		if (size > 16)
			x->memory = true; /* complex long double */
		else
			mark(x, off, size, C_SSE);
	} else {
		mark(x, off, size, C_INT);
	}
}

static void classify(Dwarf_Die *type, uint64_t off, struct classes *x, int depth)
{
	Dwarf_Die t;
	size_t size;

	if (depth > NEST_LIMIT || !peel(type, &t))
		return;
	size = size_of(&t);
	if (off % (size > 8 ? 8 : size ? size : 1) && dwarf_tag(&t) == DW_TAG_base_type)
		x->memory = true; /* unaligned */
	switch (dwarf_tag(&t)) {
	case DW_TAG_base_type: classify_base(&t, off, x); return;
	case DW_TAG_enumeration_type:
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
	case DW_TAG_ptr_to_member_type: mark(x, off, size ? size : sizeof(void *), C_INT); return;
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
	case DW_TAG_union_type:
		if (by_reference(&t, 0)) {
			if (depth == 0)
				x->by_reference = true;
			else
				x->memory = true;
			return;
		}
		if (size > 16) {
			x->memory = true;
			return;
		}
		classify_members(&t, off, x, depth);
		return;
	case DW_TAG_array_type: classify_array(&t, off, x, depth); return;
	default: x->unknown = true;
	}
}

/* ---- what is shown ------------------------------------------------------------- */

/* A plan being built. */
struct builder {
	const struct unit *u;
	struct args_scalar s[ARGS_MAX_SCALARS];
	uint16_t n;
	bool full;
};

/* The enumerators of an enum type, sorted by value; NULL if none. */
static const struct args_enumerator *enumerators(Dwarf_Die *t, uint32_t *n)
{
	Dwarf_Die c;
	Dwarf_Attribute a;
	struct args_enumerator *e = NULL;
	uint32_t cap = 0;

	*n = 0;
	if (dwarf_child(t, &c) != 0)
		return NULL;
	do {
		Dwarf_Sword v;
		Dwarf_Word uv;
		if (dwarf_tag(&c) != DW_TAG_enumerator || !dwarf_attr(&c, DW_AT_const_value, &a))
			continue;
		if (dwarf_formsdata(&a, &v) != 0) {
			if (dwarf_formudata(&a, &uv) != 0)
				continue;
			v = (Dwarf_Sword)uv;
		}
		if (*n == cap) {
			struct args_enumerator *more =
				realloc(e, (cap = cap ? cap * 2 : 8) * sizeof(*e));
			if (!more)
				break;
			e = more;
		}
		e[*n].value = v;
		e[*n].name = strdup(dwarf_diename(&c) ? dwarf_diename(&c) : "?");
		(*n)++;
	} while (dwarf_siblingof(&c, &c) == 0);
	for (uint32_t i = 1; i < *n; i++) /* few: insertion sort */
		for (uint32_t j = i; j > 0 && e[j - 1].value > e[j].value; j--) {
			struct args_enumerator tmp = e[j];
			e[j] = e[j - 1];
			e[j - 1] = tmp;
		}
	return e;
}

/* True for a pointer to plain char: a C string. */
static bool is_string(Dwarf_Die *ptr)
{
	Dwarf_Die to, base;
	const char *name;

	if (!type_of(ptr, &to) || !peel(&to, &base) || dwarf_tag(&base) != DW_TAG_base_type)
		return false;
	name = dwarf_diename(&base);
	return name && !strcmp(name, "char") && size_of(&base) == 1;
}

/* The way a scalar of type `t` (peeled) is shown; false if it is not one. */
static bool show_of(Dwarf_Die *t, struct args_scalar *s)
{
	Dwarf_Word enc = 0;
	const char *name = dwarf_diename(t);
	size_t size = size_of(t);

	s->size = (uint8_t)size;
	switch (dwarf_tag(t)) {
	case DW_TAG_pointer_type:
		s->show = is_string(t) ? ARGS_STRING : ARGS_POINTER;
		s->size = sizeof(void *);
		return true;
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
		s->show = ARGS_POINTER;
		s->size = sizeof(void *);
		return true;
	case DW_TAG_enumeration_type:
		s->show = ARGS_ENUM;
		s->enums = enumerators(t, &s->nenums);
		return size >= 1 && size <= 8;
	case DW_TAG_base_type: break;
	default: return false;
	}
	attr_udata(t, DW_AT_encoding, &enc);
	switch (enc) {
	case DW_ATE_boolean: s->show = ARGS_BOOL; return size <= 8;
	case DW_ATE_float:
		if (is_long_double(t)) {
			s->show = ARGS_LDOUBLE;
			s->size = 10;
			return true;
		}
		s->show = size == 4 ? ARGS_FLOAT : ARGS_DOUBLE;
		return size == 4 || size == 8;
	case DW_ATE_signed_char:
	case DW_ATE_unsigned_char:
		s->show = name && !strcmp(name, "char") ? ARGS_CHAR
			  : enc == DW_ATE_signed_char   ? ARGS_SIGNED
							: ARGS_UNSIGNED;
		return size == 1;
	case DW_ATE_signed: s->show = ARGS_SIGNED; return size >= 1 && size <= 8;
	case DW_ATE_unsigned:
	case DW_ATE_UTF: s->show = ARGS_UNSIGNED; return size >= 1 && size <= 8;
	default: return false;
	}
}

static bool add_scalar(struct builder *b, const struct args_scalar *s)
{
	if (b->n == ARGS_MAX_SCALARS) {
		b->full = true;
		return false;
	}
	b->s[b->n++] = *s;
	return true;
}

/* Appends the scalars of a value of type `type` at byte `off` of it, named
 * `prefix` inside a struct; false (and nothing kept) for what cannot be
 * shown member by member: arrays, unions, bit-fields, wide values. */
static bool leaves(struct builder *b, Dwarf_Die *type, uint64_t off, const char *prefix, int depth)
{
	Dwarf_Die t, m, mt;
	Dwarf_Word loc;
	struct args_scalar s;

	if (depth > NEST_LIMIT || !peel(type, &t))
		return false;
	memset(&s, 0, sizeof(s));
	if (dwarf_tag(&t) != DW_TAG_structure_type && dwarf_tag(&t) != DW_TAG_class_type) {
		if (!show_of(&t, &s))
			return false;
		s.offset = (uint16_t)off;
		s.member = prefix ? strdup(prefix) : NULL;
		return add_scalar(b, &s);
	}
	if (dwarf_child(&t, &m) != 0)
		return true; /* empty */
	do {
		char name[NAME_BYTES];
		int tag = dwarf_tag(&m);
		if (tag == DW_TAG_inheritance)
			return false;
		if (tag != DW_TAG_member || dwarf_hasattr(&m, DW_AT_external) ||
		    dwarf_hasattr(&m, DW_AT_declaration))
			continue;
		if (dwarf_hasattr(&m, DW_AT_bit_size) ||
		    !attr_udata(&m, DW_AT_data_member_location, &loc) || !type_of(&m, &mt))
			return false;
		snprintf(name, sizeof(name), "%s%s%s", prefix ? prefix : "", prefix ? "." : "",
			 dwarf_diename(&m) ? dwarf_diename(&m) : "?");
		if (!leaves(b, &mt, off + loc, name, depth + 1))
			return false;
	} while (dwarf_siblingof(&m, &m) == 0);
	return true;
}

/* True for a struct, class or union DWARF only declares (Clang leaves the
 * definition of a library's class to the unit that defines its constructor):
 * its size and members are not known here. */
static bool incomplete(Dwarf_Die *type)
{
	Dwarf_Die t;

	if (!peel(type, &t))
		return false;
	switch (dwarf_tag(&t)) {
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
	case DW_TAG_union_type:
		return dwarf_hasattr(&t, DW_AT_declaration) || !dwarf_hasattr(&t, DW_AT_byte_size);
	default: return false;
	}
}

/* ---- placing values -------------------------------------------------------------- */

/* The registers left, and the stack's next argument offset, while parameters are placed. */
struct placer {
	unsigned gpr, xmm;
	uint64_t stack;
};

/* Gives the scalars [first, b->n) of a value their places: eightbyte e in the
 * register reg[e] of kind where[e], or on the stack at `stack`. */
static void locate(struct builder *b, uint16_t first, const uint8_t where[2], const uint8_t reg[2],
		   bool on_stack, uint64_t stack)
{
	for (uint16_t i = first; i < b->n; i++) {
		struct args_scalar *s = &b->s[i];
		if (on_stack) {
			s->where = ARGS_STACK;
			s->offset = (uint16_t)(stack + s->offset);
			continue;
		}
		s->where = where[s->offset / 8 ? 1 : 0];
		s->reg = reg[s->offset / 8 ? 1 : 0];
		s->offset %= 8;
	}
}

/* The natural alignment of a type, for its place on the stack: 8 or 16. */
static uint64_t stack_align(Dwarf_Die *type)
{
	Dwarf_Die t;

	return peel(type, &t) && dwarf_tag(&t) == DW_TAG_base_type && size_of(&t) == 16 ? 16 : 8;
}

/* Places a parameter of type `type` (its scalars just added from `first`). */
static void place_param(struct builder *b, struct placer *p, Dwarf_Die *type, uint16_t first,
			struct args_value *v, bool *refuse)
{
	struct classes x = { { C_NONE, C_NONE }, false, false, false };
	size_t size = size_of(type);
	uint8_t where[2] = { ARGS_GPR, ARGS_GPR }, reg[2] = { 0, 0 };
	unsigned need_gpr = 0, need_xmm = 0;

	classify(type, 0, &x, 0);
	if (x.unknown) {
		*refuse = true;
		return;
	}
	if (x.by_reference) { /* a hidden pointer, which is not shown */
		b->n = first;
		v->n = 0;
		if (p->gpr < GPR_ARGS)
			p->gpr++;
		else
			p->stack += 8;
		return;
	}
	for (int e = 0; e < 2 && !x.memory && (size_t)e * 8 < size; e++) {
		if (x.c[e] == C_INT)
			need_gpr++;
		else if (x.c[e] == C_SSE)
			need_xmm++;
	}
	if (x.memory || p->gpr + need_gpr > GPR_ARGS || p->xmm + need_xmm > XMM_ARGS) {
		uint64_t align = stack_align(type);
		p->stack = (p->stack + align - 1) / align * align;
		locate(b, first, where, reg, true, p->stack);
		p->stack += (size + 7) / 8 * 8;
		return;
	}
	for (int e = 0; e < 2 && (size_t)e * 8 < size; e++) {
		if (x.c[e] == C_INT) {
			where[e] = ARGS_GPR;
			reg[e] = (uint8_t)p->gpr++;
		} else if (x.c[e] == C_SSE) {
			where[e] = ARGS_XMM;
			reg[e] = (uint8_t)p->xmm++;
		} else { /* SSEUP: the same vector register */
			where[e] = where[0];
			reg[e] = reg[0];
		}
	}
	locate(b, first, where, reg, false, 0);
}

/* Places the return value of type `type` (its scalars just added from `first`);
 * true when it is returned in memory (its address in rax, the hidden first argument). */
static bool place_return(struct builder *b, Dwarf_Die *type, uint16_t first)
{
	struct classes x = { { C_NONE, C_NONE }, false, false, false };
	size_t size = size_of(type);
	uint8_t where[2] = { ARGS_GPR, ARGS_GPR }, reg[2] = { 0, 0 };
	unsigned gpr = 0, xmm = 0;

	classify(type, 0, &x, 0);
	if (b->n == first + 1 && b->s[first].show == ARGS_LDOUBLE) {
		b->s[first].where = ARGS_ST0;
		return false;
	}
	if (x.memory || x.by_reference || x.unknown) {
		b->n = first;
		return x.memory || x.by_reference;
	}
	for (int e = 0; e < 2 && (size_t)e * 8 < size; e++) {
		if (x.c[e] == C_INT) {
			where[e] = ARGS_GPR;
			reg[e] = (uint8_t)gpr++;
		} else if (x.c[e] == C_SSE) {
			where[e] = ARGS_XMM;
			reg[e] = (uint8_t)xmm++;
		} else {
			where[e] = where[0];
			reg[e] = reg[0];
		}
	}
	locate(b, first, where, reg, false, 0);
	return false;
}

/* ---- where DWARF says the arguments are ------------------------------------------- */

/* The DWARF register number a parameter's address is in at `pc` (a location
 * of register + 0: a value passed by reference), or -1. */
static int dwarf_address_register(Dwarf_Die *param, Dwarf_Addr pc)
{
	Dwarf_Attribute a;
	Dwarf_Op *expr;
	size_t len;

	if (!dwarf_attr(param, DW_AT_location, &a) ||
	    dwarf_getlocation_addr(&a, pc, &expr, &len, 1) != 1 || len != 1 || expr[0].number != 0)
		return -1;
	if (expr[0].atom >= DW_OP_breg0 && expr[0].atom <= DW_OP_breg31)
		return expr[0].atom - DW_OP_breg0;
	return -1;
}

/* The DWARF register number holding a parameter at `pc` (its location), or -1. */
static int dwarf_register(Dwarf_Die *param, Dwarf_Addr pc)
{
	Dwarf_Attribute a;
	Dwarf_Op *expr;
	size_t len;

	if (!dwarf_attr(param, DW_AT_location, &a) ||
	    dwarf_getlocation_addr(&a, pc, &expr, &len, 1) != 1 || len != 1)
		return -1;
	if (expr[0].atom >= DW_OP_reg0 && expr[0].atom <= DW_OP_reg31)
		return expr[0].atom - DW_OP_reg0;
	if (expr[0].atom == DW_OP_regx)
		return (int)expr[0].number;
	return -1;
}

/* DWARF's register number of argument register `reg` of kind `where`. */
static int dwarf_number(uint8_t where, uint8_t reg)
{
	static const int gpr[GPR_ARGS] = { 5, 4, 1, 2, 8, 9 }; /* rdi rsi rdx rcx r8 r9 */

	return where == ARGS_XMM ? DW_REG_XMM0 + reg : gpr[reg];
}

/* The argument register DWARF's number `dw` is: false if none. */
static bool from_dwarf(int dw, uint8_t *where, uint8_t *reg)
{
	static const int gpr[GPR_ARGS] = { 5, 4, 1, 2, 8, 9 };

	for (uint8_t i = 0; i < GPR_ARGS; i++)
		if (gpr[i] == dw) {
			*where = ARGS_GPR;
			*reg = i;
			return true;
		}
	if (dw >= DW_REG_XMM0 && dw < DW_REG_XMM0 + XMM_ARGS) {
		*where = ARGS_XMM;
		*reg = (uint8_t)(dw - DW_REG_XMM0);
		return true;
	}
	return false;
}

/*
 * Checks the plan against the registers DWARF gives the parameters where the
 * function starts (`pc`, after its call of __fentry__): an optimiser may drop
 * an unused parameter of a function it sees every call of (Clang keeps the
 * name).  When they disagree, the parameters DWARF places in a register are
 * read from it, the others are unknown; so too when the convention could not
 * place every parameter (`disagree` given).  Returns true if they disagreed.
 */
static bool check_registers(struct builder *b, struct args_value *params, Dwarf_Die *pdies,
			    uint16_t n, Dwarf_Addr pc, bool disagree)
{
	for (uint16_t i = 0; i < n && !disagree; i++) {
		int dw = dwarf_register(&pdies[i], pc);
		struct args_scalar *s = params[i].n == 1 ? &b->s[params[i].first] : NULL;
		if (dw >= 0 && s && s->where != ARGS_STACK && dwarf_number(s->where, s->reg) != dw)
			disagree = true;
		if (dw >= 0 && s && s->where == ARGS_STACK)
			disagree = true;
	}
	if (!disagree)
		return false;
	for (uint16_t i = 0; i < n; i++) {
		int dw = dwarf_register(&pdies[i], pc);
		struct args_scalar *s = params[i].n == 1 ? &b->s[params[i].first] : NULL;
		if (s && from_dwarf(dw, &s->where, &s->reg) && s->offset < 8) {
			s->offset = 0;
			continue;
		}
		params[i].n = 0;
		params[i].unknown = true;
	}
	return true;
}

/* ---- a plan ---------------------------------------------------------------------- */

/* The subprogram DIE of the function at `addr` (bias applied by the caller). */
static bool find_function(Dwfl_Module *mod, uintptr_t addr, Dwarf_Die *fn, struct unit *u)
{
	Dwarf_Addr bias;
	Dwarf_Die *cu = dwfl_module_addrdie(mod, addr, &bias), *scopes = NULL;
	Dwarf_Word lang;
	int n;
	bool found = false;

	/* Clang writes no .debug_aranges: look through the units. */
	for (Dwarf_Die *c = NULL; !cu && (c = dwfl_module_nextcu(mod, c, &bias));)
		if (dwarf_haspc(c, addr - bias) > 0)
			cu = c;
	if (!cu)
		return false;
	u->cplusplus = attr_udata(cu, DW_AT_language, &lang) &&
		       (lang == DW_LANG_C_plus_plus || lang == DW_LANG_C_plus_plus_11 ||
			lang == DW_LANG_C_plus_plus_14 || lang == 0x21 /* C++17 */ ||
			lang == 0x2a /* C++20 */);
	n = dwarf_getscopes(cu, addr - bias, &scopes);
	for (int i = 0; i < n && !found; i++) {
		if (dwarf_tag(&scopes[i]) == DW_TAG_subprogram) {
			*fn = scopes[i];
			found = true;
		}
	}
	free(scopes);
	return found;
}

static void refuse(struct args_plan *p, const char *why)
{
	p->refused = why;
	p->nparams = 0;
	p->nscalars = 0;
}

/* The most bytes a value's scalars take encoded (args_capture.c). */
static uint16_t encoded_bytes(const struct args_scalar *s, uint16_t n)
{
	size_t bytes = 0;

	for (uint16_t i = 0; i < n; i++)
		bytes += s[i].show == ARGS_STRING    ? STRING_VALUE_BYTES
			 : s[i].show == ARGS_LDOUBLE ? 16
						     : 8;
	return (uint16_t)bytes;
}

/* Reads the parameters of `fn` (a subprogram DIE) into `p` through `b`. */
static void read_signature(struct args_plan *p, struct builder *b, Dwarf_Die *fn, Dwarf_Addr pc)
{
	Dwarf_Die c, type, pdies[ARGS_MAX_SCALARS];
	struct placer pl = { 0, 0, 0 };
	uint16_t nparams = 0;
	bool has_ret = type_of(fn, &type), unplaceable = false, uncertain = false;
	struct args_value params[ARGS_MAX_SCALARS];

	/* The return value first: returned in memory, its address takes rdi. */
	memset(&p->ret, 0, sizeof(p->ret));
	if (has_ret) {
		p->ret.type = type_string(b->u, &type);
		if (leaves(b, &type, 0, NULL, 0))
			p->ret.aggregate = b->n > 1 || (b->n == 1 && b->s[0].member);
		else
			b->n = 0;
		if (place_return(b, &type, 0))
			pl.gpr = 1;
		p->ret.first = 0;
		p->ret.n = b->n;
	}
	if (dwarf_child(fn, &c) == 0) {
		do {
			Dwarf_Die ptype;
			struct args_value *v;
			uint16_t first = b->n;
			if (dwarf_tag(&c) == DW_TAG_unspecified_parameters) {
				p->variadic = true;
				continue;
			}
			if (dwarf_tag(&c) != DW_TAG_formal_parameter || nparams == ARGS_MAX_SCALARS)
				continue;
			v = &params[nparams];
			memset(v, 0, sizeof(*v));
			pdies[nparams++] = c;
			v->name = strdup(dwarf_diename(&c) ? dwarf_diename(&c) : "?");
			if (!type_of(&c, &ptype)) {
				v->type = strdup("?");
				continue;
			}
			v->type = type_string(b->u, &ptype);
			if (incomplete(&ptype)) {
				/* Known only if DWARF shows it passed by reference in the next register. */
				if (pl.gpr < GPR_ARGS &&
				    dwarf_address_register(&c, pc) ==
					    dwarf_number(ARGS_GPR, (uint8_t)pl.gpr))
					pl.gpr++;
				else
					uncertain = true;
				v->first = first;
				continue;
			}
			if (!leaves(b, &ptype, 0, NULL, 0))
				b->n = first;
			v->aggregate =
				b->n > first + 1 || (b->n == first + 1 && b->s[first].member);
			place_param(b, &pl, &ptype, first, v, &unplaceable);
			v->first = first;
			v->n = (uint16_t)(b->n - first);
		} while (dwarf_siblingof(&c, &c) == 0);
	}
	if (unplaceable || b->full) {
		refuse(p, unplaceable
				  ? "a parameter this cannot place (a vector wider than 16 bytes)"
				  : "more values than one call's record holds");
		return;
	}
	check_registers(b, params, pdies, nparams, pc, uncertain);
	p->nparams = nparams;
	p->params = malloc(nparams * sizeof(*p->params));
	p->scalars = malloc(b->n * sizeof(*p->scalars));
	if ((nparams && !p->params) || (b->n && !p->scalars)) {
		refuse(p, "no memory");
		return;
	}
	memcpy(p->params, params, nparams * sizeof(*params));
	memcpy(p->scalars, b->s, b->n * sizeof(*b->s));
	p->nscalars = b->n;
}

/* Says once, on stderr, that a selected function was built without -pg -mfentry. */
static void say_finstrument(const char *name)
{
	char line[512];
	int n;

	if (said_finstrument)
		return;
	said_finstrument = true;
	n = snprintf(
		line, sizeof(line),
		"callprof: CALLPROF_ARGS: %s is built with -finstrument-functions; arguments are "
		"captured only in code built with -pg -mfentry\n",
		name);
	if (n > 0 &&
	    write(STDERR_FILENO, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1) < 0)
		return;
}

static struct args_plan *make_plan(Dwfl_Module *mod, struct args_pick *pick)
{
	struct args_plan *p = calloc(1, sizeof(*p));
	struct unit u = { false };
	struct builder b;
	Dwarf_Die fn;
	Dwarf_Addr bias = 0;
	uintptr_t after = fentry_call_end(pick->fn);

	if (!p)
		return NULL;
	p->fn = pick->fn;
	p->key = after ? after : pick->fn;
	p->name = pick->demangled;
	pick->demangled = NULL;
	memset(&b, 0, sizeof(b));
	b.u = &u;
	if (!after) {
		say_finstrument(p->name);
		refuse(p, "built without -pg -mfentry: its arguments are not where a probe can "
			  "read them");
	} else if (strchr(pick->name, '.')) {
		refuse(p, "a copy the compiler made of the function, whose calling convention is "
			  "not its "
			  "declaration's");
	} else if (!mod || !dwfl_module_getdwarf(mod, &bias) ||
		   !find_function(mod, pick->fn, &fn, &u)) {
		refuse(p, "no debug information (build with -g)");
	} else {
		read_signature(p, &b, &fn, after - bias);
	}
	if (!p->refused) {
		p->ret_bytes = encoded_bytes(p->scalars, p->ret.n);
		p->tuple_bytes =
			encoded_bytes(p->scalars + p->ret.n, (uint16_t)(p->nscalars - p->ret.n));
	}
	return p;
}

void args_module(const char *path, uintptr_t base, struct args_pick *picks, size_t n)
{
	Dwfl *dwfl = NULL;
	Dwfl_Module *mod = n ? debuginfo_module(path, base, &dwfl) : NULL;

	for (size_t i = 0; i < n; i++) {
		struct args_plan *p = make_plan(mod, &picks[i]);
		if (p && !publish(p))
			free(p);
		free(picks[i].name);
		free(picks[i].demangled);
	}
	if (dwfl)
		dwfl_end(dwfl);
}
