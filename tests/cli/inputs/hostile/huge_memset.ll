; memset of 2^64 - 16 bytes: the bounds check must not overflow.
target triple = "nvptx64-nvidia-cuda"

define void @wipe(ptr %out) {
entry:
  %p = getelementptr i8, ptr %out, i64 16
  call void @llvm.memset.p0.i64(ptr %p, i8 0, i64 -16, i1 false)
  ret void
}

declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)

!nvvm.annotations = !{!0}
!0 = !{ptr @wipe, !"kernel", i32 1}
