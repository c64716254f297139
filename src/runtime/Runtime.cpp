#include "runtime/Runtime.h"

#include "interp/Interpreter.h"
#include "interp/Memory.h"
#include "ir/Loader.h"
#include "ir/PointerEncoding.h"
#include "report/FindingText.h"
#include "report/Report.h"
#include "runtime/ArgumentText.h"
#include "runtime/CallSite.h"
#include "runtime/ExecReport.h"
#include "runtime/Signals.h"
#include "runtime/Textures.h"
#include "runtime/UninitializedDeviceReads.h"
#include "support/MemoryLimit.h"
#include "support/SimulatedDevice.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <new>
#include <sstream>
#include <unistd.h>

namespace simulee::runtime {
namespace {

// cudaError_t values the runtime returns (driver_types.h).
constexpr ErrorCode kSuccess = 0;
constexpr ErrorCode kInvalidValue = 1;
constexpr ErrorCode kMemoryAllocation = 2;
constexpr ErrorCode kInvalidConfiguration = 9;
constexpr ErrorCode kInvalidSymbol = 13;
constexpr ErrorCode kInvalidDevicePointer = 17;
constexpr ErrorCode kInvalidDeviceFunction = 98;
constexpr ErrorCode kLaunchOutOfResources = 701; // a block over __launch_bounds__
constexpr ErrorCode kLaunchFailure = 719;
constexpr ErrorCode kCooperativeLaunchTooLarge = 720;
constexpr ErrorCode kAssert = 710;                // a device assert failed (sticky)

// What the runtime hears of one launch: reads of never-written device memory,
// and the first failed assert.
class LaunchWatch final : public interp::ExecutionListener {
public:
  explicit LaunchWatch(const DeviceMemory &memory) : uninitialized(memory) {}
  bool wantsAccesses() const override { return uninitialized.wantsAccesses(); }
  bool wantsAccessesTo(interp::MemSpace space, uint32_t buffer) const override {
    return uninitialized.wantsAccessesTo(space, buffer);
  }
  void onAccess(const interp::AccessEvent &access) override { uninitialized.onAccess(access); }
  void onAssertionFailed(const interp::AssertionEvent &event) override {
    if (!assertion)
      assertion = event;
  }
  bool wantsOutputText() const override { return true; }
  void onOutput(const interp::OutputEvent &event) override {
    output += event.text;
    ++outputCalls;
  }

  UninitializedDeviceReads uninitialized;
  std::optional<interp::AssertionEvent> assertion;
  std::string output; // what its printf calls printed, in block order
  uint64_t outputCalls = 0;
};

// The program's memory as a launch reaches it beyond its arguments: the
// device heap, whose allocations are the runtime's (they outlive the launch,
// and a later launch binds them like any), and the program's own addresses of
// managed and host memory that kernels read from memory.
class ProgramMemory final : public interp::ExternalMemory {
public:
  ProgramMemory(DeviceMemory &memory, uint64_t &heapBytes, uint64_t heapLimitBytes,
                const ir::Program &program)
      : memory_(memory), heapBytes_(heapBytes), heapLimitBytes_(heapLimitBytes),
        program_(program) {}

  uint64_t allocate(uint64_t sizeBytes, uint32_t instruction) override {
    if (sizeBytes > heapLimitBytes_ || heapBytes_ > heapLimitBytes_ - sizeBytes)
      return 0; // malloc returns null, as on a GPU whose heap is full
    heapBytes_ += sizeBytes;
    const ir::SourceLocation &location = program_.instructions[instruction].location;
    std::string site =
        location.known() ? location.file + ":" + std::to_string(location.line) : "";
    return memory_.allocate(AllocationKind::DeviceHeap, sizeBytes, std::move(site)).address();
  }

  bool release(uint32_t buffer) override {
    Allocation *allocation = heapAllocation(buffer);
    if (!allocation)
      return false;
    heapBytes_ -= allocation->sizeBytes();
    memory_.release(*allocation, "");
    return true;
  }

  std::vector<uint8_t> *heapBuffer(uint32_t buffer) override {
    Allocation *allocation = heapAllocation(buffer);
    return allocation ? &allocation->bytes : nullptr;
  }

  uint64_t fromProgramAddress(uint64_t address) override {
    AddressInfo info = memory_.find(reinterpret_cast<const void *>(address));
    if (!info.allocation || info.allocation->freed || !info.allocation->hostVisible())
      return 0;
    return ir::encodePointer(ir::PointerSpace::Global,
                             ir::kFirstBoundBuffer + info.allocation->id - 1,
                             int64_t(info.offset));
  }

private:
  Allocation *heapAllocation(uint32_t buffer) const {
    if (buffer < ir::kFirstBoundBuffer)
      return nullptr;
    Allocation *allocation = memory_.byId(buffer - ir::kFirstBoundBuffer + 1);
    return allocation && !allocation->freed && allocation->kind == AllocationKind::DeviceHeap
               ? allocation
               : nullptr;
  }

