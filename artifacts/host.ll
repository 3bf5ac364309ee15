; ModuleID = 'passlab'
source_filename = "passlab"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@entry.storage0 = internal global [1024 x i8] zeroinitializer, align 64
@entry.storage1 = internal global [1024 x i8] zeroinitializer, align 64
@entry.storage2 = internal global [1024 x i8] zeroinitializer, align 64

; Function Attrs: nounwind
define void @fused_add_sqrt_divide_multiply(i8* noalias %p0, i8* noalias %p1, i8* noalias %T_out) #0 {
entry:
  %0 = bitcast i8* %p0 to float*
  %1 = bitcast i8* %p1 to float*
  %2 = bitcast i8* %T_out to float*
  br i1 true, label %for.ax0, label %for.end

for.ax0:                                          ; preds = %for.ax0, %entry
  %ax0 = phi i32 [ 0, %entry ], [ %15, %for.ax0 ]
  %3 = sext i32 %ax0 to i64
  %4 = getelementptr inbounds float, float* %2, i64 %3
  %5 = sext i32 %ax0 to i64
  %6 = getelementptr inbounds float, float* %0, i64 %5
  %7 = load float, float* %6, align 4
  %8 = fadd float %7, 0x3EE4F8B580000000
  %9 = call float @llvm.sqrt.f32(float %8)
  %10 = fdiv float 1.000000e+00, %9
  %11 = sext i32 %ax0 to i64
  %12 = getelementptr inbounds float, float* %1, i64 %11
  %13 = load float, float* %12, align 4
  %14 = fmul float %10, %13
  store float %14, float* %4, align 4
  %15 = add nsw i32 %ax0, 1
  %16 = icmp slt i32 %15, 4
  br i1 %16, label %for.ax0, label %for.end, !llvm.loop !0

for.end:                                          ; preds = %for.ax0, %entry
  ret void
}

; Function Attrs: nofree nosync nounwind readnone speculatable willreturn
declare float @llvm.sqrt.f32(float) #1

; Function Attrs: nounwind
define void @fused_expand_dims(i8* noalias %p0, i8* noalias %T_out) #0 {
entry:
  %0 = bitcast i8* %p0 to float*
  %1 = bitcast i8* %T_out to float*
  br i1 true, label %for.ax0, label %for.end

for.ax0:                                          ; preds = %for.end1, %entry
  %ax0 = phi i32 [ 0, %entry ], [ %20, %for.end1 ]
  br i1 true, label %for.ax1, label %for.end1

for.end:                                          ; preds = %for.end1, %entry
  ret void

for.ax1:                                          ; preds = %for.ax1, %for.ax0
  %ax1 = phi i32 [ 0, %for.ax0 ], [ %18, %for.ax1 ]
  %2 = sext i32 %ax0 to i64
  %3 = sext i32 %ax1 to i64
  %4 = mul nsw i64 %2, 1
  %5 = add nsw i64 %4, %3
  %6 = sext i32 %ax1 to i64
  %7 = sdiv i64 %6, 1
  %8 = srem i64 %6, 1
  %9 = icmp slt i64 %8, 0
  %10 = add i64 %8, 1
  %11 = select i1 %9, i64 %10, i64 %8
  %12 = mul nsw i64 %5, 1
  %13 = add nsw i64 %12, %11
  %14 = getelementptr inbounds float, float* %1, i64 %13
  %15 = sext i32 %ax0 to i64
  %16 = getelementptr inbounds float, float* %0, i64 %15
  %17 = load float, float* %16, align 4
  store float %17, float* %14, align 4
  %18 = add nsw i32 %ax1, 1
  %19 = icmp slt i32 %18, 1
  br i1 %19, label %for.ax1, label %for.end1

for.end1:                                         ; preds = %for.ax1, %for.ax0
  %20 = add nsw i32 %ax0, 1
  %21 = icmp slt i32 %20, 4
  br i1 %21, label %for.ax0, label %for.end
}

; Function Attrs: nounwind
define void @fused_multiply(i8* noalias %p0, i8* noalias %T_out) #0 {
entry:
  %0 = bitcast i8* %p0 to float*
  %1 = bitcast i8* %T_out to float*
  br i1 true, label %for.ax0, label %for.end

for.ax0:                                          ; preds = %for.end1, %entry
  %ax0 = phi i32 [ 0, %entry ], [ %14, %for.end1 ]
  br i1 true, label %for.ax1, label %for.end1

for.end:                                          ; preds = %for.end1, %entry
  ret void

for.ax1:                                          ; preds = %for.ax1, %for.ax0
  %ax1 = phi i32 [ 0, %for.ax0 ], [ %12, %for.ax1 ]
  %2 = sext i32 %ax0 to i64
  %3 = sext i32 %ax1 to i64
  %4 = mul nsw i64 %2, 256
  %5 = add nsw i64 %4, %3
  %6 = getelementptr inbounds float, float* %1, i64 %5
  %7 = sext i32 %ax1 to i64
  %8 = add nsw i64 0, %7
  %9 = getelementptr inbounds float, float* %0, i64 %8
  %10 = load float, float* %9, align 4
  %11 = fmul float %10, 2.000000e+00
  store float %11, float* %6, align 4
  %12 = add nsw i32 %ax1, 1
  %13 = icmp slt i32 %12, 256
  br i1 %13, label %for.ax1, label %for.end1, !llvm.loop !3

for.end1:                                         ; preds = %for.ax1, %for.ax0
  %14 = add nsw i32 %ax0, 1
  %15 = icmp slt i32 %14, 1
  br i1 %15, label %for.ax0, label %for.end
}

; Function Attrs: nounwind
define void @fused_negative_multiply_add_expand_dims(i8* noalias %p0, i8* noalias %p1, i8* noalias %p2, i8* noalias %T_out) #0 {
entry:
  %T_add = alloca [4 x float], align 64
  %0 = bitcast i8* %p0 to float*
  %1 = bitcast i8* %p1 to float*
  %2 = bitcast i8* %p2 to float*
  %3 = bitcast i8* %T_out to float*
  %4 = bitcast [4 x float]* %T_add to float*
  %5 = bitcast float* %4 to i8*
  call void @llvm.memset.p0i8.i64(i8* align 64 %5, i8 0, i64 16, i1 false)
  br i1 true, label %for.ax0, label %for.end

for.ax0:                                          ; preds = %for.ax0, %entry
  %ax0 = phi i32 [ 0, %entry ], [ %20, %for.ax0 ]
  %6 = sext i32 %ax0 to i64
  %7 = getelementptr inbounds float, float* %4, i64 %6
  %8 = sext i32 %ax0 to i64
  %9 = getelementptr inbounds float, float* %0, i64 %8
  %10 = load float, float* %9, align 4
  %11 = fmul float %10, -1.000000e+00
  %12 = sext i32 %ax0 to i64
  %13 = getelementptr inbounds float, float* %1, i64 %12
  %14 = load float, float* %13, align 4
  %15 = fmul float %11, %14
  %16 = sext i32 %ax0 to i64
  %17 = getelementptr inbounds float, float* %2, i64 %16
  %18 = load float, float* %17, align 4
  %19 = fadd float %15, %18
  store float %19, float* %7, align 4
  %20 = add nsw i32 %ax0, 1
  %21 = icmp slt i32 %20, 4
  br i1 %21, label %for.ax0, label %for.end, !llvm.loop !4

