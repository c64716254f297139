; Pointer arithmetic of 2^40 bytes past `a` must stay a pointer into `a`
; (out of bounds), never land in `b`.
target triple = "nvptx64-nvidia-cuda"

define void @far(ptr %a, ptr %b) {
entry:
  %far = getelementptr i8, ptr %a, i64 1099511627776
  store i32 1, ptr %far, align 4
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{ptr @far, !"kernel", i32 1}
