#include "session/Analysis.h"

#include "detect/DataRaceDetector.h"
#include "detect/FindingCollector.h"
#include "evo/InitialPopulation.h"
#include "evo/Repair.h"
#include "interp/Interpreter.h"
#include "ir/ContentConventions.h"
#include "ir/CudaInstallation.h"
#include "ir/PointerEncoding.h"
#include "memmodel/RepresentativeBlocks.h"
#include "report/FindingText.h"
#include "session/SiteSearch.h"
#include "support/MemoryLimit.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <tuple>

namespace simulee::session {
namespace {

// What a bound launch's memory held before it ran, so that the redundant-
// barrier re-check can run it again without touching the program's memory.
struct BoundSnapshot {
  std::vector<interp::ArgumentValue> values;
  std::vector<std::optional<std::vector<uint8_t>>> allocations; // by BoundMemory index
  std::optional<std::vector<std::vector<uint8_t>>> globalVariables, constantVariables;

  explicit BoundSnapshot(const BoundLaunch &launch) : values(launch.values) {
    const interp::BoundMemory &memory = *launch.memory;
    allocations.resize(memory.allocations.size());
    auto copy = [&](size_t i) {
      if (i < memory.allocations.size() && memory.allocations[i])
        allocations[i] = *memory.allocations[i];
    };
    if (!launch.recheckAllocations)
      for (size_t i = 0; i < allocations.size(); ++i)
        copy(i);
    else
      for (uint32_t i : *launch.recheckAllocations)
        copy(i);
    if (memory.globalVariables)
      globalVariables = *memory.globalVariables;
    if (memory.constantVariables)
      constantVariables = *memory.constantVariables;
  }
};

// A private copy of a snapshot's memory, bound to one re-run.
struct BoundCopy {
  std::vector<std::optional<std::vector<uint8_t>>> allocations;
  std::optional<std::vector<std::vector<uint8_t>>> globalVariables, constantVariables;
  interp::BoundMemory memory;

  explicit BoundCopy(const BoundSnapshot &snapshot)
      : allocations(snapshot.allocations), globalVariables(snapshot.globalVariables),
        constantVariables(snapshot.constantVariables) {
    for (std::optional<std::vector<uint8_t>> &allocation : allocations)
      memory.allocations.push_back(allocation ? &*allocation : nullptr);
    memory.globalVariables = globalVariables ? &*globalVariables : nullptr;
    memory.constantVariables = constantVariables ? &*constantVariables : nullptr;
  }
};

// The sizes the host code (or the user) states for a launch's memory: an
// access past one is a finding, even in a searched launch, never a reason to
// grow the memory or to skip the launch.
struct HostSizes {
  // By parameter: buffers the host code allocated with a size the call site
  // determines.
  std::vector<bool> buffers;
  // The buffers of struct pointer members the host allocated likewise
  // (ir::memberBufferId).
  std::set<uint32_t> members;
  // The dynamic shared memory, when the site (or the user) states its size
  // and the block it is sized for.
  bool dynamicShared = false;
  // The kernel's static shared arrays, when the launch's grid, block and
  // numbers are all the site's (or the user's): the program's own launch,
  // whose shape the kernel's arrays were written for.
  bool staticShared = false;