for.end:                                          ; preds = %for.ax0, %entry
  br i1 true, label %for.ax01, label %for.end2

for.ax01:                                         ; preds = %for.end4, %for.end
  %ax03 = phi i32 [ 0, %for.end ], [ %40, %for.end4 ]
  br i1 true, label %for.ax1, label %for.end4

for.end2:                                         ; preds = %for.end4, %for.end
  ret void

for.ax1:                                          ; preds = %for.ax1, %for.ax01
  %ax1 = phi i32 [ 0, %for.ax01 ], [ %38, %for.ax1 ]
  %22 = sext i32 %ax03 to i64
  %23 = sext i32 %ax1 to i64
  %24 = mul nsw i64 %22, 1
  %25 = add nsw i64 %24, %23
  %26 = sext i32 %ax1 to i64
  %27 = sdiv i64 %26, 1
  %28 = srem i64 %26, 1
  %29 = icmp slt i64 %28, 0
  %30 = add i64 %28, 1
  %31 = select i1 %29, i64 %30, i64 %28
  %32 = mul nsw i64 %25, 1
  %33 = add nsw i64 %32, %31
  %34 = getelementptr inbounds float, float* %3, i64 %33
  %35 = sext i32 %ax03 to i64
  %36 = getelementptr inbounds float, float* %4, i64 %35
  %37 = load float, float* %36, align 4
  store float %37, float* %34, align 4
  %38 = add nsw i32 %ax1, 1
  %39 = icmp slt i32 %38, 1
  br i1 %39, label %for.ax1, label %for.end4

for.end4:                                         ; preds = %for.ax1, %for.ax01
  %40 = add nsw i32 %ax03, 1
  %41 = icmp slt i32 %40, 4
  br i1 %41, label %for.ax01, label %for.end2
}

; Function Attrs: argmemonly nofree nounwind willreturn writeonly
declare void @llvm.memset.p0i8.i64(i8* nocapture writeonly, i8, i64, i1 immarg) #2

; Function Attrs: nounwind
define void @fused_nn_conv2d_nn_bias_add_multiply_add_multiply(i8* noalias %p0, i8* noalias %p1, i8* noalias %p2, i8* noalias %p3, i8* noalias %p4, i8* noalias %T_out) #0 {
entry:
  %conv_acc = alloca [128 x float], align 64
  %conv_rows = alloca [384 x float], align 64
  %data_phases = alloca [318 x float], align 64
  %0 = bitcast i8* %p0 to float*
  %1 = bitcast i8* %p1 to float*
  %2 = bitcast i8* %p2 to float*
  %3 = bitcast i8* %p3 to float*
  %4 = bitcast i8* %p4 to float*
  %5 = bitcast i8* %T_out to float*
  %6 = bitcast [318 x float]* %data_phases to float*
  %7 = bitcast float* %6 to i8*
  call void @llvm.memset.p0i8.i64(i8* align 64 %7, i8 0, i64 1272, i1 false)
  br i1 true, label %for.ax0, label %for.end

for.ax0:                                          ; preds = %for.ax0, %entry
  %ax0 = phi i32 [ 0, %entry ], [ %10, %for.ax0 ]
  %8 = sext i32 %ax0 to i64
  %9 = getelementptr inbounds float, float* %6, i64 %8
  store float 0.000000e+00, float* %9, align 4
  %10 = add nsw i32 %ax0, 1
  %11 = icmp slt i32 %10, 318
  br i1 %11, label %for.ax0, label %for.end, !llvm.loop !5

for.end:                                          ; preds = %for.ax0, %entry
  br i1 true, label %for.n, label %for.end1

for.n:                                            ; preds = %for.end2, %for.end
  %n = phi i32 [ 0, %for.end ], [ %12, %for.end2 ]
  br i1 true, label %for.group, label %for.end2

for.end1:                                         ; preds = %for.end2, %for.end
  ret void

for.group:                                        ; preds = %for.end6, %for.n
  %group = phi i32 [ 0, %for.n ], [ %48, %for.end6 ]
  br i1 true, label %for.cp0, label %for.end3

for.end2:                                         ; preds = %for.end6, %for.n
  %12 = add nsw i32 %n, 1
  %13 = icmp slt i32 %12, 1
  br i1 %13, label %for.n, label %for.end1

for.cp0:                                          ; preds = %for.end4, %for.group
  %cp0 = phi i32 [ 0, %for.group ], [ %14, %for.end4 ]
  br i1 true, label %for.cp1, label %for.end4

for.end3:                                         ; preds = %for.end4, %for.group
  br i1 true, label %for.co, label %for.end6

for.cp1:                                          ; preds = %for.end5, %for.cp0
  %cp1 = phi i32 [ 0, %for.cp0 ], [ %44, %for.end5 ]
  br i1 true, label %for.cp2, label %for.end5

for.end4:                                         ; preds = %for.end5, %for.cp0
  %14 = add nsw i32 %cp0, 1
  %15 = icmp slt i32 %14, 3
  br i1 %15, label %for.cp0, label %for.end3, !llvm.loop !6

for.cp2:                                          ; preds = %for.cp2, %for.cp1
  %cp2 = phi i32 [ 0, %for.cp1 ], [ %42, %for.cp2 ]
  %16 = sext i32 %cp2 to i64
  %17 = add nsw i64 %16, 1
  %18 = sext i32 %cp1 to i64
  %19 = add nsw i64 %18, 1
  %20 = mul nsw i64 %19, 10
  %21 = add nsw i64 %20, %17
  %22 = sext i32 %cp0 to i64
  %23 = mul nsw i64 %22, 100
  %24 = add nsw i64 %23, 0
  %25 = add nsw i64 %24, %21
  %26 = getelementptr inbounds float, float* %6, i64 %25
  %27 = sext i32 %n to i64
  %28 = sext i32 %cp0 to i64
  %29 = mul nsw i64 %27, 3
  %30 = add nsw i64 %29, %28
  %31 = sext i32 %cp1 to i64
  %32 = mul nsw i64 %30, 8
  %33 = add nsw i64 %32, %31
  %34 = sext i32 %cp2 to i64
  %35 = add nsw i64 %34, 1
  %36 = mul nsw i64 %35, 1
  %37 = add nsw i64 %36, -1
  %38 = mul nsw i64 %33, 8
  %39 = add nsw i64 %38, %37
  %40 = getelementptr inbounds float, float* %0, i64 %39
  %41 = load float, float* %40, align 4
  store float %41, float* %26, align 4
  %42 = add nsw i32 %cp2, 1
  %43 = icmp slt i32 %42, 8
  br i1 %43, label %for.cp2, label %for.end5, !llvm.loop !8

