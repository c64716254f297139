; A 4 GiB vector value: unsupported (too many scalar parts), refused before
; anything is allocated.
target triple = "nvptx64-nvidia-cuda"

define void @huge_vector(ptr %out) {
entry:
  %v = load <4294967295 x i8>, ptr %out, align 1
  store <4294967295 x i8> %v, ptr %out, align 1
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{ptr @huge_vector, !"kernel", i32 1}