  bool any() const {
    return dynamicShared || staticShared || !members.empty() ||
           std::find(buffers.begin(), buffers.end(), true) != buffers.end();
  }
};

// What one launch needs to be simulated again (the joint barrier re-check):
// buildArguments is deterministic in these.
struct LaunchInputs {
  interp::LaunchConfig config;
  std::vector<ArgumentSpec> specs;
  std::vector<uint64_t> elementCounts; // by parameter, 0 = automatic
  uint64_t seed = 1;
  std::vector<Fill> fills; // by parameter, for automatic buffers
  HostSizes sizedByHost;
  // Bound launches (analyzeBoundLaunch): the argument values and the device
  // memory the kernel could reach, as they were before the launch; null for
  // launches whose arguments buildArguments makes.
  std::shared_ptr<const BoundSnapshot> bound = nullptr;
};

enum class LaunchOutcome : uint8_t { Judged, OutOfBounds, TooCostly, NonTerminating, Failed };

// Everything one simulated launch contributes.
struct LaunchResult {
  LaunchInputs inputs;
  std::optional<detect::FindingCollector> findings; // this launch alone; none unless judged
  LaunchOutcome outcome = LaunchOutcome::Failed;
  double ratio = 1.0;
  uint64_t range = 0;
  uint64_t threadInstrs = 0;
  uint64_t compiledThreadInstrs = 0; // of threadInstrs (interp::Engine)
  std::string error;
  detect::LaunchRecord record;
  // Searched launches: why the launch lies outside the conventions CUDA code
  // assumes ("a block of 36 threads, not a multiple of 32"); empty inside.
  std::string outsideConventions;
  // Among those reasons, a searched size of 0 or less: such a launch may do
  // no work at all (a loop to n = 0), so it cannot show the kernel clean.
  bool nonPositiveSize = false;
  // Searched launches: by parameter, whether simulee made up its buffer's
  // contents (the search chose its fill; the host's code does not say).
  std::vector<bool> madeUpContents;
  // Searched launches of a kernel of NVIDIA's library: whether the search
  // chose numbers its dispatch would have passed (sizes, bit ranges).
  bool libraryNumbersChosen = false;
  // OutOfBounds: element counts by parameter that would have kept every
  // access in bounds, when only buffers simulee sized itself were overrun
  // (empty when a fixed contract was broken: a static array, a user's size).
  std::vector<uint64_t> grownElementCounts;
  // Those counts come from the blocks a time budget let run: later blocks
  // may reach further.
  bool grownFromSomeBlocks = false;
  // Its blocks, and those whose shared memory was modelled (Simulation).
  uint64_t blocks = 0;
  uint64_t blocksModelled = 0;
  // Failed: the `assert` that stopped it, if one did.
  std::optional<interp::AssertionEvent> assertion;
  // TooCostly, a launch judged at its full size (its own values, a time
  // budget): `findings` holds what the blocks it ran show
  // (FindingCollector::addPartialLaunch); conclude uses them for the
  // program's own launch.
  bool cutShort = false;
};

LaunchOutcome outcomeOfError(const std::string &error) {
  if (error.rfind(interp::kLaunchTooCostly, 0) == 0)
    return LaunchOutcome::TooCostly;
  if (error.find(interp::kDoesNotTerminate) != std::string::npos)
    return LaunchOutcome::NonTerminating;
  return LaunchOutcome::Failed;
}

// The kernel itself stopped the launch (assert, __trap, unreachable code).
bool stoppedByKernel(const std::string &error) {
  return error.find(interp::kKernelTrapped) != std::string::npos ||
         error.find(interp::kKernelReachedUnreachable) != std::string::npos;
}

const char *outcomeName(LaunchOutcome outcome) {
  switch (outcome) {
  case LaunchOutcome::Judged: return "judged";
  case LaunchOutcome::OutOfBounds: return "out-of-bounds";
  case LaunchOutcome::TooCostly: return "too-costly";
  case LaunchOutcome::NonTerminating: return "non-terminating";
  case LaunchOutcome::Failed: return "failed";
  }
  return "failed";
}

void count(detect::LaunchCounts &counts, LaunchOutcome outcome) {
  switch (outcome) {
  case LaunchOutcome::Judged: ++counts.judged; return;
  case LaunchOutcome::OutOfBounds: ++counts.outOfBounds; return;
  case LaunchOutcome::TooCostly: ++counts.tooCostly; return;
  case LaunchOutcome::NonTerminating: ++counts.nonTerminating; return;
  case LaunchOutcome::Failed: ++counts.failed; return;
  }
}

detect::LaunchRecord recordOf(const interp::LaunchConfig &config, const BuiltArguments &built,
                              uint64_t seed) {
  detect::LaunchRecord record;
  record.grid = config.grid;
  record.block = config.block;
  record.dynamicSharedBytes = config.dynamicSharedBytes;
  record.args = built.record;
  record.seed = seed;
  return record;
}

// The model plus AnalysisOptions::observer: every event goes to both (each
// ExecutionListener method must be forwarded here, or the model never sees
// that kind of event when an observer is attached).
class ObservedModel final : public interp::ExecutionListener {
public:
  ObservedModel(interp::ExecutionListener &model, interp::ExecutionListener *observer)
      : model_(model), observer_(observer) {}
  void onBlockBegin(uint32_t block) override { both(&Listener::onBlockBegin, block); }
  void onBlockEnd(uint32_t block) override { both(&Listener::onBlockEnd, block); }
  void onBlockSuspend(uint32_t block) override { both(&Listener::onBlockSuspend, block); }
  void onBlockResume(uint32_t block, uint32_t epoch) override {
    model_.onBlockResume(block, epoch);
    observer_->onBlockResume(block, epoch);
  }
  void onGridBarrierRelease(const interp::GridBarrierReleaseEvent &e) override {
    both(&Listener::onGridBarrierRelease, e);
  }
  bool wantsAccesses() const override {
    return model_.wantsAccesses() || observer_->wantsAccesses();
  }
  bool wantsAccessesTo(interp::MemSpace space, uint32_t buffer) const override {
    return model_.wantsAccessesTo(space, buffer) || observer_->wantsAccessesTo(space, buffer);
  }
  void onAccess(const interp::AccessEvent &e) override { both(&Listener::onAccess, e); }
  void onMaskChange(const interp::MaskChangeEvent &e) override { both(&Listener::onMaskChange, e); }
  void onBarrierRelease(const interp::BarrierReleaseEvent &e) override {
    both(&Listener::onBarrierRelease, e);
  }
  void onBarrierArrive(const interp::BarrierArriveEvent &e) override {
    both(&Listener::onBarrierArrive, e);
  }
  void onBarrierDivergence(const interp::BarrierDivergenceEvent &e) override {
    both(&Listener::onBarrierDivergence, e);
  }
  void onWarpSync(const interp::WarpSyncEvent &e) override { both(&Listener::onWarpSync, e); }
  void onFence(const interp::FenceEvent &e) override { both(&Listener::onFence, e); }
  void onNamedBarrierArrive(const interp::NamedBarrierArriveEvent &e) override {
    both(&Listener::onNamedBarrierArrive, e);
  }
  void onNamedBarrierRelease(const interp::NamedBarrierReleaseEvent &e) override {
    both(&Listener::onNamedBarrierRelease, e);
  }
  void onOutOfBounds(const interp::OutOfBoundsEvent &e) override {
    both(&Listener::onOutOfBounds, e);
  }
  void onUndefinedBehavior(const interp::UndefinedBehaviorEvent &e) override {
    both(&Listener::onUndefinedBehavior, e);
  }
  void onAssertionFailed(const interp::AssertionEvent &e) override {
    both(&Listener::onAssertionFailed, e);
  }
  bool wantsOutputText() const override {
    return model_.wantsOutputText() || observer_->wantsOutputText();
  }
  void onOutput(const interp::OutputEvent &e) override { both(&Listener::onOutput, e); }
  void onClockRead(const interp::ClockReadEvent &e) override { both(&Listener::onClockRead, e); }

private:
  using Listener = interp::ExecutionListener;
  template <class Method, class Event> void both(Method method, const Event &event) {
    (model_.*method)(event);
    (observer_->*method)(event);
  }
  Listener &model_;
  Listener *observer_;
};

struct Simulation {
  std::optional<memmodel::MemoryModel> model;
  // Blocks whose shared memory was modelled; nullopt: every block's.
  std::optional<uint64_t> modelledBlocks;
  Result<interp::RunStats> stats = makeError("not run");
};

// Launches of fewer blocks model each: what repeating blocks would save
// them costs about as much as buffering each block's events (search_bench).
constexpr uint64_t kRepresentativeBlocksFrom = 32;

// Runs the launch with a Memory-Access Model attached.
// The barriers whose necessity a launch can show: none under light checks,
// which record no access to be ordered.
std::vector<uint32_t> barriersJudged(const ir::KernelInfo &kernel, const AnalysisOptions &options) {
  return options.lightChecks ? std::vector<uint32_t>{} : kernel.barrierInstructions;
}

void simulateInto(Simulation &simulation, const ir::Program &program,
                  const ir::KernelInfo &kernel, const interp::LaunchConfig &config,
                  std::vector<interp::ArgumentValue> &values, const AnalysisOptions &options,
                  std::vector<uint32_t> removedBarriers = {},
                  interp::BoundMemory *bound = nullptr, bool searched = false,
                  bool ranked = false) {
  memmodel::ModelOptions modelOptions;
  modelOptions.onlyOverrunsAfterOverrun = searched;
  modelOptions.representation = options.representation;
  modelOptions.independentThreads = options.independentThreads;
  modelOptions.launchThreads = config.grid.count() * config.block.count();
  // A search ranks its launches by their figures; one with more threads than
  // a searched launch may cost thread-instructions is judged alone (no
  // variant of it runs, see searchKernel), so nothing ranks it.
  modelOptions.fitnessFigures = ranked && !options.lightChecks &&
                                modelOptions.launchThreads <= options.searchLaunchBudgetInstrs;
  modelOptions.recordAccesses = !options.lightChecks;
  if (!options.allBlocks)
    modelOptions.untracked = interp::untrackedInstructions(program, kernel, config, values);
  modelOptions.atomicUnits = kernel.atomicUnits;
  modelOptions.instructions = &program.instructions;
  simulation.model.emplace(std::move(modelOptions));
  // One block per class of equivalent blocks has its shared memory modelled
  // (memmodel/RepresentativeBlocks.h); --all-blocks: every block.
  std::optional<memmodel::RepresentativeBlocks> representatives;
  interp::ExecutionListener *model = &*simulation.model;
  // Blocks of a kernel that syncs the grid run interleaved: each is modelled.
  if (!options.allBlocks && simulation.model->options().recordAccesses && !kernel.syncsGrid &&
      config.grid.count() >= kRepresentativeBlocksFrom)
    model = &representatives.emplace(*simulation.model);
  ObservedModel observed(*model, options.observer);
  interp::RunOptions runOptions;
  runOptions.listener = options.observer ? &observed : model;
  runOptions.cancel = options.cancel;
  runOptions.removedBarriers = std::move(removedBarriers);
  runOptions.bound = bound;
  runOptions.jobs = options.blockJobs;
  runOptions.engine = options.engine;
  // The accesses the model only counts need one event per warp where no
  // figure ranks the launch and no observer hears each access.
  const memmodel::ModelOptions &kept = simulation.model->options();
  if (kept.recordAccesses && !kept.fitnessFigures &&
      (!options.observer || !options.observer->wantsAccesses()))
    runOptions.quietAccesses = kept.untracked;
  simulation.stats = interp::runKernel(program, kernel, config, values, runOptions);
  if (representatives) {
    representatives->finish();
    simulation.modelledBlocks = representatives->modelledBlocks();
  }
  if (simulation.stats && options.onModel)
    options.onModel(*simulation.model);
}

// A null or wild pointer dereferenced in a launch where simulee made up the
// bytes of a by-value struct argument, or of the structs or pointers a
// pointer argument points to: the pointer may well come from there (an
// address stored as an integer, a pointer to pointers), which simulee
// cannot fill with the host's pointers, so the launch cannot be judged
// (never a finding, never clean). The reason, or nullopt.
std::optional<std::string> pointerFromMadeUpStruct(const ir::KernelInfo &kernel,
                                                   const BuiltArguments &built,
                                                   const memmodel::MemoryModel &model) {
  bool wildAccess = std::any_of(model.undefinedBehavior().begin(), model.undefinedBehavior().end(),
                                [](const interp::UndefinedBehaviorEvent &event) {
                                  return event.kind == interp::UndefinedBehavior::NullPointer ||
                                         event.kind == interp::UndefinedBehavior::WildPointer;
                                });
  for (size_t p = 0; wildAccess && p < kernel.params.size() && p < built.values.size(); ++p) {
    const ir::ParamInfo &param = kernel.params[p];
    if (param.byValueBytes && built.values[p].autoSized)
      return "an access through a null or wild pointer, which may come from the by-value "
             "struct argument '" + param.name +
             "' whose bytes simulee made up (its pointer members get buffers, but not a "
             "pointer it holds as an integer or behind another pointer): the launch cannot be "
             "judged";
    bool madeUp = built.values[p].kind == interp::ArgumentValue::Kind::Buffer &&
                  (p >= built.record.size() || built.record[p].second.rfind('@', 0) != 0);
    if (param.pointsToPointers() && madeUp)
      return "an access through a null or wild pointer, which may come from the memory '" +
             param.name + "' points to, whose contents simulee made up (pointers it holds " +
             "behind other pointers or as integers are not the host's): the launch cannot be "
             "judged";
  }
  return std::nullopt;
}

// Whether every overrun is of a buffer whose size the host code states: the
// launch is one the program makes, and its overruns are bugs.
bool overrunsOnlyHostSizes(const ir::Program &program, const ir::KernelInfo &kernel,
                           const HostSizes &sizedByHost,
                           const std::vector<interp::OutOfBoundsEvent> &overruns) {
  return std::all_of(overruns.begin(), overruns.end(), [&](const interp::OutOfBoundsEvent &e) {
    const interp::AccessEvent &access = e.access;
    // A static array's overrun at an address read from buffers (`hist_sh[A[i]]`)
    // may come from contents simulee made up: a launch to skip, as before.
    if (access.space == interp::MemSpace::Shared)
      return access.buffer < program.sharedVariables.size() &&
             (program.sharedVariables[access.buffer].isDynamicShared
                  ? sizedByHost.dynamicShared
                  : sizedByHost.staticShared &&
                        ir::addressParameters(program, kernel, access.instruction).empty());
    if (access.space != interp::MemSpace::Global || e.bufferSizeBytes == 0)
      return false;
    if (sizedByHost.members.count(access.buffer))
      return true;
    return access.buffer < kernel.params.size() && access.buffer < sizedByHost.buffers.size() &&
           sizedByHost.buffers[access.buffer];
  });
}

// A buffer simulee sized itself: a pointer parameter's, or one a pointer
// member of a by-value aggregate points to (all of an aggregate's have one
// element count, the parameter's).
struct AutomaticBuffer {
  uint32_t param = 0;
  uint32_t elementBytes = 0;
};

std::optional<AutomaticBuffer> automaticBuffer(const ir::KernelInfo &kernel,
                                               const BuiltArguments &built,
                                               const interp::AccessEvent &access) {
  if (access.space != interp::MemSpace::Global)
    return std::nullopt;
  std::optional<ir::MemberBufferRef> ref = ir::memberBufferOf(access.buffer);
  bool isMember = ref.has_value();
  uint32_t param = ref ? ref->parameter : access.buffer, member = ref ? ref->member : 0;
  if (param >= kernel.params.size() || param >= built.values.size() ||
      !built.values[param].autoSized || isMember != bool(kernel.params[param].byValueBytes) ||
      built.sizedMembers.count(access.buffer))
    return std::nullopt;
  if (!isMember)
    return AutomaticBuffer{param, kernel.params[param].elementBytes};
  if (member >= kernel.params[param].pointerMembers.size())
    return std::nullopt;
  return AutomaticBuffer{param, kernel.params[param].pointerMembers[member].elementBytes};
}

// The element counts of automatic buffers that would hold every access of
// `overruns`; empty when some overrun is not of such a buffer (a static or
// user-given array, a wild pointer), which no growth can repair, unless
// `growAnyway` (those overruns are then findings). Overruns of buffers the
// host sized are findings, left as they are.
std::vector<uint64_t> grownCounts(const ir::Program &program, const ir::KernelInfo &kernel,
                                  const BuiltArguments &built, const HostSizes &sizedByHost,
                                  const memmodel::MemoryModel &model, bool growAnyway = false) {
  const std::vector<interp::OutOfBoundsEvent> &overruns = model.outOfBounds();
  constexpr uint64_t kLargestOffset = uint64_t(1) << 40; // beyond: a wild pointer
  std::vector<uint64_t> counts(kernel.params.size(), 0);
  for (const interp::OutOfBoundsEvent &overrun : overruns) {
    const interp::AccessEvent &access = overrun.access;
    if (overrunsOnlyHostSizes(program, kernel, sizedByHost, {overrun}))
      continue;
    std::optional<AutomaticBuffer> automatic = automaticBuffer(kernel, built, access);
    if ((!automatic || access.offset >= kLargestOffset) && growAnyway)
      continue;
    if (!automatic || access.offset >= kLargestOffset)
      return {};
    uint64_t elementBytes = std::max<uint64_t>(automatic->elementBytes, 1);
    uint64_t end = std::max(access.offset + access.sizeBytes,
                            model.overrunEnd(access.space, access.buffer));
    uint64_t needed = (end + elementBytes - 1) / elementBytes;
    counts[automatic->param] = std::max(counts[automatic->param], needed);
  }
  return counts;
}

// The most elements simulee grows a buffer it sized itself to: 2^24 in a
// searched launch (a search's hundreds of launches each hold theirs), and in
// a launch no search chose (the program's own, `run`'s) as many as a
// quarter of --max-memory holds, as the host's own allocations get.
uint64_t largestGrownElements(uint64_t elementBytes, bool programsLaunch) {
  constexpr uint64_t kSearched = uint64_t(1) << 24;
  if (!programsLaunch)
    return kSearched;
  uint64_t bytes = std::min(memoryLimitBytes() / 4, ir::kMaxBufferBytes);
  return std::max(kSearched, bytes / std::max<uint64_t>(elementBytes, 1));
}

// `searched`: a launch simulee chose, judged only when in bounds (it would
// break the kernel's size assumptions otherwise) or when it overruns only
// buffers whose size the host code states.
LaunchResult simulate(const ir::Program &program, const ir::KernelInfo &kernel,
                      LaunchInputs inputs, BuiltArguments &built, const AnalysisOptions &options,
                      bool searched, interp::BoundMemory *bound = nullptr) {
  LaunchResult result;
  result.record = recordOf(inputs.config, built, inputs.seed);
  result.inputs = std::move(inputs);
  bool hostSized = result.inputs.sizedByHost.any();
  Simulation simulation;
  simulateInto(simulation, program, kernel, result.inputs.config, built.values, options, {}, bound,
               searched && !hostSized, /*ranked=*/searched && options.rankLaunches);
  // Overruns of buffers simulee sized itself are its own mistake: a searched
  // launch with one is out of bounds (the search grows the buffers and runs
  // it again), `run`'s launch grows them; whether the launch finished or
  // its time budget cut it short.
  auto overranSimuleesBuffers = [&](const memmodel::MemoryModel &model) {
    bool overrunsAreFindings =
        hostSized &&
        overrunsOnlyHostSizes(program, kernel, result.inputs.sizedByHost, model.outOfBounds());
    if (searched && !model.outOfBounds().empty() && !overrunsAreFindings) {
      result.outcome = LaunchOutcome::OutOfBounds;
      result.grownFromSomeBlocks = !result.error.empty();
      result.error.clear(); // a budget that cut it short is not why it is unjudged
      result.grownElementCounts =
          grownCounts(program, kernel, built, result.inputs.sizedByHost, model);
      return true;
    }
    if (!searched && !bound && !model.outOfBounds().empty())
      result.grownElementCounts = grownCounts(program, kernel, built, result.inputs.sizedByHost,
                                              model, /*growAnyway=*/true);
    return false;
  };
  if (!simulation.stats) {
    result.error = simulation.stats.error().message;
    result.outcome = outcomeOfError(result.error);
    if (stoppedByKernel(result.error))
      result.assertion = simulation.model->assertion();
    if (result.outcome == LaunchOutcome::TooCostly && result.inputs.config.budgetSeconds > 0 &&
        !overranSimuleesBuffers(*simulation.model)) {
      result.cutShort = true;
      result.findings.emplace(std::vector<uint32_t>{});
      result.findings->addPartialLaunch(*simulation.model, result.record);
    }
    return result;
  }
  const memmodel::MemoryModel &model = *simulation.model;
  result.threadInstrs = simulation.stats->threadInstrs;
  result.compiledThreadInstrs = simulation.stats->compiledThreadInstrs;
  result.blocks = result.inputs.config.grid.count();
  result.blocksModelled = simulation.modelledBlocks.value_or(result.blocks);
  result.ratio = model.fitness().ratio();
  result.range = model.fitness().range();
  if (overranSimuleesBuffers(model))
    return result;
  if (std::optional<std::string> madeUp = pointerFromMadeUpStruct(kernel, built, model)) {
    result.outcome = LaunchOutcome::Failed;
    result.error = *madeUp;
    return result;
  }
  result.outcome = LaunchOutcome::Judged;
  result.findings.emplace(barriersJudged(kernel, options), kernel.requiredBarrierInstructions);
  result.findings->addLaunch(model, result.record);
  return result;
}

std::set<detect::FindingKey> raceKeys(const std::vector<detect::Finding> &findings) {
  std::set<detect::FindingKey> keys;
  for (const detect::Finding &finding : findings)
    if (finding.kind == detect::FindingKind::DataRace)
      keys.insert(detect::keyOf(finding));
  return keys;
}

// The launches that can show whether removing barriers is safe: judged, and
// having executed one of them with evidence. A few suffice; the first ones
// are the search's earliest, so the choice does not depend on --jobs.
constexpr size_t kRecheckLaunches = 8;

std::vector<const LaunchResult *> recheckLaunches(const std::vector<const LaunchResult *> &judged,
                                                  const std::vector<uint32_t> &barriers) {
  std::vector<const LaunchResult *> chosen;
  for (const LaunchResult *result : judged) {
    if (chosen.size() == kRecheckLaunches)
      break;
    for (uint32_t barrier : barriers)
      if (result->findings->barriers().hasEvidenceFor(barrier)) {
        chosen.push_back(result);
        break;
      }
  }
  return chosen;
}

// Whether deleting `removed` together makes some launch race where it did
// not: each launch is simulated again with those barriers as no-ops and
// judged under independent thread scheduling.
bool removalCreatesRace(const ir::Program &program, const ir::KernelInfo &kernel,
                        const std::vector<const LaunchResult *> &launches,
                        const std::vector<uint32_t> &removed, const AnalysisOptions &options) {
  AnalysisOptions independent = options;
  independent.independentThreads = true;
  independent.observer = nullptr; // a re-check is no launch of the analysis
  independent.onModel = nullptr;
  for (const LaunchResult *launch : launches) {
    Result<BuiltArguments> built =
        launch->inputs.bound
            ? Result<BuiltArguments>(BuiltArguments{launch->inputs.bound->values, {}})
            : buildArguments(kernel, launch->inputs.config, launch->inputs.specs,
                             launch->inputs.seed, launch->inputs.elementCounts,
                             launch->inputs.fills);
    if (!built)
      return true; // cannot show it safe
    std::optional<BoundCopy> memory;
    if (launch->inputs.bound)
      memory.emplace(*launch->inputs.bound);
    Simulation simulation;
    simulateInto(simulation, program, kernel, launch->inputs.config, built->values, independent,
                 removed, memory ? &memory->memory : nullptr);
    if (!simulation.stats || !simulation.model->outOfBounds().empty())
      return true;
    // A bound launch re-run on part of its memory may reach memory left out
    // (a wild pointer): then the re-run cannot show the removal safe.
    if (launch->inputs.bound && !simulation.model->undefinedBehavior().empty())
      return true;
    std::set<detect::FindingKey> before = raceKeys(launch->findings->findings());
    detect::FindingCollector after(kernel.barrierInstructions, kernel.requiredBarrierInstructions);
    after.addLaunch(*simulation.model, launch->record);
    for (const detect::FindingKey &key : raceKeys(after.findings()))
      if (!before.count(key))
        return true;
  }
  return false;
}

// DESIGN.md: the reported set of redundant barriers must be removable
// together. Candidates are re-checked removed together; when that races,
// pairs are re-checked, and candidates that cannot go together become groups
// of which only one can go (connected by the pairs that race; all of them
// when no pair explains the race).
std::vector<std::vector<uint32_t>> barrierGroups(const ir::Program &program,
                                                 const ir::KernelInfo &kernel,
                                                 const std::vector<const LaunchResult *> &judged,
                                                 std::vector<uint32_t> &candidates,
                                                 const AnalysisOptions &options) {
  auto racesWithout = [&](const std::vector<uint32_t> &removed) {
    return removalCreatesRace(program, kernel, recheckLaunches(judged, removed), removed, options);
  };
  // Alone: the model's verdict assumed the execution would not change
  // without the barrier; the re-simulation does not need that assumption.
  std::erase_if(candidates, [&](uint32_t barrier) { return racesWithout({barrier}); });
  if (candidates.size() < 2 || !racesWithout(candidates))
    return {};
  std::vector<size_t> component(candidates.size());
  for (size_t i = 0; i < candidates.size(); ++i)
    component[i] = i;
  auto root = [&](size_t i) {
    while (component[i] != i)
      i = component[i];
    return i;
  };
  bool explained = false;
  for (size_t i = 0; i < candidates.size(); ++i)
    for (size_t j = i + 1; j < candidates.size(); ++j)
      if (racesWithout({candidates[i], candidates[j]})) {
        component[root(j)] = root(i);
        explained = true;
      }
  std::map<size_t, std::vector<uint32_t>> byRoot;
  for (size_t i = 0; i < candidates.size(); ++i)
    byRoot[explained ? root(i) : 0].push_back(candidates[i]);
  std::vector<std::vector<uint32_t>> groups;
  for (auto &[rootIndex, members] : byRoot)
    if (members.size() > 1)
      groups.push_back(std::move(members));
  return groups;
}

// Why a finding of a launch inside CUDA's conventions says nothing of the
// program's: an overrun or a race at an address computed from buffer
// contents simulee made up and used there as keys (`hist[(a[i] - 'a') / 4]`,
// `H + blockIdx.x * BINS + A[i]`, see ir::keyedAddressParameters). The
// search draws such contents as indices of the whole buffer, which the
// host's keys (letters, offsets into a block's slice) are not, and the
// convention is that the host's keys map into range (keys drawn in the
// range the kernel's fixed-size arrays keep in bounds, Fill::Keys, do: an
// address computed from them stands). Empty when the finding
// stands on the launch's own values. Likewise undefined arithmetic whose
// operands are computed from such contents (`x / data[i].maxVal`: the host
// may never store a zero there; ir::operandParameters). `keyed`: those
// parameters by instruction, as far as asked (every judged launch asks of
// its findings).
std::string madeUpKeys(const ir::Program &program, const ir::KernelInfo &kernel,
                       const LaunchResult &result, const detect::Finding &finding,
                       std::map<uint32_t, std::vector<uint32_t>> &keyed) {
  bool arithmetic = finding.kind == detect::FindingKind::UndefinedBehavior;
  if (!arithmetic && finding.kind != detect::FindingKind::OutOfBounds &&
      finding.kind != detect::FindingKind::DataRace)
    return "";
  for (const detect::Site &site : finding.sites) {
    auto [known, added] = keyed.try_emplace(site.instruction);
    if (added)
      known->second = arithmetic ? ir::operandParameters(program, kernel, site.instruction)
                                 : ir::keyedAddressParameters(program, kernel, site.instruction);
    for (uint32_t parameter : known->second)
      if (parameter < result.madeUpContents.size() && result.madeUpContents[parameter] &&
          // Keys drawn in the range the kernel's arrays keep in bounds
          // (Fill::Keys) are the host's keys as far as an address goes.
          (arithmetic || result.inputs.fills[parameter] != Fill::Keys))
        return (arithmetic ? "an operand computed from contents of '"
                           : "an address computed from keys in '") +
               kernel.params[parameter].name + "', which simulee made up (filled " +
               fillName(result.inputs.fills[parameter]) + ")";
  }
  return "";
}

// A finding inside NVIDIA's headers alone, in a launch of their kernel whose
// numbers the search chose: the library's dispatch passes its own (a radix
// sort's bit range within the key), which the search does not know, so it
// is no launch the program is known to make. The user's functors are not
// NVIDIA's headers: what they do stays a finding. Empty otherwise.
std::string numbersChosenForLibrary(const ir::Program &program, const LaunchResult &result,
                                    const detect::Finding &finding) {
  if (!result.libraryNumbersChosen || finding.sites.empty())
    return "";
  for (const detect::Site &site : finding.sites) {
    const ir::SourceLocation &location = program.instructions[site.instruction].location;
    if (!location.known() || !ir::isCudaHeader(location.file))
      return "";
  }
  return "numbers simulee chose for a kernel of NVIDIA's library, not its dispatch's";
}

// Findings that no judged launch inside CUDA's conventions showed (or that
// those showed only through keys made up as madeUpKeys says) are notes that
// name the condition of their first launch (DESIGN.md: "a finding seen only
// outside the conventions is a note").
void markUnconventional(const ir::Program &program, const ir::KernelInfo &kernel,
                        const std::vector<const LaunchResult *> &judged,
                        std::vector<detect::Finding> &findings) {
  std::set<detect::FindingKey> conventional;
  std::map<detect::FindingKey, std::string> outside; // the first launch's condition
  std::map<uint32_t, std::vector<uint32_t>> keyed;
  for (const LaunchResult *result : judged)
    for (const detect::Finding &finding : result->findings->findings()) {
      std::string condition = result->outsideConventions;
      if (condition.empty())
        condition = madeUpKeys(program, kernel, *result, finding, keyed);
      if (condition.empty())
        condition = numbersChosenForLibrary(program, *result, finding);
      if (condition.empty())
        conventional.insert(detect::keyOf(finding));
      else
        outside.try_emplace(detect::keyOf(finding), condition);
    }
  for (detect::Finding &finding : findings) {
    auto condition = outside.find(detect::keyOf(finding));
    if (!detect::isBug(finding) || finding.kind == detect::FindingKind::RedundantBarrier ||
        conventional.count(detect::keyOf(finding)) || condition == outside.end())
      continue;
    finding.benign = detect::Benign::Unconventional;
    finding.detail += std::string(finding.detail.empty() ? "" : "; ") +
                      "seen only in launches outside CUDA's conventions (" + condition->second +
                      "): does the caller guarantee otherwise? (a warning under --explore or "
                      "--strict)";
  }
}

// The findings of the judged launches combined in their given order, so
// that the examples reported do not depend on --jobs, with redundant
// barriers re-checked jointly. A search's barrier advice needs evidence
// from two conventional launch shapes (DESIGN.md): one odd block size, or
// one shape the search happened to favour, proves little.
std::vector<detect::Finding> combineFindings(const ir::Program &program,
                                             const ir::KernelInfo &kernel,
                                             const std::vector<const LaunchResult *> &judged,
                                             const AnalysisOptions &options, bool searched,
                                             bool conventionsMatter) {
  detect::FindingCollector combined(barriersJudged(kernel, options),
                                    kernel.requiredBarrierInstructions);
  combined.requireEvidenceShapes(searched ? 2 : 1);
  // A finding's example comes from a launch inside CUDA's conventions where
  // one shows it: a block of 96 threads, not the 23 the search also tried.
  std::vector<const LaunchResult *> examplesFirst = judged;
  if (conventionsMatter)
    std::stable_partition(
        examplesFirst.begin(), examplesFirst.end(),
        [](const LaunchResult *result) { return result->outsideConventions.empty(); });
  for (const LaunchResult *result : examplesFirst)
    combined.merge(*result->findings);
  std::vector<uint32_t> candidates = combined.barriers().candidates();
  std::vector<std::vector<uint32_t>> groups =
      barrierGroups(program, kernel, judged, candidates, options);
  std::vector<detect::Finding> findings = combined.findings(groups);
  if (conventionsMatter)
    markUnconventional(program, kernel, judged, findings);
  // Candidates the re-simulation refuted are not redundant.
  std::erase_if(findings, [&](const detect::Finding &finding) {
    if (finding.kind != detect::FindingKind::RedundantBarrier)
      return false;
    uint32_t barrier = finding.sites.front().instruction;
    return std::find(candidates.begin(), candidates.end(), barrier) == candidates.end();
  });
  return findings;
}

// One finding per bug: instruction pairs on the same source lines (an
// unrolled loop, an inlined helper, a template instantiated twice) are one
// finding whose occurrences add up; the first example stays. Findings whose
// lines debug info does not name all are kept apart.
void groupBySourceLines(const ir::Program &program, std::vector<detect::Finding> &findings) {
  std::map<std::string, size_t> kept;
  std::vector<detect::Finding> grouped;
  for (detect::Finding &finding : findings) {
    if (!hasSourceLines(program, finding) || !finding.groupBarriers.empty()) {
      grouped.push_back(std::move(finding));
      continue;
    }
    auto [known, added] = kept.try_emplace(bugKey(program, finding), grouped.size());
    if (added)
      grouped.push_back(std::move(finding));
    else
      grouped[known->second].occurrences += finding.occurrences;
  }
  findings = std::move(grouped);
}

// One finding per warp-synchronous sequence: the races of one kernel on one
// variable that exist only under independent thread scheduling (an unrolled
// `volatile` tail, `v[t] += v[t + 16]; v[t] += v[t + 8]; ...`) are one bug,
// fixed once (__syncwarp between the steps, or shuffles), however many of
// its pairs of lines race. The pair of the lowest lines stays the example;
// the detail says how many pairs race and over which lines.
void groupWarpSynchronousRaces(const ir::Program &program, std::vector<detect::Finding> &findings) {
  auto warpSynchronous = [&](const detect::Finding &finding) {
    return finding.kind == detect::FindingKind::DataRace &&
           finding.detail == detect::kWarpSynchronousReason && hasSourceLines(program, finding);
  };
  auto lineOf = [&](const detect::Site &site) {
    return program.instructions[site.instruction].location.line;
  };
  auto lowest = [&](const detect::Finding &finding) {
    uint32_t a = lineOf(finding.sites[0]), b = lineOf(finding.sites[1]);
    return std::pair<uint32_t, uint32_t>{std::min(a, b), std::max(a, b)};
  };
  struct Sequence {
    size_t kept;
    size_t pairs = 1;
    uint32_t first, last;
    std::string file;
  };
  std::map<std::tuple<int, std::string, int>, Sequence> sequences;
  std::vector<detect::Finding> grouped;
  for (detect::Finding &finding : findings) {
    if (!warpSynchronous(finding)) {
      grouped.push_back(std::move(finding));
      continue;
    }
    auto [first, last] = lowest(finding);
    const std::string &file = program.instructions[finding.sites[0].instruction].location.file;
    auto [known, added] =
        sequences.try_emplace({int(finding.space), finding.variable, int(finding.benign)},
                              Sequence{grouped.size(), 1, first, last, file});
    if (added) {
      grouped.push_back(std::move(finding));
      continue;
    }
    Sequence &sequence = known->second;
    detect::Finding &kept = grouped[sequence.kept];
    ++sequence.pairs;
    kept.occurrences += finding.occurrences;
    sequence.first = std::min(sequence.first, first);
    sequence.last = std::max(sequence.last, last);
    if (lowest(finding) < lowest(kept)) {
      finding.occurrences = kept.occurrences;
      kept = std::move(finding);
    }
  }
  for (const auto &[key, sequence] : sequences)
    if (sequence.pairs > 1)
      grouped[sequence.kept].detail += "; " + std::to_string(sequence.pairs) +
                                       " pairs of lines race so, within lines " +
                                       std::to_string(sequence.first) + "-" +
                                       std::to_string(sequence.last) + " of " + sequence.file;
  findings = std::move(grouped);
}

// Barrier advice (redundant, never reached) about barriers in NVIDIA's or
// clang's CUDA headers, such as a CUB kernel's: nothing the user can act on,
// as a compiler keeps quiet about system headers. Races and faults there stay:
// the user's functors and arguments cause them.
bool isAdviceAboutCudaHeaders(const ir::Program &program, const detect::Finding &finding) {
  if (finding.kind != detect::FindingKind::RedundantBarrier &&
      finding.kind != detect::FindingKind::UnreachedBarrier)
    return false;
  std::vector<uint32_t> barriers = finding.groupBarriers;
  for (const detect::Site &site : finding.sites)
    barriers.push_back(site.instruction);
  return std::all_of(barriers.begin(), barriers.end(), [&](uint32_t instruction) {
    const ir::SourceLocation &location = program.instructions[instruction].location;
    return location.known() && ir::isCudaHeader(location.file);
  });
}

void finishFindings(const ir::Program &program, const ir::KernelInfo &kernel,
                    const AnalysisOptions &options, std::vector<detect::Finding> &findings) {
  std::erase_if(findings, [&](const detect::Finding &finding) {
    return isAdviceAboutCudaHeaders(program, finding);
  });
  for (detect::Finding &finding : findings) {
    if (report::isAboutMemory(finding.kind))
      finding.variable = interp::bufferName(program, kernel, finding.space, finding.buffer);
    if (options.strict)
      finding.benign = detect::Benign::No;
  }
  groupBySourceLines(program, findings);
  groupWarpSynchronousRaces(program, findings);
}

// The per-thread cap of a launch no search chose, of `threads` threads (0:
// not known): see AnalysisOptions::soloBudgetInstrs and soloLaunchInstrs.
uint64_t soloBudget(const AnalysisOptions &options, uint64_t threads) {
  if (options.launchSeconds <= 0)
    return options.budgetInstrs;
  uint64_t perThread = std::max(options.budgetInstrs, options.soloBudgetInstrs);
  return threads ? std::max(perThread, options.soloLaunchInstrs / threads) : perThread;
}

Result<interp::LaunchConfig> configFor(const ir::KernelInfo &kernel,
                                       const interp::LaunchConfig &base,
                                       const AnalysisOptions &options) {
  interp::LaunchConfig config = base;
  config.budgetInstrs = options.budgetInstrs;
  if (Status valid = interp::validateLaunch(config); !valid)
    return valid.error();
  if (Status bounded = checkLaunchBounds(kernel, config.block); !bounded)
    return bounded.error();
  return config;
}

std::string formatScalar(const evo::TypedValue &value) {
  if (value.kind == evo::GeneKind::Int)
    return std::to_string(value.integer);
  char text[64];
  std::snprintf(text, sizeof text, "%.9g", value.real);
  return text;
}

bool readsAny(const ir::KernelInfo &kernel, ir::BuiltinVariable variable) {
  const bool(&axes)[3] = kernel.readsBuiltin[unsigned(variable)];
  return axes[0] || axes[1] || axes[2];
}

// The search's history: every launch simulated with its generation, fitness
// and what became of it, in evaluation order (a solution evaluated again was
// not simulated again).
template <class KeyOf>
void recordHistory(const evo::SearchOutcome &outcome,
                   const std::map<std::string, LaunchResult> &results, const KeyOf &keyOf,
                   std::vector<SearchStep> &history) {
  std::set<const LaunchResult *> seen;
  for (const evo::EvaluatedSolution &evaluated : outcome.evaluated) {
    auto it = results.find(keyOf(evaluated.solution));
    if (it == results.end() || !seen.insert(&it->second).second)
      continue;
    const LaunchResult &result = it->second;
    SearchStep step;
    step.generation = evaluated.generation;
    step.launch = result.record;
    step.fitness = evaluated.fitness;
    step.outcome = outcomeName(result.outcome);
    history.push_back(std::move(step));
  }
}

evo::Dims toDims(const interp::Dim3 &d) { return evo::Dims{d.x, d.y, d.z}; }
interp::Dim3 toDim3(const evo::Dims &d) { return interp::Dim3{d.x, d.y, d.z}; }

// One searched launch, repaired rather than thrown away (DESIGN.md): when it
// overruns only buffers simulee sized itself, they grow to what it needed and
// it runs again; when it costs more than the cap, its grid (unless fixed)
// halves and it runs again. A launch still out of bounds broke a fixed
// contract; one still too costly after one halving is skipped as such.
LaunchResult simulateRepaired(const ir::Program &program, const ir::KernelInfo &kernel,
                              interp::LaunchConfig base, const std::vector<ArgumentSpec> &specs,
                              std::vector<uint64_t> elementCounts, const std::vector<Fill> &fills,
                              const std::vector<uint64_t> &positiveInts,
                              const HostSizes &sizedByHost, bool gridShrinks, uint64_t seed,
                              const AnalysisOptions &options, bool programsLaunch) {
  constexpr int kAttempts = 4;
  LaunchResult result;
  auto failed = [&](const std::string &error) {
    result = LaunchResult{};
    result.error = error;
    result.record.grid = base.grid; // what is known of a launch that never ran
    result.record.block = base.block;
    return result;
  };
  bool shrunk = false;
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    Result<interp::LaunchConfig> config = configFor(kernel, base, options);
    if (!config)
      return failed(config.error().message);
    if (attempt == 0) {
      // A buffer is never smaller than the launch needs, and at most a few
      // times larger: the gene says how much spare room there is.
      uint64_t minimum = automaticElements(kernel, *config, positiveInts);
      for (uint64_t &count : elementCounts)
        if (count)
          count = std::clamp(count, minimum, 4 * minimum);
    }
    Result<BuiltArguments> built =
        buildArguments(kernel, *config, specs, seed, elementCounts, fills);
    if (!built)
      return failed(built.error().message);
    LaunchInputs inputs{*config, specs, elementCounts, seed, fills, sizedByHost, nullptr};
    result = simulate(program, kernel, inputs, *built, options, /*searched=*/true);
    // Elements each buffer had: a pointer parameter's, or the first
    // automatic pointer member's of a by-value struct (those share one count).
    std::vector<uint64_t> builtElements, largest;
    for (size_t p = 0; p < built->values.size(); ++p) {
      const interp::ArgumentValue &value = built->values[p];
      const ir::ParamInfo &param = kernel.params[p];
      uint64_t bytes = value.bytes.size(), elementBytes = param.elementBytes;
      if (param.byValueBytes) {
        bytes = elementBytes = 0;
        for (uint32_t m = 0; m < value.members.size() && m < param.pointerMembers.size(); ++m)
          if (!built->sizedMembers.count(ir::memberBufferId(uint32_t(p), m))) {
            bytes = value.members[m].size();
            elementBytes = param.pointerMembers[m].elementBytes;
            break;
          }
      }
      builtElements.push_back(bytes / std::max<uint64_t>(elementBytes, 1));
      largest.push_back(largestGrownElements(elementBytes, programsLaunch));
    }
    recycleArguments(std::move(*built));
    if (result.outcome == LaunchOutcome::OutOfBounds && !result.grownElementCounts.empty()) {
      bool grew = false;
      for (size_t p = 0; p < elementCounts.size(); ++p) {
        uint64_t needed = result.grownElementCounts[p];
        uint64_t current = builtElements[p];
        if (needed > current && result.grownFromSomeBlocks) // the blocks not run may need more
          needed = std::min(std::max(needed, 8 * current), largest[p]);
        if (needed > current && needed <= largest[p]) {
          elementCounts[p] = needed + needed / 4;
          grew = true;
        }
      }
      if (grew)
        continue;
    }
    // Once: a second halving rarely helps (a grid-stride loop does the same
    // work with fewer blocks) and every try costs the whole cap.
    if (result.outcome == LaunchOutcome::TooCostly && gridShrinks && !shrunk &&
        base.grid.count() > 1) {
      shrunk = true;
      for (uint32_t *axis : {&base.grid.x, &base.grid.y, &base.grid.z})
        *axis = (*axis + 1) / 2;
      continue;
    }
    return result;
  }
  return result;
}

// How many launches, each with a quarter of the sizes of the one before,
// may follow a searched launch over the cost cap.
constexpr int kSizeShrinks = 3;
// The cap of the one launch per kernel that runs again when even its
// smallest sizes cost more than --max-cost, as a multiple of it.
constexpr uint64_t kSmallestLaunchCapFactor = 16;

// `solution` with each free integer of the kernel's arguments, and of the
// host variables its call site derives them from, above 1 a quarter as
// large (a power of two stays one), within its range: a launch whose cost
// grows with its sizes (a matrix multiply of n x n x k, its grid derived
// from them by its call site, which no halving of the grid can reach) comes
// within the cost cap. A host variable that sizes the block stays. Nothing
// when no value changes.
std::optional<evo::Solution> withSmallerSizes(const ir::KernelInfo &kernel, const SitePlan *site,
                                              const evo::SearchSpace &space,
                                              const evo::Solution &solution) {
  evo::Solution smaller = solution;
  bool changed = false;
  for (size_t g = 0; g < space.scalars.size(); ++g) {
    const evo::Gene &gene = space.scalars[g];
    double &value = smaller.genes[Eigen::Index(g)];
    bool size = gene.param < kernel.params.size() ? kernel.params[gene.param].name == gene.name
                                                  : site && !site->sizesBlock(gene.param);
    if (!size || gene.fixed || gene.kind != evo::GeneKind::Int || value <= 1)
      continue;
    double floor = std::max({1.0, space.range(g).low, double(gene.powerOfTwoFrom)});
    double quarter = std::max(floor, std::floor(value / 4));
    if (quarter < value) {
      value = quarter;
      changed = true;
    }
  }
  if (!changed)
    return std::nullopt;
  evo::repair(space, smaller);
  return smaller;
}

// A launch of the program's own values (`programsOwn`: every value but
// buffer contents from its call site or the user) that a failed `assert`
// stopped is a finding, where no buffer contents simulee made up can steer
// the kernel (ir/ContentSteering.h): every launch with those values fails
// it, as the program's does on a GPU. Elsewhere whether the program's data
// fails it is unknown: a note says so, and the launch is not judged. A
// searched launch that fails one broke a precondition: not judged either.
void addFailedAssertions(const ir::KernelInfo &kernel,
                         const std::vector<const LaunchResult *> &results, bool programsOwn,
                         KernelAnalysis &analysis) {
  std::set<uint32_t> seen; // by assertion: a content variant fails the same one
  for (const LaunchResult *result : results) {
    if (!programsOwn || !result->assertion || !seen.insert(result->assertion->instruction).second)
      continue;
    if (kernel.contentsSteer) {
      const std::string &condition = result->assertion->condition;
      analysis.notes.push_back("a launch with every value given (by its call site or the "
                               "command line) failed the assert" +
                               (condition.empty() ? "" : " `" + condition + "`") +
                               ", but buffer contents simulee made up steer the kernel: whether "
                               "the program's own data fails it is not known");
      continue;
    }
    analysis.findings.push_back(detect::assertionFinding(*result->assertion, result->record));
  }
}

// Combines the launches in `results` (in order) into the analysis: counts,
// findings of the judged ones and failed assertions, verdict.
void conclude(const ir::Program &program, const ir::KernelInfo &kernel,
              const std::vector<const LaunchResult *> &results, const AnalysisOptions &options,
              bool searched, bool programsOwn, KernelAnalysis &analysis,
              bool conventionsMatter = false) {
  std::vector<const LaunchResult *> judged;
  std::string unconventional; // the first vacuous judged launch's conditions
  for (const LaunchResult *result : results) {
    count(analysis.counts, result->outcome);
    analysis.threadInstrs += result->threadInstrs;
    analysis.counts.threadInstrs += result->threadInstrs;
    analysis.counts.compiledThreadInstrs += result->compiledThreadInstrs;
    if (result->outcome == LaunchOutcome::Judged) {
      judged.push_back(result);
      analysis.counts.blocks += result->blocks;
      analysis.counts.blocksModelled += result->blocksModelled;
    }
    if (result->outcome == LaunchOutcome::Judged && conventionsMatter &&
        result->nonPositiveSize) {
      ++analysis.counts.unconventional;
      if (unconventional.empty())
        unconventional = result->outsideConventions;
    }
    else if (!result->error.empty() && analysis.firstLaunchError.empty())
      analysis.firstLaunchError = result->error;
  }
  // Launches of the program's shape cut short by their time budget (only
  // those run with one): what the blocks they ran show stands (a bug there
  // is a bug of the launch, whatever floating-point numbers simulee chose).
  std::vector<const LaunchResult *> withFindings = judged;
  uint64_t cutShort = 0;
  for (const LaunchResult *result : results)
    if (result->cutShort) {
      withFindings.push_back(result);
      ++cutShort;
    }
  if (!withFindings.empty())
    analysis.findings =
        combineFindings(program, kernel, withFindings, options, searched, conventionsMatter);
  addFailedAssertions(kernel, results, programsOwn, analysis);
  finishFindings(program, kernel, options, analysis.findings);
  // A barrier no judged launch reached may well be reached by those skipped
  // as too costly (the larger sizes run the deeper loops): nothing is said.
  if (analysis.counts.tooCostly)
    std::erase_if(analysis.findings, [](const detect::Finding &finding) {
      return finding.kind == detect::FindingKind::UnreachedBarrier;
    });
  analysis.verdict = detect::verdictOf(analysis.findings, analysis.counts);
  // Judged in part only when that showed a bug; else simply too costly.
  if (analysis.verdict == detect::Verdict::Findings)
    analysis.counts.cutShort = cutShort;
  if (analysis.verdict == detect::Verdict::Inconclusive && analysis.counts.judged)
    analysis.notes.push_back("every launch judged had a size of 0 or less, outside what CUDA "
                             "code assumes (the first: " + unconventional +
                             "); --explore accepts them");
}

// Why a searched launch lies outside the conventions CUDA code assumes unless
// it says otherwise, as far as the search chose its values: a block that is
// not a multiple of 32 threads, a size of 0 or less. Empty inside them.
// The integer a launch record gives argument `name`, as launched (a site's
// conditions may have moved a searched value); nullopt when it has none.
std::optional<int64_t> integerArgument(const detect::LaunchRecord &launch,
                                       const std::string &name) {
  for (const auto &[argument, text] : launch.args) {
    int64_t value = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (argument == name && error == std::errc() && end == text.data() + text.size())
      return value;
  }
  return std::nullopt;
}

// The elements of the buffer a launch passes as `name` ("perm:544+8": 544).
std::optional<uint64_t> bufferElements(const detect::LaunchRecord &launch,
                                       const std::string &name) {
  for (const auto &[argument, text] : launch.args) {
    size_t colon = text.find(':');
    if (argument != name || colon == std::string::npos)
      continue;
    uint64_t elements = 0;
    const char *begin = text.data() + colon + 1, *end = text.data() + text.size();
    auto [stop, error] = std::from_chars(begin, end, elements);
    if (error == std::errc() && stop != begin && (stop == end || *stop == '+'))
      return elements;
  }
  return std::nullopt;
}

// Whether a permutation filling pointer parameter `index` has more elements
// than some other buffer of the launch: its indices fall past what they
// index, as indices simulee draws never do (they stay below the smallest
// other buffer).
bool permutationPastOthers(const ir::KernelInfo &kernel, size_t index,
                           const detect::LaunchRecord &launch) {
  std::optional<uint64_t> elements = bufferElements(launch, kernel.params[index].name);
  for (size_t other = 0; elements && other < kernel.params.size(); ++other)
    if (other != index && kernel.params[other].kind == ir::ValueKind::Pointer)
      if (std::optional<uint64_t> size = bufferElements(launch, kernel.params[other].name);
          size && *size < *elements)
        return true;
  return false;
}

// A searched row pitch (`pitch`, `stride`, `ld`, `lda`, `row_size`...)
// smaller than a row width (`width`, `cols`, `nx`, `w`) argument of the same
// launch: rows overlap, which code taking both assumes never happens. A
// struct's member counts by its own name (`store.row_size`). With no width
// argument, a two-dimensional launch's rows are as wide as its threads in
// x (a kernel given no width to guard with covers its image exactly: `tile
// * Stride + (blockIdx.x * 8 + threadIdx.x)`).
std::optional<std::string> rowsOverlap(const evo::SearchSpace &space,
                                       const detect::LaunchRecord &launch) {
  auto lower = [](std::string text) {
    text = text.substr(text.find_last_of('.') + 1); // npos + 1 == 0
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return text;
  };
  auto isPitch = [&](const std::string &name) {
    std::string n = lower(name);
    return n.find("pitch") != std::string::npos || n.find("stride") != std::string::npos ||
           n == "ld" || n == "lda" || n == "ldb" || n == "ldc" || n == "row_size" ||
           n == "rowsize";
  };
  auto isWidth = [&](const std::string &name) {
    std::string n = lower(name);
    return n.find("width") != std::string::npos || n == "cols" || n == "ncols" ||
           n == "columns" || n == "nx" || n == "w";
  };
  bool searched = false; // only values the search chose can break it
  for (const evo::Gene &gene : space.scalars)
    searched = searched || (gene.kind == evo::GeneKind::Int && !gene.fixed &&
                            (isPitch(gene.name) || isWidth(gene.name)));
  if (!searched)
    return std::nullopt;
  bool widthGiven = std::any_of(launch.args.begin(), launch.args.end(),
                                [&](const auto &arg) { return isWidth(arg.first); });
  uint64_t columns = uint64_t(launch.grid.x) * launch.block.x;
  bool twoDimensional = uint64_t(launch.grid.y) * launch.block.y > 1;
  for (const auto &[pitchName, pitchText] : launch.args) {
    std::optional<int64_t> pitch =
        isPitch(pitchName) ? integerArgument(launch, pitchName) : std::nullopt;
    for (const auto &[widthName, widthText] : launch.args) {
      std::optional<int64_t> width =
          isWidth(widthName) ? integerArgument(launch, widthName) : std::nullopt;
      if (pitch && width && *pitch < *width)
        return pitchName + " (" + pitchText + ") less than " + widthName + " (" + widthText +
               "): rows overlap";
    }
    if (pitch && !widthGiven && twoDimensional && *pitch >= 0 && uint64_t(*pitch) < columns)
      return pitchName + " (" + pitchText + ") less than the " + std::to_string(columns) +
             " threads of the launch's rows: rows overlap";
  }
  return std::nullopt;
}

// What contents filled against `role` break, as a note names it.
const char *unconventionalContents(ir::ContentRole role) {
  switch (role) {
  case ir::ContentRole::Offsets:
    return "offsets that decrease";
  case ir::ContentRole::Sorted:
    return "unsorted contents the kernel searches";
  case ir::ContentRole::Scatter:
    return "repeated indices the kernel stores through";
  case ir::ContentRole::Index:
  case ir::ContentRole::None:
    break;
  }
  return "indices past the buffers they index";
}

// What a searched launch breaks of what CUDA code assumes unless it says
// otherwise, as the note names it ("" when nothing): its block, sizes, an
// integer the kernel masks with, row pitch, and the buffers filled against
// what the kernel's code says they hold (ir/ContentConventions.h): offsets
// that may decrease, indices that may fall outside what they index or
// repeat where the kernel stores through them, unsorted searched contents.
std::string outsideConventions(const ir::KernelInfo &kernel, const evo::SearchSpace &space,
                               const SitePlan *site, const detect::LaunchRecord &launch,
                               const std::vector<Fill> &fills, bool *nonPositiveSize = nullptr) {
  std::vector<std::string> reasons;
  uint64_t threads = launch.block.count();
  bool blockSearched = !space.block.fixed || (site && site->searchesBlock());
  if (blockSearched && threads % 32 != 0)
    reasons.push_back("a block of " + std::to_string(threads) + " threads, not a multiple of 32");
  for (const evo::Gene &gene : space.scalars) {
    std::optional<int64_t> value =
        gene.kind == evo::GeneKind::Int ? integerArgument(launch, gene.name) : std::nullopt;
    if (value && *value <= 0) {
      reasons.push_back(gene.name + " = " + std::to_string(*value));
      if (nonPositiveSize)
        *nonPositiveSize = true;
    }
  }
  // An integer the kernel masks with, as the search chose it.
  for (size_t i = 0; i < kernel.params.size(); ++i) {
    const ir::ParamInfo &param = kernel.params[i];
    bool searched =
        std::any_of(space.scalars.begin(), space.scalars.end(), [&](const evo::Gene &gene) {
          return gene.param == i && gene.name == param.name;
        });
    if (param.powerOfTwoFrom == 0 || !(searched || (site && site->searchesParameter(i))))
      continue;
    std::optional<int64_t> value = integerArgument(launch, param.name);
    if (value && !param.conventionalInteger(*value) && !(searched && *value <= 0))
      reasons.push_back(param.name + " = " + std::to_string(*value) + ", not a power of two" +
                        (param.powerOfTwoFrom > 1
                             ? " of at least " + std::to_string(param.powerOfTwoFrom)
                             : std::string()) +
                        ", which the kernel masks with");
  }
  if (site)
    for (const auto &[name, tile] : site->tiledParameters())
      if (std::optional<int64_t> value = integerArgument(launch, name);
          value && *value > 0 && *value % tile != 0)
        reasons.push_back(name + " = " + std::to_string(*value) + ", not a multiple of " +
                          std::to_string(tile) + ", the tile its grid is counted in");
  if (std::optional<std::string> rows = rowsOverlap(space, launch))
    reasons.push_back(*rows);
  for (const evo::Gene &gene : space.buffers) {
    ir::ContentRole role = kernel.params[gene.param].contents;
    if (gene.role != evo::GeneRole::BufferFill)
      continue;
    // A scatter's permutation is conventional while it stays inside what it
    // indexes.
    if (conventionalFill(fills[gene.param], role)) {
      if (role != ir::ContentRole::Scatter || !permutationPastOthers(kernel, gene.param, launch))
        continue;
      role = ir::ContentRole::Index;
    }
    reasons.push_back(gene.name + " filled " + fillName(fills[gene.param]) + ": " +
                      unconventionalContents(role));
  }
  std::string text;
  for (const std::string &reason : reasons)
    text += (text.empty() ? "" : ", ") + reason;
  return text;
}

// A search's launches: from a call site when it has one, and then searched
// when anything but buffer contents was left free.
detect::Provenance provenanceOf(const evo::SearchSpace &space, const FixedSettings &fixed) {
  if (!fixed.site)
    return detect::Provenance::Free;
  bool everyValueGiven = space.grid.fixed && space.block.fixed && space.scalars.empty() &&
                         std::none_of(space.buffers.begin(), space.buffers.end(),
                                      [](const evo::Gene &gene) {
                                        return gene.role == evo::GeneRole::BufferSize;
                                      });
  return everyValueGiven ? detect::Provenance::Site : detect::Provenance::SiteSearch;
}

// An overrun of a buffer the host allocated names the allocation.
void nameHostAllocations(const SitePlan &site, std::vector<detect::Finding> &findings) {
  for (detect::Finding &finding : findings) {
    if (finding.kind != detect::FindingKind::OutOfBounds ||
        finding.space != interp::MemSpace::Global)
      continue;
    if (site.sizes(finding.buffer))
      finding.detail += " (the host's allocation, " + site.allocation(finding.buffer) + ")";
    else if (std::optional<std::string> where = site.memberAllocation(finding.buffer))
      finding.detail += " (the host's allocation, " + *where + ")";
  }
}

void stampProvenance(KernelAnalysis &analysis, detect::Provenance provenance) {
  analysis.provenance = provenance;
  for (detect::Finding &finding : analysis.findings)
    finding.launch.provenance = provenance;
  if (analysis.bestLaunch)
    analysis.bestLaunch->provenance = provenance;
}

} // namespace