for.end5:                                         ; preds = %for.cp2, %for.cp1
  %44 = add nsw i32 %cp1, 1
  %45 = icmp slt i32 %44, 8
  br i1 %45, label %for.cp1, label %for.end4, !llvm.loop !10

for.co:                                           ; preds = %for.end19, %for.end3
  %co = phi i32 [ 0, %for.end3 ], [ %282, %for.end19 ]
  %46 = bitcast [384 x float]* %conv_rows to float*
  %47 = bitcast float* %46 to i8*
  call void @llvm.memset.p0i8.i64(i8* align 64 %47, i8 0, i64 1536, i1 false)
  br i1 true, label %for.tile, label %for.end7

for.end6:                                         ; preds = %for.end19, %for.end3
  %48 = add nsw i32 %group, 1
  %49 = icmp slt i32 %48, 1
  br i1 %49, label %for.group, label %for.end2

for.tile:                                         ; preds = %for.end16, %for.co
  %tile = phi i32 [ 0, %for.co ], [ %280, %for.end16 ]
  %50 = bitcast [128 x float]* %conv_acc to float*
  %51 = bitcast float* %50 to i8*
  call void @llvm.memset.p0i8.i64(i8* align 64 %51, i8 0, i64 512, i1 false)
  br i1 true, label %for.lane, label %for.end8

for.end7:                                         ; preds = %for.end16, %for.co
  br i1 true, label %for.ax018, label %for.end19

for.lane:                                         ; preds = %for.lane, %for.tile
  %lane = phi i32 [ 0, %for.tile ], [ %64, %for.lane ]
  %52 = sext i32 %lane to i64
  %53 = add nsw i64 0, %52
  %54 = getelementptr inbounds float, float* %50, i64 %53
  store float 0.000000e+00, float* %54, align 4
  %55 = sext i32 %lane to i64
  %56 = add nsw i64 32, %55
  %57 = getelementptr inbounds float, float* %50, i64 %56
  store float 0.000000e+00, float* %57, align 4
  %58 = sext i32 %lane to i64
  %59 = add nsw i64 64, %58
  %60 = getelementptr inbounds float, float* %50, i64 %59
  store float 0.000000e+00, float* %60, align 4
  %61 = sext i32 %lane to i64
  %62 = add nsw i64 96, %61
  %63 = getelementptr inbounds float, float* %50, i64 %62
  store float 0.000000e+00, float* %63, align 4
  %64 = add nsw i32 %lane, 1
  %65 = icmp slt i32 %64, 32
  br i1 %65, label %for.lane, label %for.end8, !llvm.loop !11

for.end8:                                         ; preds = %for.lane, %for.tile
  br i1 true, label %for.rc, label %for.end9

for.rc:                                           ; preds = %for.end10, %for.end8
  %rc = phi i32 [ 0, %for.end8 ], [ %66, %for.end10 ]
  br i1 true, label %for.ry, label %for.end10

for.end9:                                         ; preds = %for.end10, %for.end8
  br i1 true, label %for.lane15, label %for.end16

for.ry:                                           ; preds = %for.end11, %for.rc
  %ry = phi i32 [ 0, %for.rc ], [ %68, %for.end11 ]
  br i1 true, label %for.rx, label %for.end11

for.end10:                                        ; preds = %for.end11, %for.rc
  %66 = add nsw i32 %rc, 1
  %67 = icmp slt i32 %66, 3
  br i1 %67, label %for.rc, label %for.end9, !llvm.loop !13

for.rx:                                           ; preds = %for.end13, %for.ry
  %rx = phi i32 [ 0, %for.ry ], [ %236, %for.end13 ]
  br i1 true, label %for.lane12, label %for.end13

for.end11:                                        ; preds = %for.end13, %for.ry
  %68 = add nsw i32 %ry, 1
  %69 = icmp slt i32 %68, 3
  br i1 %69, label %for.ry, label %for.end10, !llvm.loop !14

