; Parses, but %late is used before it is defined: the verifier must refuse it
; with a message (LLVM's debug-info upgrade would abort the process instead).
target triple = "nvptx64-nvidia-cuda"

define void @broken(ptr %out) !dbg !5 {
entry:
  store i32 %late, ptr %out, align 4, !dbg !8
  %late = add i32 1, 2, !dbg !8
  ret void, !dbg !8
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!nvvm.annotations = !{!9}

!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, producer: "hand", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "broken.cu", directory: "/tmp")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 2, !"Dwarf Version", i32 4}
!5 = distinct !DISubprogram(name: "broken", scope: !1, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{null}
!8 = !DILocation(line: 2, column: 3, scope: !5)
!9 = !{ptr @broken, !"kernel", i32 1}
