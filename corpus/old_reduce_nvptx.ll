; Written for simulee in the dialect clang 3.2 emitted for CUDA on NVPTX:
; typed pointers, `load T* %p`, `getelementptr T* %p, ...` without the
; explicit type, `metadata !{...}` nodes, llvm.dbg.declare on metadata
; operands, 3.2-era debug locations and compile unit, nvvm.annotations with
; `metadata !"kernel"`, and `llvm.cuda.syncthreads`. The source it stands
; for (old_reduce.cu, lines 3-24):
;
;  3 __global__ void reduceRacy(int *in, int *out) {
;  4   __shared__ int sdata[128];
;  5   unsigned tid = threadIdx.x;
;  6   sdata[tid] = in[blockIdx.x * blockDim.x + tid];
;  7   __syncthreads();
;  8   for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
;  9     if (tid < s)
; 10       sdata[tid] += sdata[tid + s];
; 11   }                                  // no barrier between the steps
; 12   if (tid == 0) out[blockIdx.x] = sdata[0];
; 13 }
; 14 __global__ void reduceSynced(int *in, int *out) {
; 15   __shared__ int sdata[128];
; 16   unsigned tid = threadIdx.x;
; 17   sdata[tid] = in[blockIdx.x * blockDim.x + tid];
; 18   __syncthreads();
; 19   for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
; 20     if (tid < s)
; 21       sdata[tid] += sdata[tid + s];
; 22     __syncthreads();
; 23   }
; 24   if (tid == 0) out[blockIdx.x] = sdata[0]; }
; ModuleID = 'old_reduce.cu'
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@_ZZ10reduceRacyPiS_E5sdata = internal addrspace(3) global [128 x i32] zeroinitializer, align 4
@_ZZ12reduceSyncedPiS_E5sdata = internal addrspace(3) global [128 x i32] zeroinitializer, align 4

