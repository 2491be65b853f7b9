/*
 * libcall_entry.S: where every library stub jumps (libstub.h), with its entry
 * in %r11 and the caller's return address at (%rsp), as at any function's
 * first instruction.  Saves the argument registers, asks libcall_enter for
 * the function, and jumps to it with every register and the stack as the
 * caller left them; when a slow path is needed, saves the whole vector state
 * (xsave) around libcall_enter_cold (libcall.h says why).
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
	andq	$-16, %rsp		/* the caller's alignment is not ours to trust */
	subq	$208, %rsp
	/* 0..127 xmm0-7; 128..191 the integer argument registers, %rax (a variadic
	 * call's vector count) and %r10; 192 the entry; 200 %rbx in the cold path */
	movaps	%xmm0, 0(%rsp)
	movaps	%xmm1, 16(%rsp)
	movaps	%xmm2, 32(%rsp)
	movaps	%xmm3, 48(%rsp)
	movaps	%xmm4, 64(%rsp)
	movaps	%xmm5, 80(%rsp)
	movaps	%xmm6, 96(%rsp)
	movaps	%xmm7, 112(%rsp)
	movq	%rdi, 128(%rsp)
	movq	%rsi, 136(%rsp)
	movq	%rdx, 144(%rsp)
	movq	%rcx, 152(%rsp)
	movq	%r8, 160(%rsp)
	movq	%r9, 168(%rsp)
	movq	%rax, 176(%rsp)
	movq	%r10, 184(%rsp)
	movq	%r11, 192(%rsp)
	movq	%r11, %rdi		/* the entry */
	leaq	8(%rbp), %rsi		/* the caller's return slot */
	call	libcall_enter
	testq	%rax, %rax
	jz	.Lcold
.Lgo:
	movq	%rax, %r11		/* the function */
	movaps	0(%rsp), %xmm0
	movaps	16(%rsp), %xmm1
	movaps	32(%rsp), %xmm2
	movaps	48(%rsp), %xmm3
	movaps	64(%rsp), %xmm4
	movaps	80(%rsp), %xmm5
	movaps	96(%rsp), %xmm6
	movaps	112(%rsp), %xmm7
	movq	128(%rsp), %rdi
	movq	136(%rsp), %rsi
	movq	144(%rsp), %rdx
	movq	152(%rsp), %rcx
	movq	160(%rsp), %r8
	movq	168(%rsp), %r9
	movq	176(%rsp), %rax
	movq	184(%rsp), %r10
	.cfi_remember_state
	movq	%rbp, %rsp
	.cfi_def_cfa_register %rsp
	popq	%rbp
	.cfi_restore %rbp
	.cfi_def_cfa_offset 8
	jmp	*%r11

.Lcold:
	.cfi_restore_state
	movq	%rbx, 200(%rsp)
	movq	%rsp, %rbx		/* the save area, across a variable-sized xsave area */
	movl	libcall_xsave_bytes(%rip), %ecx
	testl	%ecx, %ecx
	jz	1f
	subq	%rcx, %rsp
	andq	$-64, %rsp
	xorl	%eax, %eax		/* xsave leaves the header's reserved bytes as they are */
	movq	%rax, 512(%rsp)
	movq	%rax, 520(%rsp)
	movq	%rax, 528(%rsp)
	movq	%rax, 536(%rsp)
	movq	%rax, 544(%rsp)
	movq	%rax, 552(%rsp)
	movq	%rax, 560(%rsp)
	movq	%rax, 568(%rsp)
	movl	libcall_xsave_mask(%rip), %eax
	movl	libcall_xsave_mask+4(%rip), %edx
	cmpb	$0, libcall_xsavec(%rip)
	je	2f
	xsavec	(%rsp)
	jmp	1f
2:	xsave	(%rsp)
1:	movq	192(%rbx), %rdi
	leaq	8(%rbp), %rsi
	call	libcall_enter_cold
	movq	%rax, 192(%rbx)		/* the function, across xrstor */
	cmpl	$0, libcall_xsave_bytes(%rip)
	je	3f
	movl	libcall_xsave_mask(%rip), %eax
	movl	libcall_xsave_mask+4(%rip), %edx
	xrstor	(%rsp)
3:	movq	%rbx, %rsp
	movq	200(%rsp), %rbx
	movq	192(%rsp), %rax
	jmp	.Lgo
	.cfi_endproc
	.size	libcall_entry, .-libcall_entry

	.section .note.GNU-stack,"",@progbits
