// One fuzz input as a launch file (the JSON `--save-launch` writes and
// `simulee run --launch` reads): parsed, then, when it parses, run against a
// fixed kernel with its grid, block, shared bytes, seed and arguments. Shared
// by the libFuzzer target (FuzzLaunchFileTarget.cpp) and the session tests
// that replay its regressions (tests/fuzz/launch-regressions/).
#pragma once

#include "ir/Loader.h"
#include "session/Analysis.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace simulee::fuzz {

// A kernel with a scalar, a pointer, a by-value struct with a pointer member
// and a number, dynamic shared memory and a barrier: every kind of argument
// a launch file can name.
inline const char *kLaunchFileKernel = R"(
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
%struct.View = type { ptr, i32 }
@dyn = external addrspace(3) global [0 x float]
define void @k(ptr %out, i32 %n, ptr byval(%struct.View) align 8 %v) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr float, ptr addrspace(3) @dyn, i32 %tid
  store float 1.0, ptr addrspace(3) %slot, align 4
  call void @llvm.nvvm.barrier0()
  %in = icmp slt i32 %tid, %n
  br i1 %in, label %body, label %done
body:
  %p = load ptr, ptr %v, align 8
  %x = load float, ptr addrspace(3) %slot, align 4
  %at = getelementptr float, ptr %p, i32 %tid
  store float %x, ptr %at, align 4
  %o = getelementptr float, ptr %out, i32 %tid
  store float %x, ptr %o, align 4
  br label %done
done:
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()
!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
)";

// Returns 1 when the launch ran and was judged, 0 when the file or the
// launch was refused (an ordinary outcome); only a crash is a finding.
inline int fuzzLaunchFile(const uint8_t *data, size_t size) {
  static Result<ir::Program> program = ir::loadProgramFromIR(kLaunchFileKernel, "launch-fuzz.ll");
  if (!program || program->kernels.empty())
    return 0;
  std::string text(reinterpret_cast<const char *>(data), size);
  Result<session::LaunchSpec> spec = session::launchFromJson(text, nullptr);
  if (!spec)
    return 0;
  session::AnalysisOptions options;
  options.launchSeconds = 2;
  options.budgetInstrs = options.soloBudgetInstrs = 20000;
  Result<session::KernelAnalysis> analysis =
      session::analyzeLaunch(*program, program->kernels.front(), *spec, options);
  return analysis.ok() ? 1 : 0;
}

} // namespace simulee::fuzz
