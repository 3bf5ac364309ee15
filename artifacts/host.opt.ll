; ModuleID = 'passlab'
source_filename = "passlab"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@entry.storage0 = internal global [1024 x i8] zeroinitializer, align 64
@entry.storage1 = internal global [1024 x i8] zeroinitializer, align 64
@entry.storage2 = internal global [1024 x i8] zeroinitializer, align 64
@llvm.compiler.used = appending global [3 x i8*] [i8* bitcast (<4 x float> (<4 x float>)* @_ZGVbN4v_expf to i8*), i8* bitcast (<8 x float> (<8 x float>)* @_ZGVdN8v_expf to i8*), i8* bitcast (<16 x float> (<16 x float>)* @_ZGVeN16v_expf to i8*)], section "llvm.metadata"

; Function Attrs: nounwind
define void @fused_add_sqrt_divide_multiply(i8* noalias %p0, i8* noalias %p1, i8* noalias %T_out) #0 {
entry:
  %0 = bitcast i8* %p0 to <4 x float>*
  %1 = load <4 x float>, <4 x float>* %0, align 4
  %2 = fadd <4 x float> %1, <float 0x3EE4F8B580000000, float 0x3EE4F8B580000000, float 0x3EE4F8B580000000, float 0x3EE4F8B580000000>
  %3 = call <4 x float> @llvm.sqrt.v4f32(<4 x float> %2)
  %4 = fdiv <4 x float> <float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00>, %3
  %5 = bitcast i8* %p1 to <4 x float>*
  %6 = load <4 x float>, <4 x float>* %5, align 4
  %7 = fmul <4 x float> %6, %4
  %8 = bitcast i8* %T_out to <4 x float>*
  store <4 x float> %7, <4 x float>* %8, align 4
  ret void
}

; Function Attrs: mustprogress nofree nosync nounwind readnone speculatable willreturn
declare float @llvm.sqrt.f32(float) #1

; Function Attrs: nounwind
define void @fused_expand_dims(i8* noalias %p0, i8* noalias %T_out) #0 {
entry:
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* noundef nonnull align 4 dereferenceable(16) %T_out, i8* noundef nonnull align 4 dereferenceable(16) %p0, i64 16, i1 false)
  ret void
}

; Function Attrs: nounwind
define void @fused_multiply(i8* noalias %p0, i8* noalias %T_out) #0 {
iter.check:
  %0 = bitcast i8* %p0 to <16 x float>*
  %wide.load = load <16 x float>, <16 x float>* %0, align 4
  %1 = getelementptr inbounds i8, i8* %p0, i64 64
  %2 = bitcast i8* %1 to <16 x float>*
  %wide.load3 = load <16 x float>, <16 x float>* %2, align 4
  %3 = getelementptr inbounds i8, i8* %p0, i64 128
  %4 = bitcast i8* %3 to <16 x float>*
  %wide.load4 = load <16 x float>, <16 x float>* %4, align 4
  %5 = getelementptr inbounds i8, i8* %p0, i64 192
  %6 = bitcast i8* %5 to <16 x float>*
  %wide.load5 = load <16 x float>, <16 x float>* %6, align 4
  %7 = fmul <16 x float> %wide.load, <float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00>
  %8 = fmul <16 x float> %wide.load3, <float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00>
  %9 = fmul <16 x float> %wide.load4, <float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00>
  %10 = fmul <16 x float> %wide.load5, <float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00>
  %11 = bitcast i8* %T_out to <16 x float>*
  store <16 x float> %7, <16 x float>* %11, align 4
  %12 = getelementptr inbounds i8, i8* %T_out, i64 64
  %13 = bitcast i8* %12 to <16 x float>*
  store <16 x float> %8, <16 x float>* %13, align 4
  %14 = getelementptr inbounds i8, i8* %T_out, i64 128
  %15 = bitcast i8* %14 to <16 x float>*
  store <16 x float> %9, <16 x float>* %15, align 4
  %16 = getelementptr inbounds i8, i8* %T_out, i64 192
  %17 = bitcast i8* %16 to <16 x float>*
  store <16 x float> %10, <16 x float>* %17, align 4
  %18 = getelementptr inbounds i8, i8* %T_out, i64 256
  %19 = getelementptr inbounds i8, i8* %p0, i64 256
  %20 = bitcast i8* %19 to <16 x float>*
  %wide.load.1 = load <16 x float>, <16 x float>* %20, align 4
  %21 = getelementptr inbounds i8, i8* %p0, i64 320
  %22 = bitcast i8* %21 to <16 x float>*
  %wide.load3.1 = load <16 x float>, <16 x float>* %22, align 4
  %23 = getelementptr inbounds i8, i8* %p0, i64 384
  %24 = bitcast i8* %23 to <16 x float>*
  %wide.load4.1 = load <16 x float>, <16 x float>* %24, align 4
  %25 = getelementptr inbounds i8, i8* %p0, i64 448
  %26 = bitcast i8* %25 to <16 x float>*
  %wide.load5.1 = load <16 x float>, <16 x float>* %26, align 4
  %27 = fmul <16 x float> %wide.load.1, <float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00>
  %28 = fmul <16 x float> %wide.load3.1, <float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00>
  %29 = fmul <16 x float> %wide.load4.1, <float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00>
  %30 = fmul <16 x float> %wide.load5.1, <float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00>
  %31 = bitcast i8* %18 to <16 x float>*
  store <16 x float> %27, <16 x float>* %31, align 4
  %32 = getelementptr inbounds i8, i8* %T_out, i64 320
  %33 = bitcast i8* %32 to <16 x float>*
  store <16 x float> %28, <16 x float>* %33, align 4
  %34 = getelementptr inbounds i8, i8* %T_out, i64 384
  %35 = bitcast i8* %34 to <16 x float>*
  store <16 x float> %29, <16 x float>* %35, align 4
  %36 = getelementptr inbounds i8, i8* %T_out, i64 448
  %37 = bitcast i8* %36 to <16 x float>*
  store <16 x float> %30, <16 x float>* %37, align 4
  %38 = getelementptr inbounds i8, i8* %T_out, i64 512
  %39 = getelementptr inbounds i8, i8* %p0, i64 512
  %40 = bitcast i8* %39 to <16 x float>*
  %wide.load.2 = load <16 x float>, <16 x float>* %40, align 4
  %41 = getelementptr inbounds i8, i8* %p0, i64 576
  %42 = bitcast i8* %41 to <16 x float>*
  %wide.load3.2 = load <16 x float>, <16 x float>* %42, align 4
  %43 = getelementptr inbounds i8, i8* %p0, i64 640
  %44 = bitcast i8* %43 to <16 x float>*
  %wide.load4.2 = load <16 x float>, <16 x float>* %44, align 4
  %45 = getelementptr inbounds i8, i8* %p0, i64 704
  %46 = bitcast i8* %45 to <16 x float>*
  %wide.load5.2 = load <16 x float>, <16 x float>* %46, align 4
  %47 = fmul <16 x float> %wide.load.2, <float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00>
  %48 = fmul <16 x float> %wide.load3.2, <float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00>
  %49 = fmul <16 x float> %wide.load4.2, <float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00>
  %50 = fmul <16 x float> %wide.load5.2, <float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00>
  %51 = bitcast i8* %38 to <16 x float>*
  store <16 x float> %47, <16 x float>* %51, align 4
  %52 = getelementptr inbounds i8, i8* %T_out, i64 576
  %53 = bitcast i8* %52 to <16 x float>*
  store <16 x float> %48, <16 x float>* %53, align 4
  %54 = getelementptr inbounds i8, i8* %T_out, i64 640
  %55 = bitcast i8* %54 to <16 x float>*
  store <16 x float> %49, <16 x float>* %55, align 4
  %56 = getelementptr inbounds i8, i8* %T_out, i64 704
  %57 = bitcast i8* %56 to <16 x float>*
  store <16 x float> %50, <16 x float>* %57, align 4
  %58 = getelementptr inbounds i8, i8* %T_out, i64 768
  %59 = getelementptr inbounds i8, i8* %p0, i64 768
  %60 = bitcast i8* %59 to <16 x float>*
  %wide.load.3 = load <16 x float>, <16 x float>* %60, align 4
  %61 = getelementptr inbounds i8, i8* %p0, i64 832
  %62 = bitcast i8* %61 to <16 x float>*
  %wide.load3.3 = load <16 x float>, <16 x float>* %62, align 4
  %63 = getelementptr inbounds i8, i8* %p0, i64 896
  %64 = bitcast i8* %63 to <16 x float>*
  %wide.load4.3 = load <16 x float>, <16 x float>* %64, align 4
  %65 = getelementptr inbounds i8, i8* %p0, i64 960
  %66 = bitcast i8* %65 to <16 x float>*
  %wide.load5.3 = load <16 x float>, <16 x float>* %66, align 4
  %67 = fmul <16 x float> %wide.load.3, <float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00>
  %68 = fmul <16 x float> %wide.load3.3, <float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00>
  %69 = fmul <16 x float> %wide.load4.3, <float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00>
  %70 = fmul <16 x float> %wide.load5.3, <float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00>
  %71 = bitcast i8* %58 to <16 x float>*
  store <16 x float> %67, <16 x float>* %71, align 4
  %72 = getelementptr inbounds i8, i8* %T_out, i64 832
  %73 = bitcast i8* %72 to <16 x float>*
  store <16 x float> %68, <16 x float>* %73, align 4
  %74 = getelementptr inbounds i8, i8* %T_out, i64 896
  %75 = bitcast i8* %74 to <16 x float>*
  store <16 x float> %69, <16 x float>* %75, align 4
  %76 = getelementptr inbounds i8, i8* %T_out, i64 960
  %77 = bitcast i8* %76 to <16 x float>*
  store <16 x float> %70, <16 x float>* %77, align 4
  ret void
}

; Function Attrs: nounwind
define void @fused_negative_multiply_add_expand_dims(i8* noalias %p0, i8* noalias %p1, i8* noalias %p2, i8* noalias %T_out) #0 {
entry:
  %0 = bitcast i8* %p0 to <4 x float>*
  %1 = load <4 x float>, <4 x float>* %0, align 4
  %2 = bitcast i8* %p1 to <4 x float>*
  %3 = load <4 x float>, <4 x float>* %2, align 4
  %4 = bitcast i8* %p2 to <4 x float>*
  %5 = load <4 x float>, <4 x float>* %4, align 4
  %6 = fmul <4 x float> %1, %3
  %7 = fsub <4 x float> %5, %6
  %8 = bitcast i8* %T_out to <4 x float>*
  store <4 x float> %7, <4 x float>* %8, align 4
  ret void
}

; Function Attrs: argmemonly mustprogress nofree nounwind willreturn writeonly
declare void @llvm.memset.p0i8.i64(i8* nocapture writeonly, i8, i64, i1 immarg) #2