for.lane12:                                       ; preds = %for.lane12, %for.rx
  %lane14 = phi i32 [ 0, %for.rx ], [ %234, %for.lane12 ]
  %70 = sext i32 %lane14 to i64
  %71 = add nsw i64 0, %70
  %72 = getelementptr inbounds float, float* %50, i64 %71
  %73 = sext i32 %lane14 to i64
  %74 = add nsw i64 0, %73
  %75 = getelementptr inbounds float, float* %50, i64 %74
  %76 = load float, float* %75, align 4
  %77 = sext i32 %lane14 to i64
  %78 = sext i32 %tile to i64
  %79 = mul nsw i64 %78, 32
  %80 = sext i32 %rx to i64
  %81 = sext i32 %ry to i64
  %82 = mul nsw i64 %81, 10
  %83 = add nsw i64 %82, %80
  %84 = sext i32 %rc to i64
  %85 = mul nsw i64 %84, 100
  %86 = add nsw i64 %85, 0
  %87 = add nsw i64 %86, %83
  %88 = add nsw i64 %87, %79
  %89 = add nsw i64 %88, %77
  %90 = getelementptr inbounds float, float* %6, i64 %89
  %91 = load float, float* %90, align 4
  %92 = sext i32 %co to i64
  %93 = mul nsw i64 %92, 4
  %94 = sext i32 %group to i64
  %95 = mul nsw i64 %94, 4
  %96 = add nsw i64 %95, %93
  %97 = add nsw i64 %96, 0
  %98 = sext i32 %rc to i64
  %99 = mul nsw i64 %97, 3
  %100 = add nsw i64 %99, %98
  %101 = sext i32 %ry to i64
  %102 = mul nsw i64 %100, 3
  %103 = add nsw i64 %102, %101
  %104 = sext i32 %rx to i64
  %105 = mul nsw i64 %103, 3
  %106 = add nsw i64 %105, %104
  %107 = getelementptr inbounds float, float* %1, i64 %106
  %108 = load float, float* %107, align 4
  %109 = fmul float %91, %108
  %110 = fadd float %76, %109
  store float %110, float* %72, align 4
  %111 = sext i32 %lane14 to i64
  %112 = add nsw i64 32, %111
  %113 = getelementptr inbounds float, float* %50, i64 %112
  %114 = sext i32 %lane14 to i64
  %115 = add nsw i64 32, %114
  %116 = getelementptr inbounds float, float* %50, i64 %115
  %117 = load float, float* %116, align 4
  %118 = sext i32 %lane14 to i64
  %119 = sext i32 %tile to i64
  %120 = mul nsw i64 %119, 32
  %121 = sext i32 %rx to i64
  %122 = sext i32 %ry to i64
  %123 = mul nsw i64 %122, 10
  %124 = add nsw i64 %123, %121
  %125 = sext i32 %rc to i64
  %126 = mul nsw i64 %125, 100
  %127 = add nsw i64 %126, 0
  %128 = add nsw i64 %127, %124
  %129 = add nsw i64 %128, %120
  %130 = add nsw i64 %129, %118
  %131 = getelementptr inbounds float, float* %6, i64 %130
  %132 = load float, float* %131, align 4
  %133 = sext i32 %co to i64
  %134 = mul nsw i64 %133, 4
  %135 = sext i32 %group to i64
  %136 = mul nsw i64 %135, 4
  %137 = add nsw i64 %136, %134
  %138 = add nsw i64 %137, 1
  %139 = sext i32 %rc to i64
  %140 = mul nsw i64 %138, 3
  %141 = add nsw i64 %140, %139
  %142 = sext i32 %ry to i64
  %143 = mul nsw i64 %141, 3
  %144 = add nsw i64 %143, %142
  %145 = sext i32 %rx to i64
  %146 = mul nsw i64 %144, 3
  %147 = add nsw i64 %146, %145
  %148 = getelementptr inbounds float, float* %1, i64 %147
  %149 = load float, float* %148, align 4
  %150 = fmul float %132, %149
  %151 = fadd float %117, %150
  store float %151, float* %113, align 4
  %152 = sext i32 %lane14 to i64
  %153 = add nsw i64 64, %152
  %154 = getelementptr inbounds float, float* %50, i64 %153
  %155 = sext i32 %lane14 to i64
  %156 = add nsw i64 64, %155
  %157 = getelementptr inbounds float, float* %50, i64 %156
  %158 = load float, float* %157, align 4
  %159 = sext i32 %lane14 to i64
  %160 = sext i32 %tile to i64
  %161 = mul nsw i64 %160, 32
  %162 = sext i32 %rx to i64
  %163 = sext i32 %ry to i64
  %164 = mul nsw i64 %163, 10
  %165 = add nsw i64 %164, %162
  %166 = sext i32 %rc to i64
  %167 = mul nsw i64 %166, 100
  %168 = add nsw i64 %167, 0
  %169 = add nsw i64 %168, %165
  %170 = add nsw i64 %169, %161
  %171 = add nsw i64 %170, %159
  %172 = getelementptr inbounds float, float* %6, i64 %171
  %173 = load float, float* %172, align 4
  %174 = sext i32 %co to i64
  %175 = mul nsw i64 %174, 4
  %176 = sext i32 %group to i64
  %177 = mul nsw i64 %176, 4
  %178 = add nsw i64 %177, %175
  %179 = add nsw i64 %178, 2
  %180 = sext i32 %rc to i64
  %181 = mul nsw i64 %179, 3
  %182 = add nsw i64 %181, %180
  %183 = sext i32 %ry to i64
  %184 = mul nsw i64 %182, 3
  %185 = add nsw i64 %184, %183
  %186 = sext i32 %rx to i64
  %187 = mul nsw i64 %185, 3
  %188 = add nsw i64 %187, %186
  %189 = getelementptr inbounds float, float* %1, i64 %188
  %190 = load float, float* %189, align 4
  %191 = fmul float %173, %190
  %192 = fadd float %158, %191
  store float %192, float* %154, align 4
  %193 = sext i32 %lane14 to i64
  %194 = add nsw i64 96, %193
  %195 = getelementptr inbounds float, float* %50, i64 %194
  %196 = sext i32 %lane14 to i64
  %197 = add nsw i64 96, %196
  %198 = getelementptr inbounds float, float* %50, i64 %197
  %199 = load float, float* %198, align 4
  %200 = sext i32 %lane14 to i64
  %201 = sext i32 %tile to i64
  %202 = mul nsw i64 %201, 32
  %203 = sext i32 %rx to i64
  %204 = sext i32 %ry to i64
  %205 = mul nsw i64 %204, 10
  %206 = add nsw i64 %205, %203
  %207 = sext i32 %rc to i64
  %208 = mul nsw i64 %207, 100
  %209 = add nsw i64 %208, 0
  %210 = add nsw i64 %209, %206
  %211 = add nsw i64 %210, %202
  %212 = add nsw i64 %211, %200
  %213 = getelementptr inbounds float, float* %6, i64 %212
  %214 = load float, float* %213, align 4
  %215 = sext i32 %co to i64
  %216 = mul nsw i64 %215, 4
  %217 = sext i32 %group to i64
  %218 = mul nsw i64 %217, 4
  %219 = add nsw i64 %218, %216
  %220 = add nsw i64 %219, 3
  %221 = sext i32 %rc to i64
  %222 = mul nsw i64 %220, 3
  %223 = add nsw i64 %222, %221
  %224 = sext i32 %ry to i64
  %225 = mul nsw i64 %223, 3
  %226 = add nsw i64 %225, %224
  %227 = sext i32 %rx to i64
  %228 = mul nsw i64 %226, 3
  %229 = add nsw i64 %228, %227
  %230 = getelementptr inbounds float, float* %1, i64 %229
  %231 = load float, float* %230, align 4
  %232 = fmul float %214, %231
  %233 = fadd float %199, %232
  store float %233, float* %195, align 4
  %234 = add nsw i32 %lane14, 1
  %235 = icmp slt i32 %234, 32
  br i1 %235, label %for.lane12, label %for.end13, !llvm.loop !15

for.end13:                                        ; preds = %for.lane12, %for.rx
  %236 = add nsw i32 %rx, 1
  %237 = icmp slt i32 %236, 3
  br i1 %237, label %for.rx, label %for.end11, !llvm.loop !16

for.lane15:                                       ; preds = %for.lane15, %for.end9
  %lane17 = phi i32 [ 0, %for.end9 ], [ %278, %for.lane15 ]
  %238 = sext i32 %lane17 to i64
  %239 = sext i32 %tile to i64
  %240 = mul nsw i64 %239, 32
  %241 = add nsw i64 %240, %238
  %242 = add nsw i64 0, %241
  %243 = getelementptr inbounds float, float* %46, i64 %242
  %244 = sext i32 %lane17 to i64
  %245 = add nsw i64 0, %244
  %246 = getelementptr inbounds float, float* %50, i64 %245
  %247 = load float, float* %246, align 4
  store float %247, float* %243, align 4
  %248 = sext i32 %lane17 to i64
  %249 = sext i32 %tile to i64
  %250 = mul nsw i64 %249, 32
  %251 = add nsw i64 %250, %248
  %252 = add nsw i64 96, %251
  %253 = getelementptr inbounds float, float* %46, i64 %252
  %254 = sext i32 %lane17 to i64
  %255 = add nsw i64 32, %254
  %256 = getelementptr inbounds float, float* %50, i64 %255
  %257 = load float, float* %256, align 4
  store float %257, float* %253, align 4
  %258 = sext i32 %lane17 to i64
  %259 = sext i32 %tile to i64
  %260 = mul nsw i64 %259, 32
  %261 = add nsw i64 %260, %258
  %262 = add nsw i64 192, %261
  %263 = getelementptr inbounds float, float* %46, i64 %262
  %264 = sext i32 %lane17 to i64
  %265 = add nsw i64 64, %264
  %266 = getelementptr inbounds float, float* %50, i64 %265
  %267 = load float, float* %266, align 4
  store float %267, float* %263, align 4
  %268 = sext i32 %lane17 to i64
  %269 = sext i32 %tile to i64
  %270 = mul nsw i64 %269, 32
  %271 = add nsw i64 %270, %268
  %272 = add nsw i64 288, %271
  %273 = getelementptr inbounds float, float* %46, i64 %272
  %274 = sext i32 %lane17 to i64
  %275 = add nsw i64 96, %274
  %276 = getelementptr inbounds float, float* %50, i64 %275
  %277 = load float, float* %276, align 4
  store float %277, float* %273, align 4
  %278 = add nsw i32 %lane17, 1
  %279 = icmp slt i32 %278, 32
  br i1 %279, label %for.lane15, label %for.end16, !llvm.loop !17

