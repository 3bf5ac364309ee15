	.text
	.file	"passlab"
	.section	.rodata.cst4,"aM",@progbits,4
	.p2align	2
.LCPI0_0:
	.long	0x3727c5ac
.LCPI0_1:
	.long	0x3f800000
	.text
	.globl	fused_add_sqrt_divide_multiply
	.p2align	4, 0x90
	.type	fused_add_sqrt_divide_multiply,@function
fused_add_sqrt_divide_multiply:
	vmovups	(%rdi), %xmm0
	vaddps	.LCPI0_0(%rip){1to4}, %xmm0, %xmm0
	vsqrtps	%xmm0, %xmm0
	vbroadcastss	.LCPI0_1(%rip), %xmm1
	vdivps	%xmm0, %xmm1, %xmm0
	vmulps	(%rsi), %xmm0, %xmm0
	vmovups	%xmm0, (%rdx)
	retq
.Lfunc_end0:
	.size	fused_add_sqrt_divide_multiply, .Lfunc_end0-fused_add_sqrt_divide_multiply

	.globl	fused_expand_dims
	.p2align	4, 0x90
	.type	fused_expand_dims,@function
fused_expand_dims:
	vmovups	(%rdi), %xmm0
	vmovups	%xmm0, (%rsi)
	retq
.Lfunc_end1:
	.size	fused_expand_dims, .Lfunc_end1-fused_expand_dims

	.globl	fused_multiply
	.p2align	4, 0x90
	.type	fused_multiply,@function
fused_multiply:
	vmovups	(%rdi), %zmm0
	vmovups	64(%rdi), %zmm1
	vmovups	128(%rdi), %zmm2
	vmovups	192(%rdi), %zmm3
	vaddps	%zmm0, %zmm0, %zmm0
	vaddps	%zmm1, %zmm1, %zmm1
	vaddps	%zmm2, %zmm2, %zmm2
	vaddps	%zmm3, %zmm3, %zmm3
	vmovups	%zmm0, (%rsi)
	vmovups	%zmm1, 64(%rsi)
	vmovups	%zmm2, 128(%rsi)
	vmovups	%zmm3, 192(%rsi)
	vmovups	256(%rdi), %zmm0
	vmovups	320(%rdi), %zmm1
	vmovups	384(%rdi), %zmm2
	vmovups	448(%rdi), %zmm3
	vaddps	%zmm0, %zmm0, %zmm0
	vaddps	%zmm1, %zmm1, %zmm1
	vaddps	%zmm2, %zmm2, %zmm2
	vaddps	%zmm3, %zmm3, %zmm3
	vmovups	%zmm0, 256(%rsi)
	vmovups	%zmm1, 320(%rsi)
	vmovups	%zmm2, 384(%rsi)
	vmovups	%zmm3, 448(%rsi)
	vmovups	512(%rdi), %zmm0
	vmovups	576(%rdi), %zmm1
	vmovups	640(%rdi), %zmm2
	vmovups	704(%rdi), %zmm3
	vaddps	%zmm0, %zmm0, %zmm0
	vaddps	%zmm1, %zmm1, %zmm1
	vaddps	%zmm2, %zmm2, %zmm2
	vaddps	%zmm3, %zmm3, %zmm3
	vmovups	%zmm0, 512(%rsi)
	vmovups	%zmm1, 576(%rsi)
	vmovups	%zmm2, 640(%rsi)
	vmovups	%zmm3, 704(%rsi)
	vmovups	768(%rdi), %zmm0
	vmovups	832(%rdi), %zmm1
	vmovups	896(%rdi), %zmm2
	vmovups	960(%rdi), %zmm3
	vaddps	%zmm0, %zmm0, %zmm0
	vaddps	%zmm1, %zmm1, %zmm1
	vaddps	%zmm2, %zmm2, %zmm2
	vaddps	%zmm3, %zmm3, %zmm3
	vmovups	%zmm0, 768(%rsi)
	vmovups	%zmm1, 832(%rsi)
	vmovups	%zmm2, 896(%rsi)
	vmovups	%zmm3, 960(%rsi)
	vzeroupper
	retq
.Lfunc_end2:
	.size	fused_multiply, .Lfunc_end2-fused_multiply

	.globl	fused_negative_multiply_add_expand_dims
	.p2align	4, 0x90
	.type	fused_negative_multiply_add_expand_dims,@function
fused_negative_multiply_add_expand_dims:
	vmovups	(%rdi), %xmm0
	vmovups	(%rdx), %xmm1
	vmulps	(%rsi), %xmm0, %xmm0
	vsubps	%xmm0, %xmm1, %xmm0
	vmovups	%xmm0, (%rcx)
	retq
.Lfunc_end3:
	.size	fused_negative_multiply_add_expand_dims, .Lfunc_end3-fused_negative_multiply_add_expand_dims

	.globl	fused_nn_conv2d_nn_bias_add_multiply_add_multiply
	.p2align	4, 0x90
	.type	fused_nn_conv2d_nn_bias_add_multiply_add_multiply,@function
fused_nn_conv2d_nn_bias_add_multiply_add_multiply:
	pushq	%rbp
	movq	%rsp, %rbp
	pushq	%r15
	pushq	%r14
	pushq	%r13
	pushq	%r12
	pushq	%rbx
	andq	$-64, %rsp
	subq	$2944, %rsp
	movq	%r9, %r13
	movq	%r8, %r12
	movq	%rcx, 48(%rsp)
	movq	%rdx, 56(%rsp)
	movq	%rsi, %rbx
	movq	%rdi, %r14
	leaq	1600(%rsp), %rdi
	xorl	%r15d, %r15d
	movl	$1272, %edx
	xorl	%esi, %esi
	callq	memset@PLT
	vmovups	(%r14), %ymm0
	vmovups	%ymm0, 1644(%rsp)
	vmovups	32(%r14), %ymm0
	vmovups	%ymm0, 1684(%rsp)
	vmovups	64(%r14), %ymm0
	vmovups	%ymm0, 1724(%rsp)
	vmovups	96(%r14), %ymm0
	vmovups	%ymm0, 1764(%rsp)
	vmovups	128(%r14), %ymm0
	vmovups	%ymm0, 1804(%rsp)
	vmovups	160(%r14), %ymm0
	vmovups	%ymm0, 1844(%rsp)
	vmovups	192(%r14), %ymm0
	vmovups	%ymm0, 1884(%rsp)
	vmovups	224(%r14), %ymm0
	vmovups	%ymm0, 1924(%rsp)
	vmovups	256(%r14), %ymm0
	vmovups	%ymm0, 2044(%rsp)
	vmovups	288(%r14), %ymm0
	vmovups	%ymm0, 2084(%rsp)
	vmovups	320(%r14), %ymm0
	vmovups	%ymm0, 2124(%rsp)
	vmovups	352(%r14), %ymm0
	vmovups	%ymm0, 2164(%rsp)
	vmovups	384(%r14), %ymm0
	vmovups	%ymm0, 2204(%rsp)
	vmovups	416(%r14), %ymm0
	vmovups	%ymm0, 2244(%rsp)
	vmovups	448(%r14), %ymm0
	vmovups	%ymm0, 2284(%rsp)
	vmovups	480(%r14), %ymm0
	vmovups	%ymm0, 2324(%rsp)
	vmovups	512(%r14), %ymm0
	vmovups	%ymm0, 2444(%rsp)
	vmovups	544(%r14), %ymm0
	vmovups	%ymm0, 2484(%rsp)
	vmovups	576(%r14), %ymm0
	vmovups	%ymm0, 2524(%rsp)
	vmovups	608(%r14), %ymm0
	vmovups	%ymm0, 2564(%rsp)
	vmovups	640(%r14), %ymm0
	vmovups	%ymm0, 2604(%rsp)
	vmovups	672(%r14), %ymm0
	vmovups	%ymm0, 2644(%rsp)
	vmovups	704(%r14), %ymm0
	vmovups	%ymm0, 2684(%rsp)
	vmovups	736(%r14), %ymm0
	vmovups	%ymm0, 2724(%rsp)
	leaq	64(%rsp), %rdi
	movl	$1536, %edx
	xorl	%esi, %esi
	vzeroupper
	callq	memset@PLT
	addq	$356, %rbx
	leaq	1688(%rsp), %rax
	.p2align	4, 0x90
