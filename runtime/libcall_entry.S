/*
 * libcall_entry.S: where every library stub jumps (libstub.h), with its entry
 * in %r11 and the caller's return address at (%rsp), as at a function's first
 * instruction.  Keeps the registers a call may carry arguments in, hands the
 * entry and the return slot to libcall_enter (libcall.c, which touches no
 * vector register: its cold paths save them, hijack.h), and jumps on to the
 * function it returns with the stack exactly as the caller left it.
 */
	.text
	.globl	libcall_entry
	.hidden	libcall_entry
	.type	libcall_entry, @function
	.p2align 4
libcall_entry:
	.cfi_startproc
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	andq	$-16, %rsp			/* the caller's alignment is not ours to trust */
	subq	$64, %rsp
	movq	%rdi, 0(%rsp)			/* integer arguments */
	movq	%rsi, 8(%rsp)
	movq	%rdx, 16(%rsp)
	movq	%rcx, 24(%rsp)
	movq	%r8, 32(%rsp)
	movq	%r9, 40(%rsp)
	movq	%rax, 48(%rsp)			/* %al: the vector registers a variadic call uses */
	movq	%r10, 56(%rsp)
	movq	%r11, %rdi			/* the entry */
	leaq	8(%rbp), %rsi			/* the caller's return slot */
	call	libcall_enter
	movq	%rax, %r11			/* the function: %r11 is free at a call through the PLT */
	movq	0(%rsp), %rdi
	movq	8(%rsp), %rsi
	movq	16(%rsp), %rdx
	movq	24(%rsp), %rcx
	movq	32(%rsp), %r8
	movq	40(%rsp), %r9
	movq	48(%rsp), %rax
	movq	56(%rsp), %r10
	movq	%rbp, %rsp
	.cfi_def_cfa_register %rsp
	popq	%rbp
	.cfi_def_cfa_offset 8
	.cfi_restore %rbp
	jmp	*%r11
	.cfi_endproc
	.size	libcall_entry, .-libcall_entry

	.section .note.GNU-stack, "", @progbits
