// The one core object behind libsimulee_cudart (simulee exec): the program's
// registered modules, kernels and device variables, its device memory, the
// launch configuration stack of `<<<...>>>`, the last error, and every
// launch's findings. The C entry points in CudaApi.cpp and Registration.cpp
// only translate to and from it. The runtime is synchronous: every launch and
// copy is complete when its call returns, whatever stream it names.
#pragma once

#include "detect/Finding.h"
#include "detect/Verdict.h"
#include "interp/Launch.h"
#include "ir/Program.h"
#include "runtime/DeviceMemory.h"
#include "runtime/LaunchSearch.h"
#include "session/Analysis.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace simulee::runtime {

// One translation unit's device code: its .cu file, compiled by the runtime
// on first use as `simulee run` compiles it.
struct Module {
  std::string sourcePath;
  std::vector<std::string> clangArgs;
  std::string cudaPath;
  int optLevel = 0;
  bool loaded = false;
  std::optional<ir::Program> program;
  std::string loadError;
  // The module's __device__ and __constant__ variables, kept across launches.
  std::vector<std::vector<uint8_t>> globalVariables, constantVariables;
  // Its __managed__ variables: the host reads and writes their host shadow,
  // kernels their device storage; the runtime copies between the two at each
  // launch and symbol copy. `synced` is what both held after the last copy,
  // so whichever side changed since wins.
  struct Managed {
    uint8_t *host;
    size_t index;                // into globalVariables
    std::vector<uint8_t> synced; // as many bytes as both sides have
  };
  std::vector<Managed> managed;
};

// A host-side API misuse: a copy past an allocation, a use after cudaFree.
struct HostFinding {
  std::string site;     // "main.cu:42", or empty
  std::string function; // "cudaMemcpy"
  std::string message;
  uint64_t times = 1; // the same call failing alike again (in a loop) is counted here
};

// The findings and launches of one kernel, over every launch of the run.
struct KernelRecord {
  Module *module = nullptr;
  std::string deviceName;
  const ir::KernelInfo *kernel = nullptr; // once the module is loaded
  uint32_t launches = 0;
  // Fully checked launches by shape (grid, block, dynamic shared bytes).
  std::map<std::tuple<uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t>,
           uint32_t>
      checkedByShape;
  detect::LaunchCounts counts;
  std::vector<detect::Finding> findings;
  std::string firstLaunchError;
  // What the verdict says of how the launches ran (too large to model).
  std::vector<std::string> notes;
  // cudaFuncAttributeMaxDynamicSharedMemorySize: the dynamic shared memory
  // its launches may ask for (past 48 KiB only once the program opted in).
  uint32_t maxDynamicSharedBytes = uint32_t(interp::kMaxSharedBytesPerBlock);
};

// What cudaFuncGetAttributes reports of a kernel.
struct KernelAttributes {
  uint64_t staticSharedBytes = 0; // its module's __shared__ variables, together
  uint32_t maxThreadsPerBlock = 0; // __launch_bounds__, else the device's limit
  uint32_t maxDynamicSharedBytes = 0;
};

struct DeviceVariable {
  Module *module = nullptr;
  std::string deviceName;
  uint64_t sizeBytes = 0;
  bool constant = false;
  // The host shadow at registration, when not all zero (clang's shadows are
  // zero, whatever the initializer): a __managed__ variable's host bytes
  // that differ from it when the module is loaded were written by the host.
  std::vector<uint8_t> hostAtRegistration;
};

struct PendingLaunch {
  interp::Dim3 grid, block;
  uint64_t sharedBytes = 0;
  const void *returnAddress = nullptr; // the `<<<...>>>` call site
  void *stream = nullptr;              // its cudaStream_t (a capturing one records it)
};

// The `<<<...>>>` site of the launch a kernel stub is making (set when the
// stub pops its configuration, taken by the cudaLaunchKernel that follows).
inline thread_local const void *stubCallSite = nullptr;

// Settings the parent `simulee exec` passes in the environment.
struct ExecSettings {
  std::string reportPath;  // SIMULEE_EXEC_REPORT: the report, written at exit
  std::string summaryPath; // SIMULEE_EXEC_SUMMARY: counts and errors, after every launch
  std::string format = "text";
  bool progress = false; // a line per launch on standard error
  bool color = false;
  uint32_t searchGenerations = 0; // --search N
  // Launches of one kernel and shape fully checked (--checked-launches);
  // later ones run with light checks. 0 = every one (--check-all).
  uint32_t checkedLaunches = 3;
  session::AnalysisOptions analysis;
};