.LBB4_1:
	movq	%r15, %rcx
	shlq	$5, %rcx
	vxorps	%xmm25, %xmm25, %xmm25
	movq	$-108, %rdx
	movq	%rax, %rsi
	vxorps	%xmm23, %xmm23, %xmm23
	vxorps	%xmm26, %xmm26, %xmm26
	vxorps	%xmm27, %xmm27, %xmm27
	vxorps	%xmm17, %xmm17, %xmm17
	vxorps	%xmm18, %xmm18, %xmm18
	vxorps	%xmm0, %xmm0, %xmm0
	vxorps	%xmm1, %xmm1, %xmm1
	.p2align	4, 0x90
.LBB4_2:
	vmovups	-24(%rsi), %zmm21
	vmovups	-20(%rsi), %zmm19
	vmovups	-16(%rsi), %zmm15
	vmovups	16(%rsi), %zmm13
	vmovups	-88(%rsi), %zmm24
	vmovups	-84(%rsi), %zmm22
	vmovups	-80(%rsi), %zmm20
	vmovups	-48(%rsi), %zmm16
	vmovups	20(%rsi), %zmm11
	vmovups	-44(%rsi), %zmm14
	vmovups	-40(%rsi), %zmm9
	vmovups	24(%rsi), %zmm12
	vmovups	56(%rsi), %zmm7
	vmovups	-8(%rsi), %zmm10
	vmovups	-4(%rsi), %zmm6
	vmovups	60(%rsi), %zmm8
	vbroadcastss	108(%rbx,%rdx), %zmm2
	vbroadcastss	(%rbx,%rdx), %zmm3
	vbroadcastss	-108(%rbx,%rdx), %zmm4
	vbroadcastss	-216(%rbx,%rdx), %zmm5
	vbroadcastss	76(%rbx,%rdx), %zmm28
	vmulps	%zmm28, %zmm24, %zmm29
	vaddps	%zmm29, %zmm25, %zmm25
	vmulps	%zmm28, %zmm21, %zmm28
	vaddps	%zmm28, %zmm23, %zmm23
	vbroadcastss	80(%rbx,%rdx), %zmm28
	vmulps	%zmm28, %zmm19, %zmm29
	vaddps	%zmm29, %zmm23, %zmm23
	vmulps	%zmm28, %zmm22, %zmm28
	vaddps	%zmm28, %zmm25, %zmm25
	vbroadcastss	84(%rbx,%rdx), %zmm28
	vmulps	%zmm28, %zmm20, %zmm29
	vaddps	%zmm29, %zmm25, %zmm25
	vmulps	%zmm28, %zmm15, %zmm28
	vaddps	%zmm28, %zmm23, %zmm23
	vbroadcastss	88(%rbx,%rdx), %zmm28
	vmulps	%zmm28, %zmm13, %zmm29
	vaddps	%zmm29, %zmm23, %zmm23
	vmulps	%zmm28, %zmm16, %zmm28
	vaddps	%zmm28, %zmm25, %zmm25
	vbroadcastss	92(%rbx,%rdx), %zmm28
	vmulps	%zmm28, %zmm14, %zmm29
	vaddps	%zmm29, %zmm25, %zmm25
	vmulps	%zmm28, %zmm11, %zmm28
	vaddps	%zmm28, %zmm23, %zmm23
	vbroadcastss	96(%rbx,%rdx), %zmm28
	vmulps	%zmm28, %zmm12, %zmm29
	vaddps	%zmm29, %zmm23, %zmm23
	vmulps	%zmm28, %zmm9, %zmm28
	vaddps	%zmm28, %zmm25, %zmm25
	vbroadcastss	100(%rbx,%rdx), %zmm28
	vmulps	%zmm28, %zmm10, %zmm29
	vaddps	%zmm29, %zmm25, %zmm25
	vmulps	%zmm28, %zmm7, %zmm28
	vaddps	%zmm28, %zmm23, %zmm23
	vbroadcastss	104(%rbx,%rdx), %zmm28
	vmulps	%zmm28, %zmm8, %zmm29
	vaddps	%zmm29, %zmm23, %zmm23
	vmulps	%zmm28, %zmm6, %zmm28
	vaddps	%zmm28, %zmm25, %zmm25
	vbroadcastss	-32(%rbx,%rdx), %zmm28
	vmulps	%zmm28, %zmm24, %zmm29
	vaddps	%zmm29, %zmm26, %zmm26
	vmulps	%zmm28, %zmm21, %zmm28
	vaddps	%zmm28, %zmm27, %zmm27
	vbroadcastss	-28(%rbx,%rdx), %zmm28
	vmulps	%zmm28, %zmm19, %zmm29
	vaddps	%zmm29, %zmm27, %zmm27
	vmulps	%zmm28, %zmm22, %zmm28
	vaddps	%zmm28, %zmm26, %zmm26
	vbroadcastss	-24(%rbx,%rdx), %zmm28
	vmulps	%zmm28, %zmm20, %zmm29
	vaddps	%zmm29, %zmm26, %zmm26
	vmulps	%zmm28, %zmm15, %zmm28
	vaddps	%zmm28, %zmm27, %zmm27
	vbroadcastss	-20(%rbx,%rdx), %zmm28
	vmulps	%zmm28, %zmm13, %zmm29
	vaddps	%zmm29, %zmm27, %zmm27
	vmulps	%zmm28, %zmm16, %zmm28
	vaddps	%zmm28, %zmm26, %zmm26
	vbroadcastss	-16(%rbx,%rdx), %zmm28
	vmulps	%zmm28, %zmm14, %zmm29
	vaddps	%zmm29, %zmm26, %zmm26
	vmulps	%zmm28, %zmm11, %zmm28
	vaddps	%zmm28, %zmm27, %zmm27
	vbroadcastss	-12(%rbx,%rdx), %zmm28
	vmulps	%zmm28, %zmm12, %zmm29
	vaddps	%zmm29, %zmm27, %zmm27
	vmulps	%zmm28, %zmm9, %zmm28
	vaddps	%zmm28, %zmm26, %zmm26
	vbroadcastss	-8(%rbx,%rdx), %zmm28
	vmulps	%zmm28, %zmm10, %zmm29
	vaddps	%zmm29, %zmm26, %zmm26
	vmulps	%zmm28, %zmm7, %zmm28
	vaddps	%zmm28, %zmm27, %zmm27
	vbroadcastss	-4(%rbx,%rdx), %zmm28
	vmulps	%zmm28, %zmm8, %zmm29
	vaddps	%zmm29, %zmm27, %zmm27
	vmulps	%zmm28, %zmm6, %zmm28
	vaddps	%zmm28, %zmm26, %zmm26
	vbroadcastss	-140(%rbx,%rdx), %zmm28
	vmulps	%zmm28, %zmm24, %zmm29
	vaddps	%zmm29, %zmm17, %zmm17
	vmulps	%zmm28, %zmm21, %zmm28
	vaddps	%zmm28, %zmm18, %zmm18
	vbroadcastss	-136(%rbx,%rdx), %zmm28
	vmulps	%zmm28, %zmm19, %zmm29
	vaddps	%zmm29, %zmm18, %zmm18
	vmulps	%zmm28, %zmm22, %zmm28
	vaddps	%zmm28, %zmm17, %zmm17
	vbroadcastss	-132(%rbx,%rdx), %zmm28
	vmulps	%zmm28, %zmm20, %zmm29
	vaddps	%zmm29, %zmm17, %zmm17
	vmulps	%zmm28, %zmm15, %zmm28
	vaddps	%zmm28, %zmm18, %zmm18
	vbroadcastss	-128(%rbx,%rdx), %zmm28
	vmulps	%zmm28, %zmm13, %zmm29
	vaddps	%zmm29, %zmm18, %zmm18
	vmulps	%zmm28, %zmm16, %zmm28
	vaddps	%zmm28, %zmm17, %zmm17
	vbroadcastss	-124(%rbx,%rdx), %zmm28
	vmulps	%zmm28, %zmm14, %zmm29
	vaddps	%zmm29, %zmm17, %zmm17
	vmulps	%zmm28, %zmm11, %zmm28
	vaddps	%zmm28, %zmm18, %zmm18
	vbroadcastss	-120(%rbx,%rdx), %zmm28
	vmulps	%zmm28, %zmm12, %zmm29
	vaddps	%zmm29, %zmm18, %zmm18
	vmulps	%zmm28, %zmm9, %zmm28
	vaddps	%zmm28, %zmm17, %zmm17
	vbroadcastss	-116(%rbx,%rdx), %zmm28
	vmulps	%zmm28, %zmm10, %zmm29
	vaddps	%zmm29, %zmm17, %zmm17
	vmulps	%zmm28, %zmm7, %zmm28
	vaddps	%zmm28, %zmm18, %zmm18
	vbroadcastss	-112(%rbx,%rdx), %zmm28
	vmulps	%zmm28, %zmm8, %zmm29
	vaddps	%zmm29, %zmm18, %zmm18
	vmulps	%zmm28, %zmm6, %zmm28
	vaddps	%zmm28, %zmm17, %zmm17
	vbroadcastss	-248(%rbx,%rdx), %zmm28
	vmulps	%zmm28, %zmm24, %zmm24
	vaddps	%zmm24, %zmm0, %zmm0
	vmulps	%zmm28, %zmm21, %zmm21
	vaddps	%zmm21, %zmm1, %zmm1
	vbroadcastss	-244(%rbx,%rdx), %zmm21
	vmulps	%zmm21, %zmm19, %zmm19
	vaddps	%zmm19, %zmm1, %zmm1
	vmulps	%zmm21, %zmm22, %zmm19
	vaddps	%zmm19, %zmm0, %zmm0
	vbroadcastss	-240(%rbx,%rdx), %zmm19
	vmulps	%zmm19, %zmm20, %zmm20
	vaddps	%zmm20, %zmm0, %zmm0
	vmulps	%zmm19, %zmm15, %zmm15
	vaddps	%zmm15, %zmm1, %zmm1
	vbroadcastss	-236(%rbx,%rdx), %zmm15
	vmulps	%zmm15, %zmm13, %zmm13
	vaddps	%zmm13, %zmm1, %zmm1
	vmulps	%zmm15, %zmm16, %zmm13
	vaddps	%zmm13, %zmm0, %zmm0
	vbroadcastss	-232(%rbx,%rdx), %zmm13
	vmulps	%zmm13, %zmm14, %zmm14
	vaddps	%zmm14, %zmm0, %zmm0
	vmulps	%zmm13, %zmm11, %zmm11
	vaddps	%zmm11, %zmm1, %zmm1
	vbroadcastss	-228(%rbx,%rdx), %zmm11
	vmulps	%zmm11, %zmm12, %zmm12
	vaddps	%zmm12, %zmm1, %zmm1
	vmulps	%zmm11, %zmm9, %zmm9
	vaddps	%zmm9, %zmm0, %zmm0
	vbroadcastss	-224(%rbx,%rdx), %zmm9
	vmulps	%zmm9, %zmm10, %zmm10
	vaddps	%zmm10, %zmm0, %zmm0
	vmulps	%zmm9, %zmm7, %zmm7
	vaddps	%zmm7, %zmm1, %zmm1
	vbroadcastss	-220(%rbx,%rdx), %zmm7
	vmulps	%zmm7, %zmm8, %zmm8
	vaddps	%zmm8, %zmm1, %zmm1
	vmulps	%zmm7, %zmm6, %zmm6
	vaddps	%zmm6, %zmm0, %zmm0
	vmovups	64(%rsi), %zmm6
	vmovups	(%rsi), %zmm7
	vmulps	%zmm5, %zmm7, %zmm8
	vaddps	%zmm8, %zmm0, %zmm0
	vmulps	%zmm5, %zmm6, %zmm5
	vaddps	%zmm5, %zmm1, %zmm1
	vmulps	%zmm4, %zmm7, %zmm5
	vaddps	%zmm5, %zmm17, %zmm17
	vmulps	%zmm4, %zmm6, %zmm4
	vaddps	%zmm4, %zmm18, %zmm18
	vmulps	%zmm3, %zmm7, %zmm4
	vaddps	%zmm4, %zmm26, %zmm26
	vmulps	%zmm3, %zmm6, %zmm3
	vaddps	%zmm3, %zmm27, %zmm27
	vmulps	%zmm2, %zmm7, %zmm3
	vaddps	%zmm3, %zmm25, %zmm25
	vmulps	%zmm2, %zmm6, %zmm2
	vaddps	%zmm2, %zmm23, %zmm23
	addq	$400, %rsi
	addq	$36, %rdx
	jne	.LBB4_2
	vmovaps	%zmm0, 64(%rsp,%rcx,4)
	vmovaps	%zmm1, 128(%rsp,%rcx,4)
	vmovaps	%zmm17, 448(%rsp,%rcx,4)
	vmovaps	%zmm18, 512(%rsp,%rcx,4)
	vmovaps	%zmm26, 832(%rsp,%rcx,4)
	vmovaps	%zmm27, 896(%rsp,%rcx,4)
	vmovaps	%zmm25, 1216(%rsp,%rcx,4)
	vmovaps	%zmm23, 1280(%rsp,%rcx,4)
	addq	$1, %r15
	subq	$-128, %rax
	cmpq	$3, %r15
	jne	.LBB4_1
	vbroadcastss	(%r12), %ymm1
	movq	48(%rsp), %rcx
	vbroadcastss	(%rcx), %ymm2
	movq	56(%rsp), %rax
	vbroadcastss	(%rax), %ymm3
	vaddps	64(%rsp), %ymm3, %ymm4
	vxorps	%xmm0, %xmm0, %xmm0
	vaddps	%ymm0, %ymm4, %ymm4
	vmulps	%ymm4, %ymm2, %ymm4
	vaddps	%ymm4, %ymm1, %ymm4
	vmovups	%ymm4, (%r13)
	vaddps	104(%rsp), %ymm3, %ymm4
	vaddps	%ymm0, %ymm4, %ymm4
	vmulps	%ymm4, %ymm2, %ymm4
	vaddps	%ymm4, %ymm1, %ymm4
	vmovups	%ymm4, 32(%r13)
	vaddps	144(%rsp), %ymm3, %ymm4
	vaddps	%ymm0, %ymm4, %ymm4
	vmulps	%ymm4, %ymm2, %ymm4
	vaddps	%ymm4, %ymm1, %ymm4
	vmovups	%ymm4, 64(%r13)
	vaddps	184(%rsp), %ymm3, %ymm4
	vaddps	%ymm0, %ymm4, %ymm4
	vmulps	%ymm4, %ymm2, %ymm4
	vaddps	%ymm4, %ymm1, %ymm4
	vmovups	%ymm4, 96(%r13)
	vaddps	224(%rsp), %ymm3, %ymm4
	vaddps	%ymm0, %ymm4, %ymm4
	vmulps	%ymm4, %ymm2, %ymm4
	vaddps	%ymm4, %ymm1, %ymm4
	vmovups	%ymm4, 128(%r13)
	vaddps	264(%rsp), %ymm3, %ymm4
	vaddps	%ymm0, %ymm4, %ymm4
	vmulps	%ymm4, %ymm2, %ymm4
	vaddps	%ymm4, %ymm1, %ymm4
	vmovups	%ymm4, 160(%r13)
	vaddps	304(%rsp), %ymm3, %ymm4
	vaddps	%ymm0, %ymm4, %ymm4
	vmulps	%ymm4, %ymm2, %ymm4
	vaddps	%ymm4, %ymm1, %ymm4
	vmovups	%ymm4, 192(%r13)
	vaddps	344(%rsp), %ymm3, %ymm3
	vaddps	%ymm0, %ymm3, %ymm3
	vmulps	%ymm3, %ymm2, %ymm2
	vaddps	%ymm2, %ymm1, %ymm1
	vmovups	%ymm1, 224(%r13)
	vbroadcastss	4(%r12), %ymm1
	vbroadcastss	4(%rcx), %ymm2
	vbroadcastss	4(%rax), %ymm3
	vaddps	448(%rsp), %ymm3, %ymm4
	vaddps	%ymm0, %ymm4, %ymm4
	vmulps	%ymm4, %ymm2, %ymm4
	vaddps	%ymm4, %ymm1, %ymm4
	vmovups	%ymm4, 256(%r13)
	vaddps	488(%rsp), %ymm3, %ymm4
	vaddps	%ymm0, %ymm4, %ymm4
	vmulps	%ymm4, %ymm2, %ymm4
	vaddps	%ymm4, %ymm1, %ymm4
	vmovups	%ymm4, 288(%r13)
	vaddps	528(%rsp), %ymm3, %ymm4
	vaddps	%ymm0, %ymm4, %ymm4
	vmulps	%ymm4, %ymm2, %ymm4
	vaddps	%ymm4, %ymm1, %ymm4
	vmovups	%ymm4, 320(%r13)
	vaddps	568(%rsp), %ymm3, %ymm4
	vaddps	%ymm0, %ymm4, %ymm4
	vmulps	%ymm4, %ymm2, %ymm4
	vaddps	%ymm4, %ymm1, %ymm4
	vmovups	%ymm4, 352(%r13)
	vaddps	608(%rsp), %ymm3, %ymm4
	vaddps	%ymm0, %ymm4, %ymm4
	vmulps	%ymm4, %ymm2, %ymm4
	vaddps	%ymm4, %ymm1, %ymm4
	vmovups	%ymm4, 384(%r13)
	vaddps	648(%rsp), %ymm3, %ymm4
	vaddps	%ymm0, %ymm4, %ymm4
	vmulps	%ymm4, %ymm2, %ymm4
	vaddps	%ymm4, %ymm1, %ymm4
	vmovups	%ymm4, 416(%r13)
	vaddps	688(%rsp), %ymm3, %ymm4
	vaddps	%ymm0, %ymm4, %ymm4
	vmulps	%ymm4, %ymm2, %ymm4
	vaddps	%ymm4, %ymm1, %ymm4
	vmovups	%ymm4, 448(%r13)
	vaddps	728(%rsp), %ymm3, %ymm3
	vaddps	%ymm0, %ymm3, %ymm3
	vmulps	%ymm3, %ymm2, %ymm2
	vaddps	%ymm2, %ymm1, %ymm1
	vmovups	%ymm1, 480(%r13)
	vbroadcastss	8(%r12), %ymm1
	vbroadcastss	8(%rcx), %ymm2
	vbroadcastss	8(%rax), %ymm3
	vaddps	832(%rsp), %ymm3, %ymm4
	vaddps	%ymm0, %ymm4, %ymm4
	vmulps	%ymm4, %ymm2, %ymm4
	vaddps	%ymm4, %ymm1, %ymm4
	vmovups	%ymm4, 512(%r13)
	vaddps	872(%rsp), %ymm3, %ymm4
	vaddps	%ymm0, %ymm4, %ymm4
	vmulps	%ymm4, %ymm2, %ymm4
	vaddps	%ymm4, %ymm1, %ymm4
	vmovups	%ymm4, 544(%r13)
	vaddps	912(%rsp), %ymm3, %ymm4
	vaddps	%ymm0, %ymm4, %ymm4
	vmulps	%ymm4, %ymm2, %ymm4
	vaddps	%ymm4, %ymm1, %ymm4
	vmovups	%ymm4, 576(%r13)
	vaddps	952(%rsp), %ymm3, %ymm4
	vaddps	%ymm0, %ymm4, %ymm4
	vmulps	%ymm4, %ymm2, %ymm4
	vaddps	%ymm4, %ymm1, %ymm4
	vmovups	%ymm4, 608(%r13)
	vaddps	992(%rsp), %ymm3, %ymm4
	vaddps	%ymm0, %ymm4, %ymm4
	vmulps	%ymm4, %ymm2, %ymm4
	vaddps	%ymm4, %ymm1, %ymm4
	vmovups	%ymm4, 640(%r13)
	vaddps	1032(%rsp), %ymm3, %ymm4
	vaddps	%ymm0, %ymm4, %ymm4
	vmulps	%ymm4, %ymm2, %ymm4
	vaddps	%ymm4, %ymm1, %ymm4
	vmovups	%ymm4, 672(%r13)
	vaddps	1072(%rsp), %ymm3, %ymm4
	vaddps	%ymm0, %ymm4, %ymm4
	vmulps	%ymm4, %ymm2, %ymm4
	vaddps	%ymm4, %ymm1, %ymm4
	vmovups	%ymm4, 704(%r13)
	vaddps	1112(%rsp), %ymm3, %ymm3
	vaddps	%ymm0, %ymm3, %ymm3
	vmulps	%ymm3, %ymm2, %ymm2
	vaddps	%ymm2, %ymm1, %ymm1
	vmovups	%ymm1, 736(%r13)
	vbroadcastss	12(%r12), %ymm1
	vbroadcastss	12(%rcx), %ymm2
	vbroadcastss	12(%rax), %ymm3
	vaddps	1216(%rsp), %ymm3, %ymm4
	vaddps	%ymm0, %ymm4, %ymm4
	vmulps	%ymm4, %ymm2, %ymm4
	vaddps	%ymm4, %ymm1, %ymm4
	vmovups	%ymm4, 768(%r13)
	vaddps	1256(%rsp), %ymm3, %ymm4
	vaddps	%ymm0, %ymm4, %ymm4
	vmulps	%ymm4, %ymm2, %ymm4
	vaddps	%ymm4, %ymm1, %ymm4
	vmovups	%ymm4, 800(%r13)
	vaddps	1296(%rsp), %ymm3, %ymm4
	vaddps	%ymm0, %ymm4, %ymm4
	vmulps	%ymm4, %ymm2, %ymm4
	vaddps	%ymm4, %ymm1, %ymm4
	vmovups	%ymm4, 832(%r13)
	vaddps	1336(%rsp), %ymm3, %ymm4
	vaddps	%ymm0, %ymm4, %ymm4
	vmulps	%ymm4, %ymm2, %ymm4
	vaddps	%ymm4, %ymm1, %ymm4
	vmovups	%ymm4, 864(%r13)
	vaddps	1376(%rsp), %ymm3, %ymm4
	vaddps	%ymm0, %ymm4, %ymm4
	vmulps	%ymm4, %ymm2, %ymm4
	vaddps	%ymm4, %ymm1, %ymm4
	vmovups	%ymm4, 896(%r13)
	vaddps	1416(%rsp), %ymm3, %ymm4
	vaddps	%ymm0, %ymm4, %ymm4
	vmulps	%ymm4, %ymm2, %ymm4
	vaddps	%ymm4, %ymm1, %ymm4
	vmovups	%ymm4, 928(%r13)
	vaddps	1456(%rsp), %ymm3, %ymm4
	vaddps	%ymm0, %ymm4, %ymm4
	vmulps	%ymm4, %ymm2, %ymm4
	vaddps	%ymm4, %ymm1, %ymm4
	vmovups	%ymm4, 960(%r13)
	vaddps	1496(%rsp), %ymm3, %ymm3
	vaddps	%ymm0, %ymm3, %ymm0
	vmulps	%ymm0, %ymm2, %ymm0
	vaddps	%ymm0, %ymm1, %ymm0
	vmovups	%ymm0, 992(%r13)
	leaq	-40(%rbp), %rsp
	popq	%rbx
	popq	%r12
	popq	%r13
	popq	%r14
	popq	%r15
	popq	%rbp
	vzeroupper
	retq