define void @_Z10reduceRacyPiS_(i32* %in, i32* %out) nounwind {
entry:
  %in.addr = alloca i32*, align 8
  %out.addr = alloca i32*, align 8
  %tid = alloca i32, align 4
  %s = alloca i32, align 4
  store i32* %in, i32** %in.addr, align 8
  call void @llvm.dbg.declare(metadata !{i32** %in.addr}, metadata !30), !dbg !31
  store i32* %out, i32** %out.addr, align 8
  call void @llvm.dbg.declare(metadata !{i32** %out.addr}, metadata !32), !dbg !31
  call void @llvm.dbg.declare(metadata !{i32* %tid}, metadata !33), !dbg !34
  %0 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x() nounwind readnone, !dbg !34
  store i32 %0, i32* %tid, align 4, !dbg !34
  %1 = load i32* %tid, align 4, !dbg !35
  %2 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() nounwind readnone, !dbg !35
  %3 = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x() nounwind readnone, !dbg !35
  %mul = mul i32 %2, %3, !dbg !35
  %add = add i32 %mul, %1, !dbg !35
  %idxprom = zext i32 %add to i64, !dbg !35
  %4 = load i32** %in.addr, align 8, !dbg !35
  %arrayidx = getelementptr inbounds i32* %4, i64 %idxprom, !dbg !35
  %5 = load i32* %arrayidx, align 4, !dbg !35
  %idxprom1 = zext i32 %1 to i64, !dbg !35
  %arrayidx2 = getelementptr inbounds [128 x i32] addrspace(3)* @_ZZ10reduceRacyPiS_E5sdata, i32 0, i64 %idxprom1, !dbg !35
  store i32 %5, i32 addrspace(3)* %arrayidx2, align 4, !dbg !35
  call void @llvm.cuda.syncthreads(), !dbg !36
  call void @llvm.dbg.declare(metadata !{i32* %s}, metadata !37), !dbg !38
  %div = udiv i32 %3, 2, !dbg !38
  store i32 %div, i32* %s, align 4, !dbg !38
  br label %for.cond, !dbg !38

for.cond:
  %6 = load i32* %s, align 4, !dbg !38
  %cmp = icmp ugt i32 %6, 0, !dbg !38
  br i1 %cmp, label %for.body, label %for.end, !dbg !38

for.body:
  %7 = load i32* %tid, align 4, !dbg !39
  %cmp3 = icmp ult i32 %7, %6, !dbg !39
  br i1 %cmp3, label %if.then, label %for.inc, !dbg !39

if.then:
  %add4 = add i32 %7, %6, !dbg !40
  %idxprom5 = zext i32 %add4 to i64, !dbg !40
  %arrayidx6 = getelementptr inbounds [128 x i32] addrspace(3)* @_ZZ10reduceRacyPiS_E5sdata, i32 0, i64 %idxprom5, !dbg !40
  %8 = load i32 addrspace(3)* %arrayidx6, align 4, !dbg !40
  %idxprom7 = zext i32 %7 to i64, !dbg !40
  %arrayidx8 = getelementptr inbounds [128 x i32] addrspace(3)* @_ZZ10reduceRacyPiS_E5sdata, i32 0, i64 %idxprom7, !dbg !40
  %9 = load i32 addrspace(3)* %arrayidx8, align 4, !dbg !40
  %add9 = add nsw i32 %9, %8, !dbg !40
  store i32 %add9, i32 addrspace(3)* %arrayidx8, align 4, !dbg !40
  br label %for.inc, !dbg !40

for.inc:
  %10 = load i32* %s, align 4, !dbg !38
  %shr = lshr i32 %10, 1, !dbg !38
  store i32 %shr, i32* %s, align 4, !dbg !38
  br label %for.cond, !dbg !38

for.end:
  %11 = load i32* %tid, align 4, !dbg !41
  %cmp10 = icmp eq i32 %11, 0, !dbg !41
  br i1 %cmp10, label %if.then11, label %if.end, !dbg !41

if.then11:
  %12 = load i32 addrspace(3)* getelementptr inbounds ([128 x i32] addrspace(3)* @_ZZ10reduceRacyPiS_E5sdata, i32 0, i64 0), align 4, !dbg !41
  %idxprom12 = zext i32 %2 to i64, !dbg !41
  %13 = load i32** %out.addr, align 8, !dbg !41
  %arrayidx13 = getelementptr inbounds i32* %13, i64 %idxprom12, !dbg !41
  store i32 %12, i32* %arrayidx13, align 4, !dbg !41
  br label %if.end, !dbg !41

if.end:
  ret void, !dbg !42
}

