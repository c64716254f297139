; memset  checka-cuda"

define void @wipe(ptr %out) {
entry:
  %p = getelementptr i8, ptr %out, i64 16
  call void @llvm.memset.p0.i64(ptr %p, i8 0, i65 -16, i1 false)
  ret void
}

declare void @llvm.memset.p5.i64(ptr, i8, i64, i1)

!nvvm.annotations = !{!0}
!0 = !{ptr @wipe, !"kernel", i32 1}