.Lfunc_end4:
	.size	fused_nn_conv2d_nn_bias_add_multiply_add_multiply, .Lfunc_end4-fused_nn_conv2d_nn_bias_add_multiply_add_multiply

	.globl	fused_nn_relu_add
	.p2align	4, 0x90
	.type	fused_nn_relu_add,@function
fused_nn_relu_add:
	vmovups	(%rsi), %zmm1
	vmovups	64(%rsi), %zmm2
	vmovups	128(%rsi), %zmm3
	vmovups	192(%rsi), %zmm4
	vxorps	%xmm0, %xmm0, %xmm0
	vmaxps	%zmm0, %zmm1, %zmm5
	vmaxps	%zmm0, %zmm2, %zmm6
	vmaxps	%zmm0, %zmm3, %zmm7
	vmaxps	%zmm0, %zmm4, %zmm8
	vcmpunordps	%zmm0, %zmm1, %k1
	vcmpunordps	%zmm0, %zmm2, %k2
	vcmpunordps	%zmm0, %zmm3, %k3
	vcmpunordps	%zmm0, %zmm4, %k4
	vaddps	%zmm0, %zmm1, %zmm5 {%k1}
	vaddps	%zmm0, %zmm2, %zmm6 {%k2}
	vaddps	%zmm0, %zmm3, %zmm7 {%k3}
	vaddps	%zmm0, %zmm4, %zmm8 {%k4}
	vaddps	(%rdi), %zmm5, %zmm1
	vaddps	64(%rdi), %zmm6, %zmm2
	vaddps	128(%rdi), %zmm7, %zmm3
	vaddps	192(%rdi), %zmm8, %zmm4
	vmovups	%zmm1, (%rdx)
	vmovups	%zmm2, 64(%rdx)
	vmovups	%zmm3, 128(%rdx)
	vmovups	%zmm4, 192(%rdx)
	vmovups	256(%rsi), %zmm1
	vmovups	320(%rsi), %zmm2
	vmovups	384(%rsi), %zmm3
	vmovups	448(%rsi), %zmm4
	vmaxps	%zmm0, %zmm1, %zmm5
	vmaxps	%zmm0, %zmm2, %zmm6
	vmaxps	%zmm0, %zmm3, %zmm7
	vmaxps	%zmm0, %zmm4, %zmm8
	vcmpunordps	%zmm0, %zmm1, %k1
	vcmpunordps	%zmm0, %zmm2, %k2
	vcmpunordps	%zmm0, %zmm3, %k3
	vcmpunordps	%zmm0, %zmm4, %k4
	vaddps	%zmm0, %zmm1, %zmm5 {%k1}
	vaddps	%zmm0, %zmm2, %zmm6 {%k2}
	vaddps	%zmm0, %zmm3, %zmm7 {%k3}
	vaddps	%zmm0, %zmm4, %zmm8 {%k4}
	vaddps	256(%rdi), %zmm5, %zmm1
	vaddps	320(%rdi), %zmm6, %zmm2
	vaddps	384(%rdi), %zmm7, %zmm3
	vaddps	448(%rdi), %zmm8, %zmm4
	vmovups	%zmm1, 256(%rdx)
	vmovups	%zmm2, 320(%rdx)
	vmovups	%zmm3, 384(%rdx)
	vmovups	%zmm4, 448(%rdx)
	vmovups	512(%rsi), %zmm1
	vmovups	576(%rsi), %zmm2
	vmovups	640(%rsi), %zmm3
	vmovups	704(%rsi), %zmm4
	vmaxps	%zmm0, %zmm1, %zmm5
	vmaxps	%zmm0, %zmm2, %zmm6
	vmaxps	%zmm0, %zmm3, %zmm7
	vmaxps	%zmm0, %zmm4, %zmm8
	vcmpunordps	%zmm0, %zmm1, %k1
	vcmpunordps	%zmm0, %zmm2, %k2
	vcmpunordps	%zmm0, %zmm3, %k3
	vcmpunordps	%zmm0, %zmm4, %k4
	vaddps	%zmm0, %zmm1, %zmm5 {%k1}
	vaddps	%zmm0, %zmm2, %zmm6 {%k2}
	vaddps	%zmm0, %zmm3, %zmm7 {%k3}
	vaddps	%zmm0, %zmm4, %zmm8 {%k4}
	vaddps	512(%rdi), %zmm5, %zmm1
	vaddps	576(%rdi), %zmm6, %zmm2
	vaddps	640(%rdi), %zmm7, %zmm3
	vaddps	704(%rdi), %zmm8, %zmm4
	vmovups	%zmm1, 512(%rdx)
	vmovups	%zmm2, 576(%rdx)
	vmovups	%zmm3, 640(%rdx)
	vmovups	%zmm4, 704(%rdx)
	vmovups	768(%rsi), %zmm1
	vmovups	832(%rsi), %zmm2
	vmovups	896(%rsi), %zmm3
	vmovups	960(%rsi), %zmm4
	vmaxps	%zmm0, %zmm1, %zmm5
	vmaxps	%zmm0, %zmm2, %zmm6
	vmaxps	%zmm0, %zmm3, %zmm7
	vmaxps	%zmm0, %zmm4, %zmm8
	vcmpunordps	%zmm0, %zmm1, %k1
	vcmpunordps	%zmm0, %zmm2, %k2
	vcmpunordps	%zmm0, %zmm3, %k3
	vcmpunordps	%zmm0, %zmm4, %k4
	vaddps	%zmm0, %zmm1, %zmm5 {%k1}
	vaddps	%zmm0, %zmm2, %zmm6 {%k2}
	vaddps	%zmm0, %zmm3, %zmm7 {%k3}
	vaddps	%zmm0, %zmm4, %zmm8 {%k4}
	vaddps	768(%rdi), %zmm5, %zmm0
	vaddps	832(%rdi), %zmm6, %zmm1
	vaddps	896(%rdi), %zmm7, %zmm2
	vaddps	960(%rdi), %zmm8, %zmm3
	vmovups	%zmm0, 768(%rdx)
	vmovups	%zmm1, 832(%rdx)
	vmovups	%zmm2, 896(%rdx)
	vmovups	%zmm3, 960(%rdx)
	vzeroupper
	retq