for.end16:                                        ; preds = %for.lane15, %for.end9
  %280 = add nsw i32 %tile, 1
  %281 = icmp slt i32 %280, 3
  br i1 %281, label %for.tile, label %for.end7, !llvm.loop !18

for.ax018:                                        ; preds = %for.end21, %for.end7
  %ax020 = phi i32 [ 0, %for.end7 ], [ %284, %for.end21 ]
  br i1 true, label %for.ax1, label %for.end21

for.end19:                                        ; preds = %for.end21, %for.end7
  %282 = add nsw i32 %co, 1
  %283 = icmp slt i32 %282, 1
  br i1 %283, label %for.co, label %for.end6

for.ax1:                                          ; preds = %for.end22, %for.ax018
  %ax1 = phi i32 [ 0, %for.ax018 ], [ %354, %for.end22 ]
  br i1 true, label %for.ax2, label %for.end22

for.end21:                                        ; preds = %for.end22, %for.ax018
  %284 = add nsw i32 %ax020, 1
  %285 = icmp slt i32 %284, 4
  br i1 %285, label %for.ax018, label %for.end19, !llvm.loop !19

for.ax2:                                          ; preds = %for.ax2, %for.ax1
  %ax2 = phi i32 [ 0, %for.ax1 ], [ %352, %for.ax2 ]
  %286 = sext i32 %ax020 to i64
  %287 = sext i32 %ax2 to i64
  %288 = sext i32 %ax1 to i64
  %289 = mul nsw i64 %288, 10
  %290 = add nsw i64 %289, %287
  %291 = mul nsw i64 %286, 96
  %292 = add nsw i64 %291, %290
  %293 = getelementptr inbounds float, float* %46, i64 %292
  %294 = load float, float* %293, align 4
  %295 = sext i32 %n to i64
  %296 = sext i32 %ax020 to i64
  %297 = sext i32 %co to i64
  %298 = mul nsw i64 %297, 4
  %299 = sext i32 %group to i64
  %300 = mul nsw i64 %299, 4
  %301 = add nsw i64 %300, %298
  %302 = add nsw i64 %301, %296
  %303 = mul nsw i64 %295, 4
  %304 = add nsw i64 %303, %302
  %305 = sext i32 %ax1 to i64
  %306 = mul nsw i64 %304, 8
  %307 = add nsw i64 %306, %305
  %308 = sext i32 %ax2 to i64
  %309 = mul nsw i64 %307, 8
  %310 = add nsw i64 %309, %308
  %311 = getelementptr inbounds float, float* %5, i64 %310
  %312 = sext i32 %ax020 to i64
  %313 = sext i32 %co to i64
  %314 = mul nsw i64 %313, 4
  %315 = sext i32 %group to i64
  %316 = mul nsw i64 %315, 4
  %317 = add nsw i64 %316, %314
  %318 = add nsw i64 %317, %312
  %319 = getelementptr inbounds float, float* %2, i64 %318
  %320 = load float, float* %319, align 4
  %321 = fadd float %294, %320
  %322 = fmul float %321, 1.000000e+00
  %323 = fadd float %322, 0.000000e+00
  %324 = sext i32 %ax020 to i64
  %325 = sext i32 %co to i64
  %326 = mul nsw i64 %325, 4
  %327 = sext i32 %group to i64
  %328 = mul nsw i64 %327, 4
  %329 = add nsw i64 %328, %326
  %330 = add nsw i64 %329, %324
  %331 = mul nsw i64 %330, 1
  %332 = add nsw i64 %331, 0
  %333 = mul nsw i64 %332, 1
  %334 = add nsw i64 %333, 0
  %335 = getelementptr inbounds float, float* %3, i64 %334
  %336 = load float, float* %335, align 4
  %337 = fmul float %323, %336
  %338 = sext i32 %ax020 to i64
  %339 = sext i32 %co to i64
  %340 = mul nsw i64 %339, 4
  %341 = sext i32 %group to i64
  %342 = mul nsw i64 %341, 4
  %343 = add nsw i64 %342, %340
  %344 = add nsw i64 %343, %338
  %345 = mul nsw i64 %344, 1
  %346 = add nsw i64 %345, 0
  %347 = mul nsw i64 %346, 1
  %348 = add nsw i64 %347, 0
  %349 = getelementptr inbounds float, float* %4, i64 %348
  %350 = load float, float* %349, align 4
  %351 = fadd float %337, %350
  store float %351, float* %311, align 4
  %352 = add nsw i32 %ax2, 1
  %353 = icmp slt i32 %352, 8
  br i1 %353, label %for.ax2, label %for.end22, !llvm.loop !20

for.end22:                                        ; preds = %for.ax2, %for.ax1
  %354 = add nsw i32 %ax1, 1
  %355 = icmp slt i32 %354, 8
  br i1 %355, label %for.ax1, label %for.end21, !llvm.loop !21
}

; Function Attrs: nounwind
define void @fused_nn_relu_add(i8* noalias %p0, i8* noalias %p1, i8* noalias %T_out) #0 {
entry:
  %0 = bitcast i8* %p0 to float*
  %1 = bitcast i8* %p1 to float*
  %2 = bitcast i8* %T_out to float*
  br i1 true, label %for.ax0, label %for.end

for.ax0:                                          ; preds = %for.end1, %entry
  %ax0 = phi i32 [ 0, %entry ], [ %24, %for.end1 ]
  br i1 true, label %for.ax1, label %for.end1

for.end:                                          ; preds = %for.end1, %entry
  ret void

for.ax1:                                          ; preds = %for.ax1, %for.ax0
  %ax1 = phi i32 [ 0, %for.ax0 ], [ %22, %for.ax1 ]
  %3 = sext i32 %ax0 to i64
  %4 = sext i32 %ax1 to i64
  %5 = mul nsw i64 %3, 256
  %6 = add nsw i64 %5, %4
  %7 = getelementptr inbounds float, float* %2, i64 %6
  %8 = sext i32 %ax1 to i64
  %9 = add nsw i64 0, %8
  %10 = getelementptr inbounds float, float* %0, i64 %9
  %11 = load float, float* %10, align 4
  %12 = sext i32 %ax1 to i64
  %13 = add nsw i64 0, %12
  %14 = getelementptr inbounds float, float* %1, i64 %13
  %15 = load float, float* %14, align 4
  %16 = fcmp ogt float %15, 0.000000e+00
  %17 = select i1 %16, float %15, float 0.000000e+00
  %18 = fadd float %15, 0.000000e+00
  %19 = fcmp uno float %15, 0.000000e+00
  %20 = select i1 %19, float %18, float %17
  %21 = fadd float %11, %20
  store float %21, float* %7, align 4
  %22 = add nsw i32 %ax1, 1
  %23 = icmp slt i32 %22, 256
  br i1 %23, label %for.ax1, label %for.end1, !llvm.loop !22