; Function Attrs: nounwind
define void @fused_nn_conv2d_nn_bias_add_multiply_add_multiply(i8* noalias %p0, i8* noalias %p1, i8* noalias %p2, i8* noalias %p3, i8* noalias %p4, i8* noalias %T_out) #0 {
entry:
  %conv_rows24 = alloca [384 x float], align 64
  %data_phases23 = alloca [318 x float], align 64
  %0 = bitcast i8* %p2 to float*
  %1 = bitcast i8* %p4 to float*
  %2 = bitcast i8* %p3 to float*
  %scevgep = getelementptr inbounds [318 x float], [318 x float]* %data_phases23, i64 0, i64 11
  %scevgep32 = bitcast float* %scevgep to i8*
  %3 = bitcast [318 x float]* %data_phases23 to i8*
  call void @llvm.memset.p0i8.i64(i8* noundef nonnull align 64 dereferenceable(1272) %3, i8 0, i64 1272, i1 false)
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* noundef nonnull align 4 dereferenceable(32) %scevgep32, i8* noundef nonnull align 4 dereferenceable(32) %p0, i64 32, i1 false)
  %scevgep.1 = getelementptr inbounds [318 x float], [318 x float]* %data_phases23, i64 0, i64 21
  %scevgep32.1 = bitcast float* %scevgep.1 to i8*
  %scevgep33.1 = getelementptr i8, i8* %p0, i64 32
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* noundef nonnull align 4 dereferenceable(32) %scevgep32.1, i8* noundef nonnull align 4 dereferenceable(32) %scevgep33.1, i64 32, i1 false)
  %scevgep.2 = getelementptr inbounds [318 x float], [318 x float]* %data_phases23, i64 0, i64 31
  %scevgep32.2 = bitcast float* %scevgep.2 to i8*
  %scevgep33.2 = getelementptr i8, i8* %p0, i64 64
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* noundef nonnull align 4 dereferenceable(32) %scevgep32.2, i8* noundef nonnull align 4 dereferenceable(32) %scevgep33.2, i64 32, i1 false)
  %scevgep.3 = getelementptr inbounds [318 x float], [318 x float]* %data_phases23, i64 0, i64 41
  %scevgep32.3 = bitcast float* %scevgep.3 to i8*
  %scevgep33.3 = getelementptr i8, i8* %p0, i64 96
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* noundef nonnull align 4 dereferenceable(32) %scevgep32.3, i8* noundef nonnull align 4 dereferenceable(32) %scevgep33.3, i64 32, i1 false)
  %scevgep.4 = getelementptr inbounds [318 x float], [318 x float]* %data_phases23, i64 0, i64 51
  %scevgep32.4 = bitcast float* %scevgep.4 to i8*
  %scevgep33.4 = getelementptr i8, i8* %p0, i64 128
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* noundef nonnull align 4 dereferenceable(32) %scevgep32.4, i8* noundef nonnull align 4 dereferenceable(32) %scevgep33.4, i64 32, i1 false)
  %scevgep.5 = getelementptr inbounds [318 x float], [318 x float]* %data_phases23, i64 0, i64 61
  %scevgep32.5 = bitcast float* %scevgep.5 to i8*
  %scevgep33.5 = getelementptr i8, i8* %p0, i64 160
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* noundef nonnull align 4 dereferenceable(32) %scevgep32.5, i8* noundef nonnull align 4 dereferenceable(32) %scevgep33.5, i64 32, i1 false)
  %scevgep.6 = getelementptr inbounds [318 x float], [318 x float]* %data_phases23, i64 0, i64 71
  %scevgep32.6 = bitcast float* %scevgep.6 to i8*
  %scevgep33.6 = getelementptr i8, i8* %p0, i64 192
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* noundef nonnull align 4 dereferenceable(32) %scevgep32.6, i8* noundef nonnull align 4 dereferenceable(32) %scevgep33.6, i64 32, i1 false)
  %scevgep.7 = getelementptr inbounds [318 x float], [318 x float]* %data_phases23, i64 0, i64 81
  %scevgep32.7 = bitcast float* %scevgep.7 to i8*
  %scevgep33.7 = getelementptr i8, i8* %p0, i64 224
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* noundef nonnull align 4 dereferenceable(32) %scevgep32.7, i8* noundef nonnull align 4 dereferenceable(32) %scevgep33.7, i64 32, i1 false)
  %scevgep.137 = getelementptr inbounds [318 x float], [318 x float]* %data_phases23, i64 0, i64 111
  %scevgep32.138 = bitcast float* %scevgep.137 to i8*
  %scevgep33.139 = getelementptr i8, i8* %p0, i64 256
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* noundef nonnull align 4 dereferenceable(32) %scevgep32.138, i8* noundef nonnull align 4 dereferenceable(32) %scevgep33.139, i64 32, i1 false)
  %scevgep.1.1 = getelementptr inbounds [318 x float], [318 x float]* %data_phases23, i64 0, i64 121
  %scevgep32.1.1 = bitcast float* %scevgep.1.1 to i8*
  %scevgep33.1.1 = getelementptr i8, i8* %p0, i64 288
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* noundef nonnull align 4 dereferenceable(32) %scevgep32.1.1, i8* noundef nonnull align 4 dereferenceable(32) %scevgep33.1.1, i64 32, i1 false)
  %scevgep.2.1 = getelementptr inbounds [318 x float], [318 x float]* %data_phases23, i64 0, i64 131
  %scevgep32.2.1 = bitcast float* %scevgep.2.1 to i8*
  %scevgep33.2.1 = getelementptr i8, i8* %p0, i64 320
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* noundef nonnull align 4 dereferenceable(32) %scevgep32.2.1, i8* noundef nonnull align 4 dereferenceable(32) %scevgep33.2.1, i64 32, i1 false)
  %scevgep.3.1 = getelementptr inbounds [318 x float], [318 x float]* %data_phases23, i64 0, i64 141
  %scevgep32.3.1 = bitcast float* %scevgep.3.1 to i8*
  %scevgep33.3.1 = getelementptr i8, i8* %p0, i64 352
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* noundef nonnull align 4 dereferenceable(32) %scevgep32.3.1, i8* noundef nonnull align 4 dereferenceable(32) %scevgep33.3.1, i64 32, i1 false)
  %scevgep.4.1 = getelementptr inbounds [318 x float], [318 x float]* %data_phases23, i64 0, i64 151
  %scevgep32.4.1 = bitcast float* %scevgep.4.1 to i8*
  %scevgep33.4.1 = getelementptr i8, i8* %p0, i64 384
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* noundef nonnull align 4 dereferenceable(32) %scevgep32.4.1, i8* noundef nonnull align 4 dereferenceable(32) %scevgep33.4.1, i64 32, i1 false)
  %scevgep.5.1 = getelementptr inbounds [318 x float], [318 x float]* %data_phases23, i64 0, i64 161
  %scevgep32.5.1 = bitcast float* %scevgep.5.1 to i8*
  %scevgep33.5.1 = getelementptr i8, i8* %p0, i64 416
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* noundef nonnull align 4 dereferenceable(32) %scevgep32.5.1, i8* noundef nonnull align 4 dereferenceable(32) %scevgep33.5.1, i64 32, i1 false)
  %scevgep.6.1 = getelementptr inbounds [318 x float], [318 x float]* %data_phases23, i64 0, i64 171
  %scevgep32.6.1 = bitcast float* %scevgep.6.1 to i8*
  %scevgep33.6.1 = getelementptr i8, i8* %p0, i64 448
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* noundef nonnull align 4 dereferenceable(32) %scevgep32.6.1, i8* noundef nonnull align 4 dereferenceable(32) %scevgep33.6.1, i64 32, i1 false)
  %scevgep.7.1 = getelementptr inbounds [318 x float], [318 x float]* %data_phases23, i64 0, i64 181
  %scevgep32.7.1 = bitcast float* %scevgep.7.1 to i8*
  %scevgep33.7.1 = getelementptr i8, i8* %p0, i64 480
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* noundef nonnull align 4 dereferenceable(32) %scevgep32.7.1, i8* noundef nonnull align 4 dereferenceable(32) %scevgep33.7.1, i64 32, i1 false)
  %scevgep.241 = getelementptr inbounds [318 x float], [318 x float]* %data_phases23, i64 0, i64 211
  %scevgep32.242 = bitcast float* %scevgep.241 to i8*
  %scevgep33.243 = getelementptr i8, i8* %p0, i64 512
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* noundef nonnull align 4 dereferenceable(32) %scevgep32.242, i8* noundef nonnull align 4 dereferenceable(32) %scevgep33.243, i64 32, i1 false)
  %scevgep.1.2 = getelementptr inbounds [318 x float], [318 x float]* %data_phases23, i64 0, i64 221
  %scevgep32.1.2 = bitcast float* %scevgep.1.2 to i8*
  %scevgep33.1.2 = getelementptr i8, i8* %p0, i64 544
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* noundef nonnull align 4 dereferenceable(32) %scevgep32.1.2, i8* noundef nonnull align 4 dereferenceable(32) %scevgep33.1.2, i64 32, i1 false)
  %scevgep.2.2 = getelementptr inbounds [318 x float], [318 x float]* %data_phases23, i64 0, i64 231
  %scevgep32.2.2 = bitcast float* %scevgep.2.2 to i8*
  %scevgep33.2.2 = getelementptr i8, i8* %p0, i64 576
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* noundef nonnull align 4 dereferenceable(32) %scevgep32.2.2, i8* noundef nonnull align 4 dereferenceable(32) %scevgep33.2.2, i64 32, i1 false)
  %scevgep.3.2 = getelementptr inbounds [318 x float], [318 x float]* %data_phases23, i64 0, i64 241
  %scevgep32.3.2 = bitcast float* %scevgep.3.2 to i8*
  %scevgep33.3.2 = getelementptr i8, i8* %p0, i64 608
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* noundef nonnull align 4 dereferenceable(32) %scevgep32.3.2, i8* noundef nonnull align 4 dereferenceable(32) %scevgep33.3.2, i64 32, i1 false)
  %scevgep.4.2 = getelementptr inbounds [318 x float], [318 x float]* %data_phases23, i64 0, i64 251
  %scevgep32.4.2 = bitcast float* %scevgep.4.2 to i8*
  %scevgep33.4.2 = getelementptr i8, i8* %p0, i64 640
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* noundef nonnull align 4 dereferenceable(32) %scevgep32.4.2, i8* noundef nonnull align 4 dereferenceable(32) %scevgep33.4.2, i64 32, i1 false)
  %scevgep.5.2 = getelementptr inbounds [318 x float], [318 x float]* %data_phases23, i64 0, i64 261
  %scevgep32.5.2 = bitcast float* %scevgep.5.2 to i8*
  %scevgep33.5.2 = getelementptr i8, i8* %p0, i64 672
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* noundef nonnull align 4 dereferenceable(32) %scevgep32.5.2, i8* noundef nonnull align 4 dereferenceable(32) %scevgep33.5.2, i64 32, i1 false)
  %scevgep.6.2 = getelementptr inbounds [318 x float], [318 x float]* %data_phases23, i64 0, i64 271
  %scevgep32.6.2 = bitcast float* %scevgep.6.2 to i8*
  %scevgep33.6.2 = getelementptr i8, i8* %p0, i64 704
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* noundef nonnull align 4 dereferenceable(32) %scevgep32.6.2, i8* noundef nonnull align 4 dereferenceable(32) %scevgep33.6.2, i64 32, i1 false)
  %scevgep.7.2 = getelementptr inbounds [318 x float], [318 x float]* %data_phases23, i64 0, i64 281
  %scevgep32.7.2 = bitcast float* %scevgep.7.2 to i8*
  %scevgep33.7.2 = getelementptr i8, i8* %p0, i64 736
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* noundef nonnull align 4 dereferenceable(32) %scevgep32.7.2, i8* noundef nonnull align 4 dereferenceable(32) %scevgep33.7.2, i64 32, i1 false)
  %4 = bitcast i8* %p1 to float*
  %5 = bitcast [384 x float]* %conv_rows24 to i8*
  call void @llvm.memset.p0i8.i64(i8* noundef nonnull align 64 dereferenceable(1536) %5, i8 0, i64 1536, i1 false)
  br label %for.tile

for.tile:                                         ; preds = %entry, %vector.body
  %indvars.iv78 = phi i64 [ 0, %entry ], [ %indvars.iv.next79, %vector.body ]
  %6 = shl nuw nsw i64 %indvars.iv78, 5
  br label %for.rc