  DeviceMemory &memory_;
  uint64_t &heapBytes_;
  uint64_t heapLimitBytes_;
  const ir::Program &program_;
};

// A pointer into no allocation: a buffer id no launch binds, so every access
// through it is reported as a wild-pointer access.
constexpr uint64_t kWildPointer =
    ir::encodePointer(ir::PointerSpace::Global, ir::kFirstBoundBuffer - 1, 0);

// The variable of `variables` that clang registered as `deviceName` (its
// symbol, or its source name for an unmangled one).
std::optional<size_t> variableNamed(const std::vector<ir::VariableInfo> &variables,
                                    const std::string &deviceName) {
  for (size_t i = 0; i < variables.size(); ++i)
    if (variables[i].symbolName == deviceName || variables[i].name == deviceName)
      return i;
  return std::nullopt;
}

std::string environment(const char *name, const char *fallback = "") {
  const char *value = std::getenv(name);
  return value ? value : fallback;
}

ExecSettings settingsFromEnvironment() {
  ExecSettings settings;
  settings.reportPath = environment("SIMULEE_EXEC_REPORT");
  settings.summaryPath = environment("SIMULEE_EXEC_SUMMARY");
  settings.format = environment("SIMULEE_EXEC_FORMAT", "text");
  settings.progress = environment("SIMULEE_EXEC_PROGRESS") == "1";
  settings.color = environment("SIMULEE_EXEC_COLOR") == "1";
  settings.analysis.strict = environment("SIMULEE_EXEC_STRICT") == "1";
  settings.analysis.independentThreads = environment("SIMULEE_EXEC_LOCKSTEP") != "1";
  settings.analysis.allBlocks = environment("SIMULEE_EXEC_ALL_BLOCKS") == "1";
  settings.analysis.engine = interp::engineNamed(environment("SIMULEE_EXEC_ENGINE", "auto"));
  settings.analysis.blockJobs =
      unsigned(std::strtoul(environment("SIMULEE_EXEC_JOBS", "1").c_str(), nullptr, 10));
  if (std::string budget = environment("SIMULEE_EXEC_BUDGET"); !budget.empty())
    settings.analysis.budgetInstrs = std::strtoull(budget.c_str(), nullptr, 10);
  settings.searchGenerations =
      uint32_t(std::strtoul(environment("SIMULEE_EXEC_SEARCH", "0").c_str(), nullptr, 10));
  settings.checkedLaunches =
      uint32_t(std::strtoul(environment("SIMULEE_EXEC_CHECKED", "3").c_str(), nullptr, 10));
  if (uint64_t limit =
          std::strtoull(environment("SIMULEE_EXEC_MAX_MEMORY", "0").c_str(), nullptr, 10))
    setMemoryLimitBytes(limit);
  std::string record = environment("SIMULEE_EXEC_RECORD", "auto");
  settings.analysis.representation = record == "full"      ? memmodel::Representation::Full
                                     : record == "summary" ? memmodel::Representation::Summary
                                                           : memmodel::Representation::Auto;
  return settings;
}

detect::LaunchOrigin originOf(const std::string &site) {
  detect::LaunchOrigin origin;
  size_t colon = site.rfind(':');
  origin.file = site.substr(0, colon);
  if (colon != std::string::npos)
    origin.line = uint32_t(std::strtoul(site.c_str() + colon + 1, nullptr, 10));
  return origin;
}

void writeFile(const std::string &path, const std::string &text) {
  if (path.empty())
    return;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

} // namespace

Runtime &Runtime::get() {
  // Never destroyed: clang's module destructors and the program's own static
  // destructors may still call into the runtime at exit.
  static Runtime *runtime = new Runtime();
  return *runtime;
}

Runtime::Runtime() : settings_(settingsFromEnvironment()) {
  std::atexit([] { Runtime::get().finish(); });
  installSignalHandlers();
  writeSummary();
}

Module *Runtime::registerModule(const char *descriptor) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  auto module = std::make_unique<Module>();
  std::istringstream lines(descriptor ? descriptor : "");
  std::string line;
  while (std::getline(lines, line)) {
    size_t equals = line.find('=');
    if (equals == std::string::npos)
      continue;
    std::string key = line.substr(0, equals), value = line.substr(equals + 1);
    if (key == "source")
      module->sourcePath = value;
    else if (key == "arg")
      module->clangArgs.push_back(value);
    else if (key == "cuda-path")
      module->cudaPath = value;
    else if (key == "opt")
      module->optLevel = std::atoi(value.c_str());
  }
  if (module->sourcePath.empty())
    fail("a CUDA module was not built by `simulee exec` (no device code recorded for it)");
  modules_.push_back(std::move(module));
  return modules_.back().get();
}

void Runtime::registerFunction(Module *module, const void *stub, const char *deviceName) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  KernelRecord &record = kernels_[stub];
  record.module = module;
  record.deviceName = deviceName;
  kernelOrder_.push_back(stub);
}

void Runtime::registerVariable(Module *module, const void *hostVariable, const char *deviceName,
                               uint64_t sizeBytes, bool constant) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  DeviceVariable variable{module, deviceName, sizeBytes, constant, {}};
  const auto *bytes = static_cast<const uint8_t *>(hostVariable);
  if (std::any_of(bytes, bytes + sizeBytes, [](uint8_t byte) { return byte != 0; }))
    variable.hostAtRegistration.assign(bytes, bytes + sizeBytes);
  variables_[hostVariable] = std::move(variable);
}

void Runtime::moduleRegistered(Module *module) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  bool hasVariables = std::any_of(variables_.begin(), variables_.end(),
                                  [&](const auto &entry) { return entry.second.module == module; });
  if (hasVariables)
    (void)loadModule(*module);
}

Status Runtime::loadModule(Module &module) {
  if (module.loaded)
    return module.program ? Status(Ok{}) : Status(makeError(module.loadError));
  module.loaded = true;
  ir::LoadOptions options;
  options.optLevel = module.optLevel;
  options.extraClangArgs = module.clangArgs;
  options.cudaPath = module.cudaPath;
  Result<ir::Program> program = ir::loadProgram(module.sourcePath, options);
  if (!program) {
    module.loadError = program.error().message;
    return program.error();
  }
  module.program.emplace(std::move(*program));
  module.globalVariables = interp::initialValues(module.program->globalVariables);
  module.constantVariables = interp::initialValues(module.program->constantVariables);
  const std::vector<ir::VariableInfo> &globals = module.program->globalVariables;
  for (const auto &[hostVariable, variable] : variables_) {
    if (variable.module != &module)
      continue;
    std::optional<size_t> index = variableNamed(globals, variable.deviceName);
    if (!index || !globals[*index].managed)
      continue;
    // Both sides start from the initializer, but for what the host wrote
    // before this first launch or symbol copy.
    std::vector<uint8_t> &device = module.globalVariables[*index];
    auto *host = static_cast<uint8_t *>(const_cast<void *>(hostVariable));
    size_t size = std::min<uint64_t>(device.size(), variable.sizeBytes);
    for (size_t b = 0; b < size; ++b) {
      uint8_t initial = variable.hostAtRegistration.empty() ? 0 : variable.hostAtRegistration[b];
      if (host[b] != initial)
        device[b] = host[b];
      else
        host[b] = device[b];
    }
    module.managed.push_back(
        {host, *index, std::vector<uint8_t>(device.begin(), device.begin() + size)});
  }
  return Ok{};
}

void Runtime::syncManagedToDevice(Module &module) {
  for (Module::Managed &managed : module.managed) {
    std::vector<uint8_t> &device = module.globalVariables[managed.index];
    if (std::memcmp(managed.host, managed.synced.data(), managed.synced.size()) != 0)
      std::memcpy(device.data(), managed.host, managed.synced.size());
  }
}

void Runtime::syncManagedToHost(Module &module) {
  for (Module::Managed &managed : module.managed) {
    const std::vector<uint8_t> &device = module.globalVariables[managed.index];
    std::memcpy(managed.host, device.data(), managed.synced.size());
    std::copy_n(device.begin(), managed.synced.size(), managed.synced.begin());
  }
}

void Runtime::symbolWritten(const void *symbol) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  auto found = variables_.find(symbol);
  if (found != variables_.end() && found->second.module->program)
    syncManagedToHost(*found->second.module);
}