for.end1:                                         ; preds = %for.ax1, %for.ax0
  %24 = add nsw i32 %ax0, 1
  %25 = icmp slt i32 %24, 1
  br i1 %25, label %for.ax0, label %for.end
}

; Function Attrs: nounwind
define void @fused_nn_relu_reshape_reshape(i8* noalias %p0, i8* noalias %T_out) #0 {
entry:
  %T_reshape = alloca [256 x float], align 64
  %T_relu = alloca [256 x float], align 64
  %0 = bitcast i8* %p0 to float*
  %1 = bitcast i8* %T_out to float*
  %2 = bitcast [256 x float]* %T_relu to float*
  %3 = bitcast float* %2 to i8*
  call void @llvm.memset.p0i8.i64(i8* align 64 %3, i8 0, i64 1024, i1 false)
  %4 = bitcast [256 x float]* %T_reshape to float*
  %5 = bitcast float* %4 to i8*
  call void @llvm.memset.p0i8.i64(i8* align 64 %5, i8 0, i64 1024, i1 false)
  br i1 true, label %for.ax0, label %for.end

for.ax0:                                          ; preds = %for.end1, %entry
  %ax0 = phi i32 [ 0, %entry ], [ %24, %for.end1 ]
  br i1 true, label %for.ax1, label %for.end1

for.end:                                          ; preds = %for.end1, %entry
  br i1 true, label %for.ax02, label %for.end3

for.ax1:                                          ; preds = %for.ax1, %for.ax0
  %ax1 = phi i32 [ 0, %for.ax0 ], [ %22, %for.ax1 ]
  %6 = sext i32 %ax0 to i64
  %7 = sext i32 %ax1 to i64
  %8 = mul nsw i64 %6, 256
  %9 = add nsw i64 %8, %7
  %10 = getelementptr inbounds float, float* %2, i64 %9
  %11 = sext i32 %ax0 to i64
  %12 = sext i32 %ax1 to i64
  %13 = mul nsw i64 %11, 256
  %14 = add nsw i64 %13, %12
  %15 = getelementptr inbounds float, float* %0, i64 %14
  %16 = load float, float* %15, align 4
  %17 = fcmp ogt float %16, 0.000000e+00
  %18 = select i1 %17, float %16, float 0.000000e+00
  %19 = fadd float %16, 0.000000e+00
  %20 = fcmp uno float %16, 0.000000e+00
  %21 = select i1 %20, float %19, float %18
  store float %21, float* %10, align 4
  %22 = add nsw i32 %ax1, 1
  %23 = icmp slt i32 %22, 256
  br i1 %23, label %for.ax1, label %for.end1, !llvm.loop !23

for.end1:                                         ; preds = %for.ax1, %for.ax0
  %24 = add nsw i32 %ax0, 1
  %25 = icmp slt i32 %24, 1
  br i1 %25, label %for.ax0, label %for.end

for.ax02:                                         ; preds = %for.end6, %for.end
  %ax04 = phi i32 [ 0, %for.end ], [ %26, %for.end6 ]
  br i1 true, label %for.ax15, label %for.end6

for.end3:                                         ; preds = %for.end6, %for.end
  br i1 true, label %for.ax09, label %for.end10

for.ax15:                                         ; preds = %for.end8, %for.ax02
  %ax17 = phi i32 [ 0, %for.ax02 ], [ %45, %for.end8 ]
  br i1 true, label %for.ax2, label %for.end8

for.end6:                                         ; preds = %for.end8, %for.ax02
  %26 = add nsw i32 %ax04, 1
  %27 = icmp slt i32 %26, 1
  br i1 %27, label %for.ax02, label %for.end3

for.ax2:                                          ; preds = %for.ax2, %for.ax15
  %ax2 = phi i32 [ 0, %for.ax15 ], [ %43, %for.ax2 ]
  %28 = sext i32 %ax04 to i64
  %29 = sext i32 %ax17 to i64
  %30 = mul nsw i64 %28, 4
  %31 = add nsw i64 %30, %29
  %32 = sext i32 %ax2 to i64
  %33 = mul nsw i64 %31, 64
  %34 = add nsw i64 %33, %32
  %35 = getelementptr inbounds float, float* %4, i64 %34
  %36 = sext i32 %ax17 to i64
  %37 = add nsw i64 0, %36
  %38 = sext i32 %ax2 to i64
  %39 = mul nsw i64 %37, 64
  %40 = add nsw i64 %39, %38
  %41 = getelementptr inbounds float, float* %2, i64 %40
  %42 = load float, float* %41, align 4
  store float %42, float* %35, align 4
  %43 = add nsw i32 %ax2, 1
  %44 = icmp slt i32 %43, 64
  br i1 %44, label %for.ax2, label %for.end8, !llvm.loop !24

for.end8:                                         ; preds = %for.ax2, %for.ax15
  %45 = add nsw i32 %ax17, 1
  %46 = icmp slt i32 %45, 4
  br i1 %46, label %for.ax15, label %for.end6, !llvm.loop !26

for.ax09:                                         ; preds = %for.end13, %for.end3
  %ax011 = phi i32 [ 0, %for.end3 ], [ %47, %for.end13 ]
  br i1 true, label %for.ax112, label %for.end13

for.end10:                                        ; preds = %for.end13, %for.end3
  ret void

for.ax112:                                        ; preds = %for.end16, %for.ax09
  %ax114 = phi i32 [ 0, %for.ax09 ], [ %49, %for.end16 ]
  br i1 true, label %for.ax215, label %for.end16

for.end13:                                        ; preds = %for.end16, %for.ax09
  %47 = add nsw i32 %ax011, 1
  %48 = icmp slt i32 %47, 1
  br i1 %48, label %for.ax09, label %for.end10

for.ax215:                                        ; preds = %for.end18, %for.ax112
  %ax217 = phi i32 [ 0, %for.ax112 ], [ %74, %for.end18 ]
  br i1 true, label %for.ax3, label %for.end18

for.end16:                                        ; preds = %for.end18, %for.ax112
  %49 = add nsw i32 %ax114, 1
  %50 = icmp slt i32 %49, 4
  br i1 %50, label %for.ax112, label %for.end13, !llvm.loop !27

