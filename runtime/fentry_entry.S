/*
 * fentry_entry.S: __fentry__, which -pg -mfentry (GCC, Clang) calls as the very first
 * instruction of every function: before its prologue, every argument still in
 * its register.  It keeps the registers a call may carry arguments in, and
 * hands the function's return slot to fentry_enter (fentry.c), which touches
 * no vector register (the cold paths it calls save them: hijack.h).
 *
 * On entry (%rsp) is the address just after the call in the function F, and
 * 8(%rsp) F's return slot.  The stack may be misaligned: GCC calls a local
 * function that needs no alignment with %rsp 8 bytes off (-fipa-stack-alignment),
 * and fentry.c, built with -mstackrealign, realigns it itself.
 * %rsp moves here by constants only, and a hijacked call's return slot is
 * written here, at a constant offset from it, once fentry_enter has recorded
 * the call (HIJACK_FAST_PENDING, hijack.h: what that saves).
 */
	.text
	.globl	__fentry__
	.type	__fentry__, @function
	.p2align 4
__fentry__:
	.cfi_startproc
	subq	$64, %rsp
	.cfi_def_cfa_offset 72
	movq	%rdi, 0(%rsp)			/* integer arguments */
	movq	%rsi, 8(%rsp)
	movq	%rdx, 16(%rsp)
	movq	%rcx, 24(%rsp)
	movq	%r8, 32(%rsp)
	movq	%r9, 40(%rsp)
	movq	%rax, 48(%rsp)			/* %al: the vector registers a variadic call uses */
	movq	%r10, 56(%rsp)			/* GCC's static chain (nested functions) */
	leaq	72(%rsp), %rdi			/* F's return slot */
	movq	64(%rsp), %rsi			/* just after the call in F */
	movq	%rsp, %rdx			/* the saved registers, in that order */
	call	fentry_enter			/* %rax: the slot's next word; %rdx: busy, or 0 */
	testq	%rdx, %rdx
	jz	2f
	leaq	hijack_trampoline(%rip), %rcx
	testq	%rax, %rax
	jnz	1f
	movq	%rcx, 72(%rsp)			/* the swap */
	movl	$0, (%rdx)			/* the probe's release */
	jmp	2f
1:	movq	%rcx, 80(%rsp)			/* a nested function's slot, above its saved %r10 */
	movl	$0, (%rdx)
2:	movq	0(%rsp), %rdi
	movq	8(%rsp), %rsi
	movq	16(%rsp), %rdx
	movq	24(%rsp), %rcx
	movq	32(%rsp), %r8
	movq	40(%rsp), %r9
	movq	48(%rsp), %rax
	movq	56(%rsp), %r10
	addq	$64, %rsp
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	__fentry__, .-__fentry__

	.section .note.GNU-stack, "", @progbits