define void @_Z12reduceSyncedPiS_(i32* %in, i32* %out) nounwind {
entry:
  %in.addr = alloca i32*, align 8
  %out.addr = alloca i32*, align 8
  %tid = alloca i32, align 4
  %s = alloca i32, align 4
  store i32* %in, i32** %in.addr, align 8
  call void @llvm.dbg.declare(metadata !{i32** %in.addr}, metadata !50), !dbg !51
  store i32* %out, i32** %out.addr, align 8
  %0 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x() nounwind readnone, !dbg !52
  store i32 %0, i32* %tid, align 4, !dbg !52
  %1 = load i32* %tid, align 4, !dbg !53
  %2 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() nounwind readnone, !dbg !53
  %3 = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x() nounwind readnone, !dbg !53
  %mul = mul i32 %2, %3, !dbg !53
  %add = add i32 %mul, %1, !dbg !53
  %idxprom = zext i32 %add to i64, !dbg !53
  %4 = load i32** %in.addr, align 8, !dbg !53
  %arrayidx = getelementptr inbounds i32* %4, i64 %idxprom, !dbg !53
  %5 = load i32* %arrayidx, align 4, !dbg !53
  %idxprom1 = zext i32 %1 to i64, !dbg !53
  %arrayidx2 = getelementptr inbounds [128 x i32] addrspace(3)* @_ZZ12reduceSyncedPiS_E5sdata, i32 0, i64 %idxprom1, !dbg !53
  store i32 %5, i32 addrspace(3)* %arrayidx2, align 4, !dbg !53
  call void @llvm.cuda.syncthreads(), !dbg !54
  %div = udiv i32 %3, 2, !dbg !55
  store i32 %div, i32* %s, align 4, !dbg !55
  br label %for.cond, !dbg !55

for.cond:
  %6 = load i32* %s, align 4, !dbg !55
  %cmp = icmp ugt i32 %6, 0, !dbg !55
  br i1 %cmp, label %for.body, label %for.end, !dbg !55

for.body:
  %7 = load i32* %tid, align 4, !dbg !56
  %cmp3 = icmp ult i32 %7, %6, !dbg !56
  br i1 %cmp3, label %if.then, label %if.end, !dbg !56

if.then:
  %add4 = add i32 %7, %6, !dbg !57
  %idxprom5 = zext i32 %add4 to i64, !dbg !57
  %arrayidx6 = getelementptr inbounds [128 x i32] addrspace(3)* @_ZZ12reduceSyncedPiS_E5sdata, i32 0, i64 %idxprom5, !dbg !57
  %8 = load i32 addrspace(3)* %arrayidx6, align 4, !dbg !57
  %idxprom7 = zext i32 %7 to i64, !dbg !57
  %arrayidx8 = getelementptr inbounds [128 x i32] addrspace(3)* @_ZZ12reduceSyncedPiS_E5sdata, i32 0, i64 %idxprom7, !dbg !57
  %9 = load i32 addrspace(3)* %arrayidx8, align 4, !dbg !57
  %add9 = add nsw i32 %9, %8, !dbg !57
  store i32 %add9, i32 addrspace(3)* %arrayidx8, align 4, !dbg !57
  br label %if.end, !dbg !57

if.end:
  call void @llvm.cuda.syncthreads(), !dbg !58
  %10 = load i32* %s, align 4, !dbg !55
  %shr = lshr i32 %10, 1, !dbg !55
  store i32 %shr, i32* %s, align 4, !dbg !55
  br label %for.cond, !dbg !55

for.end:
  %11 = load i32* %tid, align 4, !dbg !59
  %cmp10 = icmp eq i32 %11, 0, !dbg !59
  br i1 %cmp10, label %if.then11, label %if.end12, !dbg !59

if.then11:
  %12 = load i32 addrspace(3)* getelementptr inbounds ([128 x i32] addrspace(3)* @_ZZ12reduceSyncedPiS_E5sdata, i32 0, i64 0), align 4, !dbg !59
  %idxprom12 = zext i32 %2 to i64, !dbg !59
  %13 = load i32** %out.addr, align 8, !dbg !59
  %arrayidx13 = getelementptr inbounds i32* %13, i64 %idxprom12, !dbg !59
  store i32 %12, i32* %arrayidx13, align 4, !dbg !59
  br label %if.end12, !dbg !59

if.end12:
  ret void, !dbg !59
}

declare void @llvm.dbg.declare(metadata, metadata) nounwind readnone

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x() nounwind readnone

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() nounwind readnone

declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x() nounwind readnone

declare void @llvm.cuda.syncthreads() nounwind

!llvm.dbg.cu = !{!0}
!nvvm.annotations = !{!20, !21}