.Lfunc_end5:
	.size	fused_nn_relu_add, .Lfunc_end5-fused_nn_relu_add

	.globl	fused_nn_relu_reshape_reshape
	.p2align	4, 0x90
	.type	fused_nn_relu_reshape_reshape,@function
fused_nn_relu_reshape_reshape:
	vmovups	(%rdi), %zmm5
	vmovups	64(%rdi), %zmm6
	vmovups	128(%rdi), %zmm7
	vmovups	192(%rdi), %zmm8
	vxorps	%xmm0, %xmm0, %xmm0
	vmaxps	%zmm0, %zmm5, %zmm1
	vmaxps	%zmm0, %zmm6, %zmm2
	vmaxps	%zmm0, %zmm7, %zmm3
	vmaxps	%zmm0, %zmm8, %zmm4
	vcmpunordps	%zmm0, %zmm5, %k1
	vcmpunordps	%zmm0, %zmm6, %k2
	vcmpunordps	%zmm0, %zmm7, %k3
	vcmpunordps	%zmm0, %zmm8, %k4
	vaddps	%zmm0, %zmm5, %zmm1 {%k1}
	vaddps	%zmm0, %zmm6, %zmm2 {%k2}
	vaddps	%zmm0, %zmm7, %zmm3 {%k3}
	vaddps	%zmm0, %zmm8, %zmm4 {%k4}
	vmovups	256(%rdi), %zmm5
	vmovups	320(%rdi), %zmm6
	vmovups	384(%rdi), %zmm7
	vmovups	448(%rdi), %zmm8
	vmaxps	%zmm0, %zmm5, %zmm9
	vmaxps	%zmm0, %zmm6, %zmm10
	vmaxps	%zmm0, %zmm7, %zmm11
	vmaxps	%zmm0, %zmm8, %zmm12
	vcmpunordps	%zmm0, %zmm5, %k1
	vcmpunordps	%zmm0, %zmm6, %k2
	vcmpunordps	%zmm0, %zmm7, %k3
	vcmpunordps	%zmm0, %zmm8, %k4
	vaddps	%zmm0, %zmm5, %zmm9 {%k1}
	vaddps	%zmm0, %zmm6, %zmm10 {%k2}
	vaddps	%zmm0, %zmm7, %zmm11 {%k3}
	vaddps	%zmm0, %zmm8, %zmm12 {%k4}
	vmovups	512(%rdi), %zmm5
	vmovups	576(%rdi), %zmm6
	vmovups	640(%rdi), %zmm7
	vmovups	704(%rdi), %zmm8
	vmaxps	%zmm0, %zmm5, %zmm13
	vmaxps	%zmm0, %zmm6, %zmm14
	vmaxps	%zmm0, %zmm7, %zmm15
	vmaxps	%zmm0, %zmm8, %zmm16
	vcmpunordps	%zmm0, %zmm5, %k1
	vcmpunordps	%zmm0, %zmm6, %k2
	vcmpunordps	%zmm0, %zmm7, %k3
	vcmpunordps	%zmm0, %zmm8, %k4
	vaddps	%zmm0, %zmm5, %zmm13 {%k1}
	vaddps	%zmm0, %zmm6, %zmm14 {%k2}
	vaddps	%zmm0, %zmm7, %zmm15 {%k3}
	vaddps	%zmm0, %zmm8, %zmm16 {%k4}
	vmovups	768(%rdi), %zmm5
	vmovups	832(%rdi), %zmm6
	vmovups	896(%rdi), %zmm7
	vmovups	960(%rdi), %zmm8
	vmaxps	%zmm0, %zmm5, %zmm17
	vmaxps	%zmm0, %zmm6, %zmm18
	vmaxps	%zmm0, %zmm7, %zmm19
	vmaxps	%zmm0, %zmm8, %zmm20
	vcmpunordps	%zmm0, %zmm5, %k1
	vcmpunordps	%zmm0, %zmm6, %k2
	vcmpunordps	%zmm0, %zmm7, %k3
	vcmpunordps	%zmm0, %zmm8, %k4
	vaddps	%zmm0, %zmm5, %zmm17 {%k1}
	vaddps	%zmm0, %zmm6, %zmm18 {%k2}
	vaddps	%zmm0, %zmm7, %zmm19 {%k3}
	vaddps	%zmm0, %zmm8, %zmm20 {%k4}
	vmovups	%zmm1, (%rsi)
	vmovups	%zmm2, 64(%rsi)
	vmovups	%zmm3, 128(%rsi)
	vmovups	%zmm4, 192(%rsi)
	vmovups	%zmm9, 256(%rsi)
	vmovups	%zmm10, 320(%rsi)
	vmovups	%zmm11, 384(%rsi)
	vmovups	%zmm12, 448(%rsi)
	vmovups	%zmm13, 512(%rsi)
	vmovups	%zmm14, 576(%rsi)
	vmovups	%zmm15, 640(%rsi)
	vmovups	%zmm16, 704(%rsi)
	vmovups	%zmm17, 768(%rsi)
	vmovups	%zmm18, 832(%rsi)
	vmovups	%zmm19, 896(%rsi)
	vmovups	%zmm20, 960(%rsi)
	vzeroupper
	retq
