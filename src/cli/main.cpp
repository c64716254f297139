// The `simulee` command. Subcommands: list, run, scan; with none, search +
// detect on a file. Errors print one line and exit 2.
#include "interp/Interpreter.h"
#include "ir/Loader.h"
#include "session/Arguments.h"

#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>

using namespace simulee;

namespace {

constexpr int kExitError = 2;

int fail(const std::string &message) {
  std::cerr << "simulee: error: " << message << "\n";
  return kExitError;
}

Result<interp::Dim3> parseDim3(const std::string &text, const char *what) {
  interp::Dim3 d;
  uint32_t *parts[] = {&d.x, &d.y, &d.z};
  size_t start = 0;
  for (int i = 0; i < 3 && start <= text.size(); ++i) {
    size_t comma = text.find(',', start);
    std::string piece = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    char *end = nullptr;
    unsigned long value = std::strtoul(piece.c_str(), &end, 10);
    if (piece.empty() || *end != '\0' || value == 0 || value > 0xffffffffu)
      return makeError(std::string("bad ") + what + " '" + text +
                       "': expected X[,Y[,Z]] with positive integers");
    *parts[i] = uint32_t(value);
    if (comma == std::string::npos)
      return d;
    start = comma + 1;
  }
  return makeError(std::string("bad ") + what + " '" + text + "': at most three dimensions");
}

Result<const ir::KernelInfo *> selectKernel(const ir::Program &program, const std::string &name) {
  if (!name.empty()) {
    if (const ir::KernelInfo *kernel = program.findKernel(name))
      return kernel;
    std::string known;
    for (const ir::KernelInfo &k : program.kernels)
      known += (known.empty() ? "" : ", ") + k.sourceName;
    return makeError(program.path + ": no kernel named '" + name + "' (kernels: " + known + ")");
  }
  if (program.kernels.size() == 1)
    return &program.kernels[0];
  std::string known;
  for (const ir::KernelInfo &k : program.kernels)
    known += (known.empty() ? "" : ", ") + k.sourceName;
  return makeError(program.path + ": several kernels (" + known + "); choose one with --kernel");
}

int listKernels(const std::string &file, const ir::LoadOptions &loadOptions) {
  Result<ir::Program> program = ir::loadProgram(file, loadOptions);
  if (!program)
    return fail(program.error().message);
  for (const ir::KernelInfo &kernel : program->kernels) {
    std::cout << kernel.sourceName << "(";
    for (size_t i = 0; i < kernel.params.size(); ++i)
      std::cout << (i ? ", " : "") << kernel.params[i].name;
    std::cout << ")";
    if (kernel.name != kernel.sourceName)
      std::cout << "  [" << kernel.name << "]";
    if (kernel.location.known())
      std::cout << "  " << kernel.location.file << ":" << kernel.location.line;
    std::cout << "\n";
  }
  return 0;
}

struct RunCommand {
  std::string file, kernel, grid = "1", block = "32";
  std::vector<std::string> args, dumps;
  uint32_t sharedBytes = 0;
  uint64_t seed = 1;
  uint64_t budget = 1u << 22;
};

int runOnce(const RunCommand &cmd, const ir::LoadOptions &loadOptions) {
  Result<ir::Program> program = ir::loadProgram(cmd.file, loadOptions);
  if (!program)
    return fail(program.error().message);
  Result<const ir::KernelInfo *> kernel = selectKernel(*program, cmd.kernel);
  if (!kernel)
    return fail(kernel.error().message);
  const ir::KernelInfo &k = **kernel;
  std::string prefix = cmd.file + ": kernel '" + k.sourceName + "': ";

  interp::LaunchConfig config;
  Result<interp::Dim3> grid = parseDim3(cmd.grid, "--grid");
  Result<interp::Dim3> block = parseDim3(cmd.block, "--block");
  if (!grid)
    return fail(prefix + grid.error().message);
  if (!block)
    return fail(prefix + block.error().message);
  config.grid = *grid;
  config.block = *block;
  config.dynamicSharedBytes = cmd.sharedBytes;
  config.budgetInstrs = cmd.budget;
  if (Status valid = interp::validateLaunch(config); !valid)
    return fail(prefix + valid.error().message);

  std::vector<session::ArgumentSpec> specs;
  for (const std::string &text : cmd.args) {
    Result<session::ArgumentSpec> spec = session::parseArgumentSpec(text);
    if (!spec)
      return fail(prefix + spec.error().message);
    specs.push_back(*spec);
  }
  std::vector<std::pair<size_t, std::string>> dumps;
  for (const std::string &text : cmd.dumps) {
    Result<session::ArgumentSpec> spec = session::parseArgumentSpec(text);
    if (!spec)
      return fail(prefix + "--dump '" + text + "': expected NAME=PATH");
    Result<size_t> index = session::findParameter(k, spec->name);
    if (!index)
      return fail(prefix + index.error().message);
    if (k.params[*index].kind != ir::ValueKind::Pointer)
      return fail(prefix + "--dump: parameter '" + spec->name + "' is not a buffer");
    dumps.push_back({*index, spec->value});
  }
  Result<session::BuiltArguments> built = session::buildArguments(k, config, specs, cmd.seed);
  if (!built)
    return fail(prefix + built.error().message);

  Result<interp::RunStats> stats = interp::runKernel(*program, k, config, built->values);
  if (!stats)
    return fail(stats.error().message);
  for (auto &[index, path] : dumps) {
    std::ofstream out(path, std::ios::binary);
    const std::vector<uint8_t> &bytes = built->values[index].bytes;
    out.write(reinterpret_cast<const char *>(bytes.data()), std::streamsize(bytes.size()));
    if (!out)
      return fail(prefix + "cannot write '" + path + "'");
  }
  std::cerr << "simulee: ran " << k.sourceName << " grid " << interp::formatDim3(config.grid)
            << " block " << interp::formatDim3(config.block) << ": " << stats->threadInstrs
            << " thread-instructions\n";
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  CLI::App app{"simulee: finds data races, redundant barriers and barrier divergence in CUDA "
               "kernels by simulating every thread, without a GPU"};
  app.require_subcommand(0, 1);
  ir::LoadOptions loadOptions;
  app.add_option("-O", loadOptions.optLevel,
                 "Optimisation level for .cu files (default 0: keeps every access; 1-3 let clang "
                 "delete racy stores)")
      ->check(CLI::Range(0, 3));

  std::string listFile;
  CLI::App *list = app.add_subcommand("list", "List the kernels in a file");
  list->add_option("file", listFile, "Kernel file (.cu, .ll, .bc)")->required();

  RunCommand run;
  CLI::App *runApp = app.add_subcommand("run", "Run one launch with the given settings, no search");
  runApp->add_option("file", run.file, "Kernel file (.cu, .ll, .bc)")->required();
  runApp->add_option("--kernel,-k", run.kernel, "Kernel to run (source or mangled name)");
  runApp->add_option("--grid,-g", run.grid, "Grid dimensions X[,Y[,Z]] (default 1)");
  runApp->add_option("--block,-b", run.block, "Block dimensions X[,Y[,Z]] (default 32)");
  runApp->add_option("--arg,-a", run.args,
                     "Argument NAME=VALUE (NAME: source name or position). VALUE: a scalar, "
                     "zeros:N, random:N (N elements) or @PATH (raw bytes); repeatable");
  runApp->add_option("--dump", run.dumps, "Write buffer NAME's final bytes to PATH (NAME=PATH)");
  runApp->add_option("--shared-bytes", run.sharedBytes, "Dynamic shared memory per block");
  runApp->add_option("--seed", run.seed, "Seed for automatic buffer contents (default 1)");
  runApp->add_option("--budget", run.budget,
                     "Instructions per thread before the run is declared non-terminating");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    int code = app.exit(e);
    return code == 0 ? 0 : kExitError;
  }
  if (*list)
    return listKernels(listFile, loadOptions);
  if (*runApp)
    return runOnce(run, loadOptions);
  std::cout << app.help();
  return 0;
}