// The value the CUDA runtime API returns (cudaError_t).
using ErrorCode = int;

class Runtime {
public:
  static Runtime &get();

  // Registration (clang's module constructor).
  Module *registerModule(const char *descriptor);
  void registerFunction(Module *module, const void *stub, const char *deviceName);
  void registerVariable(Module *module, const void *hostVariable, const char *deviceName,
                        uint64_t sizeBytes, bool constant);
  // The end of a module's registration: a module with device variables is
  // compiled now, before main, so that its __managed__ variables hold their
  // initializers when the host first reads them. A module that does not
  // compile fails at its first use, as one without variables does.
  void moduleRegistered(Module *module);

  // A kernel's attributes (cudaFuncGetAttributes / cudaFuncSetAttribute):
  // kInvalidDeviceFunction for a pointer that is no kernel, kInvalidValue for
  // a limit past what the device allows.
  ErrorCode kernelAttributes(const void *stub, KernelAttributes &attributes);
  ErrorCode setMaxDynamicSharedBytes(const void *stub, int64_t bytes);

  // Launch.
  void pushConfiguration(PendingLaunch launch);
  bool popConfiguration(PendingLaunch &launch);
  // `cooperative`: cudaLaunchCooperativeKernel, whose blocks may sync as a grid.
  ErrorCode launch(const void *stub, interp::Dim3 grid, interp::Dim3 block, void **args,
                   uint64_t sharedBytes, const void *returnAddress, bool cooperative = false);
  // A copy of the argument values `args` points at, one byte string per
  // parameter of the kernel, sized as launch() reads them: what a captured
  // launch keeps for the graph that replays it (GraphApi.cpp).
  ErrorCode copyArguments(const void *stub, void **args, std::vector<std::vector<uint8_t>> &bytes,
                          const char *function, const void *returnAddress);

  // Memory.
  ErrorCode allocate(void **pointer, uint64_t sizeBytes, AllocationKind kind,
                     const void *returnAddress);
  ErrorCode free(void *pointer, AllocationKind kind, const char *function,
                 const void *returnAddress);
  ErrorCode copy(void *destination, const void *source, uint64_t sizeBytes, const char *function,
                 const void *returnAddress);
  ErrorCode fill(void *destination, int value, uint64_t sizeBytes, const char *function,
                 const void *returnAddress);
  // Device memory a library routine (cuBLAS) reads or writes: `sizeBytes`
  // bytes from `pointer` inside one live allocation kernels may use. When they
  // are not, a host finding naming `function` and `what` ("matrix A") and an
  // AddressInfo without allocation.
  AddressInfo libraryMemory(const void *pointer, uint64_t sizeBytes, const char *function,
                            const std::string &what, const void *returnAddress);
  // The device heap kernels malloc from (cudaLimitMallocHeapSize).
  uint64_t heapLimitBytes() const { return heapLimitBytes_; }
  void setHeapLimitBytes(uint64_t bytes) { heapLimitBytes_ = bytes; }
  // A CUDA graph's allocation node runs: the allocation it made is live
  // again at its address if it was freed.
  ErrorCode reviveAllocation(void *pointer, const void *returnAddress);
  // cudaHostRegister / cudaHostUnregister: the program's memory, mapped for
  // kernels (the same address on both sides, as with unified addressing).
  ErrorCode registerHost(void *pointer, uint64_t sizeBytes, const void *returnAddress);
  ErrorCode unregisterHost(void *pointer, const void *returnAddress);
  // The storage of a __device__ / __constant__ variable by its host shadow.
  ErrorCode symbolStorage(const void *symbol, std::vector<uint8_t> *&storage, const char *function,
                          const void *returnAddress);
  DeviceMemory &memory() { return memory_; }
  // After a copy into a symbol's device storage: its module's __managed__
  // variables show the device's values on the host.
  void symbolWritten(const void *symbol);

  // Device printf: what the launches printed since the last flush goes to
  // the program's standard output, as a GPU prints its printf buffer at a
  // launch, a device, stream or event synchronization, a blocking copy, a
  // stream callback and cudaDeviceReset (never at exit).
  void printDeviceOutput();

