; A kernel in LLVM 14's typed-pointer IR, assembled with LLVM 14's llvm-as
; into typed_pointers_llvm14.bc (`llvm-as-14 typed_pointers_llvm14.ll`), so
; that the test can check LLVM 19's bitcode upgrader reads it. Each thread
; writes its slot of a shared array and reads its neighbour's with no
; barrier between (a race across warps); `out` gets the neighbour's value.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [64 x i32] undef, align 4

define void @shiftLeft(i32* %in, i32* %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %n = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %i = zext i32 %t to i64
  %src = getelementptr inbounds i32, i32* %in, i64 %i
  %v = load i32, i32* %src, align 4
  %slot = getelementptr inbounds [64 x i32], [64 x i32] addrspace(3)* @tile, i64 0, i64 %i
  store i32 %v, i32 addrspace(3)* %slot, align 4
  %next = add i32 %t, 1
  %wrapped = urem i32 %next, %n
  %j = zext i32 %wrapped to i64
  %other = getelementptr inbounds [64 x i32], [64 x i32] addrspace(3)* @tile, i64 0, i64 %j
  %w = load i32, i32 addrspace(3)* %other, align 4
  %dst = getelementptr inbounds i32, i32* %out, i64 %i
  store i32 %w, i32* %dst, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x() #0
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x() #0

attributes #0 = { nounwind readnone }

!nvvm.annotations = !{!0}
!0 = !{void (i32*, i32*)* @shiftLeft, !"kernel", i32 1}
