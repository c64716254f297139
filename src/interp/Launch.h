// One launch of a kernel: grid and block dimensions, argument values and the
// buffers they point to. Buffers are modified in place by the run.
#pragma once

#include "interp/Events.h"
#include "interp/Texture.h"
#include "ir/Program.h"
#include "support/Result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace simulee::interp {

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  uint64_t count() const { return uint64_t(x) * y * z; }
  bool operator==(const Dim3 &) const = default;
};

std::string formatDim3(const Dim3 &d); // "(x,y,z)"
// The index of `linear` in `shape`, x fastest (a thread in its block, a block
// in its grid). One-dimensional shapes, the common case, need no division.
inline Dim3 unlinearize(uint64_t linear, const Dim3 &shape) {
  if (shape.y == 1 && shape.z == 1)
    return {uint32_t(linear), 0, 0};
  Dim3 d;
  d.x = uint32_t(linear % shape.x);
  d.y = uint32_t((linear / shape.x) % shape.y);
  d.z = uint32_t(linear / (uint64_t(shape.x) * shape.y));
  return d;
}

// Hardware limits a launch must respect (those of current NVIDIA GPUs).
constexpr uint32_t kMaxThreadsPerBlock = 1024;
constexpr uint32_t kMaxBlockDimZ = 64;
constexpr uint32_t kMaxGridDimX = 0x7fffffff;
constexpr uint32_t kMaxGridDimYZ = 65535;
constexpr uint64_t kMaxSharedBytesPerBlock = 48 * 1024;
// What a kernel may opt into past it (cudaFuncAttributeMaxDynamicSharedMemorySize),
// as sm_80 allows: LaunchConfig::sharedBytesLimit.
constexpr uint64_t kMaxSharedBytesPerBlockOptIn = 163 * 1024;
// Beyond the hardware's limits, what one simulation may take: threads of a
// launch (maxSimulatedThreads), and thread-instructions of a launch when the
// caller sets no cap.
constexpr uint64_t kMaxSimulatedThreads = uint64_t(1) << 24; // at least; see maxSimulatedThreads
constexpr uint64_t kDefaultLaunchBudgetInstrs = uint64_t(1) << 33;
constexpr uint64_t kUnlimitedInstrs = ~uint64_t(0);
// What the model keeps per thread of a launch whose threads each touch
// fresh words (a 32-byte group cell for a read and one for a write), with
// the launch's own buffers besides.
constexpr uint64_t kModelBytesPerThread = 64;
// Threads a launch may have: as many as the model of one launch holds in
// --max-memory (support/MemoryLimit.h), and never fewer than
// kMaxSimulatedThreads.
uint64_t maxSimulatedThreads();

struct LaunchConfig {
  Dim3 grid;
  Dim3 block;
  uint32_t dynamicSharedBytes = 0;
  // The dynamic shared memory the kernel may use: 0 = kMaxSharedBytesPerBlock;
  // more when it opted in (simulee exec's cudaFuncSetAttribute), at most
  // kMaxSharedBytesPerBlockOptIn.
  uint32_t sharedBytesLimit = 0;
  uint64_t budgetInstrs = 1u << 22; // per thread; beyond it the run stops
  // Whole launch; the search's cost cap. 0 = kDefaultLaunchBudgetInstrs.
  uint64_t totalBudgetInstrs = 0;
  // Seconds of CPU time each thread running the launch may spend on it
  // (polled every few thousand steps of a warp; on an idle machine the
  // launch's wall-clock time, but the same under load); 0 = no limit. Past
  // it, the run stops as too costly and its error says where.
  double budgetSeconds = 0;
  // Launched cooperatively (cudaLaunchCooperativeKernel), so that a grid-wide
  // barrier may synchronize its blocks: cooperative groups' grid_group is
  // valid only then. Analyses outside `simulee exec` assume so.
  bool cooperative = true;
  // Stop the run when the process outgrows --max-memory (its model grows
  // with the addresses it touches). Off under `simulee exec`, where the
  // program's own memory counts too and a launch is never cut short.
  bool stopOverMemory = true;
  // A memory model records the launch's accesses, whose memory grows with
  // its threads (validateLaunchSize). False for a launch run with light
  // checks only, which any size fits.
  bool modelsAccesses = true;
};

// The start of the error a launch gets when it exceeds totalBudgetInstrs.
constexpr const char *kLaunchTooCostly = "launch too costly to simulate";
// Part of the error a launch gets when a thread exceeds budgetInstrs.
constexpr const char *kDoesNotTerminate = "does not terminate under this launch";
// Part of the error of a launch the kernel itself stopped (assert, __trap,
// unreachable code), as opposed to one simulee refused or could not run.
constexpr const char *kKernelTrapped = "trapped (assert or __trap)";
constexpr const char *kKernelReachedUnreachable = "reached unreachable code";

// Checks `config` against the hardware limits; the error names the limit.
Status validateLaunch(const LaunchConfig &config);

