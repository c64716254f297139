; Library functions declared with a signature other than their own (too few
; arguments, wrong types): each kernel is unsupported, never a crash.
target triple = "nvptx64-nvidia-cuda"

define void @pow_one_argument(ptr %out) {
entry:
  %s = call float @__nv_powf(float 2.0)
  store float %s, ptr %out, align 4
  ret void
}

define void @memset_no_length(ptr %out) {
entry:
  call void @memset(ptr %out)
  ret void
}

define void @memcpy_wrong_types(ptr %out) {
entry:
  call void @memcpy(i32 1, i32 2, ptr %out)
  ret void
}

declare float @__nv_powf(float)
declare void @memset(ptr)
declare void @memcpy(i32, i32, ptr)

!nvvm.annotations = !{!0, !1, !2}
!0 = !{ptr @pow_one_argument, !"kernel", i32 1}
!1 = !{ptr @memset_no_length, !"kernel", i32 1}
!2 = !{ptr @memcpy_wrong_types, !"kernel", i32 1}