for.rc:                                           ; preds = %for.tile, %for.rc
  %conv_acc25.sroa.58.1 = phi <32 x float> [ zeroinitializer, %for.tile ], [ %225, %for.rc ]
  %conv_acc25.sroa.39.1 = phi <32 x float> [ zeroinitializer, %for.tile ], [ %223, %for.rc ]
  %conv_acc25.sroa.20.1 = phi <32 x float> [ zeroinitializer, %for.tile ], [ %221, %for.rc ]
  %conv_acc25.sroa.0.1 = phi <32 x float> [ zeroinitializer, %for.tile ], [ %219, %for.rc ]
  %indvars.iv62 = phi i64 [ 0, %for.tile ], [ %indvars.iv.next63, %for.rc ]
  %7 = mul nuw nsw i64 %indvars.iv62, 100
  %8 = add nuw nsw i64 %7, %6
  %9 = mul nuw i64 %indvars.iv62, 9
  %10 = mul i64 %indvars.iv62, 9
  %11 = add i64 %10, 27
  %12 = mul i64 %indvars.iv62, 9
  %13 = add i64 %12, 54
  %14 = mul i64 %indvars.iv62, 9
  %15 = add i64 %14, 81
  %16 = getelementptr inbounds [318 x float], [318 x float]* %data_phases23, i64 0, i64 %8
  %17 = bitcast float* %16 to <32 x float>*
  %wide.load145 = load <32 x float>, <32 x float>* %17, align 16
  %18 = or i64 %8, 1
  %19 = getelementptr inbounds [318 x float], [318 x float]* %data_phases23, i64 0, i64 %18
  %20 = bitcast float* %19 to <32 x float>*
  %wide.load124 = load <32 x float>, <32 x float>* %20, align 4
  %21 = or i64 %8, 2
  %22 = getelementptr inbounds [318 x float], [318 x float]* %data_phases23, i64 0, i64 %21
  %23 = bitcast float* %22 to <32 x float>*
  %wide.load105 = load <32 x float>, <32 x float>* %23, align 8
  %24 = add nuw nsw i64 %8, 10
  %25 = mul i64 %indvars.iv62, 9
  %26 = add i64 %25, 3
  %27 = mul i64 %indvars.iv62, 9
  %28 = add i64 %27, 30
  %29 = mul i64 %indvars.iv62, 9
  %30 = add i64 %29, 57
  %31 = mul i64 %indvars.iv62, 9
  %32 = add i64 %31, 84
  %33 = getelementptr inbounds [318 x float], [318 x float]* %data_phases23, i64 0, i64 %24
  %34 = bitcast float* %33 to <32 x float>*
  %wide.load145.1 = load <32 x float>, <32 x float>* %34, align 8
  %35 = or i64 %24, 1
  %36 = getelementptr inbounds [318 x float], [318 x float]* %data_phases23, i64 0, i64 %35
  %37 = bitcast float* %36 to <32 x float>*
  %wide.load124.1 = load <32 x float>, <32 x float>* %37, align 4
  %38 = add nuw nsw i64 %8, 12
  %39 = getelementptr inbounds [318 x float], [318 x float]* %data_phases23, i64 0, i64 %38
  %40 = bitcast float* %39 to <32 x float>*
  %wide.load105.1 = load <32 x float>, <32 x float>* %40, align 16
  %41 = add nuw nsw i64 %8, 20
  %42 = mul i64 %indvars.iv62, 9
  %43 = add i64 %42, 6
  %44 = mul i64 %indvars.iv62, 9
  %45 = add i64 %44, 33
  %46 = mul i64 %indvars.iv62, 9
  %47 = add i64 %46, 60
  %48 = mul i64 %indvars.iv62, 9
  %49 = add i64 %48, 87
  %50 = getelementptr inbounds [318 x float], [318 x float]* %data_phases23, i64 0, i64 %41
  %51 = bitcast float* %50 to <32 x float>*
  %wide.load145.2 = load <32 x float>, <32 x float>* %51, align 16
  %52 = or i64 %41, 1
  %53 = getelementptr inbounds [318 x float], [318 x float]* %data_phases23, i64 0, i64 %52
  %54 = bitcast float* %53 to <32 x float>*
  %wide.load124.2 = load <32 x float>, <32 x float>* %54, align 4
  %55 = add i64 %48, 89
  %56 = getelementptr inbounds float, float* %4, i64 %55
  %57 = load float, float* %56, align 4
  %broadcast.splatinsert113.2 = insertelement <32 x float> poison, float %57, i64 0
  %broadcast.splat114.2 = shufflevector <32 x float> %broadcast.splatinsert113.2, <32 x float> poison, <32 x i32> zeroinitializer
  %58 = add i64 %46, 62
  %59 = getelementptr inbounds float, float* %4, i64 %58
  %60 = load float, float* %59, align 4
  %broadcast.splatinsert110.2 = insertelement <32 x float> poison, float %60, i64 0
  %broadcast.splat111.2 = shufflevector <32 x float> %broadcast.splatinsert110.2, <32 x float> poison, <32 x i32> zeroinitializer
  %61 = add i64 %44, 35
  %62 = getelementptr inbounds float, float* %4, i64 %61
  %63 = load float, float* %62, align 4
  %broadcast.splatinsert107.2 = insertelement <32 x float> poison, float %63, i64 0
  %broadcast.splat108.2 = shufflevector <32 x float> %broadcast.splatinsert107.2, <32 x float> poison, <32 x i32> zeroinitializer
  %64 = add i64 %42, 8
  %65 = getelementptr inbounds float, float* %4, i64 %64
  %66 = load float, float* %65, align 4
  %broadcast.splatinsert.2 = insertelement <32 x float> poison, float %66, i64 0
  %broadcast.splat.2 = shufflevector <32 x float> %broadcast.splatinsert.2, <32 x float> poison, <32 x i32> zeroinitializer
  %67 = add nuw nsw i64 %8, 22
  %68 = getelementptr inbounds float, float* %4, i64 %15
  %69 = load float, float* %68, align 4
  %broadcast.splatinsert155 = insertelement <32 x float> poison, float %69, i64 0
  %broadcast.splat156 = shufflevector <32 x float> %broadcast.splatinsert155, <32 x float> poison, <32 x i32> zeroinitializer
  %70 = fmul <32 x float> %wide.load145, %broadcast.splat156
  %71 = fadd <32 x float> %conv_acc25.sroa.58.1, %70
  %72 = add i64 %14, 82
  %73 = getelementptr inbounds float, float* %4, i64 %72
  %74 = load float, float* %73, align 4
  %broadcast.splatinsert134 = insertelement <32 x float> poison, float %74, i64 0
  %broadcast.splat135 = shufflevector <32 x float> %broadcast.splatinsert134, <32 x float> poison, <32 x i32> zeroinitializer
  %75 = fmul <32 x float> %wide.load124, %broadcast.splat135
  %76 = fadd <32 x float> %71, %75
  %77 = add i64 %14, 83
  %78 = getelementptr inbounds float, float* %4, i64 %77
  %79 = load float, float* %78, align 4
  %broadcast.splatinsert113 = insertelement <32 x float> poison, float %79, i64 0
  %broadcast.splat114 = shufflevector <32 x float> %broadcast.splatinsert113, <32 x float> poison, <32 x i32> zeroinitializer
  %80 = fmul <32 x float> %wide.load105, %broadcast.splat114
  %81 = fadd <32 x float> %76, %80
  %82 = getelementptr inbounds float, float* %4, i64 %32
  %83 = load float, float* %82, align 4
  %broadcast.splatinsert155.1 = insertelement <32 x float> poison, float %83, i64 0
  %broadcast.splat156.1 = shufflevector <32 x float> %broadcast.splatinsert155.1, <32 x float> poison, <32 x i32> zeroinitializer
  %84 = fmul <32 x float> %wide.load145.1, %broadcast.splat156.1
  %85 = fadd <32 x float> %81, %84
  %86 = add i64 %31, 85
  %87 = getelementptr inbounds float, float* %4, i64 %86
  %88 = load float, float* %87, align 4
  %broadcast.splatinsert134.1 = insertelement <32 x float> poison, float %88, i64 0
  %broadcast.splat135.1 = shufflevector <32 x float> %broadcast.splatinsert134.1, <32 x float> poison, <32 x i32> zeroinitializer
  %89 = fmul <32 x float> %wide.load124.1, %broadcast.splat135.1
  %90 = fadd <32 x float> %85, %89
  %91 = add i64 %31, 86
  %92 = getelementptr inbounds float, float* %4, i64 %91
  %93 = load float, float* %92, align 4
  %broadcast.splatinsert113.1 = insertelement <32 x float> poison, float %93, i64 0
  %broadcast.splat114.1 = shufflevector <32 x float> %broadcast.splatinsert113.1, <32 x float> poison, <32 x i32> zeroinitializer
  %94 = fmul <32 x float> %wide.load105.1, %broadcast.splat114.1
  %95 = fadd <32 x float> %90, %94
  %96 = getelementptr inbounds float, float* %4, i64 %49
  %97 = load float, float* %96, align 4
  %broadcast.splatinsert155.2 = insertelement <32 x float> poison, float %97, i64 0
  %broadcast.splat156.2 = shufflevector <32 x float> %broadcast.splatinsert155.2, <32 x float> poison, <32 x i32> zeroinitializer
  %98 = fmul <32 x float> %wide.load145.2, %broadcast.splat156.2
  %99 = fadd <32 x float> %95, %98
  %100 = add i64 %48, 88
  %101 = getelementptr inbounds float, float* %4, i64 %100
  %102 = load float, float* %101, align 4
  %broadcast.splatinsert134.2 = insertelement <32 x float> poison, float %102, i64 0
  %broadcast.splat135.2 = shufflevector <32 x float> %broadcast.splatinsert134.2, <32 x float> poison, <32 x i32> zeroinitializer
  %103 = fmul <32 x float> %wide.load124.2, %broadcast.splat135.2
  %104 = fadd <32 x float> %99, %103
  %105 = getelementptr inbounds float, float* %4, i64 %13
  %106 = load float, float* %105, align 4
  %broadcast.splatinsert152 = insertelement <32 x float> poison, float %106, i64 0
  %broadcast.splat153 = shufflevector <32 x float> %broadcast.splatinsert152, <32 x float> poison, <32 x i32> zeroinitializer
  %107 = fmul <32 x float> %wide.load145, %broadcast.splat153
  %108 = fadd <32 x float> %conv_acc25.sroa.39.1, %107
  %109 = add i64 %12, 55
  %110 = getelementptr inbounds float, float* %4, i64 %109
  %111 = load float, float* %110, align 4
  %broadcast.splatinsert131 = insertelement <32 x float> poison, float %111, i64 0
  %broadcast.splat132 = shufflevector <32 x float> %broadcast.splatinsert131, <32 x float> poison, <32 x i32> zeroinitializer
  %112 = fmul <32 x float> %wide.load124, %broadcast.splat132
  %113 = fadd <32 x float> %108, %112
  %114 = add i64 %12, 56
  %115 = getelementptr inbounds float, float* %4, i64 %114
  %116 = load float, float* %115, align 4
  %broadcast.splatinsert110 = insertelement <32 x float> poison, float %116, i64 0
  %broadcast.splat111 = shufflevector <32 x float> %broadcast.splatinsert110, <32 x float> poison, <32 x i32> zeroinitializer
  %117 = fmul <32 x float> %wide.load105, %broadcast.splat111
  %118 = fadd <32 x float> %113, %117
  %119 = getelementptr inbounds float, float* %4, i64 %30
  %120 = load float, float* %119, align 4
  %broadcast.splatinsert152.1 = insertelement <32 x float> poison, float %120, i64 0
  %broadcast.splat153.1 = shufflevector <32 x float> %broadcast.splatinsert152.1, <32 x float> poison, <32 x i32> zeroinitializer
  %121 = fmul <32 x float> %wide.load145.1, %broadcast.splat153.1
  %122 = fadd <32 x float> %118, %121
  %123 = add i64 %29, 58
  %124 = getelementptr inbounds float, float* %4, i64 %123
  %125 = load float, float* %124, align 4
  %broadcast.splatinsert131.1 = insertelement <32 x float> poison, float %125, i64 0
  %broadcast.splat132.1 = shufflevector <32 x float> %broadcast.splatinsert131.1, <32 x float> poison, <32 x i32> zeroinitializer
  %126 = fmul <32 x float> %wide.load124.1, %broadcast.splat132.1
  %127 = fadd <32 x float> %122, %126
  %128 = add i64 %29, 59
  %129 = getelementptr inbounds float, float* %4, i64 %128
  %130 = load float, float* %129, align 4
  %broadcast.splatinsert110.1 = insertelement <32 x float> poison, float %130, i64 0
  %broadcast.splat111.1 = shufflevector <32 x float> %broadcast.splatinsert110.1, <32 x float> poison, <32 x i32> zeroinitializer
  %131 = fmul <32 x float> %wide.load105.1, %broadcast.splat111.1
  %132 = fadd <32 x float> %127, %131
  %133 = getelementptr inbounds float, float* %4, i64 %47
  %134 = load float, float* %133, align 4
  %broadcast.splatinsert152.2 = insertelement <32 x float> poison, float %134, i64 0
  %broadcast.splat153.2 = shufflevector <32 x float> %broadcast.splatinsert152.2, <32 x float> poison, <32 x i32> zeroinitializer
  %135 = fmul <32 x float> %wide.load145.2, %broadcast.splat153.2
  %136 = fadd <32 x float> %132, %135
  %137 = add i64 %46, 61
  %138 = getelementptr inbounds float, float* %4, i64 %137
  %139 = load float, float* %138, align 4
  %broadcast.splatinsert131.2 = insertelement <32 x float> poison, float %139, i64 0
  %broadcast.splat132.2 = shufflevector <32 x float> %broadcast.splatinsert131.2, <32 x float> poison, <32 x i32> zeroinitializer
  %140 = fmul <32 x float> %wide.load124.2, %broadcast.splat132.2
  %141 = fadd <32 x float> %136, %140
  %142 = getelementptr inbounds float, float* %4, i64 %11
  %143 = load float, float* %142, align 4
  %broadcast.splatinsert149 = insertelement <32 x float> poison, float %143, i64 0
  %broadcast.splat150 = shufflevector <32 x float> %broadcast.splatinsert149, <32 x float> poison, <32 x i32> zeroinitializer
  %144 = fmul <32 x float> %wide.load145, %broadcast.splat150
  %145 = fadd <32 x float> %conv_acc25.sroa.20.1, %144
  %146 = add i64 %10, 28
  %147 = getelementptr inbounds float, float* %4, i64 %146
  %148 = load float, float* %147, align 4
  %broadcast.splatinsert128 = insertelement <32 x float> poison, float %148, i64 0
  %broadcast.splat129 = shufflevector <32 x float> %broadcast.splatinsert128, <32 x float> poison, <32 x i32> zeroinitializer
  %149 = fmul <32 x float> %wide.load124, %broadcast.splat129
  %150 = fadd <32 x float> %145, %149
  %151 = add i64 %10, 29
  %152 = getelementptr inbounds float, float* %4, i64 %151
  %153 = load float, float* %152, align 4
  %broadcast.splatinsert107 = insertelement <32 x float> poison, float %153, i64 0
  %broadcast.splat108 = shufflevector <32 x float> %broadcast.splatinsert107, <32 x float> poison, <32 x i32> zeroinitializer
  %154 = fmul <32 x float> %wide.load105, %broadcast.splat108
  %155 = fadd <32 x float> %150, %154
  %156 = getelementptr inbounds float, float* %4, i64 %28
  %157 = load float, float* %156, align 4
  %broadcast.splatinsert149.1 = insertelement <32 x float> poison, float %157, i64 0
  %broadcast.splat150.1 = shufflevector <32 x float> %broadcast.splatinsert149.1, <32 x float> poison, <32 x i32> zeroinitializer
  %158 = fmul <32 x float> %wide.load145.1, %broadcast.splat150.1
  %159 = fadd <32 x float> %155, %158
  %160 = add i64 %27, 31
  %161 = getelementptr inbounds float, float* %4, i64 %160
  %162 = load float, float* %161, align 4
  %broadcast.splatinsert128.1 = insertelement <32 x float> poison, float %162, i64 0
  %broadcast.splat129.1 = shufflevector <32 x float> %broadcast.splatinsert128.1, <32 x float> poison, <32 x i32> zeroinitializer
  %163 = fmul <32 x float> %wide.load124.1, %broadcast.splat129.1
  %164 = fadd <32 x float> %159, %163
  %165 = add i64 %27, 32
  %166 = getelementptr inbounds float, float* %4, i64 %165
  %167 = load float, float* %166, align 4
  %broadcast.splatinsert107.1 = insertelement <32 x float> poison, float %167, i64 0
  %broadcast.splat108.1 = shufflevector <32 x float> %broadcast.splatinsert107.1, <32 x float> poison, <32 x i32> zeroinitializer
  %168 = fmul <32 x float> %wide.load105.1, %broadcast.splat108.1
  %169 = fadd <32 x float> %164, %168
  %170 = getelementptr inbounds float, float* %4, i64 %45
  %171 = load float, float* %170, align 4
  %broadcast.splatinsert149.2 = insertelement <32 x float> poison, float %171, i64 0
  %broadcast.splat150.2 = shufflevector <32 x float> %broadcast.splatinsert149.2, <32 x float> poison, <32 x i32> zeroinitializer
  %172 = fmul <32 x float> %wide.load145.2, %broadcast.splat150.2
  %173 = fadd <32 x float> %169, %172
  %174 = add i64 %44, 34
  %175 = getelementptr inbounds float, float* %4, i64 %174
  %176 = load float, float* %175, align 4
  %broadcast.splatinsert128.2 = insertelement <32 x float> poison, float %176, i64 0
  %broadcast.splat129.2 = shufflevector <32 x float> %broadcast.splatinsert128.2, <32 x float> poison, <32 x i32> zeroinitializer
  %177 = fmul <32 x float> %wide.load124.2, %broadcast.splat129.2
  %178 = fadd <32 x float> %173, %177
  %179 = getelementptr inbounds float, float* %4, i64 %9
  %180 = load float, float* %179, align 4
  %broadcast.splatinsert146 = insertelement <32 x float> poison, float %180, i64 0
  %broadcast.splat147 = shufflevector <32 x float> %broadcast.splatinsert146, <32 x float> poison, <32 x i32> zeroinitializer
  %181 = fmul <32 x float> %wide.load145, %broadcast.splat147
  %182 = fadd <32 x float> %conv_acc25.sroa.0.1, %181
  %183 = add nuw nsw i64 %9, 1
  %184 = getelementptr inbounds float, float* %4, i64 %183
  %185 = load float, float* %184, align 4
  %broadcast.splatinsert125 = insertelement <32 x float> poison, float %185, i64 0
  %broadcast.splat126 = shufflevector <32 x float> %broadcast.splatinsert125, <32 x float> poison, <32 x i32> zeroinitializer
  %186 = fmul <32 x float> %wide.load124, %broadcast.splat126
  %187 = fadd <32 x float> %182, %186
  %188 = add nuw nsw i64 %9, 2
  %189 = getelementptr inbounds float, float* %4, i64 %188
  %190 = load float, float* %189, align 4
  %broadcast.splatinsert = insertelement <32 x float> poison, float %190, i64 0
  %broadcast.splat = shufflevector <32 x float> %broadcast.splatinsert, <32 x float> poison, <32 x i32> zeroinitializer
  %191 = fmul <32 x float> %wide.load105, %broadcast.splat
  %192 = fadd <32 x float> %187, %191
  %193 = getelementptr inbounds float, float* %4, i64 %26
  %194 = load float, float* %193, align 4
  %broadcast.splatinsert146.1 = insertelement <32 x float> poison, float %194, i64 0
  %broadcast.splat147.1 = shufflevector <32 x float> %broadcast.splatinsert146.1, <32 x float> poison, <32 x i32> zeroinitializer
  %195 = fmul <32 x float> %wide.load145.1, %broadcast.splat147.1
  %196 = fadd <32 x float> %192, %195
  %197 = add i64 %25, 4
  %198 = getelementptr inbounds float, float* %4, i64 %197
  %199 = load float, float* %198, align 4
  %broadcast.splatinsert125.1 = insertelement <32 x float> poison, float %199, i64 0
  %broadcast.splat126.1 = shufflevector <32 x float> %broadcast.splatinsert125.1, <32 x float> poison, <32 x i32> zeroinitializer
  %200 = fmul <32 x float> %wide.load124.1, %broadcast.splat126.1
  %201 = fadd <32 x float> %196, %200
  %202 = add i64 %25, 5
  %203 = getelementptr inbounds float, float* %4, i64 %202
  %204 = load float, float* %203, align 4
  %broadcast.splatinsert.1 = insertelement <32 x float> poison, float %204, i64 0
  %broadcast.splat.1 = shufflevector <32 x float> %broadcast.splatinsert.1, <32 x float> poison, <32 x i32> zeroinitializer
  %205 = fmul <32 x float> %wide.load105.1, %broadcast.splat.1
  %206 = fadd <32 x float> %201, %205
  %207 = getelementptr inbounds float, float* %4, i64 %43
  %208 = load float, float* %207, align 4
  %broadcast.splatinsert146.2 = insertelement <32 x float> poison, float %208, i64 0
  %broadcast.splat147.2 = shufflevector <32 x float> %broadcast.splatinsert146.2, <32 x float> poison, <32 x i32> zeroinitializer
  %209 = fmul <32 x float> %wide.load145.2, %broadcast.splat147.2
  %210 = fadd <32 x float> %206, %209
  %211 = add i64 %42, 7
  %212 = getelementptr inbounds float, float* %4, i64 %211
  %213 = load float, float* %212, align 4
  %broadcast.splatinsert125.2 = insertelement <32 x float> poison, float %213, i64 0
  %broadcast.splat126.2 = shufflevector <32 x float> %broadcast.splatinsert125.2, <32 x float> poison, <32 x i32> zeroinitializer
  %214 = fmul <32 x float> %wide.load124.2, %broadcast.splat126.2
  %215 = fadd <32 x float> %210, %214
  %216 = getelementptr inbounds [318 x float], [318 x float]* %data_phases23, i64 0, i64 %67
  %217 = bitcast float* %216 to <32 x float>*
  %wide.load105.2 = load <32 x float>, <32 x float>* %217, align 8
  %218 = fmul <32 x float> %wide.load105.2, %broadcast.splat.2
  %219 = fadd <32 x float> %215, %218
  %220 = fmul <32 x float> %wide.load105.2, %broadcast.splat108.2
  %221 = fadd <32 x float> %178, %220
  %222 = fmul <32 x float> %wide.load105.2, %broadcast.splat111.2
  %223 = fadd <32 x float> %141, %222
  %224 = fmul <32 x float> %wide.load105.2, %broadcast.splat114.2
  %225 = fadd <32 x float> %104, %224
  %indvars.iv.next63 = add nuw nsw i64 %indvars.iv62, 1
  %exitcond65.not = icmp eq i64 %indvars.iv.next63, 3
  br i1 %exitcond65.not, label %vector.body, label %for.rc, !llvm.loop !0

vector.body:                                      ; preds = %for.rc
  %226 = getelementptr inbounds [384 x float], [384 x float]* %conv_rows24, i64 0, i64 %6
  %227 = bitcast float* %226 to <32 x float>*
  store <32 x float> %219, <32 x float>* %227, align 64
  %228 = add nuw nsw i64 %6, 96
  %229 = getelementptr inbounds [384 x float], [384 x float]* %conv_rows24, i64 0, i64 %228
  %230 = bitcast float* %229 to <32 x float>*
  store <32 x float> %221, <32 x float>* %230, align 64
  %231 = add nuw nsw i64 %6, 192
  %232 = getelementptr inbounds [384 x float], [384 x float]* %conv_rows24, i64 0, i64 %231
  %233 = bitcast float* %232 to <32 x float>*
  store <32 x float> %223, <32 x float>* %233, align 64
  %234 = add nuw nsw i64 %6, 288
  %235 = getelementptr inbounds [384 x float], [384 x float]* %conv_rows24, i64 0, i64 %234
  %236 = bitcast float* %235 to <32 x float>*
  store <32 x float> %225, <32 x float>* %236, align 64
  %indvars.iv.next79 = add nuw nsw i64 %indvars.iv78, 1
  %exitcond81.not = icmp eq i64 %indvars.iv.next79, 3
  br i1 %exitcond81.not, label %for.ax018, label %for.tile, !llvm.loop !2

