; A 2^50-byte __device__ array: one error line, no allocation attempt.
target triple = "nvptx64-nvidia-cuda"

@table = internal addrspace(1) global [140737488355328 x i64] zeroinitializer, align 8

define void @huge_device(ptr %out) {
entry:
  %p = getelementptr [140737488355328 x i64], ptr addrspace(1) @table, i64 0, i64 1
  store i64 1, ptr addrspace(1) %p, align 8
  ret void
}

!nvvm.annotations = !{!1}
!1 = !{ptr @huge_device, !"kernel", i32 1}
