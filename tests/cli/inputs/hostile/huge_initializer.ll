; A 2^50-byte __device__ variable with a non-zero initializer: loading must
; not try to lay the initializer out; the launch is refused as too large.
target triple = "nvptx64-nvidia-cuda"

@table = internal addrspace(1) global { [140737488355328 x i64], i32 } { [140737488355328 x i64] zeroinitializer, i32 1 }, align 8

define void @huge_initializer(ptr %out) {
entry:
  %p = getelementptr { [140737488355328 x i64], i32 }, ptr addrspace(1) @table, i64 0, i32 1
  %v = load i32, ptr addrspace(1) %p, align 4
  store i32 %v, ptr %out, align 4
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{ptr @huge_initializer, !"kernel", i32 1}