.Lfunc_end6:
	.size	fused_nn_relu_reshape_reshape, .Lfunc_end6-fused_nn_relu_reshape_reshape

	.section	.rodata.cst4,"aM",@progbits,4
	.p2align	2
.LCPI7_0:
	.long	0x80000000
.LCPI7_1:
	.long	0x3f800000
	.text
	.globl	fused_sigmoid
	.p2align	4, 0x90
	.type	fused_sigmoid,@function
fused_sigmoid:
	pushq	%r14
	pushq	%rbx
	subq	$136, %rsp
	movq	%rsi, %r14
	movq	%rdi, %rbx
	vbroadcastss	.LCPI7_0(%rip), %zmm0
	vmovups	%zmm0, 64(%rsp)
	vxorps	(%rdi), %zmm0, %zmm0
	callq	_ZGVeN16v_expf@PLT
	vbroadcastss	.LCPI7_1(%rip), %zmm1
	vmovups	%zmm1, (%rsp)
	vaddps	%zmm1, %zmm0, %zmm0
	vdivps	%zmm0, %zmm1, %zmm0
	vmovups	%zmm0, (%r14)
	vmovups	64(%rsp), %zmm0
	vxorps	64(%rbx), %zmm0, %zmm0
	callq	_ZGVeN16v_expf@PLT
	vmovups	(%rsp), %zmm1
	vaddps	%zmm1, %zmm0, %zmm0
	vdivps	%zmm0, %zmm1, %zmm0
	vmovups	%zmm0, 64(%r14)
	vmovups	64(%rsp), %zmm0
	vxorps	128(%rbx), %zmm0, %zmm0
	callq	_ZGVeN16v_expf@PLT
	vmovups	(%rsp), %zmm1
	vaddps	%zmm1, %zmm0, %zmm0
	vdivps	%zmm0, %zmm1, %zmm0
	vmovups	%zmm0, 128(%r14)
	vmovups	64(%rsp), %zmm0
	vxorps	192(%rbx), %zmm0, %zmm0
	callq	_ZGVeN16v_expf@PLT
	vmovups	(%rsp), %zmm1
	vaddps	%zmm1, %zmm0, %zmm0
	vdivps	%zmm0, %zmm1, %zmm0
	vmovups	%zmm0, 192(%r14)
	vmovups	64(%rsp), %zmm0
	vxorps	256(%rbx), %zmm0, %zmm0
	callq	_ZGVeN16v_expf@PLT
	vmovups	(%rsp), %zmm1
	vaddps	%zmm1, %zmm0, %zmm0
	vdivps	%zmm0, %zmm1, %zmm0
	vmovups	%zmm0, 256(%r14)
	vmovups	64(%rsp), %zmm0
	vxorps	320(%rbx), %zmm0, %zmm0
	callq	_ZGVeN16v_expf@PLT
	vmovups	(%rsp), %zmm1
	vaddps	%zmm1, %zmm0, %zmm0
	vdivps	%zmm0, %zmm1, %zmm0
	vmovups	%zmm0, 320(%r14)
	vmovups	64(%rsp), %zmm0
	vxorps	384(%rbx), %zmm0, %zmm0
	callq	_ZGVeN16v_expf@PLT
	vmovups	(%rsp), %zmm1
	vaddps	%zmm1, %zmm0, %zmm0
	vdivps	%zmm0, %zmm1, %zmm0
	vmovups	%zmm0, 384(%r14)
	vmovups	64(%rsp), %zmm0
	vxorps	448(%rbx), %zmm0, %zmm0
	callq	_ZGVeN16v_expf@PLT
	vmovups	(%rsp), %zmm1
	vaddps	%zmm1, %zmm0, %zmm0
	vdivps	%zmm0, %zmm1, %zmm0
	vmovups	%zmm0, 448(%r14)
	vmovups	64(%rsp), %zmm0
	vxorps	512(%rbx), %zmm0, %zmm0
	callq	_ZGVeN16v_expf@PLT
	vmovups	(%rsp), %zmm1
	vaddps	%zmm1, %zmm0, %zmm0
	vdivps	%zmm0, %zmm1, %zmm0
	vmovups	%zmm0, 512(%r14)
	vmovups	64(%rsp), %zmm0
	vxorps	576(%rbx), %zmm0, %zmm0
	callq	_ZGVeN16v_expf@PLT
	vmovups	(%rsp), %zmm1
	vaddps	%zmm1, %zmm0, %zmm0
	vdivps	%zmm0, %zmm1, %zmm0
	vmovups	%zmm0, 576(%r14)
	vmovups	64(%rsp), %zmm0
	vxorps	640(%rbx), %zmm0, %zmm0
	callq	_ZGVeN16v_expf@PLT
	vmovups	(%rsp), %zmm1
	vaddps	%zmm1, %zmm0, %zmm0
	vdivps	%zmm0, %zmm1, %zmm0
	vmovups	%zmm0, 640(%r14)
	vmovups	64(%rsp), %zmm0
	vxorps	704(%rbx), %zmm0, %zmm0
	callq	_ZGVeN16v_expf@PLT
	vmovups	(%rsp), %zmm1
	vaddps	%zmm1, %zmm0, %zmm0
	vdivps	%zmm0, %zmm1, %zmm0
	vmovups	%zmm0, 704(%r14)
	vmovups	64(%rsp), %zmm0
	vxorps	768(%rbx), %zmm0, %zmm0
	callq	_ZGVeN16v_expf@PLT
	vmovups	(%rsp), %zmm1
	vaddps	%zmm1, %zmm0, %zmm0
	vdivps	%zmm0, %zmm1, %zmm0
	vmovups	%zmm0, 768(%r14)
	vmovups	64(%rsp), %zmm0
	vxorps	832(%rbx), %zmm0, %zmm0
	callq	_ZGVeN16v_expf@PLT
	vmovups	(%rsp), %zmm1
	vaddps	%zmm1, %zmm0, %zmm0
	vdivps	%zmm0, %zmm1, %zmm0
	vmovups	%zmm0, 832(%r14)
	vmovups	64(%rsp), %zmm0
	vxorps	896(%rbx), %zmm0, %zmm0
	callq	_ZGVeN16v_expf@PLT
	vmovups	(%rsp), %zmm1
	vaddps	%zmm1, %zmm0, %zmm0
	vdivps	%zmm0, %zmm1, %zmm0
	vmovups	%zmm0, 896(%r14)
	vmovups	64(%rsp), %zmm0
	vxorps	960(%rbx), %zmm0, %zmm0
	callq	_ZGVeN16v_expf@PLT
	vmovups	(%rsp), %zmm1
	vaddps	%zmm1, %zmm0, %zmm0
	vdivps	%zmm0, %zmm1, %zmm0
	vmovups	%zmm0, 960(%r14)
	addq	$136, %rsp
	popq	%rbx
	popq	%r14
	vzeroupper
	retq
