/*
 * vfork.S: vfork, interposed.  The child borrows its parent's thread: its
 * memory, its stack and its thread-local state, the profiler's included.
 * Whatever it calls before exec or _exit must neither count into the parent's
 * profile nor hijack returns in the parent's records, so the thread's probes
 * are silenced (probe_silence) across the system call, and the parent gets
 * them back when it resumes.
 *
 * As glibc's vfork does, it keeps its return address in a register: the child
 * returns first and may overwrite the stack word it was in.  A C wrapper could
 * not work at all, its frame being the child's to clobber.
 */
#include <sys/syscall.h>

	.text
	.globl	vfork
	.type	vfork, @function
	.p2align 4
vfork:
	.cfi_startproc
	subq	$8, %rsp
	.cfi_def_cfa_offset 16
	call	probe_silence			/* %rax: the state to give back */
	addq	$8, %rsp
	.cfi_def_cfa_offset 8
	movq	%rax, %rsi			/* kept by the system call */
	popq	%rdi				/* the return address, out of the stack */
	.cfi_def_cfa_offset 0
	.cfi_register %rip, %rdi
	movl	$SYS_vfork, %eax
	syscall
	pushq	%rdi
	.cfi_def_cfa_offset 8
	.cfi_offset %rip, -8
	testq	%rax, %rax
	jz	1f				/* the child: silenced until exec or _exit */
	pushq	%rax
	.cfi_def_cfa_offset 16
	movq	%rsi, %rdi
	call	probe_unsilence
	popq	%rax
	.cfi_def_cfa_offset 8
	cmpq	$-4095, %rax
	jae	2f
1:	ret
2:	negl	%eax				/* -errno */
	pushq	%rax
	.cfi_def_cfa_offset 16
	call	__errno_location@PLT
	popq	%rcx
	.cfi_def_cfa_offset 8
	movl	%ecx, (%rax)
	movq	$-1, %rax
	ret
	.cfi_endproc
	.size	vfork, .-vfork

	.section .note.GNU-stack, "", @progbits
