; Written for simulee in the dialect of the GKLEE-era research tools (clang
; 3.2 for a host triple): CUDA's builtin variables as external globals
; (@threadIdx, @blockIdx, @blockDim of type %struct.dim3) read through
; constant getelementptr expressions, __shared__ arrays in a "__shared__"
; section of the default address space, __syncthreads() as a plain call,
; attribute groups referenced but never defined, old scalar TBAA tags, a
; pre-3.5 single-ordering cmpxchg, and no debug information. The source it
; stands for (no line numbers survive):
;
;   __global__ void sumRacy(int *in, int *out, int *count) {
;     __shared__ int partial[64];
;     unsigned t = threadIdx.x;
;     partial[t] = in[blockIdx.x * blockDim.x + t];
;     unsigned half = blockDim.x / 2;
;     if (t < half) partial[t] += partial[t + half];   // no barrier before this read
;     __syncthreads();
;     if (t == 0) { out[blockIdx.x] = partial[0]; atomicCAS(count, 0, 1); }
;   }
;   sumSynced: the same with __syncthreads() before the `if (t < half)` line.
; ModuleID = 'old_sum.cu'
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v64:64:64-v128:128:128-a0:0:64-s0:64:64-f80:128:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

%struct.dim3 = type { i32, i32, i32 }

@threadIdx = external global %struct.dim3
@blockIdx = external global %struct.dim3
@blockDim = external global %struct.dim3
@_ZZ7sumRacyPiS_S_E7partial = internal global [64 x i32] zeroinitializer, section "__shared__", align 16
@_ZZ9sumSyncedPiS_S_E7partial = internal global [64 x i32] zeroinitializer, section "__shared__", align 16

define void @_Z7sumRacyPiS_S_(i32* %in, i32* %out, i32* %count) #0 {
entry:
  %0 = load i32* getelementptr inbounds (%struct.dim3* @threadIdx, i64 0, i32 0), align 4, !tbaa !0
  %1 = load i32* getelementptr inbounds (%struct.dim3* @blockIdx, i64 0, i32 0), align 4, !tbaa !0
  %2 = load i32* getelementptr inbounds (%struct.dim3* @blockDim, i64 0, i32 0), align 4, !tbaa !0
  %mul = mul i32 %1, %2
  %add = add i32 %mul, %0
  %idx = zext i32 %add to i64
  %arrayidx = getelementptr inbounds i32* %in, i64 %idx
  %3 = load i32* %arrayidx, align 4, !tbaa !0
  %tidx = zext i32 %0 to i64
  %slot = getelementptr inbounds [64 x i32]* @_ZZ7sumRacyPiS_S_E7partial, i64 0, i64 %tidx
  store i32 %3, i32* %slot, align 4, !tbaa !0
  %half = lshr i32 %2, 1
  %lower = icmp ult i32 %0, %half
  br i1 %lower, label %fold, label %join

fold:
  %other = add i32 %0, %half
  %oidx = zext i32 %other to i64
  %oslot = getelementptr inbounds [64 x i32]* @_ZZ7sumRacyPiS_S_E7partial, i64 0, i64 %oidx
  %4 = load i32* %oslot, align 4, !tbaa !0
  %5 = load i32* %slot, align 4, !tbaa !0
  %sum = add nsw i32 %5, %4
  store i32 %sum, i32* %slot, align 4, !tbaa !0
  br label %join

join:
  tail call void @__syncthreads() #1
  %first = icmp eq i32 %0, 0
  br i1 %first, label %write, label %done

write:
  %6 = load i32* getelementptr inbounds ([64 x i32]* @_ZZ7sumRacyPiS_S_E7partial, i64 0, i64 0), align 16, !tbaa !0
  %bidx = zext i32 %1 to i64
  %outslot = getelementptr inbounds i32* %out, i64 %bidx
  store i32 %6, i32* %outslot, align 4, !tbaa !0
  %old = cmpxchg i32* %count, i32 0, i32 1 seq_cst
  br label %done

done:
  ret void
}

define void @_Z9sumSyncedPiS_S_(i32* %in, i32* %out, i32* %count) #0 {
entry:
  %0 = load i32* getelementptr inbounds (%struct.dim3* @threadIdx, i64 0, i32 0), align 4, !tbaa !0
  %1 = load i32* getelementptr inbounds (%struct.dim3* @blockIdx, i64 0, i32 0), align 4, !tbaa !0
  %2 = load i32* getelementptr inbounds (%struct.dim3* @blockDim, i64 0, i32 0), align 4, !tbaa !0
  %mul = mul i32 %1, %2
  %add = add i32 %mul, %0
  %idx = zext i32 %add to i64
  %arrayidx = getelementptr inbounds i32* %in, i64 %idx
  %3 = load i32* %arrayidx, align 4, !tbaa !0
  %tidx = zext i32 %0 to i64
  %slot = getelementptr inbounds [64 x i32]* @_ZZ9sumSyncedPiS_S_E7partial, i64 0, i64 %tidx
  store i32 %3, i32* %slot, align 4, !tbaa !0
  tail call void @__syncthreads() #1
  %half = lshr i32 %2, 1
  %lower = icmp ult i32 %0, %half
  br i1 %lower, label %fold, label %join

fold:
  %other = add i32 %0, %half
  %oidx = zext i32 %other to i64
  %oslot = getelementptr inbounds [64 x i32]* @_ZZ9sumSyncedPiS_S_E7partial, i64 0, i64 %oidx
  %4 = load i32* %oslot, align 4, !tbaa !0
  %5 = load i32* %slot, align 4, !tbaa !0
  %sum = add nsw i32 %5, %4
  store i32 %sum, i32* %slot, align 4, !tbaa !0
  br label %join

join:
  tail call void @__syncthreads() #1
  %first = icmp eq i32 %0, 0
  br i1 %first, label %write, label %done

write:
  %6 = load i32* getelementptr inbounds ([64 x i32]* @_ZZ9sumSyncedPiS_S_E7partial, i64 0, i64 0), align 16, !tbaa !0
  %bidx = zext i32 %1 to i64
  %outslot = getelementptr inbounds i32* %out, i64 %bidx
  store i32 %6, i32* %outslot, align 4, !tbaa !0
  %old = cmpxchg i32* %count, i32 0, i32 1 seq_cst
  br label %done

done:
  ret void
}

declare void @__syncthreads() #1

!0 = metadata !{metadata !"int", metadata !1}
!1 = metadata !{metadata !"omnipotent char", metadata !2}
!2 = metadata !{metadata !"Simple C/C++ TBAA"}