void Runtime::pushConfiguration(PendingLaunch launch) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  pending_.push_back(launch);
}

bool Runtime::popConfiguration(PendingLaunch &launch) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (pending_.empty())
    return false;
  launch = pending_.back();
  pending_.pop_back();
  return true;
}

// The value of each parameter from the stub's argument array. Pointers into
// an allocation become pointers into its bound buffer; a by-value struct's
// 8-byte words that hold such a pointer are translated the same way.
Result<std::vector<interp::ArgumentValue>>
Runtime::argumentValues(const KernelRecord &record, void **args, interp::BoundMemory &bound,
                        std::vector<std::pair<std::string, std::string>> &recorded,
                        std::map<uint32_t, std::string> &parameterOf, const char *function,
                        const void *returnAddress) {
  const ir::KernelInfo &kernel = *record.kernel;
  Module &module = *record.module;
  auto translate = [&](uint64_t address, const std::string &parameter,
                       std::string &text) -> std::optional<uint64_t> {
    if (address == 0) {
      text = "null";
      return 0;
    }
    const void *pointer = reinterpret_cast<const void *>(address);
    for (size_t i = 0; i < module.globalVariables.size(); ++i) {
      uintptr_t start = reinterpret_cast<uintptr_t>(module.globalVariables[i].data());
      if (address >= start && address < start + module.globalVariables[i].size()) {
        text = "&" + module.program->globalVariables[i].name;
        return ir::encodePointer(ir::PointerSpace::Global,
                                 ir::kFirstGlobalVariableBuffer + uint32_t(i),
                                 int64_t(address - start));
      }
    }
    AddressInfo info = memory_.find(pointer);
    if (info.isDevicePointer && !info.allocation) {
      // Past its allocation's end, or before it: the interpreter reports
      // the access (out of bounds, or a wild pointer once released).
      ir::DecodedPointer decoded = ir::decodePointer(address);
      text = "#" + std::to_string(decoded.buffer - ir::kFirstBoundBuffer + 1) +
             (decoded.offset < 0 ? "" : "+") + std::to_string(decoded.offset);
      return address;
    }
    if (!info.allocation) {
      text = "host-pointer";
      return std::nullopt;
    }
    Allocation &allocation = *info.allocation;
    if (allocation.freed) {
      hostFinding(function, returnAddress,
                  "kernel '" + kernel.sourceName + "' gets parameter '" + parameter +
                      "' pointing into " + allocation.describe() + ", freed" +
                      (allocation.freeSite.empty() ? "" : " at " + allocation.freeSite));
      text = "freed#" + std::to_string(allocation.id);
      return kWildPointer;
    }
    uint32_t index = allocation.id - 1;
    if (bound.allocations.size() <= index)
      bound.allocations.resize(index + 1, nullptr);
    bound.allocations[index] = &allocation.bytes;
    parameterOf.try_emplace(ir::kFirstBoundBuffer + index, parameter);
    text = "#" + std::to_string(allocation.id);
    if (info.offset)
      text += "+" + std::to_string(info.offset);
    return ir::encodePointer(ir::PointerSpace::Global, ir::kFirstBoundBuffer + index,
                             int64_t(info.offset));
  };

  std::vector<interp::ArgumentValue> values;
  for (size_t p = 0; p < kernel.params.size(); ++p) {
    const ir::ParamInfo &param = kernel.params[p];
    std::string text;
    if (param.byValueBytes) {
      std::vector<uint8_t> bytes(param.byValueBytes);
      std::memcpy(bytes.data(), args[p], bytes.size());
      for (size_t at = 0; at + 8 <= bytes.size(); at += 8) {
        uint64_t word;
        std::memcpy(&word, bytes.data() + at, 8);
        std::string ignored;
        AddressInfo info = memory_.find(reinterpret_cast<const void *>(word));
        if (word && info.allocation && info.allocation->hostVisible())
          if (std::optional<uint64_t> encoded = translate(word, param.name, ignored)) {
            std::memcpy(bytes.data() + at, &*encoded, 8);
          }
      }
      values.push_back(interp::ArgumentValue::buffer(std::move(bytes)));
      recorded.push_back({param.name, "struct:" + std::to_string(param.byValueBytes)});
      continue;
    }
    if (param.resource != ir::ResourceKind::None) {
      uint64_t handle = 0;
      std::memcpy(&handle, args[p], sizeof handle);
      values.push_back(textureArgument(param, handle, translate, kernel, function, returnAddress));
      recorded.push_back({param.name, values.back().texture ? values.back().texture->describe()
                                                            : "invalid-handle"});
      continue;
    }
    if (param.kind == ir::ValueKind::Pointer) {
      uint64_t address = 0;
      std::memcpy(&address, args[p], sizeof address);
      std::optional<uint64_t> encoded = translate(address, param.name, text);
      values.push_back(interp::ArgumentValue::scalar(encoded ? *encoded : kWildPointer));
      recorded.push_back({param.name, text});
      continue;
    }
    if (param.bits > 64 || param.kind == ir::ValueKind::Aggregate)
      return makeError(module.sourcePath + ": kernel '" + kernel.sourceName + "': parameter '" +
                       param.name + "' of " + std::to_string(param.bits) +
                       " bits is not supported by simulee exec");
    uint64_t bits = 0;
    std::memcpy(&bits, args[p], std::max<uint32_t>(1, (param.bits + 7) / 8));
    if (param.bits < 64)
      bits &= (uint64_t(1) << std::max<uint32_t>(param.bits, 1)) - 1;
    values.push_back(interp::ArgumentValue::scalar(bits));
    recorded.push_back({param.name, scalarText(param, bits)});
  }
  return values;
}

// A texture or surface parameter: a buffer whose texels are the bytes of the
// allocation its object was made over (bound by `translate`, as a pointer
// argument would be). An unknown or destroyed handle is a host finding, and
// the kernel gets a null handle.
template <typename Translate>
interp::ArgumentValue Runtime::textureArgument(const ir::ParamInfo &param, uint64_t handle,
                                               Translate &translate, const ir::KernelInfo &kernel,
                                               const char *function, const void *returnAddress) {
  bool surface = param.resource == ir::ResourceKind::Surface;
  const TextureObject *object = textureObjects().find(handle, surface);
  if (!object) {
    hostFinding(function, returnAddress,
                "kernel '" + kernel.sourceName + "' gets parameter '" + param.name +
                    "' = " + std::to_string(handle) + ", which is no live " +
                    (surface ? "surface" : "texture") + " object");
    return interp::ArgumentValue::scalar(0);
  }
  std::string text;
  std::optional<uint64_t> encoded = translate(uint64_t(object->address), param.name, text);
  ir::DecodedPointer decoded = ir::decodePointer(encoded ? *encoded : kWildPointer);
  interp::ArgumentValue value = interp::ArgumentValue::buffer({});
  value.texture = object->descriptor;
  value.texture->aliasOf = int32_t(decoded.buffer);
  value.texture->aliasName = text;
  value.texture->byteOffset = uint64_t(std::max<int64_t>(decoded.offset, 0));
  return value;
}

