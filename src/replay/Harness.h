// The standalone CUDA program that replays one launch on a GPU: the kernel's
// own source file included as it is, plus a generated `main` that loads the
// buffers simulee built (binary files next to it), launches the kernel with
// the launch's grid, block, shared bytes and scalar values, and writes every
// buffer back after each run. Only text is produced here; Toolchain.h builds
// and runs it.
#pragma once

#include "interp/Launch.h"
#include "ir/Program.h"
#include "support/Result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace simulee::replay {

// A __device__ variable the harness resets before every run (the GPU keeps
// its value from one launch to the next; the simulator starts afresh).
struct DeviceVariable {
  std::string name;
  std::vector<uint8_t> initialBytes; // sizeBytes long
};

struct HarnessInput {
  std::string sourcePath; // the kernel's .cu file, absolute
  const ir::KernelInfo *kernel = nullptr;
  interp::LaunchConfig config;
  std::vector<interp::ArgumentValue> arguments; // one per parameter, before the launch
  std::vector<DeviceVariable> deviceVariables;
};

// The lines the harness prints start with this; the driver parses them.
constexpr const char *kHarnessTag = "simulee-replay: ";

// Harness exit status (besides 0): no usable GPU, the kernel failed on the
// device, or the harness could not set itself up (files, memory, signature).
constexpr int kHarnessNoGpu = 3;
constexpr int kHarnessKernelFailed = 4;
constexpr int kHarnessSetupFailed = 5;

// The C++ expression naming the kernel as a function pointer: the plain name
// for extern "C" kernels; for C++ ones a static_cast to the demangled
// signature of the qualified name with its template arguments, so that
// overloads and template instances resolve to exactly this symbol.
Result<std::string> kernelExpression(const ir::KernelInfo &kernel);

// File names inside the harness directory. Parameter `index` is the kernel's
// parameter position; run numbers start at 0.
std::string initialBufferFile(size_t index);           // "arg1.bin"
std::string simulatedBufferFile(size_t index);         // "arg1.sim.bin"
std::string runBufferFile(unsigned run, size_t index); // "run3.arg1.bin"

// Bytes a parameter occupies in the kernel's parameter list, as simulee sees
// it; the harness checks sizeof of the real C++ type against it.
uint32_t parameterBytes(const ir::ParamInfo &param);

// The harness source. Errors: a kernel name that cannot be demangled.
Result<std::string> harnessSource(const HarnessInput &input);

} // namespace simulee::replay
