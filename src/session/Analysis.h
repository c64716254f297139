// The whole pipeline for one kernel: one launch (`simulee run`) or the
// evolutionary search over launches (`simulee FILE`), each simulated with a
// Memory-Access Model attached and judged by the detectors. The CLI and the
// Python module call only this and the part headers it includes.
#pragma once

#include "detect/Finding.h"
#include "detect/Verdict.h"
#include "evo/Search.h"
#include "interp/Interpreter.h"
#include "interp/Launch.h"
#include "ir/Program.h"
#include "memmodel/MemoryModel.h"
#include "report/Report.h"
#include "session/Arguments.h"
#include "support/Result.h"

#include <atomic>
#include <functional>
#include <optional>
#include <vector>

namespace simulee::session {

struct AnalysisOptions {
  memmodel::Representation representation = memmodel::Representation::Auto;
  // Volta-and-later warp semantics (the default): lanes of a warp are ordered
  // only by __syncwarp, barriers and synchronising warp intrinsics. false =
  // the paper's pre-Volta lockstep semantics (--lockstep).
  bool independentThreads = true;
  // Same-value races are warnings (default: notes, not counted as bugs).
  bool strict = false;
  uint64_t budgetInstrs = 1u << 20; // per thread, in a searched launch
  // Per thread in a launch no search chose, which launchSeconds bounds as a
  // whole: a kernel whose threads loop long (a benchmark's million
  // iterations) is judged, not called non-terminating, while a loop that
  // never ends is still stopped in about a second. Where launchSeconds is 0
  // (no time limit) budgetInstrs holds instead.
  uint64_t soloBudgetInstrs = uint64_t(1) << 24;
  // ... and, in such a launch of few threads, as many as leave its threads
  // this many instructions together: a launch of one thread running a loop
  // over 32M elements is judged (in a few seconds), not called
  // non-terminating. 0 where the user gave --budget (it holds).
  uint64_t soloLaunchInstrs = uint64_t(1) << 30;
  // Searched launches only: a launch costing more thread-instructions than
  // this is shrunk (fewer blocks) and run again; if it still costs too much
  // it is skipped as too costly and ranks last (--max-cost).
  uint64_t searchLaunchBudgetInstrs = uint64_t(1) << 22;
  // Where every launch a search at a call site ran was over that cap (the
  // site's sizes are the program's; what the search chooses leaves the
  // work as it is, a grid from an occupancy query), the first of them is
  // judged once as the program's own launch is, within launchSeconds, so
  // that the kernel is judged at all. false: the cap holds (the user gave
  // --max-cost).
  bool judgeOneOverTheCap = true;
  // A launch no search chose (the program's own, whose every dimension and
  // number the call site or the user fixes; `simulee run`'s) is judged at
  // its full size, however many thread-instructions that takes, if it ends
  // within this many seconds (--launch-seconds); 0 = no limit. Launches
  // under `simulee exec` have none: the program needs their results.
  double launchSeconds = 30;
  // Cheaper checks (`simulee exec`'s launches beyond the first few of a kernel
  // and shape): no access is recorded, so only out-of-bounds accesses,
  // undefined behaviour and barrier divergence are found
  // (memmodel::ModelOptions::recordAccesses).
  bool lightChecks = false;
  // Every access of every block in the model (--all-blocks). Off (the
  // default), accesses proven free of conflicts with other threads'
  // (interp::untrackedInstructions) are counted but not kept, and so are the
  // shared accesses of a block repeating an earlier one
  // (memmodel/RepresentativeBlocks.h): the same findings, in less time and
  // memory.
  bool allBlocks = false;
  // A search ranks the launches it simulates by figures the model keeps
  // (a word per accessed byte): false for a launch judged alone, which
  // nothing ranks.
  bool rankLaunches = true;
  // Threads the blocks of one launch run on (interp::RunOptions::jobs, 0 =
  // one per hardware thread): the program's own launch, `simulee run`'s and
  // `exec`'s; a search's launches run side by side instead, each on one.
  unsigned blockJobs = 1;
  // Which engine runs the launches (--engine): both give the same findings.
  interp::Engine engine = interp::Engine::Auto;

