; A 2 GiB __shared__ array: no block can hold it.
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [536870912 x i32] undef, align 4

define void @huge_shared(ptr %out) {
entry:
  %p = getelementptr [536870912 x i32], ptr addrspace(3) @tile, i64 0, i64 1
  store i32 1, ptr addrspace(3) %p, align 4
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{ptr @huge_shared, !"kernel", i32 1}
