; One kernel per kind of undefined behaviour. Each must become an
; undefined-behavior finding that names the kind; the thread stops there.
target triple = "nvptx64-nvidia-cuda"

define void @shift_too_large(ptr %out, i32 %amount) {
entry:
  %v = shl i32 1, %amount
  store i32 %v, ptr %out, align 4
  ret void
}

define void @shift_64_by_minus_one(ptr %out, i64 %amount) {
entry:
  %v = lshr i64 -1, %amount
  store i64 %v, ptr %out, align 8
  ret void
}

define void @divide_by_zero(ptr %out, i32 %d) {
entry:
  %v = udiv i32 7, %d
  store i32 %v, ptr %out, align 4
  ret void
}

define void @int_min_by_minus_one(ptr %out, i64 %d) {
entry:
  %v = sdiv i64 -9223372036854775808, %d
  store i64 %v, ptr %out, align 8
  ret void
}

define void @null_write(ptr %out) {
entry:
  store i32 1, ptr null, align 4
  store i32 2, ptr %out, align 4
  ret void
}

define void @misaligned(ptr %out) {
entry:
  %p = getelementptr i8, ptr %out, i64 2
  store i32 1, ptr %p, align 4
  ret void
}

!nvvm.annotations = !{!0, !1, !2, !3, !4, !5}
!0 = !{ptr @shift_too_large, !"kernel", i32 1}
!1 = !{ptr @shift_64_by_minus_one, !"kernel", i32 1}
!2 = !{ptr @divide_by_zero, !"kernel", i32 1}
!3 = !{ptr @int_min_by_minus_one, !"kernel", i32 1}
!4 = !{ptr @null_write, !"kernel", i32 1}
!5 = !{ptr @misaligned, !"kernel", i32 1}
