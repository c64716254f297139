; 64-bit constants -1 and -2 (the reserved keys of an LLVM DenseMap) must
; lower to their own values: out[0] = -1, out[1] = -2, out[2] = 7.
target triple = "nvptx64-nvidia-cuda"

define void @constants(ptr %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %first = icmp eq i32 %tid, 0
  br i1 %first, label %write, label %done

write:
  store i64 -1, ptr %out, align 8
  %p1 = getelementptr i64, ptr %out, i64 1
  store i64 -2, ptr %p1, align 8
  %p2 = getelementptr i64, ptr %out, i64 2
  %sum = add i64 -1, 8
  store i64 %sum, ptr %p2, align 8
  br label %done

done:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{!0}
!0 = !{ptr @constants, !"kernel", i32 1}
