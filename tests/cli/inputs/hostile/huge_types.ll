; Sizes nobody should allocate: a 2^50-byte __device__ array and a 4 GiB
; vector value each end in one error line.
target triple = "nvptx64-nvidia-cuda"

@table = internal addrspace(1) global [140737488355328 x i64] zeroinitializer, align 8

define void @huge_device(ptr %out) {
entry:
  %p = getelementptr [140737488355328 x i64], ptr addrspace(1) @table, i64 0, i64 1
  store i64 1, ptr addrspace(1) %p, align 8
  ret void
}

define void @huge_vector(ptr %out) {
entry:
  %v = load <4294967295 x i8>, ptr %out, align 1
  store <4294967295 x i8> %v, ptr %out, align 1
  ret void
}

!nvvm.annotations = !{!1, !2}
!1 = !{ptr @huge_device, !"kernel", i32 1}
!2 = !{ptr @huge_vector, !"kernel", i32 1}