for.ax018:                                        ; preds = %vector.body
  %237 = load float, float* %0, align 4
  %238 = load float, float* %2, align 4
  %239 = load float, float* %1, align 4
  %240 = insertelement <8 x float> poison, float %239, i64 0
  %shuffle = shufflevector <8 x float> %240, <8 x float> poison, <8 x i32> zeroinitializer
  %241 = insertelement <8 x float> poison, float %238, i64 0
  %shuffle168 = shufflevector <8 x float> %241, <8 x float> poison, <8 x i32> zeroinitializer
  %242 = insertelement <8 x float> poison, float %237, i64 0
  %shuffle169 = shufflevector <8 x float> %242, <8 x float> poison, <8 x i32> zeroinitializer
  %243 = bitcast [384 x float]* %conv_rows24 to <8 x float>*
  %244 = load <8 x float>, <8 x float>* %243, align 64
  %245 = fadd <8 x float> %244, %shuffle169
  %246 = fadd <8 x float> %245, zeroinitializer
  %247 = fmul <8 x float> %shuffle168, %246
  %248 = fadd <8 x float> %shuffle, %247
  %249 = bitcast i8* %T_out to <8 x float>*
  store <8 x float> %248, <8 x float>* %249, align 4
  %250 = getelementptr inbounds [384 x float], [384 x float]* %conv_rows24, i64 0, i64 10
  %251 = getelementptr inbounds i8, i8* %T_out, i64 32
  %252 = bitcast float* %250 to <8 x float>*
  %253 = load <8 x float>, <8 x float>* %252, align 8
  %254 = fadd <8 x float> %253, %shuffle169
  %255 = fadd <8 x float> %254, zeroinitializer
  %256 = fmul <8 x float> %shuffle168, %255
  %257 = fadd <8 x float> %shuffle, %256
  %258 = bitcast i8* %251 to <8 x float>*
  store <8 x float> %257, <8 x float>* %258, align 4
  %259 = getelementptr inbounds [384 x float], [384 x float]* %conv_rows24, i64 0, i64 20
  %260 = getelementptr inbounds i8, i8* %T_out, i64 64
  %261 = bitcast float* %259 to <8 x float>*
  %262 = load <8 x float>, <8 x float>* %261, align 16
  %263 = fadd <8 x float> %262, %shuffle169
  %264 = fadd <8 x float> %263, zeroinitializer
  %265 = fmul <8 x float> %shuffle168, %264
  %266 = fadd <8 x float> %shuffle, %265
  %267 = bitcast i8* %260 to <8 x float>*
  store <8 x float> %266, <8 x float>* %267, align 4
  %268 = getelementptr inbounds [384 x float], [384 x float]* %conv_rows24, i64 0, i64 30
  %269 = getelementptr inbounds i8, i8* %T_out, i64 96
  %270 = bitcast float* %268 to <8 x float>*
  %271 = load <8 x float>, <8 x float>* %270, align 8
  %272 = fadd <8 x float> %271, %shuffle169
  %273 = fadd <8 x float> %272, zeroinitializer
  %274 = fmul <8 x float> %shuffle168, %273
  %275 = fadd <8 x float> %shuffle, %274
  %276 = bitcast i8* %269 to <8 x float>*
  store <8 x float> %275, <8 x float>* %276, align 4
  %277 = getelementptr inbounds [384 x float], [384 x float]* %conv_rows24, i64 0, i64 40
  %278 = getelementptr inbounds i8, i8* %T_out, i64 128
  %279 = bitcast float* %277 to <8 x float>*
  %280 = load <8 x float>, <8 x float>* %279, align 32
  %281 = fadd <8 x float> %280, %shuffle169
  %282 = fadd <8 x float> %281, zeroinitializer
  %283 = fmul <8 x float> %shuffle168, %282
  %284 = fadd <8 x float> %shuffle, %283
  %285 = bitcast i8* %278 to <8 x float>*
  store <8 x float> %284, <8 x float>* %285, align 4
  %286 = getelementptr inbounds [384 x float], [384 x float]* %conv_rows24, i64 0, i64 50
  %287 = getelementptr inbounds i8, i8* %T_out, i64 160
  %288 = bitcast float* %286 to <8 x float>*
  %289 = load <8 x float>, <8 x float>* %288, align 8
  %290 = fadd <8 x float> %289, %shuffle169
  %291 = fadd <8 x float> %290, zeroinitializer
  %292 = fmul <8 x float> %shuffle168, %291
  %293 = fadd <8 x float> %shuffle, %292
  %294 = bitcast i8* %287 to <8 x float>*
  store <8 x float> %293, <8 x float>* %294, align 4
  %295 = getelementptr inbounds [384 x float], [384 x float]* %conv_rows24, i64 0, i64 60
  %296 = getelementptr inbounds i8, i8* %T_out, i64 192
  %297 = bitcast float* %295 to <8 x float>*
  %298 = load <8 x float>, <8 x float>* %297, align 16
  %299 = fadd <8 x float> %298, %shuffle169
  %300 = fadd <8 x float> %299, zeroinitializer
  %301 = fmul <8 x float> %shuffle168, %300
  %302 = fadd <8 x float> %shuffle, %301
  %303 = bitcast i8* %296 to <8 x float>*
  store <8 x float> %302, <8 x float>* %303, align 4
  %304 = getelementptr inbounds [384 x float], [384 x float]* %conv_rows24, i64 0, i64 70
  %305 = getelementptr inbounds i8, i8* %T_out, i64 224
  %306 = bitcast float* %304 to <8 x float>*
  %307 = load <8 x float>, <8 x float>* %306, align 8
  %308 = fadd <8 x float> %307, %shuffle169
  %309 = fadd <8 x float> %308, zeroinitializer
  %310 = fmul <8 x float> %shuffle168, %309
  %311 = fadd <8 x float> %shuffle, %310
  %312 = bitcast i8* %305 to <8 x float>*
  store <8 x float> %311, <8 x float>* %312, align 4
  %313 = getelementptr inbounds i8, i8* %p2, i64 4
  %314 = bitcast i8* %313 to float*
  %315 = load float, float* %314, align 4
  %316 = getelementptr inbounds i8, i8* %p3, i64 4
  %317 = bitcast i8* %316 to float*
  %318 = load float, float* %317, align 4
  %319 = getelementptr inbounds i8, i8* %p4, i64 4
  %320 = bitcast i8* %319 to float*
  %321 = load float, float* %320, align 4
  %322 = insertelement <8 x float> poison, float %321, i64 0
  %shuffle.1 = shufflevector <8 x float> %322, <8 x float> poison, <8 x i32> zeroinitializer
  %323 = insertelement <8 x float> poison, float %318, i64 0
  %shuffle168.1 = shufflevector <8 x float> %323, <8 x float> poison, <8 x i32> zeroinitializer
  %324 = insertelement <8 x float> poison, float %315, i64 0
  %shuffle169.1 = shufflevector <8 x float> %324, <8 x float> poison, <8 x i32> zeroinitializer
  %325 = getelementptr inbounds [384 x float], [384 x float]* %conv_rows24, i64 0, i64 96
  %326 = getelementptr inbounds i8, i8* %T_out, i64 256
  %327 = bitcast float* %325 to <8 x float>*
  %328 = load <8 x float>, <8 x float>* %327, align 64
  %329 = fadd <8 x float> %328, %shuffle169.1
  %330 = fadd <8 x float> %329, zeroinitializer
  %331 = fmul <8 x float> %shuffle168.1, %330
  %332 = fadd <8 x float> %shuffle.1, %331
  %333 = bitcast i8* %326 to <8 x float>*
  store <8 x float> %332, <8 x float>* %333, align 4
  %334 = getelementptr inbounds [384 x float], [384 x float]* %conv_rows24, i64 0, i64 106
  %335 = getelementptr inbounds i8, i8* %T_out, i64 288
  %336 = bitcast float* %334 to <8 x float>*
  %337 = load <8 x float>, <8 x float>* %336, align 8
  %338 = fadd <8 x float> %337, %shuffle169.1
  %339 = fadd <8 x float> %338, zeroinitializer
  %340 = fmul <8 x float> %shuffle168.1, %339
  %341 = fadd <8 x float> %shuffle.1, %340
  %342 = bitcast i8* %335 to <8 x float>*
  store <8 x float> %341, <8 x float>* %342, align 4
  %343 = getelementptr inbounds [384 x float], [384 x float]* %conv_rows24, i64 0, i64 116
  %344 = getelementptr inbounds i8, i8* %T_out, i64 320
  %345 = bitcast float* %343 to <8 x float>*
  %346 = load <8 x float>, <8 x float>* %345, align 16
  %347 = fadd <8 x float> %346, %shuffle169.1
  %348 = fadd <8 x float> %347, zeroinitializer
  %349 = fmul <8 x float> %shuffle168.1, %348
  %350 = fadd <8 x float> %shuffle.1, %349
  %351 = bitcast i8* %344 to <8 x float>*
  store <8 x float> %350, <8 x float>* %351, align 4
  %352 = getelementptr inbounds [384 x float], [384 x float]* %conv_rows24, i64 0, i64 126
  %353 = getelementptr inbounds i8, i8* %T_out, i64 352
  %354 = bitcast float* %352 to <8 x float>*
  %355 = load <8 x float>, <8 x float>* %354, align 8
  %356 = fadd <8 x float> %355, %shuffle169.1
  %357 = fadd <8 x float> %356, zeroinitializer
  %358 = fmul <8 x float> %shuffle168.1, %357
  %359 = fadd <8 x float> %shuffle.1, %358
  %360 = bitcast i8* %353 to <8 x float>*
  store <8 x float> %359, <8 x float>* %360, align 4
  %361 = getelementptr inbounds [384 x float], [384 x float]* %conv_rows24, i64 0, i64 136
  %362 = getelementptr inbounds i8, i8* %T_out, i64 384
  %363 = bitcast float* %361 to <8 x float>*
  %364 = load <8 x float>, <8 x float>* %363, align 32
  %365 = fadd <8 x float> %364, %shuffle169.1
  %366 = fadd <8 x float> %365, zeroinitializer
  %367 = fmul <8 x float> %shuffle168.1, %366
  %368 = fadd <8 x float> %shuffle.1, %367
  %369 = bitcast i8* %362 to <8 x float>*
  store <8 x float> %368, <8 x float>* %369, align 4
  %370 = getelementptr inbounds [384 x float], [384 x float]* %conv_rows24, i64 0, i64 146
  %371 = getelementptr inbounds i8, i8* %T_out, i64 416
  %372 = bitcast float* %370 to <8 x float>*
  %373 = load <8 x float>, <8 x float>* %372, align 8
  %374 = fadd <8 x float> %373, %shuffle169.1
  %375 = fadd <8 x float> %374, zeroinitializer
  %376 = fmul <8 x float> %shuffle168.1, %375
  %377 = fadd <8 x float> %shuffle.1, %376
  %378 = bitcast i8* %371 to <8 x float>*
  store <8 x float> %377, <8 x float>* %378, align 4
  %379 = getelementptr inbounds [384 x float], [384 x float]* %conv_rows24, i64 0, i64 156
  %380 = getelementptr inbounds i8, i8* %T_out, i64 448
  %381 = bitcast float* %379 to <8 x float>*
  %382 = load <8 x float>, <8 x float>* %381, align 16
  %383 = fadd <8 x float> %382, %shuffle169.1
  %384 = fadd <8 x float> %383, zeroinitializer
  %385 = fmul <8 x float> %shuffle168.1, %384
  %386 = fadd <8 x float> %shuffle.1, %385
  %387 = bitcast i8* %380 to <8 x float>*
  store <8 x float> %386, <8 x float>* %387, align 4
  %388 = getelementptr inbounds [384 x float], [384 x float]* %conv_rows24, i64 0, i64 166
  %389 = getelementptr inbounds i8, i8* %T_out, i64 480
  %390 = bitcast float* %388 to <8 x float>*
  %391 = load <8 x float>, <8 x float>* %390, align 8
  %392 = fadd <8 x float> %391, %shuffle169.1
  %393 = fadd <8 x float> %392, zeroinitializer
  %394 = fmul <8 x float> %shuffle168.1, %393
  %395 = fadd <8 x float> %shuffle.1, %394
  %396 = bitcast i8* %389 to <8 x float>*
  store <8 x float> %395, <8 x float>* %396, align 4
  %397 = getelementptr inbounds i8, i8* %p2, i64 8
  %398 = bitcast i8* %397 to float*
  %399 = load float, float* %398, align 4
  %400 = getelementptr inbounds i8, i8* %p3, i64 8
  %401 = bitcast i8* %400 to float*
  %402 = load float, float* %401, align 4
  %403 = getelementptr inbounds i8, i8* %p4, i64 8
  %404 = bitcast i8* %403 to float*
  %405 = load float, float* %404, align 4
  %406 = insertelement <8 x float> poison, float %405, i64 0
  %shuffle.2 = shufflevector <8 x float> %406, <8 x float> poison, <8 x i32> zeroinitializer
  %407 = insertelement <8 x float> poison, float %402, i64 0
  %shuffle168.2 = shufflevector <8 x float> %407, <8 x float> poison, <8 x i32> zeroinitializer
  %408 = insertelement <8 x float> poison, float %399, i64 0
  %shuffle169.2 = shufflevector <8 x float> %408, <8 x float> poison, <8 x i32> zeroinitializer
  %409 = getelementptr inbounds [384 x float], [384 x float]* %conv_rows24, i64 0, i64 192
  %410 = getelementptr inbounds i8, i8* %T_out, i64 512
  %411 = bitcast float* %409 to <8 x float>*
  %412 = load <8 x float>, <8 x float>* %411, align 64
  %413 = fadd <8 x float> %412, %shuffle169.2
  %414 = fadd <8 x float> %413, zeroinitializer
  %415 = fmul <8 x float> %shuffle168.2, %414
  %416 = fadd <8 x float> %shuffle.2, %415
  %417 = bitcast i8* %410 to <8 x float>*
  store <8 x float> %416, <8 x float>* %417, align 4
  %418 = getelementptr inbounds [384 x float], [384 x float]* %conv_rows24, i64 0, i64 202
  %419 = getelementptr inbounds i8, i8* %T_out, i64 544
  %420 = bitcast float* %418 to <8 x float>*
  %421 = load <8 x float>, <8 x float>* %420, align 8
  %422 = fadd <8 x float> %421, %shuffle169.2
  %423 = fadd <8 x float> %422, zeroinitializer
  %424 = fmul <8 x float> %shuffle168.2, %423
  %425 = fadd <8 x float> %shuffle.2, %424
  %426 = bitcast i8* %419 to <8 x float>*
  store <8 x float> %425, <8 x float>* %426, align 4
  %427 = getelementptr inbounds [384 x float], [384 x float]* %conv_rows24, i64 0, i64 212
  %428 = getelementptr inbounds i8, i8* %T_out, i64 576
  %429 = bitcast float* %427 to <8 x float>*
  %430 = load <8 x float>, <8 x float>* %429, align 16
  %431 = fadd <8 x float> %430, %shuffle169.2
  %432 = fadd <8 x float> %431, zeroinitializer
  %433 = fmul <8 x float> %shuffle168.2, %432
  %434 = fadd <8 x float> %shuffle.2, %433
  %435 = bitcast i8* %428 to <8 x float>*
  store <8 x float> %434, <8 x float>* %435, align 4
  %436 = getelementptr inbounds [384 x float], [384 x float]* %conv_rows24, i64 0, i64 222
  %437 = getelementptr inbounds i8, i8* %T_out, i64 608
  %438 = bitcast float* %436 to <8 x float>*
  %439 = load <8 x float>, <8 x float>* %438, align 8
  %440 = fadd <8 x float> %439, %shuffle169.2
  %441 = fadd <8 x float> %440, zeroinitializer
  %442 = fmul <8 x float> %shuffle168.2, %441
  %443 = fadd <8 x float> %shuffle.2, %442
  %444 = bitcast i8* %437 to <8 x float>*
  store <8 x float> %443, <8 x float>* %444, align 4
  %445 = getelementptr inbounds [384 x float], [384 x float]* %conv_rows24, i64 0, i64 232
  %446 = getelementptr inbounds i8, i8* %T_out, i64 640
  %447 = bitcast float* %445 to <8 x float>*
  %448 = load <8 x float>, <8 x float>* %447, align 32
  %449 = fadd <8 x float> %448, %shuffle169.2
  %450 = fadd <8 x float> %449, zeroinitializer
  %451 = fmul <8 x float> %shuffle168.2, %450
  %452 = fadd <8 x float> %shuffle.2, %451
  %453 = bitcast i8* %446 to <8 x float>*
  store <8 x float> %452, <8 x float>* %453, align 4
  %454 = getelementptr inbounds [384 x float], [384 x float]* %conv_rows24, i64 0, i64 242
  %455 = getelementptr inbounds i8, i8* %T_out, i64 672
  %456 = bitcast float* %454 to <8 x float>*
  %457 = load <8 x float>, <8 x float>* %456, align 8
  %458 = fadd <8 x float> %457, %shuffle169.2
  %459 = fadd <8 x float> %458, zeroinitializer
  %460 = fmul <8 x float> %shuffle168.2, %459
  %461 = fadd <8 x float> %shuffle.2, %460
  %462 = bitcast i8* %455 to <8 x float>*
  store <8 x float> %461, <8 x float>* %462, align 4
  %463 = getelementptr inbounds [384 x float], [384 x float]* %conv_rows24, i64 0, i64 252
  %464 = getelementptr inbounds i8, i8* %T_out, i64 704
  %465 = bitcast float* %463 to <8 x float>*
  %466 = load <8 x float>, <8 x float>* %465, align 16
  %467 = fadd <8 x float> %466, %shuffle169.2
  %468 = fadd <8 x float> %467, zeroinitializer
  %469 = fmul <8 x float> %shuffle168.2, %468
  %470 = fadd <8 x float> %shuffle.2, %469
  %471 = bitcast i8* %464 to <8 x float>*
  store <8 x float> %470, <8 x float>* %471, align 4
  %472 = getelementptr inbounds [384 x float], [384 x float]* %conv_rows24, i64 0, i64 262
  %473 = getelementptr inbounds i8, i8* %T_out, i64 736
  %474 = bitcast float* %472 to <8 x float>*
  %475 = load <8 x float>, <8 x float>* %474, align 8
  %476 = fadd <8 x float> %475, %shuffle169.2
  %477 = fadd <8 x float> %476, zeroinitializer
  %478 = fmul <8 x float> %shuffle168.2, %477
  %479 = fadd <8 x float> %shuffle.2, %478
  %480 = bitcast i8* %473 to <8 x float>*
  store <8 x float> %479, <8 x float>* %480, align 4
  %481 = getelementptr inbounds i8, i8* %p2, i64 12
  %482 = bitcast i8* %481 to float*
  %483 = load float, float* %482, align 4
  %484 = getelementptr inbounds i8, i8* %p3, i64 12
  %485 = bitcast i8* %484 to float*
  %486 = load float, float* %485, align 4
  %487 = getelementptr inbounds i8, i8* %p4, i64 12
  %488 = bitcast i8* %487 to float*
  %489 = load float, float* %488, align 4
  %490 = insertelement <8 x float> poison, float %489, i64 0
  %shuffle.3 = shufflevector <8 x float> %490, <8 x float> poison, <8 x i32> zeroinitializer
  %491 = insertelement <8 x float> poison, float %486, i64 0
  %shuffle168.3 = shufflevector <8 x float> %491, <8 x float> poison, <8 x i32> zeroinitializer
  %492 = insertelement <8 x float> poison, float %483, i64 0
  %shuffle169.3 = shufflevector <8 x float> %492, <8 x float> poison, <8 x i32> zeroinitializer
  %493 = getelementptr inbounds [384 x float], [384 x float]* %conv_rows24, i64 0, i64 288
  %494 = getelementptr inbounds i8, i8* %T_out, i64 768
  %495 = bitcast float* %493 to <8 x float>*
  %496 = load <8 x float>, <8 x float>* %495, align 64
  %497 = fadd <8 x float> %496, %shuffle169.3
  %498 = fadd <8 x float> %497, zeroinitializer
  %499 = fmul <8 x float> %shuffle168.3, %498
  %500 = fadd <8 x float> %shuffle.3, %499
  %501 = bitcast i8* %494 to <8 x float>*
  store <8 x float> %500, <8 x float>* %501, align 4
  %502 = getelementptr inbounds [384 x float], [384 x float]* %conv_rows24, i64 0, i64 298
  %503 = getelementptr inbounds i8, i8* %T_out, i64 800
  %504 = bitcast float* %502 to <8 x float>*
  %505 = load <8 x float>, <8 x float>* %504, align 8
  %506 = fadd <8 x float> %505, %shuffle169.3
  %507 = fadd <8 x float> %506, zeroinitializer
  %508 = fmul <8 x float> %shuffle168.3, %507
  %509 = fadd <8 x float> %shuffle.3, %508
  %510 = bitcast i8* %503 to <8 x float>*
  store <8 x float> %509, <8 x float>* %510, align 4
  %511 = getelementptr inbounds [384 x float], [384 x float]* %conv_rows24, i64 0, i64 308
  %512 = getelementptr inbounds i8, i8* %T_out, i64 832
  %513 = bitcast float* %511 to <8 x float>*
  %514 = load <8 x float>, <8 x float>* %513, align 16
  %515 = fadd <8 x float> %514, %shuffle169.3
  %516 = fadd <8 x float> %515, zeroinitializer
  %517 = fmul <8 x float> %shuffle168.3, %516
  %518 = fadd <8 x float> %shuffle.3, %517
  %519 = bitcast i8* %512 to <8 x float>*
  store <8 x float> %518, <8 x float>* %519, align 4
  %520 = getelementptr inbounds [384 x float], [384 x float]* %conv_rows24, i64 0, i64 318
  %521 = getelementptr inbounds i8, i8* %T_out, i64 864
  %522 = bitcast float* %520 to <8 x float>*
  %523 = load <8 x float>, <8 x float>* %522, align 8
  %524 = fadd <8 x float> %523, %shuffle169.3
  %525 = fadd <8 x float> %524, zeroinitializer
  %526 = fmul <8 x float> %shuffle168.3, %525
  %527 = fadd <8 x float> %shuffle.3, %526
  %528 = bitcast i8* %521 to <8 x float>*
  store <8 x float> %527, <8 x float>* %528, align 4
  %529 = getelementptr inbounds [384 x float], [384 x float]* %conv_rows24, i64 0, i64 328
  %530 = getelementptr inbounds i8, i8* %T_out, i64 896
  %531 = bitcast float* %529 to <8 x float>*
  %532 = load <8 x float>, <8 x float>* %531, align 32
  %533 = fadd <8 x float> %532, %shuffle169.3
  %534 = fadd <8 x float> %533, zeroinitializer
  %535 = fmul <8 x float> %shuffle168.3, %534
  %536 = fadd <8 x float> %shuffle.3, %535
  %537 = bitcast i8* %530 to <8 x float>*
  store <8 x float> %536, <8 x float>* %537, align 4
  %538 = getelementptr inbounds [384 x float], [384 x float]* %conv_rows24, i64 0, i64 338
  %539 = getelementptr inbounds i8, i8* %T_out, i64 928
  %540 = bitcast float* %538 to <8 x float>*
  %541 = load <8 x float>, <8 x float>* %540, align 8
  %542 = fadd <8 x float> %541, %shuffle169.3
  %543 = fadd <8 x float> %542, zeroinitializer
  %544 = fmul <8 x float> %shuffle168.3, %543
  %545 = fadd <8 x float> %shuffle.3, %544
  %546 = bitcast i8* %539 to <8 x float>*
  store <8 x float> %545, <8 x float>* %546, align 4
  %547 = getelementptr inbounds [384 x float], [384 x float]* %conv_rows24, i64 0, i64 348
  %548 = getelementptr inbounds i8, i8* %T_out, i64 960
  %549 = bitcast float* %547 to <8 x float>*
  %550 = load <8 x float>, <8 x float>* %549, align 16
  %551 = fadd <8 x float> %550, %shuffle169.3
  %552 = fadd <8 x float> %551, zeroinitializer
  %553 = fmul <8 x float> %shuffle168.3, %552
  %554 = fadd <8 x float> %shuffle.3, %553
  %555 = bitcast i8* %548 to <8 x float>*
  store <8 x float> %554, <8 x float>* %555, align 4
  %556 = getelementptr inbounds [384 x float], [384 x float]* %conv_rows24, i64 0, i64 358
  %557 = getelementptr inbounds i8, i8* %T_out, i64 992
  %558 = bitcast float* %556 to <8 x float>*
  %559 = load <8 x float>, <8 x float>* %558, align 8
  %560 = fadd <8 x float> %559, %shuffle169.3
  %561 = fadd <8 x float> %560, zeroinitializer
  %562 = fmul <8 x float> %shuffle168.3, %561
  %563 = fadd <8 x float> %shuffle.3, %562
  %564 = bitcast i8* %557 to <8 x float>*
  store <8 x float> %563, <8 x float>* %564, align 4
  ret void
}