KernelRecord *Runtime::loadedKernel(const void *stub) {
  auto found = kernels_.find(stub);
  if (found == kernels_.end())
    return nullptr;
  KernelRecord &record = found->second;
  if (Status loaded = loadModule(*record.module); !loaded)
    fail(loaded.error().message);
  if (!record.kernel)
    record.kernel = record.module->program->findKernel(record.deviceName);
  if (!record.kernel)
    fail(record.module->sourcePath + ": kernel '" + record.deviceName +
         "': not found in the device code simulee compiled");
  return &record;
}

ErrorCode Runtime::kernelAttributes(const void *stub, KernelAttributes &attributes) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (stickyError_)
    return stickyError_;
  KernelRecord *record = loadedKernel(stub);
  if (!record)
    return setError(kInvalidDeviceFunction);
  attributes = KernelAttributes{};
  attributes.staticSharedBytes = record->kernel->staticSharedBytes;
  attributes.maxThreadsPerBlock = record->kernel->maxThreadsPerBlock
                                      ? record->kernel->maxThreadsPerBlock
                                      : interp::kMaxThreadsPerBlock;
  attributes.maxDynamicSharedBytes = record->maxDynamicSharedBytes;
  return kSuccess;
}

ErrorCode Runtime::setMaxDynamicSharedBytes(const void *stub, int64_t bytes) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  KernelAttributes attributes;
  if (ErrorCode error = kernelAttributes(stub, attributes))
    return error;
  if (bytes < 0 ||
      uint64_t(bytes) + attributes.staticSharedBytes > interp::kMaxSharedBytesPerBlockOptIn)
    return setError(kInvalidValue);
  kernels_[stub].maxDynamicSharedBytes = uint32_t(bytes);
  return kSuccess;
}

ErrorCode Runtime::copyArguments(const void *stub, void **args,
                                 std::vector<std::vector<uint8_t>> &bytes, const char *function,
                                 const void *returnAddress) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (stickyError_)
    return stickyError_;
  KernelRecord *record = loadedKernel(stub);
  if (!record) {
    hostFinding(function, returnAddress, "launch of a function that is not a registered kernel");
    return setError(kInvalidDeviceFunction);
  }
  if (!args && !record->kernel->params.empty())
    return setError(kInvalidValue);
  bytes.clear();
  for (size_t p = 0; p < record->kernel->params.size(); ++p) {
    const ir::ParamInfo &param = record->kernel->params[p];
    // As argumentValues() reads them: a by-value struct whole, a pointer or
    // texture handle as 8 bytes, a number as its width.
    uint64_t size = param.byValueBytes ? param.byValueBytes
                    : param.resource != ir::ResourceKind::None || param.kind == ir::ValueKind::Pointer
                        ? 8
                        : std::max<uint32_t>(1, (param.bits + 7) / 8);
    const auto *value = static_cast<const uint8_t *>(args[p]);
    bytes.emplace_back(value, value + size);
  }
  return kSuccess;
}

