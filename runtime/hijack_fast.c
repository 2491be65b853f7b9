/*
 * hijack_fast.c: the hot half of the return hijack (hijack.h): the exit
 * trampoline and its unwind information, the exit a hijacked return takes
 * through it, and hijack_call_saved, which runs cold C with every vector
 * register saved.  Built with -mgeneral-regs-only: nothing here touches a
 * vector or x87 register, which may hold the function's return value (and the
 * upper halves of ymm0 and ymm1 only survive code that never executes a VEX
 * instruction).  The cold half (hijack.c) lies above it: the trampoline
 * reaches the personality routine and the slow exit through pointers that
 * hijack.c sets before the first hijack.
 */
#include <cpuid.h>
#include <stdint.h>

#include "compat.h"
#include "hijack.h"
#include "meter.h"
#include "probe.h"
#include "stamp.h"
#include "tstate.h"

/* Bits of XCR0 kept by hijack_call_saved (x87, SSE, AVX, AVX-512: opmask, upper
 * halves of zmm0-15, zmm16-31), the bytes its save area has (their standard
 * layout ends at 2688), and the value of hijack_save_mask that means fxsave. */
#define SAVE_COMPONENTS 0xe7u
#define SAVE_BYTES 4096u
#define SAVE_FXSAVE_ONLY (1u << 31)

/* What hijack_call_saved passes xsave; 0 until hijack_save_init. */
unsigned hijack_save_mask;
/* hijack.c's, set before the first hijack (hijack.h): the slow exit, and the
 * personality routine the trampoline's unwind information names (through
 * hijack_personality_stub). */
hijack_exit_slow_fn hijack_exit_slow;
void *hijack_personality_fn;

/* Called by the assembly below. */
void hijack_save_init(void);

/*
 * uintptr_t hijack_call_saved(fn, a, b, c): returns fn(a, b, c, area) with the
 * vector, mask and x87 state as it was before the call (xsave and xrstor, with
 * the header of the save area zeroed as xrstor wants it; fxsave without xsave).
 */
__asm__("	.text\n"
	"	.globl	hijack_call_saved\n"
	"	.hidden	hijack_call_saved\n"
	"	.type	hijack_call_saved, @function\n"
	"	.p2align 4\n"
	"hijack_call_saved:\n"
	"	.cfi_startproc\n"
	"	pushq	%rbp\n"
	"	.cfi_def_cfa_offset 16\n"
	"	.cfi_offset %rbp, -16\n"
	"	movq	%rsp, %rbp\n"
	"	.cfi_def_cfa_register %rbp\n"
	"	pushq	%rbx\n"
	"	.cfi_offset %rbx, -24\n"
	"	pushq	%r12\n"
	"	.cfi_offset %r12, -32\n"
	"	pushq	%r13\n"
	"	.cfi_offset %r13, -40\n"
	"	pushq	%r14\n"
	"	.cfi_offset %r14, -48\n"
	"	movq	%rdi, %rbx\n"
	"	movq	%rsi, %r12\n"
	"	movq	%rdx, %r13\n"
	"	movq	%rcx, %r14\n"
	"	subq	$4096, %rsp\n"
	"	andq	$-64, %rsp\n"
	"	movl	hijack_save_mask(%rip), %eax\n"
	"	testl	%eax, %eax\n"
	"	jnz	1f\n"
	"	call	hijack_save_init\n"
	"	movl	hijack_save_mask(%rip), %eax\n"
	"1:	btl	$31, %eax\n"
	"	jc	2f\n"
	"	xorl	%edx, %edx\n"
	"	movq	%rdx, 512(%rsp)\n"
	"	movq	%rdx, 520(%rsp)\n"
	"	movq	%rdx, 528(%rsp)\n"
	"	movq	%rdx, 536(%rsp)\n"
	"	movq	%rdx, 544(%rsp)\n"
	"	movq	%rdx, 552(%rsp)\n"
	"	movq	%rdx, 560(%rsp)\n"
	"	movq	%rdx, 568(%rsp)\n"
	"	xsave	(%rsp)\n"
	"	jmp	3f\n"
	"2:	fxsave	(%rsp)\n"
	"3:	movq	%r12, %rdi\n"
	"	movq	%r13, %rsi\n"
	"	movq	%r14, %rdx\n"
	"	movq	%rsp, %rcx\n"
	"	call	*%rbx\n"
	"	movq	%rax, %rbx\n"
	"	movl	hijack_save_mask(%rip), %eax\n"
	"	btl	$31, %eax\n"
	"	jc	4f\n"
	"	xorl	%edx, %edx\n"
	"	xrstor	(%rsp)\n"
	"	jmp	5f\n"
	"4:	fxrstor	(%rsp)\n"
	"5:	movq	%rbx, %rax\n"
	"	leaq	-32(%rbp), %rsp\n"
	"	popq	%r14\n"
	"	popq	%r13\n"
	"	popq	%r12\n"
	"	popq	%rbx\n"
	"	popq	%rbp\n"
	"	.cfi_def_cfa %rsp, 8\n"
	"	ret\n"
	"	.cfi_endproc\n"
	"	.size	hijack_call_saved, .-hijack_call_saved\n");