; Function Attrs: nounwind
define void @fused_nn_relu_add(i8* noalias %p0, i8* noalias %p1, i8* noalias %T_out) #0 {
iter.check:
  %0 = bitcast i8* %p0 to <16 x float>*
  %wide.load = load <16 x float>, <16 x float>* %0, align 4
  %1 = getelementptr inbounds i8, i8* %p0, i64 64
  %2 = bitcast i8* %1 to <16 x float>*
  %wide.load3 = load <16 x float>, <16 x float>* %2, align 4
  %3 = getelementptr inbounds i8, i8* %p0, i64 128
  %4 = bitcast i8* %3 to <16 x float>*
  %wide.load4 = load <16 x float>, <16 x float>* %4, align 4
  %5 = getelementptr inbounds i8, i8* %p0, i64 192
  %6 = bitcast i8* %5 to <16 x float>*
  %wide.load5 = load <16 x float>, <16 x float>* %6, align 4
  %7 = bitcast i8* %p1 to <16 x float>*
  %wide.load6 = load <16 x float>, <16 x float>* %7, align 4
  %8 = getelementptr inbounds i8, i8* %p1, i64 64
  %9 = bitcast i8* %8 to <16 x float>*
  %wide.load7 = load <16 x float>, <16 x float>* %9, align 4
  %10 = getelementptr inbounds i8, i8* %p1, i64 128
  %11 = bitcast i8* %10 to <16 x float>*
  %wide.load8 = load <16 x float>, <16 x float>* %11, align 4
  %12 = getelementptr inbounds i8, i8* %p1, i64 192
  %13 = bitcast i8* %12 to <16 x float>*
  %wide.load9 = load <16 x float>, <16 x float>* %13, align 4
  %14 = fcmp ogt <16 x float> %wide.load6, zeroinitializer
  %15 = fcmp ogt <16 x float> %wide.load7, zeroinitializer
  %16 = fcmp ogt <16 x float> %wide.load8, zeroinitializer
  %17 = fcmp ogt <16 x float> %wide.load9, zeroinitializer
  %18 = select <16 x i1> %14, <16 x float> %wide.load6, <16 x float> zeroinitializer
  %19 = select <16 x i1> %15, <16 x float> %wide.load7, <16 x float> zeroinitializer
  %20 = select <16 x i1> %16, <16 x float> %wide.load8, <16 x float> zeroinitializer
  %21 = select <16 x i1> %17, <16 x float> %wide.load9, <16 x float> zeroinitializer
  %22 = fadd <16 x float> %wide.load6, zeroinitializer
  %23 = fadd <16 x float> %wide.load7, zeroinitializer
  %24 = fadd <16 x float> %wide.load8, zeroinitializer
  %25 = fadd <16 x float> %wide.load9, zeroinitializer
  %26 = fcmp uno <16 x float> %wide.load6, zeroinitializer
  %27 = fcmp uno <16 x float> %wide.load7, zeroinitializer
  %28 = fcmp uno <16 x float> %wide.load8, zeroinitializer
  %29 = fcmp uno <16 x float> %wide.load9, zeroinitializer
  %30 = select <16 x i1> %26, <16 x float> %22, <16 x float> %18
  %31 = select <16 x i1> %27, <16 x float> %23, <16 x float> %19
  %32 = select <16 x i1> %28, <16 x float> %24, <16 x float> %20
  %33 = select <16 x i1> %29, <16 x float> %25, <16 x float> %21
  %34 = fadd <16 x float> %wide.load, %30
  %35 = fadd <16 x float> %wide.load3, %31
  %36 = fadd <16 x float> %wide.load4, %32
  %37 = fadd <16 x float> %wide.load5, %33
  %38 = bitcast i8* %T_out to <16 x float>*
  store <16 x float> %34, <16 x float>* %38, align 4
  %39 = getelementptr inbounds i8, i8* %T_out, i64 64
  %40 = bitcast i8* %39 to <16 x float>*
  store <16 x float> %35, <16 x float>* %40, align 4
  %41 = getelementptr inbounds i8, i8* %T_out, i64 128
  %42 = bitcast i8* %41 to <16 x float>*
  store <16 x float> %36, <16 x float>* %42, align 4
  %43 = getelementptr inbounds i8, i8* %T_out, i64 192
  %44 = bitcast i8* %43 to <16 x float>*
  store <16 x float> %37, <16 x float>* %44, align 4
  %45 = getelementptr inbounds i8, i8* %T_out, i64 256
  %46 = getelementptr inbounds i8, i8* %p0, i64 256
  %47 = bitcast i8* %46 to <16 x float>*
  %wide.load.1 = load <16 x float>, <16 x float>* %47, align 4
  %48 = getelementptr inbounds i8, i8* %p0, i64 320
  %49 = bitcast i8* %48 to <16 x float>*
  %wide.load3.1 = load <16 x float>, <16 x float>* %49, align 4
  %50 = getelementptr inbounds i8, i8* %p0, i64 384
  %51 = bitcast i8* %50 to <16 x float>*
  %wide.load4.1 = load <16 x float>, <16 x float>* %51, align 4
  %52 = getelementptr inbounds i8, i8* %p0, i64 448
  %53 = bitcast i8* %52 to <16 x float>*
  %wide.load5.1 = load <16 x float>, <16 x float>* %53, align 4
  %54 = getelementptr inbounds i8, i8* %p1, i64 256
  %55 = bitcast i8* %54 to <16 x float>*
  %wide.load6.1 = load <16 x float>, <16 x float>* %55, align 4
  %56 = getelementptr inbounds i8, i8* %p1, i64 320
  %57 = bitcast i8* %56 to <16 x float>*
  %wide.load7.1 = load <16 x float>, <16 x float>* %57, align 4
  %58 = getelementptr inbounds i8, i8* %p1, i64 384
  %59 = bitcast i8* %58 to <16 x float>*
  %wide.load8.1 = load <16 x float>, <16 x float>* %59, align 4
  %60 = getelementptr inbounds i8, i8* %p1, i64 448
  %61 = bitcast i8* %60 to <16 x float>*
  %wide.load9.1 = load <16 x float>, <16 x float>* %61, align 4
  %62 = fcmp ogt <16 x float> %wide.load6.1, zeroinitializer
  %63 = fcmp ogt <16 x float> %wide.load7.1, zeroinitializer
  %64 = fcmp ogt <16 x float> %wide.load8.1, zeroinitializer
  %65 = fcmp ogt <16 x float> %wide.load9.1, zeroinitializer
  %66 = select <16 x i1> %62, <16 x float> %wide.load6.1, <16 x float> zeroinitializer
  %67 = select <16 x i1> %63, <16 x float> %wide.load7.1, <16 x float> zeroinitializer
  %68 = select <16 x i1> %64, <16 x float> %wide.load8.1, <16 x float> zeroinitializer
  %69 = select <16 x i1> %65, <16 x float> %wide.load9.1, <16 x float> zeroinitializer
  %70 = fadd <16 x float> %wide.load6.1, zeroinitializer
  %71 = fadd <16 x float> %wide.load7.1, zeroinitializer
  %72 = fadd <16 x float> %wide.load8.1, zeroinitializer
  %73 = fadd <16 x float> %wide.load9.1, zeroinitializer
  %74 = fcmp uno <16 x float> %wide.load6.1, zeroinitializer
  %75 = fcmp uno <16 x float> %wide.load7.1, zeroinitializer
  %76 = fcmp uno <16 x float> %wide.load8.1, zeroinitializer
  %77 = fcmp uno <16 x float> %wide.load9.1, zeroinitializer
  %78 = select <16 x i1> %74, <16 x float> %70, <16 x float> %66
  %79 = select <16 x i1> %75, <16 x float> %71, <16 x float> %67
  %80 = select <16 x i1> %76, <16 x float> %72, <16 x float> %68
  %81 = select <16 x i1> %77, <16 x float> %73, <16 x float> %69
  %82 = fadd <16 x float> %wide.load.1, %78
  %83 = fadd <16 x float> %wide.load3.1, %79
  %84 = fadd <16 x float> %wide.load4.1, %80
  %85 = fadd <16 x float> %wide.load5.1, %81
  %86 = bitcast i8* %45 to <16 x float>*
  store <16 x float> %82, <16 x float>* %86, align 4
  %87 = getelementptr inbounds i8, i8* %T_out, i64 320
  %88 = bitcast i8* %87 to <16 x float>*
  store <16 x float> %83, <16 x float>* %88, align 4
  %89 = getelementptr inbounds i8, i8* %T_out, i64 384
  %90 = bitcast i8* %89 to <16 x float>*
  store <16 x float> %84, <16 x float>* %90, align 4
  %91 = getelementptr inbounds i8, i8* %T_out, i64 448
  %92 = bitcast i8* %91 to <16 x float>*
  store <16 x float> %85, <16 x float>* %92, align 4
  %93 = getelementptr inbounds i8, i8* %T_out, i64 512
  %94 = getelementptr inbounds i8, i8* %p0, i64 512
  %95 = bitcast i8* %94 to <16 x float>*
  %wide.load.2 = load <16 x float>, <16 x float>* %95, align 4
  %96 = getelementptr inbounds i8, i8* %p0, i64 576
  %97 = bitcast i8* %96 to <16 x float>*
  %wide.load3.2 = load <16 x float>, <16 x float>* %97, align 4
  %98 = getelementptr inbounds i8, i8* %p0, i64 640
  %99 = bitcast i8* %98 to <16 x float>*
  %wide.load4.2 = load <16 x float>, <16 x float>* %99, align 4
  %100 = getelementptr inbounds i8, i8* %p0, i64 704
  %101 = bitcast i8* %100 to <16 x float>*
  %wide.load5.2 = load <16 x float>, <16 x float>* %101, align 4
  %102 = getelementptr inbounds i8, i8* %p1, i64 512
  %103 = bitcast i8* %102 to <16 x float>*
  %wide.load6.2 = load <16 x float>, <16 x float>* %103, align 4
  %104 = getelementptr inbounds i8, i8* %p1, i64 576
  %105 = bitcast i8* %104 to <16 x float>*
  %wide.load7.2 = load <16 x float>, <16 x float>* %105, align 4
  %106 = getelementptr inbounds i8, i8* %p1, i64 640
  %107 = bitcast i8* %106 to <16 x float>*
  %wide.load8.2 = load <16 x float>, <16 x float>* %107, align 4
  %108 = getelementptr inbounds i8, i8* %p1, i64 704
  %109 = bitcast i8* %108 to <16 x float>*
  %wide.load9.2 = load <16 x float>, <16 x float>* %109, align 4
  %110 = fcmp ogt <16 x float> %wide.load6.2, zeroinitializer
  %111 = fcmp ogt <16 x float> %wide.load7.2, zeroinitializer
  %112 = fcmp ogt <16 x float> %wide.load8.2, zeroinitializer
  %113 = fcmp ogt <16 x float> %wide.load9.2, zeroinitializer
  %114 = select <16 x i1> %110, <16 x float> %wide.load6.2, <16 x float> zeroinitializer
  %115 = select <16 x i1> %111, <16 x float> %wide.load7.2, <16 x float> zeroinitializer
  %116 = select <16 x i1> %112, <16 x float> %wide.load8.2, <16 x float> zeroinitializer
  %117 = select <16 x i1> %113, <16 x float> %wide.load9.2, <16 x float> zeroinitializer
  %118 = fadd <16 x float> %wide.load6.2, zeroinitializer
  %119 = fadd <16 x float> %wide.load7.2, zeroinitializer
  %120 = fadd <16 x float> %wide.load8.2, zeroinitializer
  %121 = fadd <16 x float> %wide.load9.2, zeroinitializer
  %122 = fcmp uno <16 x float> %wide.load6.2, zeroinitializer
  %123 = fcmp uno <16 x float> %wide.load7.2, zeroinitializer
  %124 = fcmp uno <16 x float> %wide.load8.2, zeroinitializer
  %125 = fcmp uno <16 x float> %wide.load9.2, zeroinitializer
  %126 = select <16 x i1> %122, <16 x float> %118, <16 x float> %114
  %127 = select <16 x i1> %123, <16 x float> %119, <16 x float> %115
  %128 = select <16 x i1> %124, <16 x float> %120, <16 x float> %116
  %129 = select <16 x i1> %125, <16 x float> %121, <16 x float> %117
  %130 = fadd <16 x float> %wide.load.2, %126
  %131 = fadd <16 x float> %wide.load3.2, %127
  %132 = fadd <16 x float> %wide.load4.2, %128
  %133 = fadd <16 x float> %wide.load5.2, %129
  %134 = bitcast i8* %93 to <16 x float>*
  store <16 x float> %130, <16 x float>* %134, align 4
  %135 = getelementptr inbounds i8, i8* %T_out, i64 576
  %136 = bitcast i8* %135 to <16 x float>*
  store <16 x float> %131, <16 x float>* %136, align 4
  %137 = getelementptr inbounds i8, i8* %T_out, i64 640
  %138 = bitcast i8* %137 to <16 x float>*
  store <16 x float> %132, <16 x float>* %138, align 4
  %139 = getelementptr inbounds i8, i8* %T_out, i64 704
  %140 = bitcast i8* %139 to <16 x float>*
  store <16 x float> %133, <16 x float>* %140, align 4
  %141 = getelementptr inbounds i8, i8* %T_out, i64 768
  %142 = getelementptr inbounds i8, i8* %p0, i64 768
  %143 = bitcast i8* %142 to <16 x float>*
  %wide.load.3 = load <16 x float>, <16 x float>* %143, align 4
  %144 = getelementptr inbounds i8, i8* %p0, i64 832
  %145 = bitcast i8* %144 to <16 x float>*
  %wide.load3.3 = load <16 x float>, <16 x float>* %145, align 4
  %146 = getelementptr inbounds i8, i8* %p0, i64 896
  %147 = bitcast i8* %146 to <16 x float>*
  %wide.load4.3 = load <16 x float>, <16 x float>* %147, align 4
  %148 = getelementptr inbounds i8, i8* %p0, i64 960
  %149 = bitcast i8* %148 to <16 x float>*
  %wide.load5.3 = load <16 x float>, <16 x float>* %149, align 4
  %150 = getelementptr inbounds i8, i8* %p1, i64 768
  %151 = bitcast i8* %150 to <16 x float>*
  %wide.load6.3 = load <16 x float>, <16 x float>* %151, align 4
  %152 = getelementptr inbounds i8, i8* %p1, i64 832
  %153 = bitcast i8* %152 to <16 x float>*
  %wide.load7.3 = load <16 x float>, <16 x float>* %153, align 4
  %154 = getelementptr inbounds i8, i8* %p1, i64 896
  %155 = bitcast i8* %154 to <16 x float>*
  %wide.load8.3 = load <16 x float>, <16 x float>* %155, align 4
  %156 = getelementptr inbounds i8, i8* %p1, i64 960
  %157 = bitcast i8* %156 to <16 x float>*
  %wide.load9.3 = load <16 x float>, <16 x float>* %157, align 4
  %158 = fcmp ogt <16 x float> %wide.load6.3, zeroinitializer
  %159 = fcmp ogt <16 x float> %wide.load7.3, zeroinitializer
  %160 = fcmp ogt <16 x float> %wide.load8.3, zeroinitializer
  %161 = fcmp ogt <16 x float> %wide.load9.3, zeroinitializer
  %162 = select <16 x i1> %158, <16 x float> %wide.load6.3, <16 x float> zeroinitializer
  %163 = select <16 x i1> %159, <16 x float> %wide.load7.3, <16 x float> zeroinitializer
  %164 = select <16 x i1> %160, <16 x float> %wide.load8.3, <16 x float> zeroinitializer
  %165 = select <16 x i1> %161, <16 x float> %wide.load9.3, <16 x float> zeroinitializer
  %166 = fadd <16 x float> %wide.load6.3, zeroinitializer
  %167 = fadd <16 x float> %wide.load7.3, zeroinitializer
  %168 = fadd <16 x float> %wide.load8.3, zeroinitializer
  %169 = fadd <16 x float> %wide.load9.3, zeroinitializer
  %170 = fcmp uno <16 x float> %wide.load6.3, zeroinitializer
  %171 = fcmp uno <16 x float> %wide.load7.3, zeroinitializer
  %172 = fcmp uno <16 x float> %wide.load8.3, zeroinitializer
  %173 = fcmp uno <16 x float> %wide.load9.3, zeroinitializer
  %174 = select <16 x i1> %170, <16 x float> %166, <16 x float> %162
  %175 = select <16 x i1> %171, <16 x float> %167, <16 x float> %163
  %176 = select <16 x i1> %172, <16 x float> %168, <16 x float> %164
  %177 = select <16 x i1> %173, <16 x float> %169, <16 x float> %165
  %178 = fadd <16 x float> %wide.load.3, %174
  %179 = fadd <16 x float> %wide.load3.3, %175
  %180 = fadd <16 x float> %wide.load4.3, %176
  %181 = fadd <16 x float> %wide.load5.3, %177
  %182 = bitcast i8* %141 to <16 x float>*
  store <16 x float> %178, <16 x float>* %182, align 4
  %183 = getelementptr inbounds i8, i8* %T_out, i64 832
  %184 = bitcast i8* %183 to <16 x float>*
  store <16 x float> %179, <16 x float>* %184, align 4
  %185 = getelementptr inbounds i8, i8* %T_out, i64 896
  %186 = bitcast i8* %185 to <16 x float>*
  store <16 x float> %180, <16 x float>* %186, align 4
  %187 = getelementptr inbounds i8, i8* %T_out, i64 960
  %188 = bitcast i8* %187 to <16 x float>*
  store <16 x float> %181, <16 x float>* %188, align 4
  ret void
}