ErrorCode Runtime::launch(const void *stub, interp::Dim3 grid, interp::Dim3 block, void **args,
                          uint64_t sharedBytes, const void *returnAddress, bool cooperative) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (stickyError_)
    return stickyError_;
  const char *function = "cudaLaunchKernel";
  KernelRecord *found = loadedKernel(stub);
  if (!found) {
    hostFinding(function, returnAddress, "launch of a function that is not a registered kernel");
    return setError(kInvalidDeviceFunction);
  }
  KernelRecord &record = *found;
  Module &module = *record.module;
  const ir::KernelInfo &kernel = *record.kernel;
  printDeviceOutput();
  uint32_t ordinal = ++record.launches;
  ++totalLaunches_;
  std::string site = callSiteOf(returnAddress);
  std::string launchName = report::ordinalText(ordinal) + " launch of '" + kernel.sourceName + "'" +
                           (site.empty() ? "" : " at " + site);
  RuntimeOperation operation(function, returnAddress);
  operation.describe(launchName);

  session::BoundLaunch bound;
  bound.config.grid = grid;
  bound.config.block = block;
  // Saturated, so that a huge request fails validation instead of wrapping.
  bound.config.dynamicSharedBytes = uint32_t(std::min<uint64_t>(sharedBytes, UINT32_MAX));
  bound.config.sharedBytesLimit = record.maxDynamicSharedBytes;
  if (sharedBytes > record.maxDynamicSharedBytes) {
    // As a GPU answers: more than the kernel opted into is an invalid argument.
    hostFinding(function, returnAddress,
                "the " + launchName + " asks for " + std::to_string(sharedBytes) +
                    " bytes of dynamic shared memory; the kernel allows " +
                    std::to_string(record.maxDynamicSharedBytes) +
                    (record.maxDynamicSharedBytes <= interp::kMaxSharedBytesPerBlock
                         ? " (more needs cudaFuncSetAttribute(kernel, "
                           "cudaFuncAttributeMaxDynamicSharedMemorySize, bytes))"
                         : " (its cudaFuncAttributeMaxDynamicSharedMemorySize)"));
    return setError(kInvalidValue);
  }
  if (Status valid = interp::validateLaunch(bound.config); !valid) {
    hostFinding(function, returnAddress,
                "the " + launchName + " is invalid: " + valid.error().message);
    return setError(kInvalidConfiguration);
  }
  bound.config.cooperative = cooperative;
  if (cooperative) {
    KernelAttributes attributes;
    (void)kernelAttributes(stub, attributes);
    uint64_t resident = simulatedResidentBlocksPerMultiprocessor(
                            block.count(), attributes.staticSharedBytes + sharedBytes) *
                        kSimulatedMultiProcessors;
    if (grid.count() > resident) {
      hostFinding("cudaLaunchCooperativeKernel", returnAddress,
                  "the " + launchName + " has " + std::to_string(grid.count()) +
                      " blocks, but a cooperative launch may have only as many as are resident "
                      "at once: " + std::to_string(resident) + " of this size on the simulated "
                      "device (cudaOccupancyMaxActiveBlocksPerMultiprocessor times the "
                      "multiprocessor count)");
      return setError(kCooperativeLaunchTooLarge);
    }
  }
  if (Status bounded = session::checkLaunchBounds(kernel, block); !bounded) {
    hostFinding(function, returnAddress,
                "the " + launchName + " is invalid: " + bounded.error().message);
    return setError(kLaunchOutOfResources);
  }
  // The program needs the launch's results: it will not stop over a budget
  // or the memory limit (session::analyzeBoundLaunch), so its size is
  // checked as such a launch's; one too large to model is never refused,
  // it runs with the light checks.
  interp::LaunchConfig unstoppable = bound.config;
  unstoppable.stopOverMemory = false;
  bool tooLargeToModel = !interp::validateLaunchSize(unstoppable);
  // Every live allocation is bound: device pointers stored in device memory
  // reach allocations no argument names.
  interp::BoundMemory memory;
  for (uint32_t id = 1; id <= memory_.allocationCount(); ++id) {
    Allocation *allocation = memory_.byId(id);
    memory.allocations.push_back(allocation && !allocation->freed ? &allocation->bytes : nullptr);
  }
  syncManagedToDevice(module);
  memory_.loadRegistered();
  memory.globalVariables = &module.globalVariables;
  memory.constantVariables = &module.constantVariables;
  ProgramMemory external(memory_, heapBytes_, heapLimitBytes_, *module.program);
  memory.external = &external;
  std::map<uint32_t, std::string> parameterOf;
  Result<std::vector<interp::ArgumentValue>> values =
      argumentValues(record, args, memory, bound.record.args, parameterOf, function, returnAddress);
  if (!values)
    fail(values.error().message);
  bound.values = std::move(*values);
  bound.memory = &memory;
  // A kernel with barriers may be re-run on a copy of its memory: all of it
  // when that is small, else only the allocations its arguments name.
  constexpr uint64_t kWholeCopyBytes = uint64_t(64) << 20;
  uint64_t liveBytes = 0;
  for (const std::vector<uint8_t> *allocation : memory.allocations)
    liveBytes += allocation ? allocation->size() : 0;
  if (liveBytes > kWholeCopyBytes) {
    bound.recheckAllocations.emplace();
    for (const auto &[buffer, parameter] : parameterOf)
      bound.recheckAllocations->push_back(buffer - ir::kFirstBoundBuffer);
  }
  bound.record.grid = grid;
  bound.record.block = block;
  bound.record.dynamicSharedBytes = bound.config.dynamicSharedBytes;
  bound.record.seed = 0;
  bound.record.ordinal = ordinal;
  bound.record.provenance = detect::Provenance::Program;
  if (!site.empty())
    bound.record.origin = originOf(site);

  // --search: the first launch of each kernel at each site is kept, with a
  // copy of the memory it starts from.
  std::optional<SearchedLaunch> toSearch;
  bool firstAtSite = std::none_of(searched_.begin(), searched_.end(), [&](const SearchedLaunch &s) {
    return s.record == &record && s.launch.record.origin == bound.record.origin;
  });
  if (settings_.searchGenerations > 0 && firstAtSite) {
    toSearch.emplace(SearchedLaunch{&record, {}, parameterOf});
    RecordedLaunch &recorded = toSearch->launch;
    recorded.program = &*module.program;
    recorded.kernel = &kernel;
    recorded.config = bound.config;
    recorded.values = bound.values;
    recorded.record = bound.record;
    for (const std::vector<uint8_t> *allocation : memory.allocations)
      recorded.allocations.push_back(allocation ? std::optional(*allocation) : std::nullopt);
    recorded.globalVariables = module.globalVariables;
    recorded.constantVariables = module.constantVariables;
  }

  // The first few launches of a kernel and shape are fully checked; the
  // others repeat them on new data, with cheaper checks.
  uint32_t &checked = record.checkedByShape[{grid.x, grid.y, grid.z, block.x, block.y, block.z,
                                             bound.config.dynamicSharedBytes}];
  bool light =
      tooLargeToModel || (settings_.checkedLaunches != 0 && checked >= settings_.checkedLaunches);
  if (!light)
    ++checked;
  if (tooLargeToModel) {
    bound.config.modelsAccesses = false;
    std::string note = "launches of more than " + std::to_string(interp::maxSimulatedThreads()) +
                       " threads are too large to model in --max-memory (" +
                       std::to_string(memoryLimitBytes() >> 20) +
                       " MiB): they ran with the light checks only";
    if (std::find(record.notes.begin(), record.notes.end(), note) == record.notes.end())
      record.notes.push_back(std::move(note));
  }
  LaunchWatch watch(memory_);
  session::AnalysisOptions options = settings_.analysis;
  options.observer = &watch;
  options.lightChecks = light;
  options.cancel = &stopRequested();
  auto start = std::chrono::steady_clock::now();
  Result<session::KernelAnalysis> analysis =
      session::analyzeBoundLaunch(*module.program, kernel, bound, options);
  if (!analysis && stopRequested()) {
    // Not judged: the verdict says why, and `operation` ends the process by
    // the signal once the report is written.
    ++record.counts.failed;
    if (record.firstLaunchError.empty())
      record.firstLaunchError = launchName + ": stopped by a signal while it ran";
    return setError(kLaunchFailure);
  }
  if (!analysis)
    fail(module.sourcePath + ": kernel '" + kernel.sourceName + "': " + launchName + ": " +
         analysis.error().message);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (watch.outputCalls > 0) {
    deviceOutput_ += watch.output;
    deviceOutputCalls_ += watch.outputCalls;
    deviceOutputKernel_ = &record;
  }
  syncManagedToHost(module);
  memory_.storeRegistered();

  std::vector<detect::Finding> findings = std::move(analysis->findings);
  for (detect::Finding &finding : watch.uninitialized.takeFindings()) {
    finding.launch = bound.record;
    findings.push_back(std::move(finding));
  }
  if (watch.assertion) {
    // The kernel stopped at a failed assert: a finding, and the context is
    // lost for every later call (cudaErrorAssert).
    findings.push_back(detect::assertionFinding(*watch.assertion, bound.record));
    stickyError_ = kAssert;
  }
  nameAllocations(findings, parameterOf);
  if (toSearch) {
    toSearch->launch.ratio = analysis->bestRatio;
    toSearch->launch.threadInstrs = analysis->threadInstrs;
    toSearch->launch.outOfBounds =
        std::any_of(findings.begin(), findings.end(), [](const detect::Finding &finding) {
          return finding.kind == detect::FindingKind::OutOfBounds;
        });
    searched_.push_back(std::move(*toSearch));
  }
  detect::LaunchCounts counts = analysis->counts;
  if (light) { // ran, but not judged: no access was modelled
    counts.lightlyChecked = counts.judged;
    counts.judged = counts.blocks = counts.blocksModelled = 0;
  }
  record.counts += counts;
  if (record.firstLaunchError.empty() && !analysis->firstLaunchError.empty())
    record.firstLaunchError = launchName + ": " + analysis->firstLaunchError;
  size_t before = record.findings.size();
  addFindings(record, std::move(findings));
  // Written as soon as something is found, so that a program that crashes
  // later still leaves its findings.
  if (record.findings.size() > before)
    writeReport();

  if (settings_.progress) {
    std::string verdict = analysis->counts.judged == 0 ? "not judged"
                          : light && record.findings.size() == before ? "light checks"
                          : record.findings.size() > before
                              ? std::to_string(record.findings.size() - before) + " new finding(s)"
                              : "no new finding";
    std::fprintf(stderr, "simulee: %s: grid %s block %s, %llu thread-instructions, %.2f s, %s\n",
                 launchName.c_str(), interp::formatDim3(grid).c_str(),
                 interp::formatDim3(block).c_str(),
                 static_cast<unsigned long long>(analysis->threadInstrs), seconds, verdict.c_str());
  }
  // The summary is for a program that never reaches exit: kept current when
  // something is found, else at most once a second (a file write per launch
  // would cost more than a small launch).
  auto now = std::chrono::steady_clock::now();
  if (record.findings.size() > before || now - lastSummary_ > std::chrono::seconds(1)) {
    lastSummary_ = now;
    writeSummary();
  }
  return kSuccess;
}

