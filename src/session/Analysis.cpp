#include "session/Analysis.h"

#include "detect/FindingCollector.h"
#include "interp/Interpreter.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <map>
#include <mutex>
#include <optional>

namespace simulee::session {
namespace {

// Everything one simulated launch contributes.
struct LaunchResult {
  std::optional<detect::FindingCollector> findings; // this launch alone; none on error
  double ratio = 1.0;
  uint64_t range = 0;
  uint64_t threadInstrs = 0;
  std::string error;
  bool outOfBounds = false; // the launch broke the kernel's size assumptions
  detect::LaunchRecord record;
};

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

LaunchResult simulate(const ir::Program &program, const ir::KernelInfo &kernel,
                      const interp::LaunchConfig &config, BuiltArguments &built, uint64_t seed,
                      const AnalysisOptions &options) {
  LaunchResult result;
  result.record = recordOf(config, built, seed);
  memmodel::ModelOptions modelOptions;
  modelOptions.representation = options.representation;
  modelOptions.independentThreads = options.independentThreads;
  modelOptions.launchThreads = config.grid.count() * config.block.count();
  memmodel::MemoryModel model(modelOptions);
  interp::RunOptions runOptions;
  runOptions.listener = &model;
  Result<interp::RunStats> stats = interp::runKernel(program, kernel, config, built.values, runOptions);
  if (!stats) {
    result.error = stats.error().message;
    return result;
  }
  result.threadInstrs = stats->threadInstrs;
  result.findings.emplace(kernel.barrierInstructions, kernel.valueBarrierInstructions);
  result.findings->addLaunch(model, result.record);
  result.outOfBounds = !model.outOfBounds().empty();
  result.ratio = model.fitness().ratio();
  result.range = model.fitness().range();
  return result;
}

void nameVariables(const ir::Program &program, const ir::KernelInfo &kernel,
                   std::vector<detect::Finding> &findings) {
  for (detect::Finding &finding : findings)
    if (finding.kind == detect::FindingKind::DataRace ||
        finding.kind == detect::FindingKind::OutOfBounds)
      finding.variable = interp::bufferName(program, kernel, finding.space, finding.buffer);
}

Result<interp::LaunchConfig> configFor(const interp::LaunchConfig &base,
                                       const AnalysisOptions &options) {
  interp::LaunchConfig config = base;
  config.budgetInstrs = options.budgetInstrs;
  if (Status valid = interp::validateLaunch(config); !valid)
    return valid.error();
  return config;
}

std::string formatScalar(const evo::TypedValue &value) {
  if (value.kind == evo::GeneKind::Int)
    return std::to_string(value.integer);
  char text[64];
  std::snprintf(text, sizeof text, "%.9g", value.real);
  return text;
}

uint32_t rankOf(const ir::KernelInfo &kernel, ir::BuiltinVariable index, ir::BuiltinVariable dim) {
  uint32_t rank = 1;
  for (unsigned axis = 0; axis < 3; ++axis)
    if (kernel.readsBuiltin[unsigned(index)][axis] || kernel.readsBuiltin[unsigned(dim)][axis])
      rank = axis + 1;
  return rank;
}

bool readsAny(const ir::KernelInfo &kernel, ir::BuiltinVariable variable) {
  const bool(&axes)[3] = kernel.readsBuiltin[unsigned(variable)];
  return axes[0] || axes[1] || axes[2];
}

evo::Dims toDims(const interp::Dim3 &d) { return evo::Dims{d.x, d.y, d.z}; }
interp::Dim3 toDim3(const evo::Dims &d) { return interp::Dim3{d.x, d.y, d.z}; }

} // namespace

Result<KernelAnalysis> analyzeLaunch(const ir::Program &program, const ir::KernelInfo &kernel,
                                     const LaunchSpec &launch, const AnalysisOptions &options) {
  Result<interp::LaunchConfig> config = configFor(launch.config, options);
  if (!config)
    return config.error();
  Result<BuiltArguments> built = buildArguments(kernel, *config, launch.args, launch.seed);
  if (!built)
    return built.error();
  LaunchResult result = simulate(program, kernel, *config, *built, launch.seed, options);
  if (!result.error.empty())
    return makeError(result.error);
  KernelAnalysis analysis;
  analysis.kernel = &kernel;
  analysis.findings = result.findings->findings();
  nameVariables(program, kernel, analysis.findings);
  analysis.launches = 1;
  analysis.threadInstrs = result.threadInstrs;
  analysis.bestLaunch = result.record;
  analysis.bestRatio = result.ratio;
  analysis.arguments = std::move(built->values);
  return analysis;
}

Result<KernelAnalysis> searchKernel(const ir::Program &program, const ir::KernelInfo &kernel,
                                    const FixedSettings &fixed, const SearchSettings &settings,
                                    const AnalysisOptions &options) {
  if (!kernel.unsupported.empty())
    return makeError(program.path + ": kernel '" + kernel.sourceName + "': " + kernel.unsupported);
  // Which parameters the user fixed.
  std::vector<const ArgumentSpec *> given(kernel.params.size(), nullptr);
  for (const ArgumentSpec &spec : fixed.args) {
    Result<size_t> index = findParameter(kernel, spec.name);
    if (!index)
      return makeError(program.path + ": kernel '" + kernel.sourceName + "': " +
                       index.error().message);
    given[*index] = &spec;
  }

  evo::SearchSpace space;
  space.limits.maxThreads = settings.maxThreads;
  space.grid.rank = rankOf(kernel, ir::BuiltinVariable::BlockIdx, ir::BuiltinVariable::GridDim);
  space.block.rank = rankOf(kernel, ir::BuiltinVariable::ThreadIdx, ir::BuiltinVariable::BlockDim);
  if (fixed.grid)
    space.grid.fixed = toDims(*fixed.grid);
  else if (!readsAny(kernel, ir::BuiltinVariable::BlockIdx) &&
           !readsAny(kernel, ir::BuiltinVariable::GridDim))
    // Blocks of a kernel that never asks which block it is do identical
    // work; more than one would only race with copies of itself.
    space.grid.fixed = evo::Dims{1, 1, 1};
  if (fixed.block)
    space.block.fixed = toDims(*fixed.block);
  for (size_t i = 0; i < kernel.params.size(); ++i) {
    const ir::ParamInfo &param = kernel.params[i];
    if (given[i])
      continue;
    if (param.kind == ir::ValueKind::Int) {
      space.scalars.push_back(evo::Gene::integer(param.name, param.bits, param.isSigned));
    } else if (param.kind == ir::ValueKind::Float) {
      space.scalars.push_back(evo::Gene::floating(param.name, param.bits));
    } else if (param.kind == ir::ValueKind::Pointer) {
      space.buffers.push_back(evo::Gene::bufferSize(param.name));
    } else {
      continue;
    }
    (param.kind == ir::ValueKind::Pointer ? space.buffers : space.scalars).back().param =
        uint32_t(i);
  }
  if (Status valid = space.validate(); !valid)
    return makeError(program.path + ": kernel '" + kernel.sourceName +
                     "': " + valid.error().message);

  // The search keeps only findings, never tuples: the constant-size summary
  // reaches the same verdicts faster than the full log.
  AnalysisOptions searchOptions = options;
  if (searchOptions.representation == memmodel::Representation::Auto)
    searchOptions.representation = memmodel::Representation::Summary;

  // The user's fixed integer arguments also size automatic buffers.
  std::vector<uint64_t> fixedPositiveInts;
  for (size_t i = 0; i < kernel.params.size(); ++i) {
    if (!given[i] || kernel.params[i].kind != ir::ValueKind::Int)
      continue;
    Result<uint64_t> bits = parseScalar(kernel.params[i], given[i]->value);
    if (bits && int64_t(*bits) > 0)
      fixedPositiveInts.push_back(*bits);
  }

  std::mutex mutex;
  std::map<std::string, LaunchResult> results; // by the solution's description
  auto keyOf = [&](const evo::Solution &solution) {
    std::string key;
    for (const std::string &part : evo::describe(space, solution))
      key += part + ";";
    return key;
  };

  evo::Evaluate evaluate = [&](const evo::Solution &solution) -> evo::Fitness {
    interp::LaunchConfig base;
    base.grid = toDim3(solution.grid);
    base.block = toDim3(solution.block);
    base.dynamicSharedBytes = fixed.dynamicSharedBytes;
    base.totalBudgetInstrs = options.searchLaunchBudgetInstrs;
    LaunchResult result;
    Result<interp::LaunchConfig> config = configFor(base, searchOptions);
    std::vector<evo::TypedValue> values = evo::typedValues(space, solution);
    std::vector<ArgumentSpec> specs = fixed.args;
    std::vector<uint64_t> elementCounts(kernel.params.size(), 0);
    for (size_t g = 0; g < space.geneCount(); ++g) {
      const evo::Gene &gene = space.gene(g);
      if (gene.role == evo::GeneRole::Scalar)
        specs.push_back({gene.name, formatScalar(values[g])});
      else
        elementCounts[gene.param] = uint64_t(std::max<int64_t>(values[g].integer, 1));
    }
    if (config) {
      // A buffer is never smaller than the launch needs: the search varies
      // how much room there is, not whether the kernel's guards hold.
      std::vector<uint64_t> positiveInts = fixedPositiveInts;
      for (size_t g = 0; g < space.scalars.size(); ++g)
        if (values[g].kind == evo::GeneKind::Int && values[g].integer > 0)
          positiveInts.push_back(uint64_t(values[g].integer));
      uint64_t minimum = automaticElements(kernel, *config, positiveInts);
      // ... and at most a few times larger: the gene says how much spare
      // room there is, which changes nothing once buffers are large enough.
      for (uint64_t &count : elementCounts)
        if (count)
          count = std::clamp(count, minimum, 4 * minimum);
      Result<BuiltArguments> built =
          buildArguments(kernel, *config, specs, settings.search.seed, elementCounts);
      if (built)
        result = simulate(program, kernel, *config, *built, settings.search.seed, searchOptions);
      else
        result.error = built.error().message;
    } else {
      result.error = config.error().message;
    }
    // A searched launch that goes out of bounds violates the kernel's size
    // assumptions (a 256-slot tile under a 512-thread block): not judged.
    evo::Fitness fitness = result.error.empty() && !result.outOfBounds
                               ? evo::Fitness{true, result.ratio, double(result.range)}
                               : evo::Fitness::invalid();
    std::lock_guard<std::mutex> lock(mutex);
    results.emplace(keyOf(solution), std::move(result));
    return fitness;
  };

  Result<evo::SearchOutcome> outcome =
      evo::search(space, settings.search, evaluate, settings.onProgress);
  if (!outcome)
    return makeError(program.path + ": kernel '" + kernel.sourceName +
                     "': " + outcome.error().message);

  // Findings of every judged launch, combined in evaluation order so that the
  // examples reported do not depend on --jobs.
  KernelAnalysis analysis;
  analysis.kernel = &kernel;
  detect::FindingCollector combined(kernel.barrierInstructions, kernel.valueBarrierInstructions);
  uint64_t judged = 0;
  for (const evo::EvaluatedSolution &evaluated : outcome->evaluated) {
    auto it = results.find(keyOf(evaluated.solution));
    if (it == results.end())
      continue;
    const LaunchResult &result = it->second;
    ++analysis.launches;
    analysis.threadInstrs += result.threadInstrs;
    if (result.error.rfind(interp::kLaunchTooCostly, 0) == 0) {
      ++analysis.tooCostlyLaunches;
      continue;
    }
    if (!result.error.empty()) {
      if (analysis.failedLaunches++ == 0)
        analysis.firstLaunchError = result.error;
      continue;
    }
    if (result.outOfBounds) {
      ++analysis.outOfBoundsLaunches;
      continue;
    }
    combined.merge(*result.findings);
    ++judged;
  }
  if (judged == 0 && analysis.outOfBoundsLaunches == 0 && analysis.tooCostlyLaunches == 0)
    return makeError(analysis.firstLaunchError.empty()
                         ? program.path + ": kernel '" + kernel.sourceName + "': no launch ran"
                         : analysis.firstLaunchError);
  analysis.findings = combined.findings();
  nameVariables(program, kernel, analysis.findings);
  analysis.bestRatio = outcome->bestFitness.ratio;
  if (auto best = results.find(keyOf(outcome->best)); best != results.end())
    analysis.bestLaunch = best->second.record;
  return analysis;
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
  if (doc.contains("sharedBytes") && doc["sharedBytes"].is_number_unsigned())
    spec.config.dynamicSharedBytes = doc["sharedBytes"].get<uint32_t>();
  if (doc.contains("seed") && doc["seed"].is_number_unsigned())
    spec.seed = doc["seed"].get<uint64_t>();
  if (doc.contains("args") && doc["args"].is_object())
    for (auto &[name, value] : doc["args"].items())
      spec.args.push_back({name, value.is_string() ? value.get<std::string>() : value.dump()});
  if (kernel && doc.contains("kernel") && doc["kernel"].is_string())
    *kernel = doc["kernel"].get<std::string>();
  return spec;
}

} // namespace simulee::session
