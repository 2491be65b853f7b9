/*
 * hijack_tramp.S: the exit trampoline a hijacked return lands in, its unwind
 * information, and hijack_call_saved, which runs cold C code with every vector
 * register saved (hijack.h).  x86-64 System V.
 */

/* Bits of XCR0 whose state hijack_call_saved keeps: x87, SSE, AVX, AVX-512
 * (opmask, upper halves of zmm0-15, zmm16-31). */
#define SAVE_COMPONENTS 0xe7
/* Bytes of stack for the save area: the standard xsave layout of those ends at
 * 2688; hijack_save_init checks the processor's offsets fit. */
#define SAVE_BYTES 4096
/* hijack_save_mask's bit for "no xsave: fxsave" (the legacy 512-byte area). */
#define SAVE_FXSAVE_ONLY 31

	.text

/*
 * uintptr_t hijack_call_saved(fn, a, b, c): returns fn(a, b, c, area) with
 * the vector, mask and x87 state as it was before the call.
 */
	.globl	hijack_call_saved
	.hidden	hijack_call_saved
	.type	hijack_call_saved, @function
	.p2align 4
hijack_call_saved:
	.cfi_startproc
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	pushq	%rbx
	.cfi_offset %rbx, -24
	pushq	%r12
	.cfi_offset %r12, -32
	pushq	%r13
	.cfi_offset %r13, -40
	pushq	%r14
	.cfi_offset %r14, -48
	movq	%rdi, %rbx			/* fn, a, b, c: kept across what follows */
	movq	%rsi, %r12
	movq	%rdx, %r13
	movq	%rcx, %r14
	subq	$SAVE_BYTES, %rsp
	andq	$-64, %rsp			/* xsave wants 64-byte alignment */
	movl	hijack_save_mask(%rip), %eax
	testl	%eax, %eax
	jnz	1f
	call	hijack_save_init		/* once: leaves every vector register alone */
	movl	hijack_save_mask(%rip), %eax
1:	btl	$SAVE_FXSAVE_ONLY, %eax
	jc	2f
	xorl	%edx, %edx			/* the xsave header must be zero for xrstor */
	movq	%rdx, 512(%rsp)
	movq	%rdx, 520(%rsp)
	movq	%rdx, 528(%rsp)
	movq	%rdx, 536(%rsp)
	movq	%rdx, 544(%rsp)
	movq	%rdx, 552(%rsp)
	movq	%rdx, 560(%rsp)
	movq	%rdx, 568(%rsp)
	xsave	(%rsp)
	jmp	3f
2:	fxsave	(%rsp)
3:	movq	%r12, %rdi
	movq	%r13, %rsi
	movq	%r14, %rdx
	movq	%rsp, %rcx
	call	*%rbx
	movq	%rax, %rbx			/* fn's result */
	movl	hijack_save_mask(%rip), %eax
	btl	$SAVE_FXSAVE_ONLY, %eax
	jc	4f
	xorl	%edx, %edx
	xrstor	(%rsp)
	jmp	5f
4:	fxrstor	(%rsp)
5:	movq	%rbx, %rax
	leaq	-32(%rbp), %rsp
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbx
	popq	%rbp
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	hijack_call_saved, .-hijack_call_saved

/*
 * The trampoline.  A hijacked function's `ret` lands on hijack_trampoline with
 * %rsp one word above the slot its return address was in.  It keeps the
 * return registers of every kind: rax and rdx here, xmm0, xmm1 and st0, st1
 * because the fast path (hijack_exit) touches no vector or x87 register and
 * the slow one saves them all (hijack_call_saved).
 *
 * Its unwind information (FDE) starts a byte early, since unwinders look up
 * the return address minus one, and describes a frame of no size: CFA = %rsp
 * at the landing, the return address in the word below it, the slot.  The
 * personality routine hijack_personality writes the real return address back
 * there before the unwinder reads it (exceptions, forced unwinding).  For
 * unwinders that call no personality (gdb, a profiler's), the return address
 * rule yields 0, the end of the stack, while the slot still holds the
 * trampoline: DW_CFA_val_expression rip { CFA; lit8; minus; deref (the slot's
 * word A); dup; deref (8 bytes at A); const8u MAGIC; eq; bra 3; skip 2;
 * drop; lit0 }, MAGIC being the first 8 bytes of the trampoline's first
 * instruction, a nop with a 4-byte displacement no other code holds.
 */
	.hidden	hijack_personality
	.globl	hijack_trampoline
	.hidden	hijack_trampoline
	.globl	callprof_return_trampoline
	.type	hijack_trampoline, @function
	.type	callprof_return_trampoline, @function
	.p2align 4
hijack_trampoline_fde:
	.cfi_startproc
	.cfi_personality 0x1b, hijack_personality	/* DW_EH_PE_pcrel | DW_EH_PE_sdata4 */
	.cfi_def_cfa %rsp, 0
	.cfi_escape 0x16, 0x10, 0x17, 0x38, 0x1c, 0x06, 0x12, 0x06, 0x0e, 0x66, 0x0f, 0x1f, 0x84, 0x00, 0x43, 0x50, 0x52, 0x29, 0x28, 0x03, 0x00, 0x2f, 0x02, 0x00, 0x13, 0x30
	nop
hijack_trampoline:
callprof_return_trampoline:
	nopw	0x43525043(%rax, %rax, 1)	/* 66 0f 1f 84 00 43 50 52 43: MAGIC */
	subq	$8, %rsp			/* %rsp = the slot, kept below the frame */
	.cfi_def_cfa_offset 8
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	andq	$-16, %rsp
	subq	$16, %rsp
	movq	%rax, 0(%rsp)
	movq	%rdx, 8(%rsp)
	leaq	8(%rbp), %rdi			/* the slot */
	movq	%rsp, %rsi			/* rax, rdx */
	call	hijack_exit			/* where the call returns to */
	movq	%rax, %r11			/* scratch at a return, as at a call through the PLT */
	movq	0(%rsp), %rax
	movq	8(%rsp), %rdx
	movq	%rbp, %rsp
	.cfi_def_cfa_register %rsp
	popq	%rbp
	.cfi_def_cfa_offset 8
	.cfi_restore %rbp
	addq	$8, %rsp
	.cfi_def_cfa_offset 0
	jmp	*%r11
	.cfi_endproc
	.size	hijack_trampoline, .-hijack_trampoline
	.size	callprof_return_trampoline, .-callprof_return_trampoline

	.section .note.GNU-stack, "", @progbits