.Lfunc_end7:
	.size	fused_sigmoid, .Lfunc_end7-fused_sigmoid

	.globl	__passlab_packed_fused_add_sqrt_divide_multiply
	.p2align	4, 0x90
	.type	__passlab_packed_fused_add_sqrt_divide_multiply,@function
__passlab_packed_fused_add_sqrt_divide_multiply:
	.cfi_startproc
	pushq	%rax
	.cfi_def_cfa_offset 16
	movq	(%rdi), %rax
	movq	8(%rdi), %rsi
	movq	16(%rdi), %rdx
	movq	%rax, %rdi
	callq	fused_add_sqrt_divide_multiply@PLT
	popq	%rax
	.cfi_def_cfa_offset 8
	retq
.Lfunc_end8:
	.size	__passlab_packed_fused_add_sqrt_divide_multiply, .Lfunc_end8-__passlab_packed_fused_add_sqrt_divide_multiply
	.cfi_endproc

	.globl	__passlab_packed_fused_expand_dims
	.p2align	4, 0x90
	.type	__passlab_packed_fused_expand_dims,@function
__passlab_packed_fused_expand_dims:
	.cfi_startproc
	pushq	%rax
	.cfi_def_cfa_offset 16
	movq	(%rdi), %rax
	movq	8(%rdi), %rsi
	movq	%rax, %rdi
	callq	fused_expand_dims@PLT
	popq	%rax
	.cfi_def_cfa_offset 8
	retq