void Runtime::nameAllocations(std::vector<detect::Finding> &findings,
                              const std::map<uint32_t, std::string> &parameterOf) const {
  for (detect::Finding &finding : findings) {
    if (finding.space != interp::MemSpace::Global || finding.buffer < ir::kFirstBoundBuffer)
      continue;
    Allocation *allocation = memory_.byId(finding.buffer - ir::kFirstBoundBuffer + 1);
    auto parameter = parameterOf.find(finding.buffer);
    std::string name = parameter != parameterOf.end() ? parameter->second : "";
    std::string memory = allocation ? allocation->describe() : "an allocation";
    finding.variable = name.empty() ? memory : name + " (" + memory + ")";
  }
}

// --search: findings of mutated launches that no launch of the program
// showed are added, marked as the search's.
void Runtime::searchRecordedLaunches() {
  for (SearchedLaunch &searched : searched_) {
    KernelRecord &record = *searched.record;
    std::string launchName = report::ordinalText(searched.launch.record.ordinal) + " launch of '" +
                             searched.launch.kernel->sourceName + "'";
    if (settings_.progress)
      std::fprintf(stderr, "simulee: searching around the %s (%u generations)\n",
                   launchName.c_str(), settings_.searchGenerations);
    session::AnalysisOptions options = settings_.analysis;
    searchAround(searched.launch, settings_.searchGenerations, options,
                 [&](std::vector<detect::Finding> findings) {
                   nameAllocations(findings, searched.parameterOf);
                   for (detect::Finding &finding : findings) {
                     bool known =
                         std::any_of(record.findings.begin(), record.findings.end(),
                                     [&](const detect::Finding &existing) {
                                       return detect::keyOf(existing) == detect::keyOf(finding) &&
                                              existing.variable == finding.variable;
                                     });
                     if (known)
                       continue;
                     finding.detail += std::string(finding.detail.empty() ? "" : "; ") +
                                       "found by --search: a mutation of the program's " +
                                       launchName + ", not a launch the program made";
                     record.findings.push_back(std::move(finding));
                   }
                 });
  }
  searched_.clear();
}

// A finding seen before (same kind, space, instructions and variable) counts
// once more; the first launch that showed it stays its example.
void Runtime::addFindings(KernelRecord &record, std::vector<detect::Finding> findings) {
  for (detect::Finding &finding : findings) {
    bool known = false;
    for (detect::Finding &existing : record.findings)
      if (detect::keyOf(existing) == detect::keyOf(finding) &&
          existing.variable == finding.variable && existing.benign == finding.benign) {
        existing.occurrences += finding.occurrences;
        known = true;
        break;
      }
    if (!known)
      record.findings.push_back(std::move(finding));
  }
}

ErrorCode Runtime::allocate(void **pointer, uint64_t sizeBytes, AllocationKind kind,
                            const void *returnAddress) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  RuntimeOperation operation(allocationFunction(kind), returnAddress);
  if (stickyError_)
    return stickyError_;
  if (!pointer)
    return setError(kInvalidValue);
  if (sizeBytes > ir::kMaxBufferBytes) {
    *pointer = nullptr;
    return setError(kMemoryAllocation);
  }
  // More than this machine can hold (the simulated device's memory is the
  // machine's): out of memory, as a GPU says when its memory is exhausted.
  try {
    Allocation &allocation = memory_.allocate(kind, sizeBytes, callSiteOf(returnAddress));
    *pointer = reinterpret_cast<void *>(allocation.address());
  } catch (const std::bad_alloc &) {
    *pointer = nullptr;
    std::fprintf(stderr,
                 "simulee: note: %s at %s: %llu bytes are more than this machine can give the "
                 "simulated device; it returns cudaErrorMemoryAllocation\n",
                 allocationFunction(kind), callSiteOf(returnAddress).c_str(),
                 (unsigned long long)sizeBytes);
    return setError(kMemoryAllocation);
  }
  return kSuccess;
}

ErrorCode Runtime::reviveAllocation(void *pointer, const void *returnAddress) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (stickyError_)
    return stickyError_;
  AddressInfo info = memory_.find(pointer);
  if (!info.allocation || !memory_.revive(*info.allocation)) {
    hostFinding("cudaGraphLaunch", returnAddress,
                "a graph's allocation node cannot allocate its memory again: " +
                    describeAddress(pointer) + " was released long ago");
    return setError(kMemoryAllocation);
  }
  return kSuccess;
}

ErrorCode Runtime::registerHost(void *pointer, uint64_t sizeBytes, const void *returnAddress) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (stickyError_)
    return stickyError_;
  constexpr ErrorCode kAlreadyRegistered = 712; // cudaErrorHostMemoryAlreadyRegistered
  if (!pointer || sizeBytes == 0 || isDevicePointer(reinterpret_cast<uintptr_t>(pointer)))
    return setError(kInvalidValue);
  if (!memory_.registerHost(static_cast<uint8_t *>(pointer), sizeBytes,
                            callSiteOf(returnAddress))) {
    hostFinding("cudaHostRegister", returnAddress,
                "cudaHostRegister of " + std::to_string(sizeBytes) +
                    " bytes that overlap memory already registered or allocated (" +
                    describeAddress(pointer) + ")");
    return setError(kAlreadyRegistered);
  }
  return kSuccess;
}

