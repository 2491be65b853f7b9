/*
 * libcall_entry.S: where every library stub jumps (libstub.h), with its entry
 * in %r11 and the caller's return address at (%rsp), as at a function's first
 * instruction.  Keeps the registers a call may carry arguments in, hands the
 * entry and the return slot to libcall_enter (libcall.c, which touches no
 * vector register: its cold paths save them, hijack.h), and jumps on to the
 * function it returns with the stack exactly as the caller left it.  As
 * __fentry__ does (fentry_entry.S), it moves %rsp by constants only, and
 * swaps the return address itself.
 */
	.text
	.globl	libcall_entry
	.hidden	libcall_entry
	.type	libcall_entry, @function
	.p2align 4
libcall_entry:
	.cfi_startproc
	subq	$64, %rsp			/* libcall.c, built with -mstackrealign,
						 * aligns its own */
	.cfi_def_cfa_offset 72
	movq	%rdi, 0(%rsp)			/* integer arguments */
	movq	%rsi, 8(%rsp)
	movq	%rdx, 16(%rsp)
	movq	%rcx, 24(%rsp)
	movq	%r8, 32(%rsp)
	movq	%r9, 40(%rsp)
	movq	%rax, 48(%rsp)			/* %al: the vector registers a variadic call uses */
	movq	%r10, 56(%rsp)
	movq	%r11, %rdi			/* the entry */
	leaq	64(%rsp), %rsi			/* the caller's return slot */
	call	libcall_enter			/* %rax: the function; %rdx: busy, or 0 */
	movq	%rax, %r11			/* the function: %r11 is free at a call through the PLT */
	testq	%rdx, %rdx
	jz	1f
	leaq	hijack_trampoline(%rip), %rcx
	movq	%rcx, 64(%rsp)			/* the swap (HIJACK_FAST_PENDING, hijack.h) */
	movl	$0, (%rdx)			/* the probe's release */
1:	movq	0(%rsp), %rdi
	movq	8(%rsp), %rsi
	movq	16(%rsp), %rdx
	movq	24(%rsp), %rcx
	movq	32(%rsp), %r8
	movq	40(%rsp), %r9
	movq	48(%rsp), %rax
	movq	56(%rsp), %r10
	addq	$64, %rsp
	.cfi_def_cfa_offset 8
	jmp	*%r11
	.cfi_endproc
	.size	libcall_entry, .-libcall_entry

	.section .note.GNU-stack, "", @progbits