/*
 * The trampoline.  A hijacked function's `ret` lands on hijack_trampoline with
 * %rsp one word above the slot its return address was in.  It keeps the
 * return registers of every kind: rax and rdx here, xmm0, xmm1 and st0, st1
 * because the fast path (hijack_exit) touches no vector or x87 register and
 * the slow one saves them all (hijack_call_saved).  It returns through r11,
 * which is scratch at a return, as at a call through the PLT.
 *
 * Its unwind information (FDE) starts a byte early, since unwinders look up
 * the return address minus one, and describes a frame of no size: CFA = %rsp
 * at the landing, the return address in the word below it, the slot.  The
 * personality routine writes the real return address back there before the
 * unwinder reads it (exceptions, forced unwinding).  For unwinders that call no
 * personality (gdb, a profiler's), the return address rule yields 0, the end of
 * the stack, while the slot still holds the trampoline: DW_CFA_val_expression
 * rip { CFA; lit8; minus; deref (the slot's word A); dup; deref (8 bytes at A);
 * const8u MAGIC; eq; bra 3; skip 2; drop; lit0 }, MAGIC being the first 8
 * bytes of the trampoline's first instruction, a nop whose 4-byte displacement
 * (43 50 52 43) no other code holds.  The personality is reached through a stub,
 * so this object names nothing of hijack.c.
 */
__asm__("	.text\n"
	"	.p2align 4\n"
	"hijack_personality_stub:\n"
	"	jmp	*hijack_personality_fn(%rip)\n"
	"	.text\n"
	"	.globl	hijack_trampoline\n"
	"	.hidden	hijack_trampoline\n"
	"	.globl	callprof_return_trampoline\n"
	"	.type	hijack_trampoline, @function\n"
	"	.type	callprof_return_trampoline, @function\n"
	"	.p2align 4\n"
	"hijack_trampoline_fde:\n"
	"	.cfi_startproc\n"
	"	.cfi_personality 0x1b, hijack_personality_stub\n"
	"	.cfi_def_cfa %rsp, 0\n"
	"	.cfi_escape 0x16, 0x10, 0x17, 0x38, 0x1c, 0x06, 0x12, 0x06, 0x0e, 0x66, 0x0f, "
	"0x1f, 0x84, 0x00, 0x43, 0x50, 0x52, 0x29, 0x28, 0x03, 0x00, 0x2f, 0x02, 0x00, 0x13, 0x30\n"
	"	nop\n"
	"hijack_trampoline:\n"
	"callprof_return_trampoline:\n"
	"	nopw	0x43525043(%rax, %rax, 1)\n"
	"	subq	$8, %rsp\n"
	"	.cfi_def_cfa_offset 8\n"
	"	pushq	%rbp\n"
	"	.cfi_def_cfa_offset 16\n"
	"	.cfi_offset %rbp, -16\n"
	"	movq	%rsp, %rbp\n"
	"	.cfi_def_cfa_register %rbp\n"
	"	andq	$-16, %rsp\n"
	"	subq	$16, %rsp\n"
	"	movq	%rax, 0(%rsp)\n"
	"	movq	%rdx, 8(%rsp)\n"
	"	leaq	8(%rbp), %rdi\n"
	"	movq	%rsp, %rsi\n"
	"	call	hijack_exit\n"
	"	movq	%rax, %r11\n"
	"	movq	0(%rsp), %rax\n"
	"	movq	8(%rsp), %rdx\n"
	"	movq	%rbp, %rsp\n"
	"	.cfi_def_cfa_register %rsp\n"
	"	popq	%rbp\n"
	"	.cfi_def_cfa_offset 8\n"
	"	.cfi_restore %rbp\n"
	"	addq	$8, %rsp\n"
	"	.cfi_def_cfa_offset 0\n"
	"	jmp	*%r11\n"
	"	.cfi_endproc\n"
	"	.size	hijack_trampoline, .-hijack_trampoline\n"
	"	.size	callprof_return_trampoline, .-callprof_return_trampoline\n");