ErrorCode Runtime::unregisterHost(void *pointer, const void *returnAddress) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (stickyError_)
    return stickyError_;
  constexpr ErrorCode kNotRegistered = 713; // cudaErrorHostMemoryNotRegistered
  if (!memory_.unregisterHost(pointer)) {
    hostFinding("cudaHostUnregister", returnAddress,
                "cudaHostUnregister of a pointer that does not start a registered range (" +
                    describeAddress(pointer) + ")");
    return setError(kNotRegistered);
  }
  return kSuccess;
}

ErrorCode Runtime::free(void *pointer, AllocationKind kind, const char *function,
                        const void *returnAddress) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  RuntimeOperation operation(function, returnAddress);
  if (stickyError_)
    return stickyError_;
  if (!pointer)
    return kSuccess;
  // `allocation` (its description) freed before, at `freeSite`.
  auto doubleFree = [&](const std::string &allocation, const std::string &freeSite) {
    hostFinding(function, returnAddress,
                "double free of " + allocation + ", already freed" +
                    (freeSite.empty() ? "" : " at " + freeSite));
    return setError(kInvalidDevicePointer);
  };
  AddressInfo info = memory_.find(pointer);
  if (!info.allocation && info.isDevicePointer) {
    ir::DecodedPointer decoded = ir::decodePointer(reinterpret_cast<uintptr_t>(pointer));
    auto [released, freeSite] =
        memory_.releasedDevice(uint32_t(decoded.buffer - ir::kFirstBoundBuffer + 1));
    if (!released.empty() && decoded.offset == 0)
      return doubleFree(released, freeSite);
  }
  if (!info.allocation || info.offset != 0) {
    hostFinding(function, returnAddress,
                std::string(function) + " of a pointer that is not the start of an allocation" +
                    (info.allocation ? " (" + std::to_string(info.offset) + " bytes into " +
                                           info.allocation->describe() + ")"
                                     : ""));
    return setError(kInvalidDevicePointer);
  }
  if (info.allocation->kind == AllocationKind::DeviceHeap && !info.allocation->freed) {
    hostFinding(function, returnAddress,
                std::string(function) + " of " + info.allocation->describe() +
                    ": memory a kernel allocated is freed by a kernel (free or delete)");
    return setError(kInvalidDevicePointer);
  }
  if (info.allocation->freed)
    return doubleFree(info.allocation->describe(), info.allocation->freeSite);
  (void)kind;
  memory_.release(*info.allocation, callSiteOf(returnAddress));
  return kSuccess;
}

std::string Runtime::describeAddress(const void *address) const {
  AddressInfo info = memory_.find(address);
  if (info.isDevicePointer && !info.allocation) {
    ir::DecodedPointer pointer = ir::decodePointer(reinterpret_cast<uintptr_t>(address));
    Allocation *allocation = memory_.byId(pointer.buffer - ir::kFirstBoundBuffer + 1);
    return allocation ? std::to_string(pointer.offset) + " bytes from the start of " +
                            allocation->describe()
                      : "an allocation released long ago";
  }
  if (!info.allocation)
    return "host memory";
  return info.allocation->describe() + " + " + std::to_string(info.offset);
}

std::string Runtime::unusableRange(const AddressInfo &info, const void *pointer,
                                   uint64_t sizeBytes) const {
  if (!info.allocation)
    return info.isDevicePointer
               ? "a device pointer into no allocation (" + describeAddress(pointer) + ")"
               : "host memory that is no allocation";
  const Allocation &allocation = *info.allocation;
  if (allocation.kind == AllocationKind::DeviceHeap)
    return allocation.describe() + ", which the host API cannot use (memory a kernel allocated "
                                   "lives on the device heap)";
  if (allocation.freed)
    return allocation.describe() + " after it was freed" +
           (allocation.freeSite.empty() ? "" : " at " + allocation.freeSite);
  if (sizeBytes > allocation.sizeBytes() - info.offset)
    return allocation.describe() + " at offset " + std::to_string(info.offset) + ": " +
           std::to_string(sizeBytes - (allocation.sizeBytes() - info.offset)) +
           " bytes past its end";
  return "";
}

AddressInfo Runtime::libraryMemory(const void *pointer, uint64_t sizeBytes, const char *function,
                                   const std::string &what, const void *returnAddress) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (!pointer) {
    hostFinding(function, returnAddress, what + " is a null pointer");
    return {};
  }
  AddressInfo info = memory_.find(pointer);
  if (std::string problem = unusableRange(info, pointer, sizeBytes); !problem.empty()) {
    hostFinding(function, returnAddress,
                "uses " + std::to_string(sizeBytes) + " bytes of " + what + " in " + problem);
    return {};
  }
  return info;
}

ErrorCode Runtime::copy(void *destination, const void *source, uint64_t sizeBytes,
                        const char *function, const void *returnAddress) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  RuntimeOperation operation(function, returnAddress);
  if (stickyError_)
    return stickyError_;
  if (sizeBytes == 0)
    return kSuccess;
  if (!destination || !source) {
    hostFinding(function, returnAddress,
                std::string(function) + " with a null " + (destination ? "source" : "destination"));
    return setError(kInvalidValue);
  }
  void *to = destination;
  const void *from = source;
  for (auto [pointer, role] : {std::pair<const void *, const char *>{destination, "to"},
                               std::pair<const void *, const char *>{source, "from"}}) {
    AddressInfo info = memory_.find(pointer);
    if (!info.allocation && !info.isDevicePointer)
      continue; // the program's own memory
    if (std::string problem = unusableRange(info, pointer, sizeBytes); !problem.empty()) {
      hostFinding(function, returnAddress,
                  "copies " + std::to_string(sizeBytes) + " bytes " + role + " " + problem);
      return setError(kInvalidValue);
    }
  }
  AddressInfo target = memory_.find(destination), origin = memory_.find(source);
  if (target.allocation)
    to = target.bytes();
  if (origin.allocation)
    from = origin.bytes();
  std::memmove(to, from, sizeBytes);
  if (target.allocation)
    target.allocation->markWritten(target.offset, sizeBytes);
  return kSuccess;
}

