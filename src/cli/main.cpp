// The `simulee` command: option parsing and dispatch. The work is done by the
// session layer (session/Analysis.h); this file only turns words into
// settings. Options are global: they may stand before or after the command
// and the file (`simulee -I D run FILE` is `simulee run FILE -I D`).
#include "cli/Commands.h"
#include "cli/Exec.h"
#include "cli/Replay.h"
#include "cli/StrictOptions.h"

#include <CLI/CLI.hpp>

#include <iostream>

using namespace simulee;
using namespace simulee::cli;

namespace {

// A repeatable option that takes exactly one value per occurrence, so that
// `-I DIR FILE` never swallows FILE.
template <typename T>
CLI::Option *addRepeatable(CLI::App &app, const std::string &names, T &values,
                           const std::string &help) {
  return app.add_option(names, values, help)->allow_extra_args(false)->expected(1)->take_all();
}

void addCommonOptions(CLI::App &app, CommonOptions &common) {
  app.add_option("--format,-f", common.format, "Output format: text (default), json or sarif")
      ->check(CLI::IsMember({"text", "json", "sarif"}));
  app.add_option("--output,-o", common.output,
                 "Write the report to this file instead of standard output");
  app.add_option("--record", common.record,
                 "Memory-Access Model representation: auto (default), full (every tuple) or "
                 "summary (constant size per address)")
      ->check(CLI::IsMember({"auto", "full", "summary"}));
  app.add_flag("--lockstep", common.lockstep,
               "Pre-Volta warp semantics (the Simulee paper's): lanes of a warp executing in "
               "lockstep are ordered, so warp-synchronous code is race-free. The default is "
               "independent thread scheduling (Volta and later), where only __syncwarp, "
               "barriers and the *_sync warp intrinsics order lanes of a warp");
  app.add_flag("--independent-threads", common.independentThreads,
               "Independent thread scheduling: the default; accepted for compatibility");
  app.add_flag("--strict", common.strict,
               "Report same-value races (every racing write stores the same value) as warnings "
               "instead of notes");
  app.add_flag("--repair", common.repair,
               "Propose a repair for each data race, read-write-write and check-then-act "
               "atomicity violation and redundant barrier (insert __syncthreads()/__syncwarp(), "
               "make an access atomic, fuse a read and write-back into one atomicAdd, turn a read "
               "and a write that depends on it into a compare-and-swap loop, remove the "
               "barrier), apply it to a "
               "copy of the kernel's IR and re-simulate the finding's launch and the search's best "
               "one; only repairs after which the finding is gone and nothing new appears are "
               "shown");
  app.add_option("--budget", common.budgetInstrs,
                 "Instructions per thread before a launch is declared non-terminating "
                 "(default 1048576 in a searched launch; 16777216 in a launch no search "
                 "chose, the program's own or `run`'s, while --launch-seconds bounds it, so "
                 "that long loops are judged, or more where the launch has few threads: "
                 "2^30 for all its threads together; under exec 4294967296)");
  app.add_option("--max-cost", common.maxCostInstrs,
                 "Thread-instructions a searched launch may cost (default 4194304); a costlier "
                 "launch is shrunk (fewer blocks) and run again, else skipped as too costly. "
                 "By default, where every launch searched at a call site costs more (the "
                 "program's sizes), the first is judged once as the program's own launch is; "
                 "given, the cap holds for every searched launch. "
                 "Launches no search chose (the program's own, whose every dimension and "
                 "number the call site or the command line fixes, and `run`'s) have no such "
                 "cap: see --launch-seconds")
      ->check(CLI::Range(uint64_t(1), uint64_t(1) << 40));
  app.add_option("--launch-seconds", common.launchSeconds,
                 "Seconds a launch no search chose may run (default 30; 0: no limit), counted "
                 "in CPU time per simulating thread, so that a loaded machine gives the same "
                 "verdict: the program's own launch and `run`'s are judged at their full size "
                 "if they end within it, else the verdict says where the budget cut them "
                 "short. Under exec a launch is never cut short")
      ->check(CLI::Range(0.0, 1e9));
  app.add_option("--engine", common.engine,
                 "What runs the kernel's instructions: `interp`, the interpreter alone; "
                 "`compiled`, native code compiled from the kernel (LLVM's JIT) for every "
                 "function from its first instruction; `auto` (the default), the interpreter "
                 "until a function has run long (over every launch of the file), then its "
                 "compiled code. Both engines give the same results and findings")
      ->check(CLI::IsMember({"auto", "interp", "compiled"}));
  app.add_flag("--all-blocks", common.allBlocks,
               "Keep every access of every block in the model. By default an access no other "
               "thread's access can conflict with is counted but not kept: one through a "
               "pointer parameter nothing writes through (read-only), or one whose address "
               "is a fixed multiple of blockIdx.x * blockDim.x + threadIdx.x (thread-private, "
               "in one-dimensional launches); and in a launch of 32 blocks or more, a block "
               "whose shared-memory behaviour repeats an earlier block's exactly has only its "
               "global memory modelled (the verdict counts the blocks modelled). The findings "
               "are the same; this is for checking that");
  app.add_option("--shared-bytes", common.sharedBytes, "Dynamic shared memory bytes per block");
  app.add_option("-O", common.optLevel,
                 "Optimisation level for .cu files: 0 (default) keeps every memory access; 1-3 "
                 "let clang delete racy stores")
      ->check(CLI::Range(0, 3));
  addRepeatable(app, "-D", common.defines,
                "Preprocessor definition for .cu files (NAME[=VALUE]); repeatable");
  addRepeatable(app, "-I", common.includes, "Include directory for .cu files; repeatable");
  addRepeatable(app, "--link", common.linkFiles,
                "Link this file's device code into the analysed file's (.cu compiled with "
                "relocatable device code, -fgpu-rdc; or .ll/.bc), so that kernels calling "
                "__device__ functions defined there run them; repeatable. `simulee A.cu B.cu` "
                "is `simulee A.cu --link B.cu`. The file's host code (a .cu, or a C++ file "
                "with no device code: .cpp, .cc, .cxx) is the program's too: its calls of "
                "launchers the analysed file defines, and its launches of the kernels it "
                "defines, are read as that file's call sites");
  app.add_option("--cuda-path", common.cudaPath,
                 "CUDA installation to compile .cu files against (default: NVIDIA's headers "
                 "that scripts/setup.sh installed; a toolkit on the machine is used only when "
                 "named here)");
  app.add_flag("--color,!--no-color", common.color,
               "Colour the text report (default: when standard output is a terminal)");
  app.add_flag("--quiet,-q", common.quiet, "No progress or notes on standard error");
}

void addLaunchOptions(CLI::App &app, LaunchOptions &launch) {
  app.add_option("--kernel,-k", launch.kernel,
                 "Kernel to analyse (source or mangled name; an overload by its parameters, "
                 "'scale(double*, int)', as its verdict names it); default: every kernel of the "
                 "file (`run`: the only one)");
  app.add_option("--grid,-g", launch.grid,
                 "Grid dimensions X[,Y[,Z]] (search: fixed instead of searched)");
  app.add_option("--block,-b", launch.block,
                 "Block dimensions X[,Y[,Z]] (search: fixed instead of searched)");
  addRepeatable(
      app, "--arg,-a", launch.args,
      "Argument NAME=VALUE (NAME: source name or 0-based position). VALUE: a scalar, "
      "FILL:N (N elements of the pointee type; FILL: random, zeros, small (0..7), "
      "binary (0/1), sorted, indices (inside the smallest other buffer), perm "
      "(a permutation of 0..N-1), prefix (CSR-style offsets), keys (values the kernel's "
      "keyed accesses of fixed-size arrays stay in bounds for: letters for "
      "bins[(c - 'a') / 4])), FILL:N+K (the pointer K "
      "elements into such a buffer), same:OTHER[+K] (a pointer into pointer parameter "
      "OTHER's buffer, K of its own elements in, as a host passing one allocation twice "
      "does) or @PATH (raw bytes); STRUCT.MEMBER=VALUE sets "
      "a number inside a by-value struct argument, STRUCT.MEMBER=FILL:N the buffer a "
      "pointer inside it points to (never grown: an access past it is out of bounds); "
      "for a pointer to structs (or a reference) P.MEMBER=FILL:N gives each struct's "
      "pointer N elements, and for a pointer to pointers P[]=FILL:N each pointer. "
      "A cudaTextureObject_t/cudaSurfaceObject_t parameter takes KIND:EXTENT[:OPTION]...: "
      "KIND tex1d|tex2d|tex3d|surf1d|surf2d|surf3d, EXTENT W[xH[xD]] texels, OPTIONs "
      "the texel type (float, int, uint, short, ushort, char, uchar, with 2 or 4 "
      "channels as in float4; default float), point|linear filtering, "
      "clamp|wrap|mirror|border addressing, normalized (coordinates in [0,1)), "
      "float-read (8/16-bit integers read as [0,1]), a fill (random, zeros, ...), "
      "@PATH (raw texels) or alias=PARAM (the texels are pointer PARAM's buffer), "
      "e.g. tex2d:64x32:float:linear; not given: an automatic "
      "float texture, point-sampled and clamped. "
      "Repeatable; a fixed argument is never searched");
  app.add_option("--seed", launch.seed,
                 "Seed for the search and for automatic buffer contents (default 1); the same "
                 "seed gives the same findings and output");
}

void addSearchOptions(CLI::App &app, SearchOptions &search) {
  app.add_option("--population", search.population, "Solutions kept per generation (default 10)")
      ->check(CLI::Range(1, 1000));
  app.add_option("--generations", search.generations, "Generations to evolve (default 10)")
      ->check(CLI::Range(0, 10000));
  app.add_option("--accept", search.accept,
                 "Stop when the access ratio F drops below this (default 0.3)")
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("--jobs,-j", search.jobs,
                 "Work in parallel (default 0: one per core): launches of a search, files of "
                 "a scan, and the blocks of one launch (`run`'s, `exec`'s, a call site's "
                 "fixed launch), with the same results whatever the number");
  app.add_option("--max-threads", search.maxThreads,
                 "Largest total thread count of a searched launch (default 4096)")
      ->check(CLI::Range(1, 1 << 24));
  app.add_flag("--explore", search.explore,
               "Ignore the launches the file's host code makes (its call sites) and the block "
               "shape the kernel's code implies (CUB collectives' template arguments, a "
               "shared array stored at [threadIdx.x]) and search every launch shape, as for "
               "a kernel whose callers are elsewhere (kernels of NVIDIA's libraries, CUB and "
               "Thrust, keep the block their dispatch launches them with); kernels the host "
               "code never "
               "launches are searched too, and findings seen only outside CUDA's conventions "
               "(blocks not a multiple of 32, sizes of 0 or less, a pitch below the width) are "
               "warnings. By default a "
               "kernel with call sites is searched inside what each site allows (its "
               "constants, formulas, allocations and conditions), one the host code never "
               "launches is 'not launched', and such findings are notes");
  app.add_option("--save-launch", search.saveLaunch,
                 "Write the launch that exposed the first finding (else the fittest launch) as "
                 "JSON, for `simulee run FILE --launch PATH`");
  app.add_flag("--replay", search.replay,
               "Re-run every finding's launch on an NVIDIA GPU (nvcc needed) and say whether "
               "the GPU confirms it; see `simulee replay --help`");
  app.add_option("--replay-dir", search.replayDirectory,
                 "Where --replay writes its harnesses (default simulee-replay)");
}

} // namespace