Status checkLaunchBounds(const ir::KernelInfo &kernel, const interp::Dim3 &block) {
  uint64_t threads = uint64_t(block.x) * block.y * block.z;
  if (kernel.maxThreadsPerBlock == 0 || threads <= kernel.maxThreadsPerBlock)
    return Ok{};
  return makeError("a block of " + std::to_string(threads) + " threads exceeds kernel '" +
                   kernel.sourceName + "''s __launch_bounds__(" +
                   std::to_string(kernel.maxThreadsPerBlock) + "), which a GPU refuses to launch");
}

Result<KernelAnalysis> analyzeLaunch(const ir::Program &program, const ir::KernelInfo &kernel,
                                     const LaunchSpec &launch, const AnalysisOptions &options) {
  Result<interp::LaunchConfig> config = configFor(kernel, launch.config, options);
  if (!config)
    return config.error();
  // The user's launch, judged at its size (see AnalysisOptions::launchSeconds).
  if (config->totalBudgetInstrs == 0)
    config->totalBudgetInstrs = interp::kUnlimitedInstrs;
  config->budgetSeconds = options.launchSeconds;
  config->budgetInstrs = soloBudget(options, config->grid.count() * config->block.count());
  if (!kernel.unsupported.empty())
    return makeError(program.path + ": kernel '" + kernel.sourceName + "': " + kernel.unsupported);
  // Buffers simulee sized itself grow until the launch fits them: an
  // overrun of one is simulee's mistake, never the kernel's.
  constexpr int kAttempts = 4;
  std::vector<uint64_t> elementCounts(kernel.params.size(), 0);
  Result<BuiltArguments> built = makeError("not built");
  LaunchResult result;
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    built = buildArguments(kernel, *config, launch.args, launch.seed, elementCounts);
    if (!built)
      return built.error();
    LaunchInputs inputs{*config, launch.args, elementCounts, launch.seed, {}, {}, nullptr};
    result = simulate(program, kernel, inputs, *built, options, /*searched=*/false);
    bool grew = false;
    for (size_t p = 0; p < result.grownElementCounts.size(); ++p) {
      uint64_t elementBytes = std::max<uint64_t>(kernel.params[p].elementBytes, 1);
      uint64_t current = built->values[p].bytes.size() / elementBytes;
      uint64_t needed = result.grownElementCounts[p];
      if (needed > current && needed <= largestGrownElements(elementBytes, true)) {
        elementCounts[p] = needed + needed / 4;
        grew = true;
      }
    }
    if (!grew)
      break;
  }
  // A launch the caller stopped, or one simulee refused or could not run
  // (over a limit, an unsupported operation), has no verdict: an error. One
  // that ran and did not finish (a budget, the kernel's own trap) is an
  // inconclusive verdict.
  if (result.outcome == LaunchOutcome::Failed && !stoppedByKernel(result.error))
    return makeError(result.error);
  KernelAnalysis analysis;
  analysis.kernel = &kernel;
  conclude(program, kernel, {&result}, options, /*searched=*/false, /*programsOwn=*/true,
           analysis);
  analysis.bestLaunch = result.record;
  analysis.bestRatio = result.ratio;
  analysis.arguments = std::move(built->values);
  stampProvenance(analysis, detect::Provenance::User);
  return analysis;
}

