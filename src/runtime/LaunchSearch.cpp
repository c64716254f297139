#include "runtime/LaunchSearch.h"

#include "evo/Search.h"
#include "runtime/ArgumentText.h"

#include <algorithm>

namespace simulee::runtime {
namespace {

// How many axes of a grid or block the search may move: those the kernel
// reads and those the program's launch already uses (a kernel that never
// asks blockIdx.y only repeats itself in a second row of blocks).
uint32_t rankAround(const ir::KernelInfo &kernel, const interp::Dim3 &dims,
                    ir::BuiltinVariable index, ir::BuiltinVariable extent) {
  uint32_t used = dims.z > 1 ? 3 : dims.y > 1 ? 2 : 1;
  return std::max(used, kernel.rankRead(index, extent));
}

// The launch domain around a program's launch: its grid and block, and its
// integer and floating-point arguments. Pointers and structs stay the
// program's: its memory was made for them.
evo::SearchSpace spaceAround(const RecordedLaunch &launch) {
  const ir::KernelInfo &kernel = *launch.kernel;
  evo::SearchSpace space;
  space.grid.rank = rankAround(kernel, launch.config.grid, ir::BuiltinVariable::BlockIdx,
                               ir::BuiltinVariable::GridDim);
  space.block.rank = rankAround(kernel, launch.config.block, ir::BuiltinVariable::ThreadIdx,
                                ir::BuiltinVariable::BlockDim);
  // A step of one per axis may grow the launch a little past its own size.
  uint64_t threads = launch.config.grid.count() * launch.config.block.count();
  space.limits.maxThreads = std::max(space.limits.maxThreads, 2 * threads);
  if (kernel.maxThreadsPerBlock != 0)
    space.limits.maxThreadsPerBlock =
        std::min(space.limits.maxThreadsPerBlock, kernel.maxThreadsPerBlock);
  for (size_t p = 0; p < kernel.params.size() && p < launch.values.size(); ++p) {
    const ir::ParamInfo &param = kernel.params[p];
    if (param.byValueBytes || launch.values[p].kind != interp::ArgumentValue::Kind::Scalar)
      continue;
    if (param.kind == ir::ValueKind::Int && param.bits > 1)
      space.scalars.push_back(evo::Gene::integer(param.name, param.bits, param.isSigned));
    else if (param.kind == ir::ValueKind::Float)
      space.scalars.push_back(evo::Gene::floating(param.name, param.bits));
    else
      continue;
    space.scalars.back().param = uint32_t(p);
  }
  return space;
}

evo::Dims dimsOf(const interp::Dim3 &dims) { return {dims.x, dims.y, dims.z}; }
interp::Dim3 dim3Of(const evo::Dims &dims) { return {dims.x, dims.y, dims.z}; }

bool hasOutOfBounds(const std::vector<detect::Finding> &findings) {
  return std::any_of(findings.begin(), findings.end(), [](const detect::Finding &finding) {
    return finding.kind == detect::FindingKind::OutOfBounds;
  });
}

} // namespace

void searchAround(const RecordedLaunch &launch, uint32_t generations,
                  const session::AnalysisOptions &options,
                  const std::function<void(std::vector<detect::Finding>)> &onFindings) {
  evo::SearchSpace space = spaceAround(launch);
  evo::Solution start;
  start.grid = dimsOf(launch.config.grid);
  start.block = dimsOf(launch.config.block);
  start.genes = Eigen::VectorXd::Zero(Eigen::Index(space.geneCount()));
  for (size_t g = 0; g < space.scalars.size(); ++g)
    start.genes[Eigen::Index(g)] = evo::canonicalGeneValue(
        space.scalars[g], space.limits,
        evo::geneValueOfBits(space.scalars[g], launch.values[space.scalars[g].param].bits));
  if (!space.validate())
    return; // the program's own launch lies outside what a search may vary
  // One parent and its two children per generation (a (1+2) strategy): the
  // mutants stay near the launch the program made.
  evo::SearchOptions searchOptions;
  searchOptions.population = 1;
  searchOptions.generations = generations;
  searchOptions.accept = 0; // never stop early: every generation may find more
  searchOptions.seed = 1;
  searchOptions.jobs = 1;
  searchOptions.start = start;
  // A mutant may cost a few times the real launch, never much more.
  uint64_t costCap = std::max<uint64_t>(launch.threadInstrs * 4, uint64_t(1) << 22);
  auto evaluate = [&](const evo::Solution &solution) -> evo::Fitness {
    if (solution == start) // the program's own launch, judged already
      return evo::Fitness{true, launch.ratio, 0.0};
    interp::LaunchConfig config = launch.config;
    config.grid = dim3Of(solution.grid);
    config.block = dim3Of(solution.block);
    config.totalBudgetInstrs = costCap;
    if (!interp::validateLaunch(config) || !interp::validateLaunchSize(config))
      return evo::Fitness::invalid();
    session::BoundLaunch mutant;
    mutant.config = config;
    mutant.values = launch.values;
    mutant.record = launch.record;
    mutant.record.grid = config.grid;
    mutant.record.block = config.block;
    std::vector<evo::TypedValue> typed = evo::typedValues(space, solution);
    for (size_t g = 0; g < space.scalars.size(); ++g) {
      uint32_t p = space.scalars[g].param;
      mutant.values[p].bits = typed[g].bits;
      mutant.record.args[p].second = scalarText(launch.kernel->params[p], typed[g].bits);
    }
    // The program's launch with values searched around it.
    mutant.record.provenance = detect::Provenance::SiteSearch;
    // The memory the real launch started from, copied for this mutant.
    std::vector<std::optional<std::vector<uint8_t>>> allocations = launch.allocations;
    std::vector<std::vector<uint8_t>> globals = launch.globalVariables,
                                      constants = launch.constantVariables;
    interp::BoundMemory memory;
    for (std::optional<std::vector<uint8_t>> &allocation : allocations)
      memory.allocations.push_back(allocation ? &*allocation : nullptr);
    memory.globalVariables = &globals;
    memory.constantVariables = &constants;
    mutant.memory = &memory;
    Result<session::KernelAnalysis> analysis =
        session::analyzeBoundLaunch(*launch.program, *launch.kernel, mutant, options);
    if (!analysis || analysis->counts.judged == 0)
      return evo::Fitness::invalid();
    // Out of bounds where the program's own launch was not: the mutant broke
    // the sizes the program's memory was made for.
    if (!launch.outOfBounds && hasOutOfBounds(analysis->findings))
      return evo::Fitness::invalid();
    double ratio = analysis->bestRatio;
    onFindings(std::move(analysis->findings));
    return evo::Fitness{true, ratio, 0.0};
  };
  (void)evo::search(space, searchOptions, evaluate);
}

} // namespace simulee::runtime