.Lfunc_end9:
	.size	__passlab_packed_fused_expand_dims, .Lfunc_end9-__passlab_packed_fused_expand_dims
	.cfi_endproc

	.globl	__passlab_packed_fused_multiply
	.p2align	4, 0x90
	.type	__passlab_packed_fused_multiply,@function
__passlab_packed_fused_multiply:
	.cfi_startproc
	pushq	%rax
	.cfi_def_cfa_offset 16
	movq	(%rdi), %rax
	movq	8(%rdi), %rsi
	movq	%rax, %rdi
	callq	fused_multiply@PLT
	popq	%rax
	.cfi_def_cfa_offset 8
	retq
.Lfunc_end10:
	.size	__passlab_packed_fused_multiply, .Lfunc_end10-__passlab_packed_fused_multiply
	.cfi_endproc

	.globl	__passlab_packed_fused_negative_multiply_add_expand_dims
	.p2align	4, 0x90
	.type	__passlab_packed_fused_negative_multiply_add_expand_dims,@function
__passlab_packed_fused_negative_multiply_add_expand_dims:
	.cfi_startproc
	pushq	%rax
	.cfi_def_cfa_offset 16
	movq	(%rdi), %rax
	movq	8(%rdi), %rsi
	movq	16(%rdi), %rdx
	movq	24(%rdi), %rcx
	movq	%rax, %rdi
	callq	fused_negative_multiply_add_expand_dims@PLT
	popq	%rax
	.cfi_def_cfa_offset 8
	retq