  // Optional hooks for the Python module (null/empty: none, no cost).
  // Every interpreter event also goes to `observer`; with a search of more
  // than one job it is called from several threads at once.
  interp::ExecutionListener *observer = nullptr;
  // Called with each simulated launch's model once the launch has ended.
  std::function<void(const memmodel::MemoryModel &)> onModel;
  // Set from another thread to stop early; the call then fails with
  // interp::kInterrupted.
  const std::atomic<bool> *cancel = nullptr;
};

// One launch's settings as the user gave them.
struct LaunchSpec {
  interp::LaunchConfig config;
  std::vector<ArgumentSpec> args;
  uint64_t seed = 1; // automatic and random:N buffer contents
};

struct KernelAnalysis {
  const ir::KernelInfo *kernel = nullptr;
  // Variables named; one per bug: grouped by kind and source lines, with
  // occurrence counts.
  std::vector<detect::Finding> findings;
  detect::Verdict verdict = detect::Verdict::Inconclusive;
  // Judged launches, and the skipped ones by reason. Searched launches that
  // went out of bounds break the kernel's size assumptions: skipped.
  detect::LaunchCounts counts;
  uint64_t threadInstrs = 0;
  std::string firstLaunchError; // the first launch that failed, ran too long or cost too much
  std::optional<detect::LaunchRecord> bestLaunch; // search: the fittest launch
  // The call sites the search started from (searchAtSites); none = free search.
  std::vector<detect::LaunchOrigin> sites;
  // Where the judged launches came from; every finding's launch says the same.
  detect::Provenance provenance = detect::Provenance::Free;
  // What the search assumed beyond the user's and the sites' settings (the
  // block shape a CUB collective fixes), for the verdict.
  std::vector<std::string> notes;
  double bestRatio = 1.0;
  // analyzeLaunch: every argument after the launch (buffers as the kernel
  // left them), for --dump and the Python API.
  std::vector<interp::ArgumentValue> arguments;
};

// Runs one launch and judges it (`simulee run`). Errors: bad arguments, an
// unsupported instruction. A launch that does not terminate (or fails while
// running) is an inconclusive verdict with the cause in firstLaunchError.
// A GPU refuses a launch of more threads per block than the kernel's
// __launch_bounds__: so does simulee.
Status checkLaunchBounds(const ir::KernelInfo &kernel, const interp::Dim3 &block);

Result<KernelAnalysis> analyzeLaunch(const ir::Program &program, const ir::KernelInfo &kernel,
                                     const LaunchSpec &launch, const AnalysisOptions &options);

// A launch a whole program makes (`simulee exec`): its real settings, its
// argument values (pointers already encoded into `memory`'s buffers) and the
// program's device memory, which the launch reads and writes in place.
struct BoundLaunch {
  interp::LaunchConfig config;
  std::vector<interp::ArgumentValue> values;
  interp::BoundMemory *memory = nullptr;
  detect::LaunchRecord record; // how findings describe the launch
  // The allocations (BoundMemory indices) the redundant-barrier re-check
  // copies; none: all. Those left out are unbound in the re-check, which can
  // then only keep a barrier (never call one redundant wrongly).
  std::optional<std::vector<uint32_t>> recheckAllocations;
};

// Runs a bound launch and judges it, like analyzeLaunch. The redundant-barrier
// re-check runs it again on a copy of the memory it could reach.
Result<KernelAnalysis> analyzeBoundLaunch(const ir::Program &program, const ir::KernelInfo &kernel,
                                          BoundLaunch &launch, const AnalysisOptions &options);

class SitePlan;

// What the user fixed; everything else is searched.
struct FixedSettings {
  std::optional<interp::Dim3> grid, block;
  std::vector<ArgumentSpec> args;
  uint32_t dynamicSharedBytes = 0;
  // A call site's formulas (session/SiteSearch.h): the grid, block, shared
  // bytes and arguments it computes from the searched values. Its constants
  // are already in the fields above.
  const SitePlan *site = nullptr;
};

// One launch the search simulated, for the search's history (Python API).
struct SearchStep {
  uint32_t generation = 0; // 0 = the initial population
  detect::LaunchRecord launch;
  evo::Fitness fitness; // invalid: failed, out of bounds or too costly
  std::string outcome;  // "judged", "out-of-bounds", "too-costly", "non-terminating", "failed"
};

struct SearchSettings {
  evo::SearchOptions search;
  uint64_t maxThreads = uint64_t(1) << 12; // per launch
  // Keep to the block shape the kernel's code implies (KernelInfo's
  // contractBlock: CUB collectives, a shared array stored at [threadIdx.x]);
  // off for --explore. __launch_bounds__ holds regardless: a GPU enforces it.
  bool keepBlockContract = true;
  // --explore: findings seen only in launches outside CUDA's conventions
  // (blocks not a multiple of 32, sizes of 0 or less) stay warnings; by
  // default they are notes naming the condition.
  bool explore = false;
  evo::OnProgress onProgress;
  std::vector<SearchStep> *history = nullptr; // filled in evaluation order when given
};

// Searches launches with evolutionary programming and reports every finding
// of every launch it simulated (`simulee FILE`).
Result<KernelAnalysis> searchKernel(const ir::Program &program, const ir::KernelInfo &kernel,
                                    const FixedSettings &fixed, const SearchSettings &settings,
                                    const AnalysisOptions &options);

// Whether debug info names the source line of every site that identifies
// `finding` (detect::identifyingSites).
bool hasSourceLines(const ir::Program &program, const detect::Finding &finding);

// One bug's key across launches, searches and edited copies of a program:
// kind, space, variable, benign class and the identifying sites' source lines
// (sorted for races; an instruction id where a site has no line).
std::string bugKey(const ir::Program &program, const detect::Finding &finding);

// The report entry of an analysed kernel: findings, verdict, launch counts,
// cause and call sites, for report/ (the CLI and the Python module).
report::KernelFindings reportEntry(const ir::Program &program, const KernelAnalysis &analysis);

// A launch as JSON text (`--save-launch`) and back (`run --launch`).
std::string launchToJson(const std::string &kernel, const detect::LaunchRecord &launch);
Result<LaunchSpec> launchFromJson(const std::string &text, std::string *kernel);

} // namespace simulee::session
