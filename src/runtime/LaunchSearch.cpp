#include "runtime/LaunchSearch.h"

#include "runtime/ArgumentText.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

namespace simulee::runtime {
namespace {

// One candidate: dimensions and argument values.
struct Candidate {
  interp::LaunchConfig config;
  std::vector<interp::ArgumentValue> values;
  std::vector<std::pair<std::string, std::string>> recordArgs;
};

uint64_t truncated(int64_t value, uint32_t width) {
  return width >= 64 ? uint64_t(value) : uint64_t(value) & ((uint64_t(1) << width) - 1);
}

class Mutator {
public:
  explicit Mutator(const ir::KernelInfo &kernel) : kernel_(kernel), random_(1) {}

  // `cauchy`: heavy-tailed steps instead of normal ones.
  Candidate child(const Candidate &parent, bool cauchy) {
    Candidate child = parent;
    moveDims(child.config.grid);
    moveDims(child.config.block);
    for (size_t p = 0; p < kernel_.params.size(); ++p) {
      const ir::ParamInfo &param = kernel_.params[p];
      interp::ArgumentValue &value = child.values[p];
      if (param.byValueBytes || param.kind == ir::ValueKind::Pointer ||
          value.kind != interp::ArgumentValue::Kind::Scalar)
        continue;
      value.bits = moved(param, value.bits, cauchy);
      child.recordArgs[p].second = scalarText(param, value.bits);
    }
    return child;
  }

private:
  void moveDims(interp::Dim3 &dims) {
    std::uniform_int_distribution<int> step(-1, 1);
    for (uint32_t *axis : {&dims.x, &dims.y, &dims.z})
      *axis = uint32_t(std::max<int64_t>(1, int64_t(*axis) + step(random_)));
  }

  double stepOf(bool cauchy) {
    if (!cauchy)
      return std::normal_distribution<double>(0, 1)(random_);
    double u = std::uniform_real_distribution<double>(0.001, 0.999)(random_);
    return std::clamp(std::tan(M_PI * (u - 0.5)), -1e6, 1e6);
  }

  uint64_t moved(const ir::ParamInfo &param, uint64_t bits, bool cauchy) {
    double step = stepOf(cauchy);
    if (param.kind == ir::ValueKind::Float && param.bits == 32) {
      float value;
      std::memcpy(&value, &bits, 4);
      value += float(step * std::max(1.0, std::fabs(double(value)) / 4));
      uint32_t out;
      std::memcpy(&out, &value, 4);
      return out;
    }
    if (param.kind == ir::ValueKind::Float && param.bits == 64) {
      double value;
      std::memcpy(&value, &bits, 8);
      value += step * std::max(1.0, std::fabs(value) / 4);
      uint64_t out;
      std::memcpy(&out, &value, 8);
      return out;
    }
    if (param.kind != ir::ValueKind::Int || param.bits <= 1)
      return bits;
    int64_t value = param.isSigned ? signExtended(bits, param.bits) : int64_t(bits);
    double scale = std::max(1.0, std::fabs(double(value)) / 4);
    int64_t delta = int64_t(std::llround(step * scale));
    if (delta == 0)
      delta = step < 0 ? -1 : 1;
    int64_t next = value + delta;
    if (!param.isSigned && next < 0)
      next = 0;
    return truncated(next, param.bits);
  }

  const ir::KernelInfo &kernel_;
  std::mt19937_64 random_;
};

bool hasOutOfBounds(const std::vector<detect::Finding> &findings) {
  return std::any_of(findings.begin(), findings.end(), [](const detect::Finding &finding) {
    return finding.kind == detect::FindingKind::OutOfBounds;
  });
}

} // namespace

void searchAround(const RecordedLaunch &launch, uint32_t generations,
                  const session::AnalysisOptions &options,
                  const std::function<void(std::vector<detect::Finding>)> &onFindings) {
  Mutator mutator(*launch.kernel);
  Candidate parent{launch.config, launch.values, launch.record.args};
  double parentRatio = launch.ratio;
  // A mutant may cost a few times the real launch, never much more.
  uint64_t costCap = std::max<uint64_t>(launch.threadInstrs * 4, uint64_t(1) << 22);
  for (uint32_t generation = 0; generation < generations; ++generation) {
    std::optional<Candidate> best;
    double bestRatio = parentRatio;
    for (bool cauchy : {false, true}) {
      Candidate child = mutator.child(parent, cauchy);
      child.config.totalBudgetInstrs = costCap;
      if (!interp::validateLaunch(child.config) || !interp::validateLaunchSize(child.config))
        continue;
      // The memory the real launch started from, copied for this mutant.
      std::vector<std::optional<std::vector<uint8_t>>> allocations = launch.allocations;
      std::vector<std::vector<uint8_t>> globals = launch.globalVariables,
                                        constants = launch.constantVariables;
      interp::BoundMemory memory;
      for (std::optional<std::vector<uint8_t>> &allocation : allocations)
        memory.allocations.push_back(allocation ? &*allocation : nullptr);
      memory.globalVariables = &globals;
      memory.constantVariables = &constants;
      session::BoundLaunch mutant;
      mutant.config = child.config;
      mutant.values = child.values;
      mutant.memory = &memory;
      mutant.record = launch.record;
      mutant.record.grid = child.config.grid;
      mutant.record.block = child.config.block;
      mutant.record.args = child.recordArgs;
      // The program's launch with values searched around it.
      mutant.record.provenance = detect::Provenance::SiteSearch;
      Result<session::KernelAnalysis> analysis =
          session::analyzeBoundLaunch(*launch.program, *launch.kernel, mutant, options);
      if (!analysis || analysis->counts.judged == 0)
        continue;
      // Out of bounds where the program's own launch was not: the mutant
      // broke the sizes the program's memory was made for.
      if (!launch.outOfBounds && hasOutOfBounds(analysis->findings))
        continue;
      onFindings(std::move(analysis->findings));
      if (analysis->bestRatio <= bestRatio) {
        bestRatio = analysis->bestRatio;
        best = std::move(child);
      }
    }
    if (best) {
      parent = std::move(*best);
      parentRatio = bestRatio;
    }
  }
}

} // namespace simulee::runtime