.Lfunc_end11:
	.size	__passlab_packed_fused_negative_multiply_add_expand_dims, .Lfunc_end11-__passlab_packed_fused_negative_multiply_add_expand_dims
	.cfi_endproc

	.globl	__passlab_packed_fused_nn_conv2d_nn_bias_add_multiply_add_multiply
	.p2align	4, 0x90
	.type	__passlab_packed_fused_nn_conv2d_nn_bias_add_multiply_add_multiply,@function
__passlab_packed_fused_nn_conv2d_nn_bias_add_multiply_add_multiply:
	.cfi_startproc
	pushq	%rax
	.cfi_def_cfa_offset 16
	movq	(%rdi), %rax
	movq	8(%rdi), %rsi
	movq	16(%rdi), %rdx
	movq	24(%rdi), %rcx
	movq	32(%rdi), %r8
	movq	40(%rdi), %r9
	movq	%rax, %rdi
	callq	fused_nn_conv2d_nn_bias_add_multiply_add_multiply@PLT
	popq	%rax
	.cfi_def_cfa_offset 8
	retq
.Lfunc_end12:
	.size	__passlab_packed_fused_nn_conv2d_nn_bias_add_multiply_add_multiply, .Lfunc_end12-__passlab_packed_fused_nn_conv2d_nn_bias_add_multiply_add_multiply
	.cfi_endproc

	.globl	__passlab_packed_fused_nn_relu_add
	.p2align	4, 0x90
	.type	__passlab_packed_fused_nn_relu_add,@function
__passlab_packed_fused_nn_relu_add:
	.cfi_startproc
	pushq	%rax
	.cfi_def_cfa_offset 16
	movq	(%rdi), %rax
	movq	8(%rdi), %rsi
	movq	16(%rdi), %rdx
	movq	%rax, %rdi
	callq	fused_nn_relu_add@PLT
	popq	%rax
	.cfi_def_cfa_offset 8
	retq
.Lfunc_end13:
	.size	__passlab_packed_fused_nn_relu_add, .Lfunc_end13-__passlab_packed_fused_nn_relu_add
	.cfi_endproc

	.globl	__passlab_packed_fused_nn_relu_reshape_reshape
	.p2align	4, 0x90
	.type	__passlab_packed_fused_nn_relu_reshape_reshape,@function
__passlab_packed_fused_nn_relu_reshape_reshape:
	.cfi_startproc
	pushq	%rax
	.cfi_def_cfa_offset 16
	movq	(%rdi), %rax
	movq	8(%rdi), %rsi
	movq	%rax, %rdi
	callq	fused_nn_relu_reshape_reshape@PLT
	popq	%rax
	.cfi_def_cfa_offset 8
	retq
.Lfunc_end14:
	.size	__passlab_packed_fused_nn_relu_reshape_reshape, .Lfunc_end14-__passlab_packed_fused_nn_relu_reshape_reshape
	.cfi_endproc

	.globl	__passlab_packed_fused_sigmoid
	.p2align	4, 0x90
	.type	__passlab_packed_fused_sigmoid,@function
__passlab_packed_fused_sigmoid:
	.cfi_startproc
	pushq	%rax
	.cfi_def_cfa_offset 16
	movq	(%rdi), %rax
	movq	8(%rdi), %rsi
	movq	%rax, %rdi
	callq	fused_sigmoid@PLT
	popq	%rax
	.cfi_def_cfa_offset 8
	retq
.Lfunc_end15:
	.size	__passlab_packed_fused_sigmoid, .Lfunc_end15-__passlab_packed_fused_sigmoid
	.cfi_endproc

	.globl	__passlab_entry
	.p2align	4, 0x90
	.type	__passlab_entry,@function
__passlab_entry:
	.cfi_startproc
	pushq	%rbp
	.cfi_def_cfa_offset 16
	pushq	%r15
	.cfi_def_cfa_offset 24
	pushq	%r14
	.cfi_def_cfa_offset 32
	pushq	%r13
	.cfi_def_cfa_offset 40
	pushq	%r12
	.cfi_def_cfa_offset 48
	pushq	%rbx
	.cfi_def_cfa_offset 56
	subq	$24, %rsp
	.cfi_def_cfa_offset 80
	.cfi_offset %rbx, -56
	.cfi_offset %r12, -48
	.cfi_offset %r13, -40
	.cfi_offset %r14, -32
	.cfi_offset %r15, -24
	.cfi_offset %rbp, -16
	movq	%rdi, %rbx
	movq	(%rdi), %rax
	movq	%rax, 16(%rsp)
	movq	8(%rdi), %rax
	movq	%rax, 8(%rsp)
	movq	16(%rdi), %rax
	movq	%rax, (%rsp)
	movq	24(%rdi), %rsi
	movq	32(%rdi), %r13
	movq	40(%rdi), %rbp
	movq	48(%rdi), %rdi
	leaq	entry.storage0(%rip), %r14
	movq	%r14, %rdx
	callq	fused_add_sqrt_divide_multiply@PLT
	leaq	entry.storage1(%rip), %r15
	movq	%r14, %rdi
	movq	%r15, %rsi
	callq	fused_expand_dims@PLT
	leaq	entry.storage2(%rip), %r12
	movq	%rbp, %rdi
	movq	%r14, %rsi
	movq	%r13, %rdx
	movq	%r12, %rcx
	callq	fused_negative_multiply_add_expand_dims@PLT
	movq	16(%rsp), %rdi
	movq	8(%rsp), %rsi
	movq	(%rsp), %rdx
	movq	%r15, %rcx
	movq	%r12, %r8
	movq	%r14, %r9
	callq	fused_nn_conv2d_nn_bias_add_multiply_add_multiply@PLT
	movq	%r14, %rdi
	movq	%r15, %rsi
	callq	fused_nn_relu_reshape_reshape@PLT
	movq	%r15, %rdi
	movq	%r12, %rsi
	callq	fused_sigmoid@PLT
	movq	%r15, %rdi
	movq	%r12, %rsi
	callq	fused_multiply@PLT
	movq	%r12, %rdi
	movq	%r14, %rsi
	movq	%r15, %rdx
	callq	fused_nn_relu_add@PLT
	movq	%r15, %rdi
	movq	%r14, %rsi
	callq	ext_block@PLT
	movq	56(%rbx), %rdi
	movl	$1024, %edx
	movq	%r14, %rsi
	callq	memcpy@PLT
	addq	$24, %rsp
	.cfi_def_cfa_offset 56
	popq	%rbx
	.cfi_def_cfa_offset 48
	popq	%r12
	.cfi_def_cfa_offset 40
	popq	%r13
	.cfi_def_cfa_offset 32
	popq	%r14
	.cfi_def_cfa_offset 24
	popq	%r15
	.cfi_def_cfa_offset 16
	popq	%rbp
	.cfi_def_cfa_offset 8
	retq
.Lfunc_end16:
	.size	__passlab_entry, .Lfunc_end16-__passlab_entry
	.cfi_endproc

	.type	entry.storage0,@object
	.local	entry.storage0
	.comm	entry.storage0,1024,64
	.type	entry.storage1,@object
	.local	entry.storage1
	.comm	entry.storage1,1024,64
	.type	entry.storage2,@object
	.local	entry.storage2
	.comm	entry.storage2,1024,64
	.section	".note.GNU-stack","",@progbits