!0 = metadata !{i32 786449, i32 0, i32 4, metadata !"old_reduce.cu", metadata !"/home/simulee/corpus", metadata !"clang version 3.2 (tags/RELEASE_32/final)", i1 true, i1 false, metadata !"", i32 0, metadata !1, metadata !1, metadata !2, metadata !1} ; [ DW_TAG_compile_unit ]
!1 = metadata !{i32 0}
!2 = metadata !{metadata !3, metadata !8}
!3 = metadata !{i32 786478, i32 0, metadata !4, metadata !"reduceRacy", metadata !"reduceRacy", metadata !"_Z10reduceRacyPiS_", metadata !4, i32 3, metadata !5, i1 false, i1 true, i32 0, i32 0, null, i32 256, i1 false, void (i32*, i32*)* @_Z10reduceRacyPiS_, null, null, metadata !1, i32 3} ; [ DW_TAG_subprogram ]
!4 = metadata !{i32 786473, metadata !"old_reduce.cu", metadata !"/home/simulee/corpus", null} ; [ DW_TAG_file_type ]
!5 = metadata !{i32 786453, i32 0, metadata !"", i32 0, i32 0, i64 0, i64 0, i64 0, i32 0, null, metadata !6, i32 0, i32 0} ; [ DW_TAG_subroutine_type ]
!6 = metadata !{null, metadata !7, metadata !7}
!7 = metadata !{i32 786447, null, metadata !"", null, i32 0, i64 64, i64 64, i64 0, i32 0, null} ; [ DW_TAG_pointer_type ]
!8 = metadata !{i32 786478, i32 0, metadata !4, metadata !"reduceSynced", metadata !"reduceSynced", metadata !"_Z12reduceSyncedPiS_", metadata !4, i32 14, metadata !5, i1 false, i1 true, i32 0, i32 0, null, i32 256, i1 false, void (i32*, i32*)* @_Z12reduceSyncedPiS_, null, null, metadata !1, i32 14} ; [ DW_TAG_subprogram ]
!20 = metadata !{void (i32*, i32*)* @_Z10reduceRacyPiS_, metadata !"kernel", i32 1}
!21 = metadata !{void (i32*, i32*)* @_Z12reduceSyncedPiS_, metadata !"kernel", i32 1}
!30 = metadata !{i32 786689, metadata !3, metadata !"in", metadata !4, i32 16777219, metadata !7, i32 0, i32 0} ; [ DW_TAG_arg_variable ]
!31 = metadata !{i32 3, i32 0, metadata !3, null}
!32 = metadata !{i32 786689, metadata !3, metadata !"out", metadata !4, i32 33554435, metadata !7, i32 0, i32 0} ; [ DW_TAG_arg_variable ]
!33 = metadata !{i32 786688, metadata !3, metadata !"tid", metadata !4, i32 5, metadata !7, i32 0, i32 0} ; [ DW_TAG_auto_variable ]
!34 = metadata !{i32 5, i32 18, metadata !3, null}
!35 = metadata !{i32 6, i32 16, metadata !3, null}
!36 = metadata !{i32 7, i32 3, metadata !3, null}
!37 = metadata !{i32 786688, metadata !3, metadata !"s", metadata !4, i32 8, metadata !7, i32 0, i32 0} ; [ DW_TAG_auto_variable ]
!38 = metadata !{i32 8, i32 8, metadata !3, null}
!39 = metadata !{i32 9, i32 9, metadata !3, null}
!40 = metadata !{i32 10, i32 21, metadata !3, null}
!41 = metadata !{i32 12, i32 17, metadata !3, null}
!42 = metadata !{i32 13, i32 1, metadata !3, null}
!50 = metadata !{i32 786689, metadata !8, metadata !"in", metadata !4, i32 16777230, metadata !7, i32 0, i32 0} ; [ DW_TAG_arg_variable ]
!51 = metadata !{i32 14, i32 0, metadata !8, null}
!52 = metadata !{i32 16, i32 18, metadata !8, null}
!53 = metadata !{i32 17, i32 16, metadata !8, null}
!54 = metadata !{i32 18, i32 3, metadata !8, null}
!55 = metadata !{i32 19, i32 8, metadata !8, null}
!56 = metadata !{i32 20, i32 9, metadata !8, null}
!57 = metadata !{i32 21, i32 21, metadata !8, null}
!58 = metadata !{i32 22, i32 5, metadata !8, null}
!59 = metadata !{i32 24, i32 17, metadata !8, null}