Result<KernelAnalysis> analyzeBoundLaunch(const ir::Program &program, const ir::KernelInfo &kernel,
                                          BoundLaunch &launch, const AnalysisOptions &options) {
  Result<interp::LaunchConfig> config = configFor(kernel, launch.config, options);
  if (!config)
    return config.error();
  // The program needs this launch's results: it is never cut short.
  config->totalBudgetInstrs = interp::kUnlimitedInstrs;
  config->budgetSeconds = 0;
  config->stopOverMemory = false;
  if (!kernel.unsupported.empty())
    return makeError(program.path + ": kernel '" + kernel.sourceName + "': " + kernel.unsupported);
  LaunchInputs inputs{*config, {}, {}, 0, {}, {}, nullptr};
  // Only a kernel with barriers can need the re-check that runs it again,
  // and only when its accesses are recorded.
  if (!kernel.barrierInstructions.empty() && !options.lightChecks)
    inputs.bound = std::make_shared<const BoundSnapshot>(launch);
  BuiltArguments built{std::move(launch.values), launch.record.args};
  LaunchResult result =
      simulate(program, kernel, inputs, built, options, /*searched=*/false, launch.memory);
  launch.values = std::move(built.values);
  if (result.outcome == LaunchOutcome::Failed && !stoppedByKernel(result.error))
    return makeError(result.error);
  KernelAnalysis analysis;
  analysis.kernel = &kernel;
  // The runtime reports a failed assert itself (it also fails later calls).
  conclude(program, kernel, {&result}, options, /*searched=*/false, /*programsOwn=*/false,
           analysis);
  for (detect::Finding &finding : analysis.findings)
    finding.launch = launch.record;
  analysis.bestLaunch = launch.record;
  analysis.bestRatio = result.ratio;
  analysis.provenance = launch.record.provenance;
  return analysis;
}