ErrorCode Runtime::fill(void *destination, int value, uint64_t sizeBytes, const char *function,
                        const void *returnAddress) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  RuntimeOperation operation(function, returnAddress);
  if (stickyError_)
    return stickyError_;
  if (sizeBytes == 0)
    return kSuccess;
  AddressInfo info = memory_.find(destination);
  if (!info.allocation) {
    hostFinding(function, returnAddress,
                std::string(function) + " of memory that is no device allocation");
    return setError(kInvalidValue);
  }
  if (std::string problem = unusableRange(info, destination, sizeBytes); !problem.empty()) {
    hostFinding(function, returnAddress,
                "sets " + std::to_string(sizeBytes) + " bytes of " + problem);
    return setError(kInvalidValue);
  }
  std::memset(info.bytes(), value, sizeBytes);
  info.allocation->markWritten(info.offset, sizeBytes);
  return kSuccess;
}

ErrorCode Runtime::symbolStorage(const void *symbol, std::vector<uint8_t> *&storage,
                                 const char *function, const void *returnAddress) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  auto found = variables_.find(symbol);
  if (found == variables_.end()) {
    hostFinding(function, returnAddress,
                std::string(function) + " of a symbol that is no __device__ or __constant__ "
                                        "variable");
    return setError(kInvalidSymbol);
  }
  DeviceVariable &variable = found->second;
  if (Status loaded = loadModule(*variable.module); !loaded)
    fail(loaded.error().message);
  syncManagedToDevice(*variable.module);
  const ir::Program &program = *variable.module->program;
  auto search = [&](const std::vector<ir::VariableInfo> &infos,
                    std::vector<std::vector<uint8_t>> &values) {
    std::optional<size_t> i = variableNamed(infos, variable.deviceName);
    if (i)
      storage = &values[*i];
    return i.has_value();
  };
  if (search(program.constantVariables, variable.module->constantVariables) ||
      search(program.globalVariables, variable.module->globalVariables))
    return kSuccess;
  // The device code never uses it: a variable of its own, so copies still work.
  static std::map<const void *, std::vector<uint8_t>> unused;
  auto [it, added] = unused.try_emplace(symbol, variable.sizeBytes, 0);
  storage = &it->second;
  return kSuccess;
}

void Runtime::hostFinding(const char *function, const void *returnAddress, std::string message) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  HostFinding finding{callSiteOf(returnAddress), function, std::move(message)};
  auto same = std::find_if(hostFindings_.begin(), hostFindings_.end(), [&](const HostFinding &f) {
    return f.site == finding.site && f.function == finding.function && f.message == finding.message;
  });
  if (same != hostFindings_.end()) {
    ++same->times;
    return;
  }
  hostFindings_.push_back(std::move(finding));
  writeSummary();
  writeReport();
}

void Runtime::unsupported(const char *function) {
  fail(std::string("the program calls ") + function +
       ", which simulee's CUDA runtime does not provide");
}

void Runtime::fail(const std::string &message) {
  std::fflush(stdout);
  finish(); // writes a summary too: the one with the error comes after it
  writeSummary(message);
  std::_Exit(2);
}

void Runtime::endBySignal(int signal) {
  // A second stop signal waits until the report is written.
  sigset_t stops;
  sigemptyset(&stops);
  sigaddset(&stops, SIGINT);
  sigaddset(&stops, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stops, nullptr);
  {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    std::fflush(stdout);
    if (!finished_) { // no --search: the user asked to stop
      finished_ = true;
      writeSummary();
      writeReport();
    }
  }
  std::signal(signal, SIG_DFL);
  std::raise(signal); // pending until unblocked
  pthread_sigmask(SIG_UNBLOCK, &stops, nullptr);
  std::_Exit(128 + signal);
}

void Runtime::crashed(int signal, const std::string &what) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  std::fflush(stdout);
  finished_ = true; // no --search after a crash
  writeReport();
  writeSummary("the program stopped with " + std::string(strsignal(signal)) + " inside " +
               (what.empty() ? "simulee's CUDA runtime" : what) +
               " (its arguments point to memory the process cannot access, or simulee's runtime "
               "failed); the report holds what was found before");
  std::_Exit(2);
}

void Runtime::writeSummary(const std::string &error) {
  uint64_t bugs = hostFindings_.size(), unjudged = 0;
  for (const auto &[stub, record] : kernels_) {
    for (const detect::Finding &finding : record.findings)
      bugs += detect::isBug(finding) ? 1 : 0;
    unjudged += record.counts.skipped();
  }
  nlohmann::json summary{
      {"launches", totalLaunches_}, {"unjudged", unjudged}, {"findings", bugs}, {"error", error}};
  writeFile(settings_.summaryPath, summary.dump() + "\n");
}

void Runtime::printDeviceOutput() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  std::fwrite(deviceOutput_.data(), 1, deviceOutput_.size(), stdout);
  deviceOutput_.clear();
  deviceOutputCalls_ = 0;
  deviceOutputKernel_ = nullptr;
}

void Runtime::finish() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (finished_)
    return;
  finished_ = true;
  if (deviceOutputKernel_) {
    // What a GPU would never have shown: the program is likely to lack a
    // cudaDeviceSynchronize after the launch.
    deviceOutputKernel_->notes.push_back(
        "the output of its last launch's " + std::to_string(deviceOutputCalls_) +
        (deviceOutputCalls_ == 1 ? " printf call" : " printf calls") +
        " was never printed: no synchronizing call (cudaDeviceSynchronize, a blocking "
        "cudaMemcpy, another launch) came after the launch before the program ended, and a GPU "
        "does not flush printf output at exit");
  }
  searchRecordedLaunches();
  writeSummary();
  writeReport();
}

void Runtime::writeReport() {
  std::vector<report::KernelFindings> kernels;
  for (const void *stub : kernelOrder_) {
    const KernelRecord &record = kernels_[stub];
    // Kernels never launched, or only by launches refused as invalid (a
    // host-api-error each), have nothing to report.
    if (!record.kernel || (record.counts.simulated() == 0 && record.counts.lightlyChecked == 0 &&
                           record.findings.empty()))
      continue;
    report::KernelFindings entry(&*record.module->program, record.kernel->sourceName,
                                 record.findings);
    entry.parameters = record.module->program->overloadParameters(*record.kernel);
    entry.verdict = detect::verdictOf(record.findings, record.counts);
    entry.launches = record.counts;
    entry.cause = record.firstLaunchError;
    // What the analysis assumed (a call to an undefined function returned a
    // chosen value): under exec that value reached the program's results.
    entry.notes = record.kernel->notes;
    entry.notes.insert(entry.notes.end(), record.notes.begin(), record.notes.end());
    kernels.push_back(std::move(entry));
  }
  std::optional<report::Format> format = report::parseFormat(settings_.format);
  writeFile(settings_.reportPath, execReport(format.value_or(report::Format::Text), kernels,
                                             hostFindings_, settings_.color));
}

} // namespace simulee::runtime