; Function Attrs: nounwind
define void @fused_nn_relu_reshape_reshape(i8* noalias %p0, i8* noalias %T_out) #0 {
iter.check:
  %0 = bitcast i8* %p0 to <16 x float>*
  %wide.load = load <16 x float>, <16 x float>* %0, align 4
  %1 = getelementptr inbounds i8, i8* %p0, i64 64
  %2 = bitcast i8* %1 to <16 x float>*
  %wide.load43 = load <16 x float>, <16 x float>* %2, align 4
  %3 = getelementptr inbounds i8, i8* %p0, i64 128
  %4 = bitcast i8* %3 to <16 x float>*
  %wide.load44 = load <16 x float>, <16 x float>* %4, align 4
  %5 = getelementptr inbounds i8, i8* %p0, i64 192
  %6 = bitcast i8* %5 to <16 x float>*
  %wide.load45 = load <16 x float>, <16 x float>* %6, align 4
  %7 = fcmp ogt <16 x float> %wide.load, zeroinitializer
  %8 = fcmp ogt <16 x float> %wide.load43, zeroinitializer
  %9 = fcmp ogt <16 x float> %wide.load44, zeroinitializer
  %10 = fcmp ogt <16 x float> %wide.load45, zeroinitializer
  %11 = select <16 x i1> %7, <16 x float> %wide.load, <16 x float> zeroinitializer
  %12 = select <16 x i1> %8, <16 x float> %wide.load43, <16 x float> zeroinitializer
  %13 = select <16 x i1> %9, <16 x float> %wide.load44, <16 x float> zeroinitializer
  %14 = select <16 x i1> %10, <16 x float> %wide.load45, <16 x float> zeroinitializer
  %15 = fadd <16 x float> %wide.load, zeroinitializer
  %16 = fadd <16 x float> %wide.load43, zeroinitializer
  %17 = fadd <16 x float> %wide.load44, zeroinitializer
  %18 = fadd <16 x float> %wide.load45, zeroinitializer
  %19 = fcmp uno <16 x float> %wide.load, zeroinitializer
  %20 = fcmp uno <16 x float> %wide.load43, zeroinitializer
  %21 = fcmp uno <16 x float> %wide.load44, zeroinitializer
  %22 = fcmp uno <16 x float> %wide.load45, zeroinitializer
  %23 = select <16 x i1> %19, <16 x float> %15, <16 x float> %11
  %24 = select <16 x i1> %20, <16 x float> %16, <16 x float> %12
  %25 = select <16 x i1> %21, <16 x float> %17, <16 x float> %13
  %26 = select <16 x i1> %22, <16 x float> %18, <16 x float> %14
  %27 = getelementptr inbounds i8, i8* %p0, i64 256
  %28 = bitcast i8* %27 to <16 x float>*
  %wide.load.1 = load <16 x float>, <16 x float>* %28, align 4
  %29 = getelementptr inbounds i8, i8* %p0, i64 320
  %30 = bitcast i8* %29 to <16 x float>*
  %wide.load43.1 = load <16 x float>, <16 x float>* %30, align 4
  %31 = getelementptr inbounds i8, i8* %p0, i64 384
  %32 = bitcast i8* %31 to <16 x float>*
  %wide.load44.1 = load <16 x float>, <16 x float>* %32, align 4
  %33 = getelementptr inbounds i8, i8* %p0, i64 448
  %34 = bitcast i8* %33 to <16 x float>*
  %wide.load45.1 = load <16 x float>, <16 x float>* %34, align 4
  %35 = fcmp ogt <16 x float> %wide.load.1, zeroinitializer
  %36 = fcmp ogt <16 x float> %wide.load43.1, zeroinitializer
  %37 = fcmp ogt <16 x float> %wide.load44.1, zeroinitializer
  %38 = fcmp ogt <16 x float> %wide.load45.1, zeroinitializer
  %39 = select <16 x i1> %35, <16 x float> %wide.load.1, <16 x float> zeroinitializer
  %40 = select <16 x i1> %36, <16 x float> %wide.load43.1, <16 x float> zeroinitializer
  %41 = select <16 x i1> %37, <16 x float> %wide.load44.1, <16 x float> zeroinitializer
  %42 = select <16 x i1> %38, <16 x float> %wide.load45.1, <16 x float> zeroinitializer
  %43 = fadd <16 x float> %wide.load.1, zeroinitializer
  %44 = fadd <16 x float> %wide.load43.1, zeroinitializer
  %45 = fadd <16 x float> %wide.load44.1, zeroinitializer
  %46 = fadd <16 x float> %wide.load45.1, zeroinitializer
  %47 = fcmp uno <16 x float> %wide.load.1, zeroinitializer
  %48 = fcmp uno <16 x float> %wide.load43.1, zeroinitializer
  %49 = fcmp uno <16 x float> %wide.load44.1, zeroinitializer
  %50 = fcmp uno <16 x float> %wide.load45.1, zeroinitializer
  %51 = select <16 x i1> %47, <16 x float> %43, <16 x float> %39
  %52 = select <16 x i1> %48, <16 x float> %44, <16 x float> %40
  %53 = select <16 x i1> %49, <16 x float> %45, <16 x float> %41
  %54 = select <16 x i1> %50, <16 x float> %46, <16 x float> %42
  %55 = getelementptr inbounds i8, i8* %p0, i64 512
  %56 = bitcast i8* %55 to <16 x float>*
  %wide.load.2 = load <16 x float>, <16 x float>* %56, align 4
  %57 = getelementptr inbounds i8, i8* %p0, i64 576
  %58 = bitcast i8* %57 to <16 x float>*
  %wide.load43.2 = load <16 x float>, <16 x float>* %58, align 4
  %59 = getelementptr inbounds i8, i8* %p0, i64 640
  %60 = bitcast i8* %59 to <16 x float>*
  %wide.load44.2 = load <16 x float>, <16 x float>* %60, align 4
  %61 = getelementptr inbounds i8, i8* %p0, i64 704
  %62 = bitcast i8* %61 to <16 x float>*
  %wide.load45.2 = load <16 x float>, <16 x float>* %62, align 4
  %63 = fcmp ogt <16 x float> %wide.load.2, zeroinitializer
  %64 = fcmp ogt <16 x float> %wide.load43.2, zeroinitializer
  %65 = fcmp ogt <16 x float> %wide.load44.2, zeroinitializer
  %66 = fcmp ogt <16 x float> %wide.load45.2, zeroinitializer
  %67 = select <16 x i1> %63, <16 x float> %wide.load.2, <16 x float> zeroinitializer
  %68 = select <16 x i1> %64, <16 x float> %wide.load43.2, <16 x float> zeroinitializer
  %69 = select <16 x i1> %65, <16 x float> %wide.load44.2, <16 x float> zeroinitializer
  %70 = select <16 x i1> %66, <16 x float> %wide.load45.2, <16 x float> zeroinitializer
  %71 = fadd <16 x float> %wide.load.2, zeroinitializer
  %72 = fadd <16 x float> %wide.load43.2, zeroinitializer
  %73 = fadd <16 x float> %wide.load44.2, zeroinitializer
  %74 = fadd <16 x float> %wide.load45.2, zeroinitializer
  %75 = fcmp uno <16 x float> %wide.load.2, zeroinitializer
  %76 = fcmp uno <16 x float> %wide.load43.2, zeroinitializer
  %77 = fcmp uno <16 x float> %wide.load44.2, zeroinitializer
  %78 = fcmp uno <16 x float> %wide.load45.2, zeroinitializer
  %79 = select <16 x i1> %75, <16 x float> %71, <16 x float> %67
  %80 = select <16 x i1> %76, <16 x float> %72, <16 x float> %68
  %81 = select <16 x i1> %77, <16 x float> %73, <16 x float> %69
  %82 = select <16 x i1> %78, <16 x float> %74, <16 x float> %70
  %83 = getelementptr inbounds i8, i8* %p0, i64 768
  %84 = bitcast i8* %83 to <16 x float>*
  %wide.load.3 = load <16 x float>, <16 x float>* %84, align 4
  %85 = getelementptr inbounds i8, i8* %p0, i64 832
  %86 = bitcast i8* %85 to <16 x float>*
  %wide.load43.3 = load <16 x float>, <16 x float>* %86, align 4
  %87 = getelementptr inbounds i8, i8* %p0, i64 896
  %88 = bitcast i8* %87 to <16 x float>*
  %wide.load44.3 = load <16 x float>, <16 x float>* %88, align 4
  %89 = getelementptr inbounds i8, i8* %p0, i64 960
  %90 = bitcast i8* %89 to <16 x float>*
  %wide.load45.3 = load <16 x float>, <16 x float>* %90, align 4
  %91 = fcmp ogt <16 x float> %wide.load.3, zeroinitializer
  %92 = fcmp ogt <16 x float> %wide.load43.3, zeroinitializer
  %93 = fcmp ogt <16 x float> %wide.load44.3, zeroinitializer
  %94 = fcmp ogt <16 x float> %wide.load45.3, zeroinitializer
  %95 = select <16 x i1> %91, <16 x float> %wide.load.3, <16 x float> zeroinitializer
  %96 = select <16 x i1> %92, <16 x float> %wide.load43.3, <16 x float> zeroinitializer
  %97 = select <16 x i1> %93, <16 x float> %wide.load44.3, <16 x float> zeroinitializer
  %98 = select <16 x i1> %94, <16 x float> %wide.load45.3, <16 x float> zeroinitializer
  %99 = fadd <16 x float> %wide.load.3, zeroinitializer
  %100 = fadd <16 x float> %wide.load43.3, zeroinitializer
  %101 = fadd <16 x float> %wide.load44.3, zeroinitializer
  %102 = fadd <16 x float> %wide.load45.3, zeroinitializer
  %103 = fcmp uno <16 x float> %wide.load.3, zeroinitializer
  %104 = fcmp uno <16 x float> %wide.load43.3, zeroinitializer
  %105 = fcmp uno <16 x float> %wide.load44.3, zeroinitializer
  %106 = fcmp uno <16 x float> %wide.load45.3, zeroinitializer
  %107 = select <16 x i1> %103, <16 x float> %99, <16 x float> %95
  %108 = select <16 x i1> %104, <16 x float> %100, <16 x float> %96
  %109 = select <16 x i1> %105, <16 x float> %101, <16 x float> %97
  %110 = select <16 x i1> %106, <16 x float> %102, <16 x float> %98
  %T_relu19.sroa.0.0.T_out.sroa_cast = bitcast i8* %T_out to <16 x float>*
  store <16 x float> %23, <16 x float>* %T_relu19.sroa.0.0.T_out.sroa_cast, align 4
  %T_relu19.sroa.3.0.T_out.sroa_idx = getelementptr inbounds i8, i8* %T_out, i64 64
  %T_relu19.sroa.3.0.T_out.sroa_cast = bitcast i8* %T_relu19.sroa.3.0.T_out.sroa_idx to <16 x float>*
  store <16 x float> %24, <16 x float>* %T_relu19.sroa.3.0.T_out.sroa_cast, align 4
  %T_relu19.sroa.4.0.T_out.sroa_idx = getelementptr inbounds i8, i8* %T_out, i64 128
  %T_relu19.sroa.4.0.T_out.sroa_cast = bitcast i8* %T_relu19.sroa.4.0.T_out.sroa_idx to <16 x float>*
  store <16 x float> %25, <16 x float>* %T_relu19.sroa.4.0.T_out.sroa_cast, align 4
  %T_relu19.sroa.5.0.T_out.sroa_idx = getelementptr inbounds i8, i8* %T_out, i64 192
  %T_relu19.sroa.5.0.T_out.sroa_cast = bitcast i8* %T_relu19.sroa.5.0.T_out.sroa_idx to <16 x float>*
  store <16 x float> %26, <16 x float>* %T_relu19.sroa.5.0.T_out.sroa_cast, align 4
  %T_relu19.sroa.6.0.T_out.sroa_idx = getelementptr inbounds i8, i8* %T_out, i64 256
  %T_relu19.sroa.6.0.T_out.sroa_cast = bitcast i8* %T_relu19.sroa.6.0.T_out.sroa_idx to <16 x float>*
  store <16 x float> %51, <16 x float>* %T_relu19.sroa.6.0.T_out.sroa_cast, align 4
  %T_relu19.sroa.7.0.T_out.sroa_idx = getelementptr inbounds i8, i8* %T_out, i64 320
  %T_relu19.sroa.7.0.T_out.sroa_cast = bitcast i8* %T_relu19.sroa.7.0.T_out.sroa_idx to <16 x float>*
  store <16 x float> %52, <16 x float>* %T_relu19.sroa.7.0.T_out.sroa_cast, align 4
  %T_relu19.sroa.8.0.T_out.sroa_idx = getelementptr inbounds i8, i8* %T_out, i64 384
  %T_relu19.sroa.8.0.T_out.sroa_cast = bitcast i8* %T_relu19.sroa.8.0.T_out.sroa_idx to <16 x float>*
  store <16 x float> %53, <16 x float>* %T_relu19.sroa.8.0.T_out.sroa_cast, align 4
  %T_relu19.sroa.9.0.T_out.sroa_idx = getelementptr inbounds i8, i8* %T_out, i64 448
  %T_relu19.sroa.9.0.T_out.sroa_cast = bitcast i8* %T_relu19.sroa.9.0.T_out.sroa_idx to <16 x float>*
  store <16 x float> %54, <16 x float>* %T_relu19.sroa.9.0.T_out.sroa_cast, align 4
  %T_relu19.sroa.10.0.T_out.sroa_idx = getelementptr inbounds i8, i8* %T_out, i64 512
  %T_relu19.sroa.10.0.T_out.sroa_cast = bitcast i8* %T_relu19.sroa.10.0.T_out.sroa_idx to <16 x float>*
  store <16 x float> %79, <16 x float>* %T_relu19.sroa.10.0.T_out.sroa_cast, align 4
  %T_relu19.sroa.11.0.T_out.sroa_idx = getelementptr inbounds i8, i8* %T_out, i64 576
  %T_relu19.sroa.11.0.T_out.sroa_cast = bitcast i8* %T_relu19.sroa.11.0.T_out.sroa_idx to <16 x float>*
  store <16 x float> %80, <16 x float>* %T_relu19.sroa.11.0.T_out.sroa_cast, align 4
  %T_relu19.sroa.12.0.T_out.sroa_idx = getelementptr inbounds i8, i8* %T_out, i64 640
  %T_relu19.sroa.12.0.T_out.sroa_cast = bitcast i8* %T_relu19.sroa.12.0.T_out.sroa_idx to <16 x float>*
  store <16 x float> %81, <16 x float>* %T_relu19.sroa.12.0.T_out.sroa_cast, align 4
  %T_relu19.sroa.13.0.T_out.sroa_idx = getelementptr inbounds i8, i8* %T_out, i64 704
  %T_relu19.sroa.13.0.T_out.sroa_cast = bitcast i8* %T_relu19.sroa.13.0.T_out.sroa_idx to <16 x float>*
  store <16 x float> %82, <16 x float>* %T_relu19.sroa.13.0.T_out.sroa_cast, align 4
  %T_relu19.sroa.14.0.T_out.sroa_idx = getelementptr inbounds i8, i8* %T_out, i64 768
  %T_relu19.sroa.14.0.T_out.sroa_cast = bitcast i8* %T_relu19.sroa.14.0.T_out.sroa_idx to <16 x float>*
  store <16 x float> %107, <16 x float>* %T_relu19.sroa.14.0.T_out.sroa_cast, align 4
  %T_relu19.sroa.15.0.T_out.sroa_idx = getelementptr inbounds i8, i8* %T_out, i64 832
  %T_relu19.sroa.15.0.T_out.sroa_cast = bitcast i8* %T_relu19.sroa.15.0.T_out.sroa_idx to <16 x float>*
  store <16 x float> %108, <16 x float>* %T_relu19.sroa.15.0.T_out.sroa_cast, align 4
  %T_relu19.sroa.16.0.T_out.sroa_idx = getelementptr inbounds i8, i8* %T_out, i64 896
  %T_relu19.sroa.16.0.T_out.sroa_cast = bitcast i8* %T_relu19.sroa.16.0.T_out.sroa_idx to <16 x float>*
  store <16 x float> %109, <16 x float>* %T_relu19.sroa.16.0.T_out.sroa_cast, align 4
  %T_relu19.sroa.17.0.T_out.sroa_idx = getelementptr inbounds i8, i8* %T_out, i64 960
  %T_relu19.sroa.17.0.T_out.sroa_cast = bitcast i8* %T_relu19.sroa.17.0.T_out.sroa_idx to <16 x float>*
  store <16 x float> %110, <16 x float>* %T_relu19.sroa.17.0.T_out.sroa_cast, align 4
  ret void
}