Result<KernelAnalysis> searchKernel(const ir::Program &program, const ir::KernelInfo &kernel,
                                    const FixedSettings &fixed, const SearchSettings &settings,
                                    const AnalysisOptions &options) {
  if (!kernel.unsupported.empty())
    return makeError(program.path + ": kernel '" + kernel.sourceName + "': " + kernel.unsupported);
  // Which parameters the user fixed.
  std::vector<const ArgumentSpec *> given(kernel.params.size(), nullptr);
  std::set<std::string> givenMembers; // "io.n": a by-value aggregate's number
  for (const ArgumentSpec &spec : fixed.args) {
    if (findScalarMember(kernel, spec.name) || findPointerMember(kernel, spec.name)) {
      givenMembers.insert(spec.name);
      continue;
    }
    Result<size_t> index = findParameter(kernel, spec.name);
    if (!index)
      return makeError(program.path + ": kernel '" + kernel.sourceName + "': " +
                       index.error().message);
    given[*index] = &spec;
  }

  evo::SearchSpace space;
  space.limits.maxThreads = settings.maxThreads;
  if (kernel.maxThreadsPerBlock != 0)
    space.limits.maxThreadsPerBlock =
        std::min(space.limits.maxThreadsPerBlock, kernel.maxThreadsPerBlock);
  space.grid.rank = kernel.rankRead(ir::BuiltinVariable::BlockIdx, ir::BuiltinVariable::GridDim);
  space.block.rank =
      kernel.rankRead(ir::BuiltinVariable::ThreadIdx, ir::BuiltinVariable::BlockDim);
  if (fixed.grid)
    space.grid.fixed = toDims(*fixed.grid);
  else if (!readsAny(kernel, ir::BuiltinVariable::BlockIdx) &&
           !readsAny(kernel, ir::BuiltinVariable::GridDim))
    // Blocks of a kernel that never asks which block it is do identical
    // work; more than one would only race with copies of itself.
    space.grid.fixed = evo::Dims{1, 1, 1};
  std::string contractNote;
  if (fixed.block) {
    if (Status bounded = checkLaunchBounds(kernel, *fixed.block); !bounded)
      return makeError(program.path + ": " + bounded.error().message);
    space.block.fixed = toDims(*fixed.block);
  } else if (kernel.contractBlock[0] != 0 && (settings.keepBlockContract || kernel.library)) {
    // CUB's collectives work only in blocks of the shape they were
    // instantiated for, a block reduction over a 256-slot array only in
    // blocks of 256: other shapes are launches the program cannot make.
    interp::Dim3 block{kernel.contractBlock[0], kernel.contractBlock[1], kernel.contractBlock[2]};
    if (checkLaunchBounds(kernel, block)) {
      space.block.fixed = toDims(block);
      contractNote = "searched with blocks of " + interp::formatDim3(block) + ", as its " +
                     kernel.contractSource + " implies (--block chooses another)";
    }
  } else if (kernel.library && kernel.maxThreadsPerBlock != 0) {
    // A library's dispatch launches its kernels with the block its tuning
    // policy names, which is the kernel's __launch_bounds__: other blocks are
    // launches no program makes, even under --explore.
    interp::Dim3 block{kernel.maxThreadsPerBlock, 1, 1};
    space.block.fixed = toDims(block);
    contractNote = "searched with blocks of " + interp::formatDim3(block) +
                   ", the block its library's dispatch launches it with (its __launch_bounds__; "
                   "--block chooses another)";
  } else if (kernel.library) {
    space.block.rank = 1; // library dispatch launches one-dimensional blocks
  }
  for (size_t i = 0; i < kernel.params.size(); ++i) {
    const ir::ParamInfo &param = kernel.params[i];
    if (given[i] || (fixed.site && fixed.site->derives(i)))
      continue;
    if (param.kind == ir::ValueKind::Int) {
      space.scalars.push_back(evo::Gene::integer(param.name, param.bits, param.isSigned));
      space.scalars.back().powerOfTwoFrom = param.powerOfTwoFrom;
    } else if (param.kind == ir::ValueKind::Float) {
      space.scalars.push_back(evo::Gene::floating(param.name, param.bits));
    } else if (param.kind == ir::ValueKind::Pointer) {
      // How large, and how filled: contents decide index ranges, sortedness,
      // which guarded paths run.
      // Else the host's zeros, or what it computed and copied there.
      if (!fixed.site || (!fixed.site->zeroes(i) && !fixed.site->fills(i))) {
        space.buffers.push_back(evo::Gene::bufferFill(param.name, kFillKinds));
        space.buffers.back().param = uint32_t(i);
      }
      if (fixed.site && fixed.site->sizes(i))
        continue; // the host's allocation sizes it
      space.buffers.push_back(evo::Gene::bufferSize(param.name));
    } else {
      // The numbers inside a struct simulee fills are searched like scalar
      // parameters (its own bytes would make every `i < v.n` false).
      for (const ir::ScalarMember &member : param.scalarMembers) {
        std::string name = scalarMemberName(param, member);
        if (givenMembers.count(name) || (fixed.site && fixed.site->derivesMember(name)))
          continue;
        space.scalars.push_back(member.kind == ir::ValueKind::Float
                                    ? evo::Gene::floating(name, member.bits)
                                    : evo::Gene::integer(name, member.bits, member.isSigned));
        space.scalars.back().param = uint32_t(i);
      }
      continue;
    }
    (param.kind == ir::ValueKind::Pointer ? space.buffers : space.scalars).back().param =
        uint32_t(i);
  }
  if (fixed.site)
    fixed.site->shape(space);
  if (Status valid = space.validate(); !valid)
    return makeError(program.path + ": kernel '" + kernel.sourceName +
                     "': " + valid.error().message);

  // The search keeps only findings, never tuples: the constant-size summary
  // reaches the same verdicts faster than the full log.
  AnalysisOptions searchOptions = options;
  if (searchOptions.representation == memmodel::Representation::Auto)
    searchOptions.representation = memmodel::Representation::Summary;
  // The program's launch runs first and by itself, its blocks on --jobs
  // threads; when it is judged alone (see below), nothing ranks it. The
  // search's launches run side by side, each on one thread.
  AnalysisOptions programsOptions = searchOptions;
  programsOptions.rankLaunches = searchOptions.rankLaunches && kernel.contentsSteer;
  programsOptions.budgetInstrs = soloBudget(
      options, fixed.grid && fixed.block ? fixed.grid->count() * fixed.block->count() : 0);
  searchOptions.blockJobs = 1;

  // The user's fixed integer arguments also size automatic buffers.
  std::vector<uint64_t> fixedPositiveInts;
  for (size_t i = 0; i < kernel.params.size(); ++i) {
    if (!given[i] || kernel.params[i].kind != ir::ValueKind::Int)
      continue;
    Result<uint64_t> bits = parseScalar(kernel.params[i], given[i]->value);
    if (bits && int64_t(*bits) > 0)
      fixedPositiveInts.push_back(*bits);
  }

  // Dynamic shared memory whose size and block the site (or the user) states:
  // a read past it is the program's bug, not a launch to skip.
  bool sharedStated = fixed.site ? fixed.site->sizesShared()
                                 : fixed.dynamicSharedBytes != 0 && fixed.block.has_value();

  std::mutex mutex;
  std::map<std::string, LaunchResult> results; // by the solution's description
  auto keyOf = [&](const evo::Solution &solution) {
    std::string key;
    for (const std::string &part : evo::describe(space, solution))
      key += part + ";";
    return key;
  };

  // The program's own launch: every dimension and integer fixed (by the
  // call site or the user), only buffer contents left to vary, the sizes of
  // buffers nothing sizes (simulee grows them to what the launch needs) and
  // floating-point numbers the host computes at run time (a bias
  // correction, a scale: they size nothing). It is judged at its full size
  // within --launch-seconds; its variants keep --max-cost.
  bool fixedShape = space.grid.fixed && space.block.fixed;
  bool floatsSearched = false;
  for (size_t g = 0; g < space.geneCount(); ++g) {
    const evo::Gene &gene = space.gene(g);
    if (gene.role != evo::GeneRole::Scalar || gene.fixed)
      continue;
    floatsSearched |= gene.kind == evo::GeneKind::Float;
    fixedShape = fixedShape && gene.kind == evo::GeneKind::Float;
  }
  std::optional<evo::Solution> programsLaunch;
  if (fixedShape)
    programsLaunch = evo::typicalSolution(space);

  // A kernel of NVIDIA's library whose numbers the search chooses (its
  // dispatch's are not known): every launch of the search.
  bool libraryNumbersChosen =
      kernel.library && std::any_of(space.scalars.begin(), space.scalars.end(),
                                    [](const evo::Gene &gene) { return !gene.fixed; });
  std::atomic<uint64_t> notTheSites{0}; // solutions no launch of the site matches
  std::atomic<uint64_t> simulated{0}, tooCostly{0}; // launches run, and those over the cap
  std::atomic<bool> smallestRetried{false};         // under a larger cap (evaluateAt)
  std::string judgedOverTheCap; // the key of the launch AnalysisOptions::judgeOneOverTheCap runs
  // The launches with smaller sizes run after each too costly (evaluateAt),
  // by its key.
  std::map<std::string, std::vector<std::string>> smallerLaunches;
  // The program's launch's error when it failed, and the variants of it
  // that failed with that very error.
  std::string programsFailure;
  std::atomic<uint64_t> failedAlike{0};
  auto fitnessOf = [](const LaunchResult &result) {
    return result.outcome == LaunchOutcome::Judged
               ? evo::Fitness{true, result.ratio, double(result.range)}
               : evo::Fitness::invalid();
  };
  // `solution`'s launch, its result kept as `key`'s. One over the cost cap
  // is followed by one with its free sizes smaller (`shrinks` times so far).
  // Nothing when such a smaller launch is not one the site makes.
  std::function<std::optional<evo::Fitness>(const evo::Solution &, const std::string &, int)>
      evaluateAt;
  evaluateAt = [&](const evo::Solution &solution, const std::string &key,
                   int shrinks) -> std::optional<evo::Fitness> {
    if (options.cancel && options.cancel->load())
      return evo::Fitness::invalid(); // the search runs out quickly; its result is dropped
    bool isProgramsLaunch =
        (programsLaunch && solution == *programsLaunch) || key == judgedOverTheCap;
    if (isProgramsLaunch) { // run before the search?
      std::lock_guard<std::mutex> lock(mutex);
      if (auto known = results.find(key); known != results.end())
        return fitnessOf(known->second);
    }
    interp::LaunchConfig base;
    base.grid = toDim3(solution.grid);
    base.block = toDim3(solution.block);
    base.dynamicSharedBytes = fixed.dynamicSharedBytes;
    base.totalBudgetInstrs = options.searchLaunchBudgetInstrs;
    if (isProgramsLaunch) {
      base.totalBudgetInstrs = interp::kUnlimitedInstrs;
      base.budgetSeconds = options.launchSeconds;
    }
    std::vector<evo::TypedValue> values = evo::typedValues(space, solution);
    std::vector<ArgumentSpec> specs = fixed.args;
    std::vector<uint64_t> elementCounts(kernel.params.size(), 0);
    std::vector<Fill> fills(kernel.params.size(), Fill::Random);
    for (size_t p = 0; fixed.site && p < fills.size(); ++p)
      if (fixed.site->zeroes(p))
        fills[p] = Fill::Zeros;
    for (size_t g = 0; g < space.geneCount(); ++g) {
      const evo::Gene &gene = space.gene(g);
      if (gene.role == evo::GeneRole::Scalar)
        specs.push_back({gene.name, formatScalar(values[g])});
      else if (gene.role == evo::GeneRole::BufferFill)
        fills[gene.param] = fillOfGene(values[g].integer, kernel.params[gene.param]);
      else
        elementCounts[gene.param] = uint64_t(std::max<int64_t>(values[g].integer, 1));
    }
    // A call site computes dims and some arguments from the others; values
    // it would never launch with are not a launch at all.
    std::vector<uint64_t> positiveInts = fixedPositiveInts;
    std::vector<uint64_t> allocated; // by parameter: the host's allocation, in elements
    std::vector<uint64_t> offsets;   // by parameter: where into it the pointer points
    std::vector<SitePlan::SizedMember> members; // struct pointers into the host's allocations
    if (fixed.site &&
        !fixed.site->apply(base, specs, positiveInts, allocated, offsets, &members)) {
      if (shrinks > 0)
        return std::nullopt;
      ++notTheSites;
      return evo::Fitness::invalid();
    }
    HostSizes sizedByHost;
    sizedByHost.buffers.assign(kernel.params.size(), false);
    for (size_t p = 0; p < allocated.size(); ++p)
      if (allocated[p]) {
        // A second pointer into one allocation: into the first's buffer.
        if (std::optional<size_t> into = fixed.site->pointsInto(p)) {
          specs.push_back({kernel.params[p].name, kSameBuffer + kernel.params[*into].name + "+" +
                                                      std::to_string(offsets[p])});
          sizedByHost.buffers[p] = true;
          continue;
        }
        std::optional<std::vector<uint8_t>> copied =
            offsets[p] == 0 ? fixed.site->contents(p, allocated[p], specs) : std::nullopt;
        if (copied) {
          specs.push_back(
              {kernel.params[p].name, "host:" + std::to_string(allocated[p]), std::move(*copied)});
          sizedByHost.buffers[p] = true;
          continue;
        }
        // Given as the user would give it: a size simulee must not grow.
        specs.push_back({kernel.params[p].name,
                         std::string(fillName(fills[p])) + ":" + std::to_string(allocated[p]) +
                             (offsets[p] ? "+" + std::to_string(offsets[p]) : "")});
        sizedByHost.buffers[p] = true;
      }
    for (const SitePlan::SizedMember &member : members) {
      const ir::ParamInfo &param = kernel.params[member.ref.param];
      specs.push_back({pointerMemberName(param, param.pointerMembers[member.ref.member]),
                       std::string(fillName(fills[member.ref.param])) + ":" +
                           std::to_string(member.elements)});
      sizedByHost.members.insert(
          ir::memberBufferId(uint32_t(member.ref.param), uint32_t(member.ref.member)));
    }
    sizedByHost.dynamicShared = sharedStated;
    sizedByHost.staticShared = fixedShape;
    for (size_t g = 0; g < space.scalars.size(); ++g)
      if (values[g].kind == evo::GeneKind::Int && values[g].integer > 0)
        positiveInts.push_back(uint64_t(values[g].integer));
    // Shrinking a launch that costs too much changes its grid: only where
    // nobody (the user, a call site) fixed it.
    bool gridShrinks = !fixed.grid && !fixed.site;
    auto simulateBase = [&](bool programs) {
      return simulateRepaired(program, kernel, base, specs, elementCounts, fills, positiveInts,
                              sizedByHost, gridShrinks, settings.search.seed,
                              programs ? programsOptions : searchOptions, programs);
    };
    LaunchResult result = simulateBase(isProgramsLaunch);
    // Over the cap: a launch with smaller sizes runs too, judged as a launch
    // of its own (this one stays too costly: what it alone reaches stays
    // unknown).
    bool smallerRan = false;
    if (result.outcome == LaunchOutcome::TooCostly && !isProgramsLaunch && shrinks < kSizeShrinks)
      if (std::optional<evo::Solution> smaller =
              withSmallerSizes(kernel, fixed.site, space, solution)) {
        std::string smallerKey = keyOf(*smaller);
        bool known;
        {
          std::lock_guard<std::mutex> lock(mutex);
          known = results.count(smallerKey) != 0;
          smallerLaunches[key].push_back(smallerKey);
        }
        smallerRan = known || evaluateAt(*smaller, smallerKey, shrinks + 1).has_value();
      }
    // The smallest of them still over the cap (a kernel whose least launch
    // costs more, a 128 x 128 tile a block): once per kernel it runs again
    // under a cap kSmallestLaunchCapFactor times as large, so that such a
    // kernel is judged at all.
    bool widerCap = result.outcome == LaunchOutcome::TooCostly && shrinks > 0 && !smallerRan &&
                    !smallestRetried.exchange(true);
    if (widerCap) {
      base.totalBudgetInstrs = kSmallestLaunchCapFactor * options.searchLaunchBudgetInstrs;
      result = simulateBase(false);
    }
    result.outsideConventions =
        outsideConventions(kernel, space, fixed.site, result.record, fills,
                           &result.nonPositiveSize);
    result.libraryNumbersChosen = libraryNumbersChosen;
    result.madeUpContents.assign(kernel.params.size(), false);
    for (const evo::Gene &gene : space.buffers)
      if (gene.role == evo::GeneRole::BufferFill && !gene.fixed &&
          gene.param < result.madeUpContents.size())
        result.madeUpContents[gene.param] = true;
    // What a by-value struct's pointers point to is filled by simulee too
    // (as `fills` says), whoever sized it.
    for (size_t p = 0; p < kernel.params.size(); ++p)
      if (kernel.params[p].byValueBytes && !kernel.params[p].pointerMembers.empty() && !given[p])
        result.madeUpContents[p] = true;
    // A searched launch that goes out of bounds of a fixed contract (a
    // 256-slot tile under a 512-thread block) is not judged.
    evo::Fitness fitness = fitnessOf(result);
    // A search whose every other launch is over the cap stays hopeless.
    if (!widerCap) {
      ++simulated;
      if (result.outcome == LaunchOutcome::TooCostly)
        ++tooCostly;
    }
    if (result.outcome == LaunchOutcome::Failed && !programsFailure.empty() &&
        result.error == programsFailure)
      ++failedAlike;
    std::lock_guard<std::mutex> lock(mutex);
    results.emplace(key, std::move(result));
    return fitness;
  };
  evo::Evaluate evaluate = [&](const evo::Solution &solution) {
    return evaluateAt(solution, keyOf(solution), 0).value_or(evo::Fitness::invalid());
  };

  // The program's launch first: when it costs more than --max-cost, every
  // variant of its contents would too, and it alone is judged. Alone too
  // when the kernel's buffer contents steer nothing (ir/ContentSteering.h):
  // every variant would execute what it executed.
  evo::SearchOptions search = settings.search;
  // A generation of launches all over the cost cap (the program's sizes,
  // with only what it leaves open searched), or all variants of the
  // program's failed launch failing as it did (a __trap whatever the
  // buffers hold), at least half a population of them: their children
  // would fare no better.
  search.hopeless = [&, population = std::max<uint64_t>(search.population, 1)] {
    bool allFailedAlike = !programsFailure.empty() && failedAlike + 1 == simulated;
    return simulated * 2 >= population && (tooCostly == simulated || allFailedAlike);
  };
  if (programsLaunch) {
    evaluate(*programsLaunch);
    // No result: the site makes no launch of this shape (or the search was
    // cancelled); its content variants would fare no better.
    auto first = results.find(keyOf(*programsLaunch));
    if (first != results.end() && first->second.outcome == LaunchOutcome::Failed)
      programsFailure = first->second.error;
    if (first == results.end() || first->second.outcome == LaunchOutcome::TooCostly ||
        first->second.threadInstrs > options.searchLaunchBudgetInstrs ||
        (!kernel.contentsSteer && !floatsSearched)) {
      search.population = 1;
      search.generations = 0;
    }
  }
  Result<evo::SearchOutcome> outcome = evo::search(space, search, evaluate, settings.onProgress);
  if (options.cancel && options.cancel->load())
    return makeError(interp::kInterrupted);
  if (!outcome)
    return makeError(program.path + ": kernel '" + kernel.sourceName +
                     "': " + outcome.error().message);
  if (settings.history)
    recordHistory(*outcome, results, keyOf, *settings.history);
  // Every launch over the cost cap at a call site: the first judged once as
  // the program's own launch is (AnalysisOptions::judgeOneOverTheCap).
  if (fixed.site && options.judgeOneOverTheCap && options.launchSeconds > 0 && simulated > 0 &&
      tooCostly == simulated && !outcome->evaluated.empty()) {
    const evo::Solution &first = outcome->evaluated.front().solution;
    judgedOverTheCap = keyOf(first);
    results.erase(judgedOverTheCap);
    evaluateAt(first, judgedOverTheCap, 0);
    if (options.cancel && options.cancel->load())
      return makeError(interp::kInterrupted);
  }

  // Every launch in evaluation order, so that the examples reported do not
  // depend on --jobs.
  KernelAnalysis analysis;
  analysis.kernel = &kernel;
  std::vector<const LaunchResult *> inOrder;
  std::set<const LaunchResult *> seen; // a solution evaluated twice ran once
  std::function<void(const std::string &)> addInOrder = [&](const std::string &key) {
    if (auto it = results.find(key); it != results.end() && seen.insert(&it->second).second) {
      inOrder.push_back(&it->second);
      if (auto smaller = smallerLaunches.find(key); smaller != smallerLaunches.end())
        for (const std::string &next : smaller->second)
          addInOrder(next);
    }
  };
  for (const evo::EvaluatedSolution &evaluated : outcome->evaluated)
    addInOrder(keyOf(evaluated.solution));
  conclude(program, kernel, inOrder, searchOptions, /*searched=*/true,
           /*programsOwn=*/provenanceOf(space, fixed) == detect::Provenance::Site, analysis,
           /*conventionsMatter=*/!settings.explore);
  analysis.bestRatio = outcome->bestFitness.ratio;
  if (auto best = results.find(keyOf(outcome->best)); best != results.end())
    analysis.bestLaunch = best->second.record;
  stampProvenance(analysis, provenanceOf(space, fixed));
  if (analysis.counts.simulated() == 0 && notTheSites > 0)
    analysis.firstLaunchError =
        "none of the " + std::to_string(notTheSites.load()) +
        " launches tried is one the call site makes (its conditions fail, or a dimension or "
        "allocation it computes is empty or over simulee's limits)";
  if (fixed.site)
    nameHostAllocations(*fixed.site, analysis.findings);
  if (!contractNote.empty())
    analysis.notes.push_back(contractNote);
  return analysis;
}