// Checks that a launch that cannot stop itself (no budget, or not stopped
// over --max-memory) is small enough to simulate (maxSimulatedThreads).
Status validateLaunchSize(const LaunchConfig &config);


// The value of one kernel parameter for a launch.
struct ArgumentValue {
  enum class Kind : uint8_t { Scalar, Buffer };
  Kind kind = Kind::Scalar;
  uint64_t bits = 0;          // scalar: the raw bits of the parameter's type
  std::vector<uint8_t> bytes; // buffer: contents before and, after the run, after
  bool autoSized = false;     // buffer created by simulee (not by the user)
  // Pointer parameters: how many bytes into `bytes` the kernel's pointer
  // points (the host passed `p + k`); 0 = its start.
  uint64_t pointerOffset = 0;
  // An aggregate passed by value: the buffers its pointer members point to
  // (by ir::ParamInfo::pointerMembers; the aggregate's bytes hold
  // ir::memberBufferId pointers to them).
  std::vector<std::vector<uint8_t>> members;
  // cudaTextureObject_t / cudaSurfaceObject_t: the texels are `bytes`; the
  // handle the kernel sees points to them.
  std::optional<TextureDescriptor> texture;

  static ArgumentValue scalar(uint64_t bits);
  static ArgumentValue buffer(std::vector<uint8_t> bytes, bool autoSized = false);
};

// Device memory the caller owns and binds to a launch (`simulee exec`): the
// kernel reads and writes it in place. Global buffer ir::kFirstBoundBuffer + i
// is allocations[i] (null: none). globalVariables / constantVariables, when
// set, hold the module's __device__ / __constant__ variables (one vector per
// Program variable, of its size) across launches, instead of fresh copies of
// their initializers.
// Memory of the caller's that a launch reaches only through pointers it
// makes or reads (`simulee exec`'s runtime): the device heap, whose
// allocations outlive the launch, and the program's own addresses of managed
// and host memory stored in memory the kernel reads.
class ExternalMemory {
public:
  virtual ~ExternalMemory() = default;
  // A new heap allocation of `sizeBytes` made by `instruction` (device
  // malloc or new): its encoded pointer, or 0 when the heap is exhausted.
  virtual uint64_t allocate(uint64_t sizeBytes, uint32_t instruction) = 0;
  // Frees the heap allocation that is global buffer `buffer`; false when it
  // is no live heap allocation.
  virtual bool release(uint32_t buffer) = 0;
  // The bytes of global buffer `buffer` when it is a heap allocation made
  // during the launch (the launch's BoundMemory predates it); null otherwise.
  virtual std::vector<uint8_t> *heapBuffer(uint32_t buffer) = 0;
  // The encoded pointer standing for program address `address` inside a
  // managed or host allocation; 0 when it is in none.
  virtual uint64_t fromProgramAddress(uint64_t address) = 0;
};

// The heap of a launch outside `simulee exec`: it ends with the launch.
constexpr uint64_t kDefaultHeapBytes = uint64_t(8) << 20; // cudaLimitMallocHeapSize's default

struct BoundMemory {
  std::vector<std::vector<uint8_t> *> allocations;
  ExternalMemory *external = nullptr;
  std::vector<std::vector<uint8_t>> *globalVariables = nullptr;
  std::vector<std::vector<uint8_t>> *constantVariables = nullptr;
};

// Checks that a launch's memory (variables, shared memory, argument buffers,
// registers) fits the memory limit (support/MemoryLimit.h) and that static
// shared memory fits a block.
Status validateLaunchMemory(const ir::Program &program, const ir::KernelInfo &kernel,
                            const LaunchConfig &config, const std::vector<ArgumentValue> &args);

// The instructions whose accesses no other thread's access can conflict with
// in this launch, as flags by instruction id (empty: none): the kernel's
// untracked accesses (ir::KernelInfo::untracked) through pointer parameters
// that point into a buffer of their own (no other parameter's, no
// __device__ variable's); the thread-private ones only in a one-dimensional
// launch of fewer than 2^31 threads.
std::vector<bool> untrackedInstructions(const ir::Program &program, const ir::KernelInfo &kernel,
                                        const LaunchConfig &config,
                                        const std::vector<ArgumentValue> &args);

// Buffer ids inside a space (AccessEvent::buffer):
//   Global:   0..params-1 = pointer parameters (by index), then
//             ir::memberBufferId(p, m) = pointer member m of by-value parameter p,
//             ir::kFirstGlobalVariableBuffer + i = Program::globalVariables[i],
//             ir::kFirstHeapBuffer + i = the launch's i-th device-heap allocation,
//             ir::kFirstBoundBuffer + i = BoundMemory::allocations[i]
//   Shared:   i = Program::sharedVariables[i]
//   Constant: i = Program::constantVariables[i]
//   Local:    0 (each thread's private stack)
std::string bufferName(const ir::Program &program, const ir::KernelInfo &kernel, MemSpace space,
                       uint32_t buffer);

} // namespace simulee::interp