for.ax3:                                          ; preds = %for.ax3, %for.ax215
  %ax3 = phi i32 [ 0, %for.ax215 ], [ %72, %for.ax3 ]
  %51 = sext i32 %ax011 to i64
  %52 = sext i32 %ax114 to i64
  %53 = mul nsw i64 %51, 4
  %54 = add nsw i64 %53, %52
  %55 = sext i32 %ax217 to i64
  %56 = mul nsw i64 %54, 8
  %57 = add nsw i64 %56, %55
  %58 = sext i32 %ax3 to i64
  %59 = mul nsw i64 %57, 8
  %60 = add nsw i64 %59, %58
  %61 = getelementptr inbounds float, float* %1, i64 %60
  %62 = sext i32 %ax114 to i64
  %63 = add nsw i64 0, %62
  %64 = sext i32 %ax3 to i64
  %65 = sext i32 %ax217 to i64
  %66 = mul nsw i64 %65, 8
  %67 = add nsw i64 %66, %64
  %68 = mul nsw i64 %63, 64
  %69 = add nsw i64 %68, %67
  %70 = getelementptr inbounds float, float* %4, i64 %69
  %71 = load float, float* %70, align 4
  store float %71, float* %61, align 4
  %72 = add nsw i32 %ax3, 1
  %73 = icmp slt i32 %72, 8
  br i1 %73, label %for.ax3, label %for.end18, !llvm.loop !28

for.end18:                                        ; preds = %for.ax3, %for.ax215
  %74 = add nsw i32 %ax217, 1
  %75 = icmp slt i32 %74, 8
  br i1 %75, label %for.ax215, label %for.end16, !llvm.loop !29
}

; Function Attrs: nounwind
define void @fused_sigmoid(i8* noalias %p0, i8* noalias %T_out) #0 {
entry:
  %0 = bitcast i8* %p0 to float*
  %1 = bitcast i8* %T_out to float*
  br i1 true, label %for.ax0, label %for.end

for.ax0:                                          ; preds = %for.end1, %entry
  %ax0 = phi i32 [ 0, %entry ], [ %19, %for.end1 ]
  br i1 true, label %for.ax1, label %for.end1

for.end:                                          ; preds = %for.end1, %entry
  ret void

for.ax1:                                          ; preds = %for.ax1, %for.ax0
  %ax1 = phi i32 [ 0, %for.ax0 ], [ %17, %for.ax1 ]
  %2 = sext i32 %ax0 to i64
  %3 = sext i32 %ax1 to i64
  %4 = mul nsw i64 %2, 256
  %5 = add nsw i64 %4, %3
  %6 = getelementptr inbounds float, float* %1, i64 %5
  %7 = sext i32 %ax0 to i64
  %8 = sext i32 %ax1 to i64
  %9 = mul nsw i64 %7, 256
  %10 = add nsw i64 %9, %8
  %11 = getelementptr inbounds float, float* %0, i64 %10
  %12 = load float, float* %11, align 4
  %13 = fneg float %12
  %14 = call float @llvm.exp.f32(float %13)
  %15 = fadd float 1.000000e+00, %14
  %16 = fdiv float 1.000000e+00, %15
  store float %16, float* %6, align 4
  %17 = add nsw i32 %ax1, 1
  %18 = icmp slt i32 %17, 256
  br i1 %18, label %for.ax1, label %for.end1, !llvm.loop !30

for.end1:                                         ; preds = %for.ax1, %for.ax0
  %19 = add nsw i32 %ax0, 1
  %20 = icmp slt i32 %19, 1
  br i1 %20, label %for.ax0, label %for.end
}

; Function Attrs: nofree nosync nounwind readnone speculatable willreturn
declare float @llvm.exp.f32(float) #1

define void @__passlab_packed_fused_add_sqrt_divide_multiply(i8** %0) {
entry:
  %1 = getelementptr inbounds i8*, i8** %0, i64 0
  %2 = load i8*, i8** %1, align 8
  %3 = getelementptr inbounds i8*, i8** %0, i64 1
  %4 = load i8*, i8** %3, align 8
  %5 = getelementptr inbounds i8*, i8** %0, i64 2
  %6 = load i8*, i8** %5, align 8
  call void @fused_add_sqrt_divide_multiply(i8* %2, i8* %4, i8* %6)
  ret void
}

define void @__passlab_packed_fused_expand_dims(i8** %0) {
entry:
  %1 = getelementptr inbounds i8*, i8** %0, i64 0
  %2 = load i8*, i8** %1, align 8
  %3 = getelementptr inbounds i8*, i8** %0, i64 1
  %4 = load i8*, i8** %3, align 8
  call void @fused_expand_dims(i8* %2, i8* %4)
  ret void
}

define void @__passlab_packed_fused_multiply(i8** %0) {
entry:
  %1 = getelementptr inbounds i8*, i8** %0, i64 0
  %2 = load i8*, i8** %1, align 8
  %3 = getelementptr inbounds i8*, i8** %0, i64 1
  %4 = load i8*, i8** %3, align 8
  call void @fused_multiply(i8* %2, i8* %4)
  ret void
}

define void @__passlab_packed_fused_negative_multiply_add_expand_dims(i8** %0) {
entry:
  %1 = getelementptr inbounds i8*, i8** %0, i64 0
  %2 = load i8*, i8** %1, align 8
  %3 = getelementptr inbounds i8*, i8** %0, i64 1
  %4 = load i8*, i8** %3, align 8
  %5 = getelementptr inbounds i8*, i8** %0, i64 2
  %6 = load i8*, i8** %5, align 8
  %7 = getelementptr inbounds i8*, i8** %0, i64 3
  %8 = load i8*, i8** %7, align 8
  call void @fused_negative_multiply_add_expand_dims(i8* %2, i8* %4, i8* %6, i8* %8)
  ret void
}

define void @__passlab_packed_fused_nn_conv2d_nn_bias_add_multiply_add_multiply(i8** %0) {
entry:
  %1 = getelementptr inbounds i8*, i8** %0, i64 0
  %2 = load i8*, i8** %1, align 8
  %3 = getelementptr inbounds i8*, i8** %0, i64 1
  %4 = load i8*, i8** %3, align 8
  %5 = getelementptr inbounds i8*, i8** %0, i64 2
  %6 = load i8*, i8** %5, align 8
  %7 = getelementptr inbounds i8*, i8** %0, i64 3
  %8 = load i8*, i8** %7, align 8
  %9 = getelementptr inbounds i8*, i8** %0, i64 4
  %10 = load i8*, i8** %9, align 8
  %11 = getelementptr inbounds i8*, i8** %0, i64 5
  %12 = load i8*, i8** %11, align 8
  call void @fused_nn_conv2d_nn_bias_add_multiply_add_multiply(i8* %2, i8* %4, i8* %6, i8* %8, i8* %10, i8* %12)
  ret void
}

define void @__passlab_packed_fused_nn_relu_add(i8** %0) {
entry:
  %1 = getelementptr inbounds i8*, i8** %0, i64 0
  %2 = load i8*, i8** %1, align 8
  %3 = getelementptr inbounds i8*, i8** %0, i64 1
  %4 = load i8*, i8** %3, align 8
  %5 = getelementptr inbounds i8*, i8** %0, i64 2
  %6 = load i8*, i8** %5, align 8
  call void @fused_nn_relu_add(i8* %2, i8* %4, i8* %6)
  ret void
}