; Function Attrs: nounwind
define void @fused_sigmoid(i8* noalias %p0, i8* noalias %T_out) #0 {
iter.check:
  %0 = bitcast i8* %p0 to <16 x float>*
  %wide.load = load <16 x float>, <16 x float>* %0, align 4
  %1 = fneg <16 x float> %wide.load
  %2 = call <16 x float> @_ZGVeN16v_expf(<16 x float> %1)
  %3 = fadd <16 x float> %2, <float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00>
  %4 = fdiv <16 x float> <float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00>, %3
  %5 = bitcast i8* %T_out to <16 x float>*
  store <16 x float> %4, <16 x float>* %5, align 4
  %6 = getelementptr inbounds i8, i8* %T_out, i64 64
  %7 = getelementptr inbounds i8, i8* %p0, i64 64
  %8 = bitcast i8* %7 to <16 x float>*
  %wide.load.1 = load <16 x float>, <16 x float>* %8, align 4
  %9 = fneg <16 x float> %wide.load.1
  %10 = call <16 x float> @_ZGVeN16v_expf(<16 x float> %9)
  %11 = fadd <16 x float> %10, <float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00>
  %12 = fdiv <16 x float> <float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00>, %11
  %13 = bitcast i8* %6 to <16 x float>*
  store <16 x float> %12, <16 x float>* %13, align 4
  %14 = getelementptr inbounds i8, i8* %T_out, i64 128
  %15 = getelementptr inbounds i8, i8* %p0, i64 128
  %16 = bitcast i8* %15 to <16 x float>*
  %wide.load.2 = load <16 x float>, <16 x float>* %16, align 4
  %17 = fneg <16 x float> %wide.load.2
  %18 = call <16 x float> @_ZGVeN16v_expf(<16 x float> %17)
  %19 = fadd <16 x float> %18, <float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00>
  %20 = fdiv <16 x float> <float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00>, %19
  %21 = bitcast i8* %14 to <16 x float>*
  store <16 x float> %20, <16 x float>* %21, align 4
  %22 = getelementptr inbounds i8, i8* %T_out, i64 192
  %23 = getelementptr inbounds i8, i8* %p0, i64 192
  %24 = bitcast i8* %23 to <16 x float>*
  %wide.load.3 = load <16 x float>, <16 x float>* %24, align 4
  %25 = fneg <16 x float> %wide.load.3
  %26 = call <16 x float> @_ZGVeN16v_expf(<16 x float> %25)
  %27 = fadd <16 x float> %26, <float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00>
  %28 = fdiv <16 x float> <float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00>, %27
  %29 = bitcast i8* %22 to <16 x float>*
  store <16 x float> %28, <16 x float>* %29, align 4
  %30 = getelementptr inbounds i8, i8* %T_out, i64 256
  %31 = getelementptr inbounds i8, i8* %p0, i64 256
  %32 = bitcast i8* %31 to <16 x float>*
  %wide.load.4 = load <16 x float>, <16 x float>* %32, align 4
  %33 = fneg <16 x float> %wide.load.4
  %34 = call <16 x float> @_ZGVeN16v_expf(<16 x float> %33)
  %35 = fadd <16 x float> %34, <float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00>
  %36 = fdiv <16 x float> <float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00>, %35
  %37 = bitcast i8* %30 to <16 x float>*
  store <16 x float> %36, <16 x float>* %37, align 4
  %38 = getelementptr inbounds i8, i8* %T_out, i64 320
  %39 = getelementptr inbounds i8, i8* %p0, i64 320
  %40 = bitcast i8* %39 to <16 x float>*
  %wide.load.5 = load <16 x float>, <16 x float>* %40, align 4
  %41 = fneg <16 x float> %wide.load.5
  %42 = call <16 x float> @_ZGVeN16v_expf(<16 x float> %41)
  %43 = fadd <16 x float> %42, <float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00>
  %44 = fdiv <16 x float> <float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00>, %43
  %45 = bitcast i8* %38 to <16 x float>*
  store <16 x float> %44, <16 x float>* %45, align 4
  %46 = getelementptr inbounds i8, i8* %T_out, i64 384
  %47 = getelementptr inbounds i8, i8* %p0, i64 384
  %48 = bitcast i8* %47 to <16 x float>*
  %wide.load.6 = load <16 x float>, <16 x float>* %48, align 4
  %49 = fneg <16 x float> %wide.load.6
  %50 = call <16 x float> @_ZGVeN16v_expf(<16 x float> %49)
  %51 = fadd <16 x float> %50, <float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00>
  %52 = fdiv <16 x float> <float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00>, %51
  %53 = bitcast i8* %46 to <16 x float>*
  store <16 x float> %52, <16 x float>* %53, align 4
  %54 = getelementptr inbounds i8, i8* %T_out, i64 448
  %55 = getelementptr inbounds i8, i8* %p0, i64 448
  %56 = bitcast i8* %55 to <16 x float>*
  %wide.load.7 = load <16 x float>, <16 x float>* %56, align 4
  %57 = fneg <16 x float> %wide.load.7
  %58 = call <16 x float> @_ZGVeN16v_expf(<16 x float> %57)
  %59 = fadd <16 x float> %58, <float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00>
  %60 = fdiv <16 x float> <float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00>, %59
  %61 = bitcast i8* %54 to <16 x float>*
  store <16 x float> %60, <16 x float>* %61, align 4
  %62 = getelementptr inbounds i8, i8* %T_out, i64 512
  %63 = getelementptr inbounds i8, i8* %p0, i64 512
  %64 = bitcast i8* %63 to <16 x float>*
  %wide.load.8 = load <16 x float>, <16 x float>* %64, align 4
  %65 = fneg <16 x float> %wide.load.8
  %66 = call <16 x float> @_ZGVeN16v_expf(<16 x float> %65)
  %67 = fadd <16 x float> %66, <float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00>
  %68 = fdiv <16 x float> <float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00>, %67
  %69 = bitcast i8* %62 to <16 x float>*
  store <16 x float> %68, <16 x float>* %69, align 4
  %70 = getelementptr inbounds i8, i8* %T_out, i64 576
  %71 = getelementptr inbounds i8, i8* %p0, i64 576
  %72 = bitcast i8* %71 to <16 x float>*
  %wide.load.9 = load <16 x float>, <16 x float>* %72, align 4
  %73 = fneg <16 x float> %wide.load.9
  %74 = call <16 x float> @_ZGVeN16v_expf(<16 x float> %73)
  %75 = fadd <16 x float> %74, <float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00>
  %76 = fdiv <16 x float> <float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00>, %75
  %77 = bitcast i8* %70 to <16 x float>*
  store <16 x float> %76, <16 x float>* %77, align 4
  %78 = getelementptr inbounds i8, i8* %T_out, i64 640
  %79 = getelementptr inbounds i8, i8* %p0, i64 640
  %80 = bitcast i8* %79 to <16 x float>*
  %wide.load.10 = load <16 x float>, <16 x float>* %80, align 4
  %81 = fneg <16 x float> %wide.load.10
  %82 = call <16 x float> @_ZGVeN16v_expf(<16 x float> %81)
  %83 = fadd <16 x float> %82, <float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00>
  %84 = fdiv <16 x float> <float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00>, %83
  %85 = bitcast i8* %78 to <16 x float>*
  store <16 x float> %84, <16 x float>* %85, align 4
  %86 = getelementptr inbounds i8, i8* %T_out, i64 704
  %87 = getelementptr inbounds i8, i8* %p0, i64 704
  %88 = bitcast i8* %87 to <16 x float>*
  %wide.load.11 = load <16 x float>, <16 x float>* %88, align 4
  %89 = fneg <16 x float> %wide.load.11
  %90 = call <16 x float> @_ZGVeN16v_expf(<16 x float> %89)
  %91 = fadd <16 x float> %90, <float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00>
  %92 = fdiv <16 x float> <float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00>, %91
  %93 = bitcast i8* %86 to <16 x float>*
  store <16 x float> %92, <16 x float>* %93, align 4
  %94 = getelementptr inbounds i8, i8* %T_out, i64 768
  %95 = getelementptr inbounds i8, i8* %p0, i64 768
  %96 = bitcast i8* %95 to <16 x float>*
  %wide.load.12 = load <16 x float>, <16 x float>* %96, align 4
  %97 = fneg <16 x float> %wide.load.12
  %98 = call <16 x float> @_ZGVeN16v_expf(<16 x float> %97)
  %99 = fadd <16 x float> %98, <float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00>
  %100 = fdiv <16 x float> <float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00>, %99
  %101 = bitcast i8* %94 to <16 x float>*
  store <16 x float> %100, <16 x float>* %101, align 4
  %102 = getelementptr inbounds i8, i8* %T_out, i64 832
  %103 = getelementptr inbounds i8, i8* %p0, i64 832
  %104 = bitcast i8* %103 to <16 x float>*
  %wide.load.13 = load <16 x float>, <16 x float>* %104, align 4
  %105 = fneg <16 x float> %wide.load.13
  %106 = call <16 x float> @_ZGVeN16v_expf(<16 x float> %105)
  %107 = fadd <16 x float> %106, <float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00>
  %108 = fdiv <16 x float> <float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00>, %107
  %109 = bitcast i8* %102 to <16 x float>*
  store <16 x float> %108, <16 x float>* %109, align 4
  %110 = getelementptr inbounds i8, i8* %T_out, i64 896
  %111 = getelementptr inbounds i8, i8* %p0, i64 896
  %112 = bitcast i8* %111 to <16 x float>*
  %wide.load.14 = load <16 x float>, <16 x float>* %112, align 4
  %113 = fneg <16 x float> %wide.load.14
  %114 = call <16 x float> @_ZGVeN16v_expf(<16 x float> %113)
  %115 = fadd <16 x float> %114, <float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00>
  %116 = fdiv <16 x float> <float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00>, %115
  %117 = bitcast i8* %110 to <16 x float>*
  store <16 x float> %116, <16 x float>* %117, align 4
  %118 = getelementptr inbounds i8, i8* %T_out, i64 960
  %119 = getelementptr inbounds i8, i8* %p0, i64 960
  %120 = bitcast i8* %119 to <16 x float>*
  %wide.load.15 = load <16 x float>, <16 x float>* %120, align 4
  %121 = fneg <16 x float> %wide.load.15
  %122 = call <16 x float> @_ZGVeN16v_expf(<16 x float> %121)
  %123 = fadd <16 x float> %122, <float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00>
  %124 = fdiv <16 x float> <float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00>, %123
  %125 = bitcast i8* %118 to <16 x float>*
  store <16 x float> %124, <16 x float>* %125, align 4
  ret void
}