  // Errors.
  ErrorCode setError(ErrorCode error) {
    if (error)
      lastError_ = error;
    return error;
  }
  ErrorCode takeLastError() {
    ErrorCode error = stickyError_ ? stickyError_ : lastError_;
    lastError_ = 0;
    return error;
  }
  ErrorCode peekLastError() const { return stickyError_ ? stickyError_ : lastError_; }
  // A failed device assert leaves the context unusable, as on a GPU: every
  // later call fails with cudaErrorAssert and does nothing. 0 until then.
  ErrorCode stickyError() const { return stickyError_; }
  // An API simulee's runtime does not implement: a clear error, and exit 2.
  [[noreturn]] void unsupported(const char *function);

  void hostFinding(const char *function, const void *returnAddress, std::string message);
  // What `address` is, for a host finding: "allocation #2 (...) + 16", "host memory".
  std::string describeAddress(const void *address) const;
  // Writes the report (at exit).
  void finish();
  // SIGINT or SIGTERM (runtime/Signals.h): the report of every launch judged
  // so far, then the process ends by the signal.
  [[noreturn]] void endBySignal(int signal);
  // A crash while the runtime worked on `what`: an error naming it, exit 2.
  [[noreturn]] void crashed(int signal, const std::string &what);

private:
  Runtime();
  Status loadModule(Module &module);
  // The kernel registered for `stub`, its device code compiled (a failure
  // ends the program with the error); null when `stub` is no kernel.
  KernelRecord *loadedKernel(const void *stub);
  // __managed__ variables: what the host changed goes to the device, and
  // back after the device may have changed it.
  void syncManagedToDevice(Module &module);
  void syncManagedToHost(Module &module);
  Result<std::vector<interp::ArgumentValue>>
  argumentValues(const KernelRecord &record, void **args, interp::BoundMemory &bound,
                 std::vector<std::pair<std::string, std::string>> &recorded,
                 std::map<uint32_t, std::string> &parameterOf, const char *function,
                 const void *returnAddress);
  template <typename Translate>
  interp::ArgumentValue textureArgument(const ir::ParamInfo &param, uint64_t handle,
                                        Translate &translate, const ir::KernelInfo &kernel,
                                        const char *function, const void *returnAddress);
  // Why [pointer, pointer + sizeBytes) is no memory the device may use
  // ("allocation #2, ... after it was freed at f.cu:9"); empty when it is.
  std::string unusableRange(const AddressInfo &info, const void *pointer, uint64_t sizeBytes) const;
  void addFindings(KernelRecord &record, std::vector<detect::Finding> findings);
  // Names bound buffers after their allocation (and the parameter that
  // pointed into it, from `parameterOf`).
  void nameAllocations(std::vector<detect::Finding> &findings,
                       const std::map<uint32_t, std::string> &parameterOf) const;
  void searchRecordedLaunches();
  void writeSummary(const std::string &error = "");
  void writeReport();
  [[noreturn]] void fail(const std::string &message);

  ExecSettings settings_;
  std::vector<std::unique_ptr<Module>> modules_;
  std::map<const void *, KernelRecord> kernels_;
  std::vector<const void *> kernelOrder_; // registration order, for the report
  std::map<const void *, DeviceVariable> variables_;
  std::vector<PendingLaunch> pending_;
  DeviceMemory memory_;
  std::vector<HostFinding> hostFindings_;
  // Device printf output not flushed yet, and the kernel whose launch
  // printed it (each launch flushes what earlier ones printed).
  std::string deviceOutput_;
  uint64_t deviceOutputCalls_ = 0;
  KernelRecord *deviceOutputKernel_ = nullptr;
  // --search: the first launch of each kernel at each call site.
  struct SearchedLaunch {
    KernelRecord *record;
    RecordedLaunch launch;
    std::map<uint32_t, std::string> parameterOf;
  };
  std::vector<SearchedLaunch> searched_;
  ErrorCode lastError_ = 0;
  ErrorCode stickyError_ = 0;
  uint64_t heapLimitBytes_ = interp::kDefaultHeapBytes;
  uint64_t heapBytes_ = 0; // live device-heap allocations, together
  uint64_t totalLaunches_ = 0;
  std::chrono::steady_clock::time_point lastSummary_;
  bool finished_ = false;
  std::recursive_mutex mutex_;
};

} // namespace simulee::runtime