define void @__passlab_packed_fused_nn_relu_reshape_reshape(i8** %0) {
entry:
  %1 = getelementptr inbounds i8*, i8** %0, i64 0
  %2 = load i8*, i8** %1, align 8
  %3 = getelementptr inbounds i8*, i8** %0, i64 1
  %4 = load i8*, i8** %3, align 8
  call void @fused_nn_relu_reshape_reshape(i8* %2, i8* %4)
  ret void
}

define void @__passlab_packed_fused_sigmoid(i8** %0) {
entry:
  %1 = getelementptr inbounds i8*, i8** %0, i64 0
  %2 = load i8*, i8** %1, align 8
  %3 = getelementptr inbounds i8*, i8** %0, i64 1
  %4 = load i8*, i8** %3, align 8
  call void @fused_sigmoid(i8* %2, i8* %4)
  ret void
}

define void @__passlab_entry(i8** %0) {
entry:
  %1 = getelementptr inbounds i8*, i8** %0, i64 0
  %2 = load i8*, i8** %1, align 8
  %3 = getelementptr inbounds i8*, i8** %0, i64 1
  %4 = load i8*, i8** %3, align 8
  %5 = getelementptr inbounds i8*, i8** %0, i64 2
  %6 = load i8*, i8** %5, align 8
  %7 = getelementptr inbounds i8*, i8** %0, i64 3
  %8 = load i8*, i8** %7, align 8
  %9 = getelementptr inbounds i8*, i8** %0, i64 4
  %10 = load i8*, i8** %9, align 8
  %11 = getelementptr inbounds i8*, i8** %0, i64 5
  %12 = load i8*, i8** %11, align 8
  %13 = getelementptr inbounds i8*, i8** %0, i64 6
  %14 = load i8*, i8** %13, align 8
  call void @fused_add_sqrt_divide_multiply(i8* %14, i8* %8, i8* getelementptr inbounds ([1024 x i8], [1024 x i8]* @entry.storage0, i32 0, i32 0))
  call void @fused_expand_dims(i8* getelementptr inbounds ([1024 x i8], [1024 x i8]* @entry.storage0, i32 0, i32 0), i8* getelementptr inbounds ([1024 x i8], [1024 x i8]* @entry.storage1, i32 0, i32 0))
  call void @fused_negative_multiply_add_expand_dims(i8* %12, i8* getelementptr inbounds ([1024 x i8], [1024 x i8]* @entry.storage0, i32 0, i32 0), i8* %10, i8* getelementptr inbounds ([1024 x i8], [1024 x i8]* @entry.storage2, i32 0, i32 0))
  call void @fused_nn_conv2d_nn_bias_add_multiply_add_multiply(i8* %2, i8* %4, i8* %6, i8* getelementptr inbounds ([1024 x i8], [1024 x i8]* @entry.storage1, i32 0, i32 0), i8* getelementptr inbounds ([1024 x i8], [1024 x i8]* @entry.storage2, i32 0, i32 0), i8* getelementptr inbounds ([1024 x i8], [1024 x i8]* @entry.storage0, i32 0, i32 0))
  call void @fused_nn_relu_reshape_reshape(i8* getelementptr inbounds ([1024 x i8], [1024 x i8]* @entry.storage0, i32 0, i32 0), i8* getelementptr inbounds ([1024 x i8], [1024 x i8]* @entry.storage1, i32 0, i32 0))
  call void @fused_sigmoid(i8* getelementptr inbounds ([1024 x i8], [1024 x i8]* @entry.storage1, i32 0, i32 0), i8* getelementptr inbounds ([1024 x i8], [1024 x i8]* @entry.storage2, i32 0, i32 0))
  call void @fused_multiply(i8* getelementptr inbounds ([1024 x i8], [1024 x i8]* @entry.storage1, i32 0, i32 0), i8* getelementptr inbounds ([1024 x i8], [1024 x i8]* @entry.storage2, i32 0, i32 0))
  call void @fused_nn_relu_add(i8* getelementptr inbounds ([1024 x i8], [1024 x i8]* @entry.storage2, i32 0, i32 0), i8* getelementptr inbounds ([1024 x i8], [1024 x i8]* @entry.storage0, i32 0, i32 0), i8* getelementptr inbounds ([1024 x i8], [1024 x i8]* @entry.storage1, i32 0, i32 0))
  call void @ext_block(i8* getelementptr inbounds ([1024 x i8], [1024 x i8]* @entry.storage1, i32 0, i32 0), i8* getelementptr inbounds ([1024 x i8], [1024 x i8]* @entry.storage0, i32 0, i32 0))
  %15 = getelementptr inbounds i8*, i8** %0, i64 7
  %16 = load i8*, i8** %15, align 8
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* align 1 %16, i8* align 1 getelementptr inbounds ([1024 x i8], [1024 x i8]* @entry.storage0, i32 0, i32 0), i64 1024, i1 false)
  ret void
}

declare void @ext_block(i8*, i8*)

; Function Attrs: argmemonly nofree nounwind willreturn
declare void @llvm.memcpy.p0i8.p0i8.i64(i8* noalias nocapture writeonly, i8* noalias nocapture readonly, i64, i1 immarg) #3

attributes #0 = { nounwind }
attributes #1 = { nofree nosync nounwind readnone speculatable willreturn }
attributes #2 = { argmemonly nofree nounwind willreturn writeonly }
attributes #3 = { argmemonly nofree nounwind willreturn }

!0 = distinct !{!0, !1, !2}
!1 = !{!"llvm.loop.vectorize.enable", i1 true}
!2 = !{!"llvm.loop.vectorize.width", i32 4}
!3 = distinct !{!3, !1}
!4 = distinct !{!4, !1, !2}
!5 = distinct !{!5, !1}
!6 = distinct !{!6, !7}
!7 = !{!"llvm.loop.vectorize.enable", i1 false}
!8 = distinct !{!8, !1, !9}
!9 = !{!"llvm.loop.vectorize.width", i32 8}
!10 = distinct !{!10, !7}
!11 = distinct !{!11, !1, !12}
!12 = !{!"llvm.loop.vectorize.width", i32 32}
!13 = distinct !{!13, !7}
!14 = distinct !{!14, !7}
!15 = distinct !{!15, !1, !12}
!16 = distinct !{!16, !7}
!17 = distinct !{!17, !1, !12}
!18 = distinct !{!18, !7}
!19 = distinct !{!19, !7}
!20 = distinct !{!20, !1, !9}
!21 = distinct !{!21, !7}
!22 = distinct !{!22, !1}
!23 = distinct !{!23, !1}
!24 = distinct !{!24, !1, !25}
!25 = !{!"llvm.loop.vectorize.width", i32 64}
!26 = distinct !{!26, !7}
!27 = distinct !{!27, !7}
!28 = distinct !{!28, !1, !9}
!29 = distinct !{!29, !7}
!30 = distinct !{!30, !1}