static uint64_t read_xcr0(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return (uint64_t)hi << 32 | lo;
}

/* xsave where the processor and kernel have it and the kept components fit the
 * area at their offsets; else fxsave (no upper halves to keep there anyway). */
void hijack_save_init(void)
{
	unsigned a, b, c, d, mask = SAVE_FXSAVE_ONLY;

	if (__get_cpuid(1, &a, &b, &c, &d) && (c & bit_XSAVE) && (c & bit_OSXSAVE)) {
		unsigned want = (unsigned)read_xcr0() & SAVE_COMPONENTS;
		unsigned fits = 1;
		for (unsigned i = 2; i < 8; i++) {
			if (!(want & 1u << i))
				continue;
			__cpuid_count(0xd, i, a, b, c, d);
			fits &= a + b <= SAVE_BYTES; /* size + offset */
		}
		if (fits)
			mask = want;
	}
	__atomic_store_n(&hijack_save_mask, mask, __ATOMIC_RELAXED);
}

/*
 * The exit of a call whose record has an exit hook (`r`, on top: the argument
 * capture's, args.h), held at `now` (stamp_exit_first's): the slow exit runs
 * the hook and closes the call at its exit time, read here if put off, and
 * what it takes from then until it is back is measured, for its node's
 * capture_ticks.  The probe is taken again for that, as hijack_restamp does.
 */
static uintptr_t exit_captured(struct tstate *t, const struct hijack_rec *r, uintptr_t *slot,
			       const uintptr_t regs[2], uint64_t now)
{
	const struct frame *top = &t->stack.base[t->stack.depth - 1];
	struct cct_node *node = t->stack.depth > 1 && top->fn == r->fn ? top->node : NULL;
	uint64_t began = stamp_exit_resolve(now), back;
	uintptr_t orig = hijack_call_saved(hijack_exit_slow, (uintptr_t)slot | HIJACK_EXIT_HELD,
					   (uintptr_t)regs, began);

	if (node && began && probe_hold(t)) {
		back = stamp_enter_read();
		node->capture_ticks += back > began ? back - began : 0;
		probe_release(t);
	}
	return orig;
}

uintptr_t hijack_exit(uintptr_t *slot, const uintptr_t regs[2])
{
	struct tstate *t = tstate_self;

	if (likely(probe_hold(t))) {
		struct hijack_stack *h = &t->ret;
		struct hijack_rec *r = h->depth ? &h->base[h->depth - 1] : NULL;
		bool metered = meter_exit_begin(t);
		uint64_t now = stamp_exit_first(); /* once held: probe.h */

		if (likely(r && r->slot == slot)) {
			if (unlikely(r->aux))
				return exit_captured(t, r, slot, regs, now);
			if (likely(probe_close_fast_held(t, r->fn, HIJACK_SP(slot), &now))) {
				uintptr_t orig = r->orig;

				h->depth--;
				*slot = orig;
				meter_exit_end(t, metered, &t->stack.base[t->stack.depth], now);
				probe_release(t);
				return orig;
			}
			/* Its record tops this level: closed there, still held, at `now`. */
			return hijack_call_saved(hijack_exit_slow,
						 (uintptr_t)slot | HIJACK_EXIT_HELD,
						 (uintptr_t)regs, now);
		}
		probe_release(t);
	}
	return hijack_call_saved(hijack_exit_slow, (uintptr_t)slot, (uintptr_t)regs, 0);
}