int main(int argc, char **argv) {
  ExecOptions exec;
  exec.programArgs = splitProgramArguments(argc, argv);
  std::vector<std::string> arguments = nvccFlagsAsOptions(argc, argv);
  std::vector<char *> argumentPointers;
  for (std::string &argument : arguments)
    argumentPointers.push_back(argument.data());
  argc = int(argumentPointers.size());
  argumentPointers.push_back(nullptr);
  argv = argumentPointers.data();
  CLI::App app{
      "simulee finds data races, redundant barriers and barrier divergence in CUDA kernels by "
      "simulating every GPU thread on the CPU (no GPU, no CUDA toolkit).\n\n"
      "  simulee FILE [options]       search launch settings and report findings\n"
      "  simulee run FILE [options]   one launch with the given settings\n"
      "  simulee list FILE            the kernels in a file and where its host code launches "
      "them\n"
      "  simulee scan DIR [options]   every kernel file under DIR\n"
      "  simulee replay FILE --launch L.json   a launch on a real GPU\n"
      "  simulee exec PROGRAM.cu [FILES] [-- ARGS]   run a whole CUDA program on simulee's "
      "runtime, checking every launch it makes\n\n"
      "FILE is .cu (compiled by clang 19 against NVIDIA's CUDA 12.4 headers), .ll or .bc. Options "
      "may stand before or after the command and the file.\n\n"
      "Every kernel gets a verdict: clean (with the number of launches judged), findings, "
      "inconclusive (no launch could be judged: out of bounds, too costly, non-terminating or "
      "failed, each counted) or error (could not be compiled, loaded or lowered).\n"
      "Exit status: 0 every kernel clean; 1 findings; 2 error (nothing analysed) or bad usage; "
      "3 some kernel inconclusive or in error and nothing found."};
  app.require_subcommand(0, 1);
  // One line, like every other error (exit status 2 is set below).
  app.failure_message([](const CLI::App *, const CLI::Error &e) {
    return std::string("simulee: error: ") + e.what() + " (see --help)\n";
  });

  CommonOptions common;
  LaunchOptions launch;
  SearchOptions search;
  std::vector<std::string> files;
  app.add_option("file", files,
                 "Kernel file to search and analyse (.cu, .ll, .bc); further files are linked "
                 "into it (--link), and their host code (.cu, .cpp, .cc, .cxx) is read for "
                 "calls of its launchers");
  addCommonOptions(app, common);
  addLaunchOptions(app, launch);
  addSearchOptions(app, search);

  // Subcommands own their positional argument and their few own options;
  // every other option falls through to the global ones above.
  std::string listFile;
  CLI::App *list = app.add_subcommand("list", "List the kernels in a file and their parameters");
  list->add_option("file", listFile, "Kernel file (.cu, .ll, .bc)")->required();

  RunOptions run;
  CLI::App *runApp =
      app.add_subcommand("run", "Simulate one launch with the given settings (no search)");
  runApp->add_option("file", run.file, "Kernel file (.cu, .ll, .bc)")->required();
  addRepeatable(*runApp, "--dump", run.dumps,
                "After the run, write buffer NAME's bytes to PATH (NAME=PATH); repeatable");
  runApp->add_option("--launch", run.launchFile,
                     "Replay a launch saved by --save-launch (other options override it)");

  ReplayCommandOptions replay;
  CLI::App *replayApp = app.add_subcommand(
      "replay", "Re-run a saved launch on an NVIDIA GPU: build a harness with nvcc, run it, "
                "compare with the simulation, confirm findings");
  addReplayOptions(*replayApp, replay);

  ScanOptions scan;
  CLI::App *scanApp = app.add_subcommand(
      "scan", "Analyse every kernel file (.cu, .ll, .bc) under a directory, in parallel, with a "
              "summary table on standard error");
  scanApp->add_option("dir", scan.dir, "Directory to scan recursively")->required();

  CLI::App *execApp = app.add_subcommand(
      "exec", "Build a whole CUDA program (its .cu and .cpp files) against simulee's CUDA "
              "runtime and run it: every kernel launch it makes is simulated with its real "
              "grid, block, arguments and memory and checked like `simulee run`. The program's "
              "output is its own; the report goes to standard error (or -o). Arguments after "
              "`--` go to the program. Exit status: the program's own when nothing was found, "
              "1 with findings, 3 when nothing was found but some launch could not be judged "
              "(it did not terminate), 2 when the program could not be built or simulated");
  execApp->add_option("files", exec.files, "The program's files: .cu, .cpp/.cc/.cxx, .c, .o, .a")
      ->required();
  addRepeatable(*execApp, "-l", exec.libraries, "Link with library NAME; repeatable");
  addRepeatable(*execApp, "-L", exec.libraryDirs, "Library directory for -l; repeatable");
  execApp->add_option("--exit-status", exec.exitStatus,
                      "findings (default): exit 1 when anything was found, 3 when some launch "
                      "could not be judged, else the program's exit status; program: always the "
                      "program's exit status")
      ->check(CLI::IsMember({"findings", "program"}));
  execApp->add_option("--search", exec.searchGenerations,
                      "After the program ends, mutate each kernel's first launch at each call "
                      "site for N generations (dimensions by -1/0/+1, scalar arguments by normal "
                      "and Cauchy steps) on copies of the memory it started from, and report "
                      "what the mutants find (default 0: off)")
      ->check(CLI::Range(0, 1000));
  execApp->add_option("--sm", exec.computeCapability,
                      "Compute capability the simulated device reports to "
                      "cudaGetDeviceProperties and cudaDeviceGetAttribute (default 80: sm_80). "
                      "The simulation's limits stay the interpreter's (1024 threads and 48 KiB "
                      "of dynamic shared memory per block, up to 163 KiB for a kernel that opts in "
                      "with cudaFuncSetAttribute)")
      ->check(CLI::Range(30, 120));
  execApp->add_option("--checked-launches", exec.checkedLaunches,
                      "Launches of one kernel with one grid, block and shared-memory size that "
                      "are fully checked (default 3); the later ones, the same work on new data, "
                      "still run whole but are checked only for out-of-bounds accesses, "
                      "undefined behaviour, barrier divergence and reads of never-written "
                      "device memory, and the report counts them")
      ->check(CLI::Range(1u, 1000000000u));
  execApp->add_flag("--check-all", exec.checkAll,
                    "Fully check every launch (races, barriers, uninitialized reads), however "
                    "many times the program repeats it");
  execApp->add_option("--std", exec.standard,
                      "C++ standard of the program's .cu and C++ files, as nvcc's -std "
                      "(c++11, c++14, c++17, c++20; default clang's, c++17)");
  addRepeatable(*execApp, "--Xcompiler", exec.hostFlags,
                "Options for the host compiler, comma-separated, as nvcc's -Xcompiler "
                "(--compiler-options); also given at the link. -fopenmp is "
                "--Xcompiler=-fopenmp: OpenMP host code builds with clang's OpenMP; repeatable");
  addRepeatable(*execApp, "--Xlinker", exec.linkerFlags,
                "Options for the linker, comma-separated, as nvcc's -Xlinker; repeatable. "
                "nvcc's code-generation flags (-arch, -gencode, -code, -lineinfo, -G, "
                "-use_fast_math, --expt-relaxed-constexpr, --extended-lambda, -rdc, -m64) are "
                "accepted and change nothing");
  execApp->add_flag("--keep-build", exec.keepBuild,
                    "Keep the temporary build directory (objects, the executable) and print "
                    "its path");

  for (CLI::App *sub : {list, runApp, scanApp, replayApp, execApp}) {
    sub->fallthrough();
    sub->footer("\nEvery option of `simulee --help` applies here too, before or after the file.\n");
  }

  std::string maxMemory;
  addMaxMemoryOption(app, maxMemory);
  requireStrictNumbers(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    int code = app.exit(e);
    return code == 0 ? 0 : kExitError;
  }
  common.jobs = search.jobs;
  if (Status limited = applyMaxMemory(maxMemory); !limited) {
    std::cerr << "simulee: error: " << limited.error().message << "\n";
    return kExitError;
  }
  // `simulee run A.cu B.cu`: the files after the command's own are linked in.
  if (*list || *runApp)
    common.linkFiles.insert(common.linkFiles.end(), files.begin(), files.end());
  if (*list)
    return listKernels(listFile, common);
  if (*runApp)
    return runOnce(run, common, launch);
  if (*scanApp) {
    scan.jobs = search.jobs;
    return scanDirectory(scan, common, launch, search);
  }
  if (*execApp)
    return execProgram(exec, common);
  if (*replayApp) {
    replay.common = common;
    if (replay.kernel.empty())
      replay.kernel = launch.kernel;
    return replayCommand(replay);
  }
  if (files.empty()) {
    std::cout << app.help();
    return kExitError;
  }
  common.linkFiles.insert(common.linkFiles.end(), files.begin() + 1, files.end());
  return searchFile(files.front(), common, launch, search);
}
