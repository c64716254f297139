#include "replay/Harness.h"

#include "ir/PointerEncoding.h"

#include <llvm/Demangle/Demangle.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <sstream>

namespace simulee::replay {
namespace {

// The harness's fixed part: file and device helpers, the signature check and
// the launch through cudaLaunchKernel. The kernel's parameter types are
// deduced from the kernel itself (`void (*)(P...)`), so each argument is
// passed as exactly the C++ type the kernel declares.
constexpr const char *kRuntimePart = R"cuda(
namespace simulee_replay {

enum ParamKind { kScalar, kBuffer, kByValue, kPointerInto };

struct Param {
  const char *name;
  ParamKind kind;
  size_t sizeBytes;        // in the kernel's parameter list
  unsigned long long bits; // kScalar: the value's bits (little endian); kPointerInto: bytes in
  int into;                // kPointerInto: the parameter whose buffer it points into
};

std::string directory;
std::vector<std::vector<unsigned char>> hostBytes(kParamCount);
std::vector<void *> devicePointers(kParamCount, nullptr);

std::string pathOf(const std::string &name) { return directory + "/" + name; }

int fail(int status, const char *what, const std::string &detail) {
  std::printf("simulee-replay: %s: %s\n", what, detail.c_str());
  return status;
}

bool readFile(const std::string &name, std::vector<unsigned char> &bytes) {
  FILE *file = std::fopen(pathOf(name).c_str(), "rb");
  if (!file)
    return false;
  bytes.clear();
  unsigned char chunk[65536];
  size_t got;
  while ((got = std::fread(chunk, 1, sizeof chunk, file)) > 0)
    bytes.insert(bytes.end(), chunk, chunk + got);
  std::fclose(file);
  return true;
}

bool writeFile(const std::string &name, const std::vector<unsigned char> &bytes) {
  FILE *file = std::fopen(pathOf(name).c_str(), "wb");
  if (!file)
    return false;
  bool ok = std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size();
  return std::fclose(file) == 0 && ok;
}

template <class T> T argumentValue(int index) {
  alignas(T) unsigned char storage[sizeof(T)];
  const Param &param = kParams[index];
  if (param.kind == kBuffer)
    std::memcpy(storage, &devicePointers[index], sizeof(T));
  else if (param.kind == kPointerInto) {
    void *pointer = static_cast<unsigned char *>(devicePointers[param.into]) + param.bits;
    std::memcpy(storage, &pointer, sizeof(T));
  }
  else if (param.kind == kByValue)
    std::memcpy(storage, hostBytes[index].data(), sizeof(T));
  else
    std::memcpy(storage, &param.bits, sizeof(T));
  return *reinterpret_cast<T *>(storage);
}

// simulee's view of the parameters must be the kernel's: same count, same sizes.
template <class... P> bool signatureMatches(void (*)(P...)) {
  const size_t sizes[] = {sizeof(P)..., 0};
  if (sizeof...(P) != size_t(kParamCount)) {
    std::printf("simulee-replay: setup-error: the kernel has %d parameters, simulee saw %d\n",
                int(sizeof...(P)), kParamCount);
    return false;
  }
  for (int i = 0; i < kParamCount; ++i) {
    if (sizes[i] != kParams[i].sizeBytes) {
      std::printf("simulee-replay: setup-error: parameter '%s' is %d bytes, simulee saw %d\n",
                  kParams[i].name, int(sizes[i]), int(kParams[i].sizeBytes));
      return false;
    }
  }
  return true;
}

template <class... P, size_t... I>
cudaError_t launchWith(void (*kernel)(P...), std::index_sequence<I...>) {
  std::tuple<P...> values{argumentValue<P>(int(I))...};
  void *pointers[] = {static_cast<void *>(&std::get<I>(values))..., nullptr};
  return cudaLaunchKernel(reinterpret_cast<const void *>(kernel), kGrid, kBlock, pointers,
                          kSharedBytes, 0);
}

template <class... P> cudaError_t launch(void (*kernel)(P...)) {
  return launchWith(kernel, std::index_sequence_for<P...>{});
}

std::string cudaText(const char *call, cudaError_t status) {
  return std::string(call) + ": " + cudaGetErrorName(status) + ": " + cudaGetErrorString(status);
}

} // namespace simulee_replay

int main(int argc, char **argv) {
  using namespace simulee_replay;
  directory = argc > 1 ? argv[1] : ".";
  int runs = argc > 2 ? std::atoi(argv[2]) : 1;
  std::string outputPrefix = argc > 3 ? argv[3] : "run";
  int devices = 0;
  cudaError_t status = cudaGetDeviceCount(&devices);
  if (status != cudaSuccess)
    return fail(kNoGpu, "no-gpu", cudaText("cudaGetDeviceCount", status));
  if (devices == 0)
    return fail(kNoGpu, "no-gpu", "cudaGetDeviceCount: no CUDA device");
  cudaDeviceProp properties;
  if (cudaGetDeviceProperties(&properties, 0) == cudaSuccess)
    std::printf("simulee-replay: device: %s (compute capability %d.%d)\n", properties.name,
                properties.major, properties.minor);
  if (!signatureMatches(kKernel))
    return kSetupFailed;

  for (int i = 0; i < kParamCount; ++i) {
    if (kParams[i].kind == kScalar || kParams[i].kind == kPointerInto)
      continue;
    std::string name = "arg" + std::to_string(i) + ".bin";
    if (!readFile(name, hostBytes[i]))
      return fail(kSetupFailed, "setup-error", "cannot read " + pathOf(name));
    if (kParams[i].kind == kByValue && hostBytes[i].size() < kParams[i].sizeBytes)
      return fail(kSetupFailed, "setup-error", name + " is shorter than the parameter");
    if (kParams[i].kind == kBuffer) {
      status = cudaMalloc(&devicePointers[i], hostBytes[i].empty() ? 1 : hostBytes[i].size());
      if (status != cudaSuccess)
        return fail(kSetupFailed, "setup-error", cudaText("cudaMalloc", status));
    }
  }

  for (int run = 0; run < runs; ++run) {
    status = resetDeviceVariables();
    if (status != cudaSuccess)
      return fail(kSetupFailed, "setup-error", cudaText("cudaMemcpyToSymbol", status));
    for (int i = 0; i < kParamCount; ++i) {
      if (kParams[i].kind != kBuffer)
        continue;
      status = cudaMemcpy(devicePointers[i], hostBytes[i].data(), hostBytes[i].size(),
                          cudaMemcpyHostToDevice);
      if (status != cudaSuccess)
        return fail(kSetupFailed, "setup-error", cudaText("cudaMemcpy", status));
    }
    status = launch(kKernel);
    if (status != cudaSuccess)
      return fail(kKernelFailed, "kernel-error", cudaText("cudaLaunchKernel", status));
    status = cudaDeviceSynchronize();
    if (status != cudaSuccess)
      return fail(kKernelFailed, "kernel-error", cudaText("cudaDeviceSynchronize", status));
    for (int i = 0; i < kParamCount; ++i) {
      if (kParams[i].kind != kBuffer)
        continue;
      std::vector<unsigned char> after(hostBytes[i].size());
      status = cudaMemcpy(after.data(), devicePointers[i], after.size(), cudaMemcpyDeviceToHost);
      if (status != cudaSuccess)
        return fail(kKernelFailed, "kernel-error", cudaText("cudaMemcpy", status));
      std::string name = outputPrefix + std::to_string(run) + ".arg" + std::to_string(i) + ".bin";
      if (!writeFile(name, after))
        return fail(kSetupFailed, "setup-error", "cannot write " + pathOf(name));
    }
  }
  std::printf("simulee-replay: done: %d runs\n", runs);
  return 0;
}
)cuda";

bool isIdentifier(const std::string &text) {
  if (text.empty() || std::isdigit(static_cast<unsigned char>(text[0])))
    return false;
  for (char c : text)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_')
      return false;
  return true;
}

std::string withoutAnonymousNamespaces(std::string text) {
  const std::string anonymous = "(anonymous namespace)::";
  for (size_t at; (at = text.find(anonymous)) != std::string::npos;)
    text.erase(at, anonymous.size());
  return text;
}

// A C string literal for a path or name.
std::string quoted(const std::string &text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string hexBits(uint64_t bits) {
  char text[32];
  std::snprintf(text, sizeof text, "0x%llxull", static_cast<unsigned long long>(bits));
  return text;
}

std::string dim3Text(const interp::Dim3 &d) {
  return "dim3(" + std::to_string(d.x) + ", " + std::to_string(d.y) + ", " + std::to_string(d.z) +
         ")";
}

std::string resetFunction(const std::vector<DeviceVariable> &variables) {
  std::ostringstream out;
  out << "namespace simulee_replay {\n"
      << "// __device__ variables keep their value across launches on a GPU; the\n"
      << "// simulation starts every launch from their initial values.\n"
      << "cudaError_t resetDeviceVariables() {\n"
      << "  cudaError_t status = cudaSuccess;\n";
  for (const DeviceVariable &variable : variables) {
    out << "  {\n    static_assert(sizeof(::" << variable.name
        << ") == " << variable.initialBytes.size() << ", \"size of " << variable.name
        << " differs from simulee's\");\n"
        << "    static const unsigned char initial[] = {";
    for (size_t i = 0; i < variable.initialBytes.size(); ++i)
      out << (i ? "," : "") << unsigned(variable.initialBytes[i]);
    if (variable.initialBytes.empty())
      out << "0";
    out << "};\n    if (status == cudaSuccess)\n"
        << "      status = cudaMemcpyToSymbol(::" << variable.name
        << ", initial, sizeof initial);\n"
        << "  }\n";
  }
  out << "  return status;\n}\n} // namespace simulee_replay\n";
  return out.str();
}

} // namespace

Result<std::string> kernelExpression(const ir::KernelInfo &kernel) {
  if (kernel.name.rfind("_Z", 0) != 0) // extern "C": the symbol is the name
    return kernel.name;
  llvm::ItaniumPartialDemangler demangler;
  if (demangler.partialDemangle(kernel.name.c_str()))
    return makeError("cannot demangle the kernel symbol '" + kernel.name + "'");
  auto text = [](char *buffer) {
    std::unique_ptr<char, decltype(&std::free)> owned(buffer, &std::free);
    return std::string(buffer ? buffer : "");
  };
  std::string name = text(demangler.getFunctionName(nullptr, nullptr));
  std::string params = text(demangler.getFunctionParameters(nullptr, nullptr));
  if (name.empty() || params.empty())
    return makeError("cannot demangle the kernel symbol '" + kernel.name + "'");
  return "static_cast<void (*)" + withoutAnonymousNamespaces(params) + ">(&" +
         withoutAnonymousNamespaces(name) + ")";
}

std::string initialBufferFile(size_t index) { return "arg" + std::to_string(index) + ".bin"; }
std::string simulatedBufferFile(size_t index) { return "arg" + std::to_string(index) + ".sim.bin"; }
std::string runBufferFile(unsigned run, size_t index) {
  return "run" + std::to_string(run) + ".arg" + std::to_string(index) + ".bin";
}

uint32_t parameterBytes(const ir::ParamInfo &param) {
  switch (param.kind) {
  case ir::ValueKind::Pointer:
    return 8;
  case ir::ValueKind::Aggregate:
    return param.byValueBytes;
  case ir::ValueKind::Int:
  case ir::ValueKind::Float:
    break;
  }
  return std::max<uint32_t>(1, (param.bits + 7) / 8);
}

Result<std::string> harnessSource(const HarnessInput &input) {
  const ir::KernelInfo &kernel = *input.kernel;
  Result<std::string> expression = kernelExpression(kernel);
  if (!expression)
    return expression.error();
  if (input.arguments.size() != kernel.params.size())
    return makeError("harness: " + std::to_string(input.arguments.size()) +
                     " argument values for " + std::to_string(kernel.params.size()) +
                     " parameters");
  for (const DeviceVariable &variable : input.deviceVariables)
    if (!isIdentifier(variable.name))
      return makeError("harness: cannot name __device__ variable '" + variable.name + "'");

  std::ostringstream out;
  out << "// Generated by `simulee replay`: one launch of kernel '" << kernel.sourceName
      << "' on a GPU.\n"
      << "// The kernel's own source is included unchanged (its main, if any, renamed);\n"
      << "// the buffers it starts from are argN.bin in the directory given as the first\n"
      << "// argument. Usage: harness DIR RUNS [PREFIX]; after run K, buffer N is in\n"
      << "// PREFIXK.argN.bin (PREFIX: \"run\").\n"
      << "#define main simulee_replay_source_main\n"
      << "#include " << quoted(input.sourcePath) << "\n"
      << "#undef main\n\n"
      << "#include <cuda_runtime.h>\n\n"
      << "#include <cstdio>\n#include <cstdlib>\n#include <cstring>\n#include <string>\n"
      << "#include <tuple>\n#include <utility>\n#include <vector>\n\n"
      << "namespace simulee_replay {\n"
      << "constexpr int kNoGpu = " << kHarnessNoGpu << ";\n"
      << "constexpr int kKernelFailed = " << kHarnessKernelFailed << ";\n"
      << "constexpr int kSetupFailed = " << kHarnessSetupFailed << ";\n"
      << "const dim3 kGrid = " << dim3Text(input.config.grid) << ";\n"
      << "const dim3 kBlock = " << dim3Text(input.config.block) << ";\n"
      << "const size_t kSharedBytes = " << input.config.dynamicSharedBytes << ";\n"
      << "constexpr int kParamCount = " << kernel.params.size() << ";\n"
      << "#define kKernel (" << *expression << ")\n"
      << "} // namespace simulee_replay\n";

  // The parameter table goes into the fixed part, after the Param type.
  std::string runtime = kRuntimePart;
  std::ostringstream table;
  table << "const Param kParams[] = {\n";
  for (size_t i = 0; i < kernel.params.size(); ++i) {
    const ir::ParamInfo &param = kernel.params[i];
    const interp::ArgumentValue &value = input.arguments[i];
    const char *kind = param.kind == ir::ValueKind::Pointer     ? "kBuffer"
                       : param.kind == ir::ValueKind::Aggregate ? "kByValue"
                                                                : "kScalar";
    uint64_t bits = value.kind == interp::ArgumentValue::Kind::Scalar ? value.bits : 0;
    uint32_t into = 0;
    // A pointer into another parameter's buffer (session's same:NAME).
    if (param.kind == ir::ValueKind::Pointer && value.kind == interp::ArgumentValue::Kind::Scalar) {
      ir::DecodedPointer pointer = ir::decodePointer(value.bits);
      if (!pointer.isNull && pointer.space == ir::PointerSpace::Global &&
          pointer.buffer < kernel.params.size()) {
        kind = "kPointerInto";
        bits = uint64_t(pointer.offset);
        into = pointer.buffer;
      }
    }
    table << "    {" << quoted(param.name) << ", " << kind << ", " << parameterBytes(param) << ", "
          << hexBits(bits) << ", " << into << "},\n";
  }
  table << "    {nullptr, kScalar, 0, 0, 0}, // keeps the array non-empty\n};\n";
  const std::string marker = "std::string directory;";
  size_t at = runtime.find(marker);
  runtime.insert(at, table.str() + "\n");
  return out.str() + "\n" + resetFunction(input.deviceVariables) + runtime;
}

} // namespace simulee::replay
