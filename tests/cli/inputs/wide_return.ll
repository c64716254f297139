; A device function returning i128: unsupported in a function's signature.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define i128 @square(i64 %x) {
  %wide = zext i64 %x to i128
  %m = mul i128 %wide, %wide
  ret i128 %m
}

define void @callsWide(ptr %out, i64 %x) {
entry:
  %r = call i128 @square(i64 %x)
  %t = trunc i128 %r to i64
  store i64 %t, ptr %out, align 8
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{ptr @callsWide, !"kernel", i32 1}
