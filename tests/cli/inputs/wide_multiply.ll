; A kernel whose 128-bit multiply the interpreter cannot simulate.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @wideSquare(ptr %out, i64 %x) {
entry:
  %wide = zext i64 %x to i128
  %square = mul i128 %wide, %wide
  %high = lshr i128 %square, 64
  %result = trunc i128 %high to i64
  store i64 %result, ptr %out, align 8
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{ptr @wideSquare, !"kernel", i32 1}