report::KernelFindings reportEntry(const ir::Program &program, const KernelAnalysis &analysis) {
  report::KernelFindings entry(&program, analysis.kernel ? analysis.kernel->sourceName : "",
                               analysis.findings);
  if (analysis.kernel)
    entry.parameters = program.overloadParameters(*analysis.kernel);
  entry.verdict = analysis.verdict;
  entry.launches = analysis.counts;
  entry.cause = analysis.firstLaunchError;
  entry.callSites = analysis.sites;
  if (analysis.counts.simulated())
    entry.provenance = analysis.provenance;
  if (analysis.kernel)
    entry.notes = analysis.kernel->notes;
  entry.notes.insert(entry.notes.end(), analysis.notes.begin(), analysis.notes.end());
  return entry;
}

std::string launchToJson(const std::string &kernel, const detect::LaunchRecord &launch) {
  nlohmann::json doc;
  doc["kernel"] = kernel;
  doc["grid"] = {launch.grid.x, launch.grid.y, launch.grid.z};
  doc["block"] = {launch.block.x, launch.block.y, launch.block.z};
  doc["sharedBytes"] = launch.dynamicSharedBytes;
  doc["seed"] = launch.seed;
  nlohmann::json args = nlohmann::json::object();
  for (auto &[name, value] : launch.args)
    args[name] = value;
  doc["args"] = args;
  if (launch.origin)
    doc["origin"] = {{"file", launch.origin->file}, {"line", launch.origin->line}};
  return doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

Result<LaunchSpec> launchFromJson(const std::string &text, std::string *kernel) {
  nlohmann::json doc = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object())
    return makeError("not a launch file (expected the JSON that --save-launch writes)");
  LaunchSpec spec;
  auto dims = [&](const char *key, interp::Dim3 &out) -> bool {
    if (!doc.contains(key))
      return true;
    const nlohmann::json &d = doc[key];
    if (!d.is_array() || d.size() != 3)
      return false;
    for (const nlohmann::json &v : d)
      if (!v.is_number_unsigned() || v.get<uint64_t>() == 0 || v.get<uint64_t>() > 0xffffffffu)
        return false;
    out = interp::Dim3{d[0].get<uint32_t>(), d[1].get<uint32_t>(), d[2].get<uint32_t>()};
    return true;
  };
  if (!dims("grid", spec.config.grid) || !dims("block", spec.config.block))
    return makeError("launch file: 'grid' and 'block' must be arrays of three positive integers");
  if (doc.contains("sharedBytes")) {
    const nlohmann::json &shared = doc["sharedBytes"];
    if (!shared.is_number_unsigned() || shared.get<uint64_t>() > interp::kMaxSharedBytesPerBlock)
      return makeError("launch file: 'sharedBytes' must be a number of bytes up to " +
                       std::to_string(interp::kMaxSharedBytesPerBlock) + " (got " +
                       shared.dump() + ")");
    spec.config.dynamicSharedBytes = shared.get<uint32_t>();
  }
  if (doc.contains("seed") && doc["seed"].is_number_unsigned())
    spec.seed = doc["seed"].get<uint64_t>();
  if (doc.contains("args") && doc["args"].is_object())
    for (auto &[name, value] : doc["args"].items())
      spec.args.push_back({name, value.is_string() ? value.get<std::string>() : value.dump()});
  if (kernel && doc.contains("kernel") && doc["kernel"].is_string())
    *kernel = doc["kernel"].get<std::string>();
  return spec;
}

bool hasSourceLines(const ir::Program &program, const detect::Finding &finding) {
  for (size_t i = 0; i < detect::identifyingSites(finding); ++i)
    if (!program.instructions[finding.sites[i].instruction].location.known())
      return false;
  return true;
}

std::string bugKey(const ir::Program &program, const detect::Finding &finding) {
  std::string key = std::string(detect::findingKindName(finding.kind)) + "|" +
                    std::to_string(int(finding.space)) + "|" + finding.variable + "|" +
                    std::to_string(int(finding.benign));
  std::vector<std::string> lines;
  for (size_t i = 0; i < detect::identifyingSites(finding); ++i) {
    const ir::SourceLocation &location =
        program.instructions[finding.sites[i].instruction].location;
    lines.push_back(location.known() ? location.file + ":" + std::to_string(location.line)
                                     : "#" + std::to_string(finding.sites[i].instruction));
  }
  if (finding.kind == detect::FindingKind::DataRace)
    std::sort(lines.begin(), lines.end());
  for (const std::string &line : lines)
    key += "|" + line;
  return key;
}

} // namespace simulee::session