; Function Attrs: mustprogress nofree nosync nounwind readnone speculatable willreturn
declare float @llvm.exp.f32(float) #1

define void @__passlab_packed_fused_add_sqrt_divide_multiply(i8** %0) {
entry:
  %1 = load i8*, i8** %0, align 8
  %2 = getelementptr inbounds i8*, i8** %0, i64 1
  %3 = load i8*, i8** %2, align 8
  %4 = getelementptr inbounds i8*, i8** %0, i64 2
  %5 = load i8*, i8** %4, align 8
  call void @fused_add_sqrt_divide_multiply(i8* %1, i8* %3, i8* %5)
  ret void
}

define void @__passlab_packed_fused_expand_dims(i8** %0) {
entry:
  %1 = load i8*, i8** %0, align 8
  %2 = getelementptr inbounds i8*, i8** %0, i64 1
  %3 = load i8*, i8** %2, align 8
  call void @fused_expand_dims(i8* %1, i8* %3)
  ret void
}

define void @__passlab_packed_fused_multiply(i8** %0) {
entry:
  %1 = load i8*, i8** %0, align 8
  %2 = getelementptr inbounds i8*, i8** %0, i64 1
  %3 = load i8*, i8** %2, align 8
  call void @fused_multiply(i8* %1, i8* %3)
  ret void
}

define void @__passlab_packed_fused_negative_multiply_add_expand_dims(i8** %0) {
entry:
  %1 = load i8*, i8** %0, align 8
  %2 = getelementptr inbounds i8*, i8** %0, i64 1
  %3 = load i8*, i8** %2, align 8
  %4 = getelementptr inbounds i8*, i8** %0, i64 2
  %5 = load i8*, i8** %4, align 8
  %6 = getelementptr inbounds i8*, i8** %0, i64 3
  %7 = load i8*, i8** %6, align 8
  call void @fused_negative_multiply_add_expand_dims(i8* %1, i8* %3, i8* %5, i8* %7)
  ret void
}

define void @__passlab_packed_fused_nn_conv2d_nn_bias_add_multiply_add_multiply(i8** %0) {
entry:
  %1 = load i8*, i8** %0, align 8
  %2 = getelementptr inbounds i8*, i8** %0, i64 1
  %3 = load i8*, i8** %2, align 8
  %4 = getelementptr inbounds i8*, i8** %0, i64 2
  %5 = load i8*, i8** %4, align 8
  %6 = getelementptr inbounds i8*, i8** %0, i64 3
  %7 = load i8*, i8** %6, align 8
  %8 = getelementptr inbounds i8*, i8** %0, i64 4
  %9 = load i8*, i8** %8, align 8
  %10 = getelementptr inbounds i8*, i8** %0, i64 5
  %11 = load i8*, i8** %10, align 8
  call void @fused_nn_conv2d_nn_bias_add_multiply_add_multiply(i8* %1, i8* %3, i8* %5, i8* %7, i8* %9, i8* %11)
  ret void
}

define void @__passlab_packed_fused_nn_relu_add(i8** %0) {
entry:
  %1 = load i8*, i8** %0, align 8
  %2 = getelementptr inbounds i8*, i8** %0, i64 1
  %3 = load i8*, i8** %2, align 8
  %4 = getelementptr inbounds i8*, i8** %0, i64 2
  %5 = load i8*, i8** %4, align 8
  call void @fused_nn_relu_add(i8* %1, i8* %3, i8* %5)
  ret void
}

define void @__passlab_packed_fused_nn_relu_reshape_reshape(i8** %0) {
entry:
  %1 = load i8*, i8** %0, align 8
  %2 = getelementptr inbounds i8*, i8** %0, i64 1
  %3 = load i8*, i8** %2, align 8
  call void @fused_nn_relu_reshape_reshape(i8* %1, i8* %3)
  ret void
}

define void @__passlab_packed_fused_sigmoid(i8** %0) {
entry:
  %1 = load i8*, i8** %0, align 8
  %2 = getelementptr inbounds i8*, i8** %0, i64 1
  %3 = load i8*, i8** %2, align 8
  call void @fused_sigmoid(i8* %1, i8* %3)
  ret void
}

define void @__passlab_entry(i8** %0) {
entry:
  %1 = load i8*, i8** %0, align 8
  %2 = getelementptr inbounds i8*, i8** %0, i64 1
  %3 = load i8*, i8** %2, align 8
  %4 = getelementptr inbounds i8*, i8** %0, i64 2
  %5 = load i8*, i8** %4, align 8
  %6 = getelementptr inbounds i8*, i8** %0, i64 3
  %7 = load i8*, i8** %6, align 8
  %8 = getelementptr inbounds i8*, i8** %0, i64 4
  %9 = load i8*, i8** %8, align 8
  %10 = getelementptr inbounds i8*, i8** %0, i64 5
  %11 = load i8*, i8** %10, align 8
  %12 = getelementptr inbounds i8*, i8** %0, i64 6
  %13 = load i8*, i8** %12, align 8
  call void @fused_add_sqrt_divide_multiply(i8* %13, i8* %7, i8* getelementptr inbounds ([1024 x i8], [1024 x i8]* @entry.storage0, i64 0, i64 0))
  call void @fused_expand_dims(i8* getelementptr inbounds ([1024 x i8], [1024 x i8]* @entry.storage0, i64 0, i64 0), i8* getelementptr inbounds ([1024 x i8], [1024 x i8]* @entry.storage1, i64 0, i64 0))
  call void @fused_negative_multiply_add_expand_dims(i8* %11, i8* getelementptr inbounds ([1024 x i8], [1024 x i8]* @entry.storage0, i64 0, i64 0), i8* %9, i8* getelementptr inbounds ([1024 x i8], [1024 x i8]* @entry.storage2, i64 0, i64 0))
  call void @fused_nn_conv2d_nn_bias_add_multiply_add_multiply(i8* %1, i8* %3, i8* %5, i8* getelementptr inbounds ([1024 x i8], [1024 x i8]* @entry.storage1, i64 0, i64 0), i8* getelementptr inbounds ([1024 x i8], [1024 x i8]* @entry.storage2, i64 0, i64 0), i8* getelementptr inbounds ([1024 x i8], [1024 x i8]* @entry.storage0, i64 0, i64 0))
  call void @fused_nn_relu_reshape_reshape(i8* getelementptr inbounds ([1024 x i8], [1024 x i8]* @entry.storage0, i64 0, i64 0), i8* getelementptr inbounds ([1024 x i8], [1024 x i8]* @entry.storage1, i64 0, i64 0))
  call void @fused_sigmoid(i8* getelementptr inbounds ([1024 x i8], [1024 x i8]* @entry.storage1, i64 0, i64 0), i8* getelementptr inbounds ([1024 x i8], [1024 x i8]* @entry.storage2, i64 0, i64 0))
  call void @fused_multiply(i8* getelementptr inbounds ([1024 x i8], [1024 x i8]* @entry.storage1, i64 0, i64 0), i8* getelementptr inbounds ([1024 x i8], [1024 x i8]* @entry.storage2, i64 0, i64 0))
  call void @fused_nn_relu_add(i8* getelementptr inbounds ([1024 x i8], [1024 x i8]* @entry.storage2, i64 0, i64 0), i8* getelementptr inbounds ([1024 x i8], [1024 x i8]* @entry.storage0, i64 0, i64 0), i8* getelementptr inbounds ([1024 x i8], [1024 x i8]* @entry.storage1, i64 0, i64 0))
  call void @ext_block(i8* getelementptr inbounds ([1024 x i8], [1024 x i8]* @entry.storage1, i64 0, i64 0), i8* getelementptr inbounds ([1024 x i8], [1024 x i8]* @entry.storage0, i64 0, i64 0))
  %14 = getelementptr inbounds i8*, i8** %0, i64 7
  %15 = load i8*, i8** %14, align 8
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* noundef nonnull align 1 dereferenceable(1024) %15, i8* noundef nonnull align 64 dereferenceable(1024) getelementptr inbounds ([1024 x i8], [1024 x i8]* @entry.storage0, i64 0, i64 0), i64 1024, i1 false)
  ret void
}

declare void @ext_block(i8*, i8*)

; Function Attrs: argmemonly mustprogress nofree nounwind willreturn
declare void @llvm.memcpy.p0i8.p0i8.i64(i8* noalias nocapture writeonly, i8* noalias nocapture readonly, i64, i1 immarg) #3

; Function Attrs: nofree nosync nounwind readnone speculatable willreturn
declare <4 x float> @llvm.sqrt.v4f32(<4 x float>) #4

; Function Attrs: mustprogress nofree nosync nounwind readnone speculatable willreturn
declare <4 x float> @_ZGVbN4v_expf(<4 x float>) #1

; Function Attrs: mustprogress nofree nosync nounwind readnone speculatable willreturn
declare <8 x float> @_ZGVdN8v_expf(<8 x float>) #1

; Function Attrs: mustprogress nofree nosync nounwind readnone speculatable willreturn
declare <16 x float> @_ZGVeN16v_expf(<16 x float>) #1

attributes #0 = { nounwind }
attributes #1 = { mustprogress nofree nosync nounwind readnone speculatable willreturn }
attributes #2 = { argmemonly mustprogress nofree nounwind willreturn writeonly }
attributes #3 = { argmemonly mustprogress nofree nounwind willreturn }
attributes #4 = { nofree nosync nounwind readnone speculatable willreturn }

!0 = distinct !{!0, !1}
!1 = !{!"llvm.loop.vectorize.enable", i1 false}
!2 = distinct !{!2, !1}
