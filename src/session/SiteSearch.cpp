#include "session/SiteSearch.h"

#include "interp/Launch.h"
#include "ir/PointerEncoding.h"
#include "support/MemoryLimit.h"

#include <llvm/Support/Path.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <set>

namespace simulee::session {
namespace {

using host::SiteValue;

// The largest allocation a searched launch makes at a site: the search
// keeps the values that size allocations below it.
constexpr uint64_t kLargestSiteAllocationBytes = uint64_t(1) << 26;

// The largest allocation the host states that a launch uses as stated (the
// program's own sizes): a quarter of --max-memory, which leaves room for
// the launch's other buffers and its model. Beyond it simulee sizes the
// buffer itself, as if the host's size were unknown.
uint64_t largestHostAllocationBytes() {
  return std::min(memoryLimitBytes() / 4, ir::kMaxBufferBytes);
}

// `value` as a parameter of `bits` bits holds it (two's complement wrap).
int64_t wrapToWidth(int64_t value, const ir::ParamInfo &param) {
  if (param.bits >= 64 || param.bits == 0)
    return value;
  uint64_t mask = (uint64_t(1) << param.bits) - 1;
  uint64_t bits = uint64_t(value) & mask;
  if (param.isSigned && (bits >> (param.bits - 1)) & 1)
    return int64_t(bits | ~mask);
  return int64_t(bits);
}

std::string integerText(int64_t value, const ir::ParamInfo &param) {
  int64_t wrapped = wrapToWidth(value, param);
  if (!param.isSigned && wrapped < 0)
    return std::to_string(uint64_t(wrapped) & ((uint64_t(1) << param.bits) - 1));
  return std::to_string(wrapped);
}

std::string realText(double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

// An integer argument as a formula reads it.
std::optional<int64_t> integerArgument(const ir::ParamInfo &param, const std::string &text) {
  Result<uint64_t> bits = parseScalar(param, text);
  if (!bits)
    return std::nullopt;
  if (param.isSigned && param.bits < 64 && param.bits > 0 && (*bits >> (param.bits - 1)) & 1)
    return int64_t(*bits | ~((uint64_t(1) << param.bits) - 1));
  return int64_t(*bits);
}

uint32_t &axisOf(interp::Dim3 &dims, unsigned axis) {
  return axis == 0 ? dims.x : axis == 1 ? dims.y : dims.z;
}

// `dims` as numbers, where every axis is an integer constant of at least
// `least` that fits 32 bits.
std::optional<interp::Dim3> constantDims(const SiteValue (&dims)[3], int64_t least) {
  interp::Dim3 result;
  for (unsigned axis = 0; axis < 3; ++axis) {
    if (!dims[axis].isConstant() || dims[axis].isFloat || dims[axis].integer < least ||
        dims[axis].integer > int64_t(UINT32_MAX))
      return std::nullopt;
    axisOf(result, axis) = uint32_t(dims[axis].integer);
  }
  return result;
}

// What the compiled host code passes the kernel's stub, mapped back to the
// kernel's parameters through the x86-64 lowering of by-value structs (none
// of no bytes, one of up to 8 or over 16, two of 9 to 16); nothing when they
// do not add up.
std::vector<SiteValue> loweredArgumentsOf(const ir::KernelInfo &kernel,
                                          const host::CallSite &site) {
  std::vector<SiteValue> mapped;
  size_t next = 0;
  for (const ir::ParamInfo &param : kernel.params) {
    size_t parts = 1;
    if (param.kind == ir::ValueKind::Aggregate)
      parts = param.byValueBytes == 0 ? 0 : param.byValueBytes <= 8 || param.byValueBytes > 16 ? 1 : 2;
    if (next + parts > site.loweredArguments.size())
      return {};
    mapped.push_back(parts == 1 ? site.loweredArguments[next] : SiteValue::unknown(""));
    next += parts;
  }
  if (next != site.loweredArguments.size())
    return {};
  return mapped;
}

// What the site passes for each kernel parameter: its arguments as read
// from the syntax tree, where the compiled code passes a constant for one
// the syntax tree knows no constant of (a launcher's parameter its calls
// fix only through a function object) that constant; else the compiled
// code's arguments.
std::vector<SiteValue> argumentsOf(const ir::KernelInfo &kernel, const host::CallSite &site) {
  if (site.loweredArguments.empty())
    return site.arguments;
  std::vector<SiteValue> lowered = loweredArgumentsOf(kernel, site);
  if (site.arguments.empty())
    return lowered;
  std::vector<SiteValue> merged = site.arguments;
  if (lowered.size() == merged.size())
    for (size_t i = 0; i < merged.size(); ++i)
      if (!merged[i].isConstant() && lowered[i].isConstant())
        merged[i] = lowered[i];
  return merged;
}

// Whether any axis of `dims` is computed (a formula).
bool anyComputed(const SiteValue (&dims)[3]) {
  return std::any_of(std::begin(dims), std::end(dims),
                     [](const SiteValue &axis) { return axis.isFormula(); });
}

// Adds the arguments `value`'s formula reads (none for a constant or an
// unknown) to `into`.
void addFormulaArguments(const SiteValue &value, std::set<uint32_t> &into) {
  if (value.isFormula())
    for (uint32_t argument : value.formula.arguments())
      into.insert(argument);
}

} // namespace

SitePlan::SitePlan(const ir::KernelInfo &kernel, const host::CallSite &site,
                   const FixedSettings &user, uint64_t maxThreads)
    : kernel_(&kernel), site_(&site), user_(user), maxThreads_(maxThreads) {
  size_t params = kernel.params.size();
  userArgument_.assign(params, false);
  userValues_.assign(params, std::nullopt);
  std::set<std::string> userMembers; // "p.n", "p.in"
  for (const ArgumentSpec &spec : user.args) {
    userMembers.insert(spec.name);
    Result<size_t> index = findParameter(kernel, spec.name);
    if (!index)
      continue; // searchKernel reports it
    userArgument_[*index] = true;
    if (kernel.params[*index].kind == ir::ValueKind::Int)
      userValues_[*index] = integerArgument(kernel.params[*index], spec.value);
  }
  // Struct members the formulas read as leaves: searched integers, by index.
  std::map<uint32_t, ir::ParamInfo> leaves;
  for (const host::CallSite::Member &member : site.members) {
    if (!member.leaf || member.param >= params || *member.leaf < params)
      continue;
    const ir::ParamInfo &aggregate = kernel.params[member.param];
    for (const ir::ScalarMember &scalar : aggregate.scalarMembers)
      if (scalar.name == member.path && scalar.kind == ir::ValueKind::Int)
        leaves[*member.leaf] = memberAsParameter(aggregate, scalar);
  }
  // The host's variables the site's values are computed from: searched
  // integers of their own, named apart from every parameter.
  std::set<uint32_t> variables;
  for (const host::CallSite::Variable &variable : site.variables) {
    if (variable.index < params || leaves.count(variable.index))
      continue;
    ir::ParamInfo leaf;
    leaf.name = variable.name + " (host)";
    leaf.kind = ir::ValueKind::Int;
    leaf.bits = variable.bits;
    leaf.isSigned = variable.isSigned;
    leaves[variable.index] = leaf;
    variables.insert(variable.index);
  }
  // Leaves numbered params, params + 1, ...; one without a name is none.
  if (!leaves.empty() && leaves.rbegin()->first >= params) {
    leaves_.resize(leaves.rbegin()->first + 1 - params);
    hostVariable_.assign(leaves_.size(), false);
    for (const auto &[index, leaf] : leaves)
      if (index >= params) {
        leaves_[index - params] = leaf;
        hostVariable_[index - params] = variables.count(index) != 0;
      }
  }
  // A formula may only read integer parameters and the leaves.
  auto usable = [&](const SiteValue &value) {
    if (!value.isFormula())
      return value;
    for (uint32_t argument : value.formula.arguments()) {
      bool leaf = argument >= params && argument < params + leaves_.size() &&
                  !leaves_[argument - params].name.empty();
      if (!leaf && (argument >= params || kernel.params[argument].kind != ir::ValueKind::Int))
        return SiteValue::unknown(value.text);
    }
    return value;
  };
  for (unsigned axis = 0; axis < 3; ++axis) {
    grid_[axis] = usable(site.grid[axis]);
    block_[axis] = usable(site.block[axis]);
  }
  shared_ = usable(site.sharedBytes);
  arguments_.assign(params, SiteValue::unknown(""));
  allocationBytes_.assign(params, SiteValue::unknown(""));
  allocationOffsets_.assign(params, SiteValue::ofInteger(0, ""));
  if (site.allocationBytes.size() == params)
    for (size_t i = 0; i < params; ++i)
      if (kernel.params[i].isBufferPointer() && !userArgument_[i]) {
        allocationBytes_[i] = usable(site.allocationBytes[i]);
        if (site.allocationOffsets.size() == params)
          allocationOffsets_[i] = usable(site.allocationOffsets[i]);
        if (allocationOffsets_[i].isUnknown()) // into it, but nobody knows where
          allocationBytes_[i] = SiteValue::unknown(allocationBytes_[i].text);
      }
  // An allocation too large to simulate is sized by simulee, as if the
  // host's were unknown.
  for (SiteValue &bytes : allocationBytes_)
    if (bytes.isConstant() && uint64_t(bytes.integer) > largestHostAllocationBytes())
      bytes = SiteValue::unknown(bytes.text);
  for (const host::CallSite::Constraint &constraint : site.constraints) {
    SiteValue value = usable(SiteValue::ofFormula(constraint.holds, constraint.text));
    // Each part of `a && b` alone, so that each searched integer can be
    // moved onto its own part (meetConstraints).
    if (value.isFormula())
      for (host::Formula &part : value.formula.conjuncts())
        constraints_.push_back(std::move(part));
  }
  // What the host stores into struct arguments: numbers and allocations.
  for (const host::CallSite::Member &member : site.members) {
    if (member.param >= params || userArgument_[member.param])
      continue;
    const ir::ParamInfo &aggregate = kernel.params[member.param];
    for (size_t m = 0; m < aggregate.scalarMembers.size(); ++m) {
      const ir::ScalarMember &scalar = aggregate.scalarMembers[m];
      std::string name = scalarMemberName(aggregate, scalar);
      bool floatFormula = scalar.kind == ir::ValueKind::Float && member.value.isFormula();
      if (scalar.name != member.path || userMembers.count(name) || floatFormula)
        continue;
      SiteValue value = usable(member.value);
      if (!value.isUnknown())
        memberValues_.push_back({MemberRef{member.param, m}, name, value});
    }
    for (size_t m = 0; m < aggregate.pointerMembers.size(); ++m) {
      const ir::PointerMember &pointer = aggregate.pointerMembers[m];
      SiteValue bytes = usable(member.allocationBytes);
      if (pointer.name != member.path || userMembers.count(pointerMemberName(aggregate, pointer)) ||
          bytes.isUnknown() ||
          (bytes.isConstant() && uint64_t(bytes.integer) > largestHostAllocationBytes()))
        continue;
      memberAllocations_.push_back({MemberRef{member.param, m}, bytes, member.allocation});
    }
  }
  std::vector<SiteValue> passed = argumentsOf(kernel, site);
  if (passed.size() == params)
    for (size_t i = 0; i < params; ++i) {
      ir::ValueKind kind = kernel.params[i].kind;
      bool scalar = kind == ir::ValueKind::Int || kind == ir::ValueKind::Float;
      const SiteValue &value = passed[i];
      if (scalar && !(kind == ir::ValueKind::Float && value.isFormula()))
        arguments_[i] = usable(value);
    }
  // A host variable that only the shared bytes or an allocation read would
  // be chosen apart from everything the kernel sees (its dims, arguments and
  // struct numbers): such values stay unknown, as if the site said nothing
  // of them (`k<<<1, threads, share_size>>>` with share_size set under ifs).
  std::set<uint32_t> seen;
  auto see = [&](const SiteValue &value) { addFormulaArguments(value, seen); };
  for (unsigned axis = 0; axis < 3; ++axis) {
    see(grid_[axis]);
    see(block_[axis]);
  }
  for (const SiteValue &argument : arguments_)
    see(argument);
  for (const MemberValue &member : memberValues_)
    see(member.value);
  auto unseen = [&](const SiteValue &value) {
    if (!value.isFormula())
      return false;
    for (uint32_t argument : value.formula.arguments())
      if (isHostVariable(argument) && !seen.count(argument))
        return true;
    return false;
  };
  if (unseen(shared_))
    shared_ = SiteValue::unknown(shared_.text);
  for (size_t i = 0; i < allocationBytes_.size(); ++i)
    if (unseen(allocationBytes_[i]) || unseen(allocationOffsets_[i]))
      allocationBytes_[i] = SiteValue::unknown(allocationBytes_[i].text);
  std::erase_if(memberAllocations_,
                [&](const MemberAllocation &member) { return unseen(member.bytes); });
  // A block (then a grid) of searched integers as they are, distinct, with
  // 1 after them.
  auto searchedInteger = [&](uint32_t index) {
    if (index >= params)
      return isHostVariable(index);
    return kernel.params[index].kind == ir::ValueKind::Int && !userArgument_[index] &&
           arguments_[index].isUnknown();
  };
  std::set<uint32_t> taken;
  auto searchedDims = [&](const SiteValue(&dims)[3], bool byUser) {
    SearchedDims searched;
    std::set<uint32_t> axes;
    for (unsigned axis = 0; axis < 3 && !byUser; ++axis) {
      const SiteValue &extent = dims[axis];
      if (extent.isConstant() && !extent.isFloat && extent.integer == 1)
        continue;
      bool bare = extent.isFormula() && extent.formula.nodes.size() == 1 &&
                  extent.formula.nodes[0].op == host::Formula::Op::Argument;
      uint32_t index = bare ? extent.formula.nodes[0].argument : 0;
      if (!bare || searched.rank != axis || !searchedInteger(index) || taken.count(index) ||
          !axes.insert(index).second)
        return SearchedDims{};
      searched.leaf[axis] = index;
      searched.rank = axis + 1;
    }
    taken.insert(axes.begin(), axes.end());
    return searched;
  };
  searchedBlock_ = searchedDims(block_, user.block.has_value());
  searchedGrid_ = searchedDims(grid_, user.grid.has_value());
  // A grid counting tiles of sizes other than the block's threads along
  // some axis (`CEIL_DIV(M, 32)` blocks of 32 x 32 threads in one row, 128
  // x 128 tiles of 128 threads): one thread per element along every axis
  // (`(n + 255) / 256` blocks of 256, 16 x 16 blocks over a matrix) is no
  // tiling, since its partial block is what its bounds checks are for.
  std::map<uint32_t, int64_t> counted;
  bool tiled = false;
  for (unsigned axis = 0; axis < 3 && !user.grid && !user.block; ++axis)
    if (std::optional<std::pair<uint32_t, int64_t>> tile = tileOf(grid_[axis]);
        tile && searchedInteger(tile->first) && !isDimsLeaf(tile->first) &&
        block_[axis].isConstant() && !block_[axis].isFloat) {
      counted.emplace(*tile);
      tiled = tiled || block_[axis].integer != tile->second;
    }
  if (tiled)
    tiles_ = std::move(counted);
}

std::optional<std::pair<uint32_t, int64_t>> SitePlan::tileOf(const SiteValue &extent) {
  if (!extent.isFormula() || extent.formula.nodes.empty())
    return std::nullopt;
  const host::Formula &formula = extent.formula;
  std::vector<uint32_t> read = formula.arguments();
  const host::Formula::Node &root = formula.nodes.back();
  if (read.size() != 1 || root.op != host::Formula::Op::Div ||
      formula.nodes[root.rhs].op != host::Formula::Op::Constant)
    return std::nullopt;
  int64_t tile = formula.nodes[root.rhs].value;
  if (tile < 2 || tile > (int64_t(1) << 20))
    return std::nullopt;
  // Blocks of `tile` rounded up (`(n + tile - 1) / tile`) or down (`n / tile`).
  bool up = true, down = true;
  for (int64_t n : {int64_t(1), tile - 1, tile, tile + 1, 2 * tile, 3 * tile - 1, 7 * tile + 3}) {
    std::optional<int64_t> blocks =
        host::evaluate(formula, [&](uint32_t) { return std::optional<int64_t>(n); });
    up = up && blocks == (n + tile - 1) / tile;
    down = down && blocks == n / tile;
  }
  if (!up && !down)
    return std::nullopt;
  return std::pair(read[0], tile);
}

bool SitePlan::wholeTiles(const std::vector<std::optional<int64_t>> &arguments,
                          std::optional<uint32_t> only) const {
  for (const auto &[index, tile] : tiles_) {
    if ((only && *only != index) || index >= arguments.size() || !arguments[index])
      continue;
    if (*arguments[index] < tile || *arguments[index] % tile != 0)
      return false;
  }
  return true;
}

bool SitePlan::sizesBlock(uint32_t index) const {
  std::set<uint32_t> read;
  for (const SiteValue &axis : block_)
    addFormulaArguments(axis, read);
  return read.count(index) != 0 || isDimsLeaf(index);
}

std::vector<std::pair<std::string, int64_t>> SitePlan::tiledParameters() const {
  std::vector<std::pair<std::string, int64_t>> tiled;
  for (const auto &[index, tile] : tiles_)
    if (index < kernel_->params.size())
      tiled.emplace_back(kernel_->params[index].name, tile);
  return tiled;
}

bool SitePlan::isDimsLeaf(size_t index) const {
  for (const SearchedDims *dims : {&searchedBlock_, &searchedGrid_})
    for (const std::optional<uint32_t> &leaf : dims->leaf)
      if (leaf == index)
        return true;
  return false;
}

bool SitePlan::determined(const SiteValue (&dims)[3]) const {
  return std::none_of(std::begin(dims), std::end(dims),
                      [](const SiteValue &axis) { return axis.isUnknown(); });
}

std::optional<int64_t>
SitePlan::valueOf(const SiteValue &value,
                  const std::vector<std::optional<int64_t>> &arguments) const {
  if (value.isConstant())
    return value.isFloat ? std::nullopt : std::optional<int64_t>(value.integer);
  if (!value.isFormula())
    return std::nullopt;
  return host::evaluate(value.formula, [&](uint32_t index) -> std::optional<int64_t> {
    return index < arguments.size() ? arguments[index] : std::nullopt;
  });
}

bool SitePlan::sizesShared() const {
  bool shared = user_.dynamicSharedBytes != 0 || !shared_.isUnknown();
  bool block = user_.block.has_value() || determined(block_);
  return shared && block;
}

bool SitePlan::searchesBlock() const { return !user_.block && anyComputed(block_); }

bool SitePlan::isHostVariable(size_t index) const {
  return index >= arguments_.size() && index - arguments_.size() < leaves_.size() &&
         hostVariable_[index - arguments_.size()];
}

FixedSettings SitePlan::fixed() const {
  FixedSettings fixed = user_;
  fixed.site = this;
  for (size_t i = 0; i < arguments_.size(); ++i) {
    const SiteValue &value = arguments_[i];
    if (userArgument_[i] || !value.isConstant())
      continue;
    const ir::ParamInfo &param = kernel_->params[i];
    std::string text =
        param.kind == ir::ValueKind::Float
            ? realText(value.real)
            : integerText(value.isFloat ? int64_t(value.real) : value.integer, param);
    fixed.args.push_back({param.name, text});
  }
  for (const MemberValue &member : memberValues_) {
    if (!member.value.isConstant())
      continue;
    const ir::ParamInfo &aggregate = kernel_->params[member.ref.param];
    ir::ParamInfo param = memberAsParameter(aggregate, aggregate.scalarMembers[member.ref.member]);
    const SiteValue &value = member.value;
    fixed.args.push_back(
        {member.name, param.kind == ir::ValueKind::Float
                          ? realText(value.real)
                          : integerText(value.isFloat ? int64_t(value.real) : value.integer,
                                        param)});
  }
  if (!user_.dynamicSharedBytes && shared_.isConstant() && !shared_.isFloat &&
      shared_.integer > 0 && shared_.integer <= int64_t(UINT32_MAX))
    fixed.dynamicSharedBytes = uint32_t(shared_.integer);
  // Constant dims are fixed when the launch fits; larger ones stay the
  // plan's to apply, so that the search still runs (and counts them).
  if (!fixed.block)
    if (std::optional<interp::Dim3> block = constantDims(block_, 1);
        block && block->count() <= maxThreads_)
      fixed.block = block;
  if (!fixed.grid)
    if (std::optional<interp::Dim3> grid = constantDims(grid_, 1))
      if (grid->count() * (fixed.block ? fixed.block->count() : 1) <= maxThreads_)
        fixed.grid = grid;
  return fixed;
}

std::optional<std::string> SitePlan::refusedByAGpu() const {
  interp::LaunchConfig config;
  std::optional<interp::Dim3> grid = user_.grid ? user_.grid : constantDims(grid_, 0);
  std::optional<interp::Dim3> block = user_.block ? user_.block : constantDims(block_, 0);
  if (!grid || !block)
    return std::nullopt;
  config.grid = *grid;
  config.block = *block;
  if (user_.dynamicSharedBytes)
    config.dynamicSharedBytes = user_.dynamicSharedBytes;
  else if (shared_.isConstant() && !shared_.isFloat && shared_.integer >= 0 &&
           shared_.integer <= int64_t(UINT32_MAX))
    config.dynamicSharedBytes = uint32_t(shared_.integer);
  else if (!shared_.isUnknown())
    return std::nullopt;
  if (site_->sharedOptIn)
    config.sharedBytesLimit = uint32_t(interp::kMaxSharedBytesPerBlockOptIn);
  if (Status status = interp::validateLaunch(config); !status)
    return status.error().message;
  return std::nullopt;
}

bool SitePlan::derives(size_t index) const {
  return index < arguments_.size() && !userArgument_[index] &&
         (arguments_[index].isFormula() || isDimsLeaf(index));
}

uint32_t SitePlan::formulaIndexOf(const evo::Gene &gene) const {
  for (size_t leaf = 0; leaf < leaves_.size(); ++leaf)
    if (leaves_[leaf].name == gene.name)
      return uint32_t(arguments_.size() + leaf);
  return gene.param;
}

bool SitePlan::derivesMember(const std::string &name) const {
  return std::any_of(memberValues_.begin(), memberValues_.end(), [&](const MemberValue &member) {
    return member.name == name && member.value.isFormula();
  });
}

std::optional<std::string> SitePlan::memberAllocation(uint32_t buffer) const {
  for (const MemberAllocation &member : memberAllocations_)
    if (ir::memberBufferId(uint32_t(member.ref.param), uint32_t(member.ref.member)) == buffer)
      return member.where;
  return std::nullopt;
}

bool SitePlan::holds(const std::vector<std::optional<int64_t>> &arguments,
                     std::optional<uint32_t> only) const {
  return std::all_of(constraints_.begin(), constraints_.end(), [&](const host::Formula &holds) {
    if (only && holds.arguments() != std::vector<uint32_t>{*only})
      return true;
    std::optional<int64_t> value = host::evaluate(holds, [&](uint32_t index) {
      return index < arguments.size() ? arguments[index] : std::nullopt;
    });
    return !value || *value != 0; // a condition that cannot be evaluated rules nothing out
  });
}

// Values near `value` that host code's conditions often ask for: powers of
// two, multiples of powers of two, neighbours, and the constants the
// conditions compare with.
std::vector<int64_t>
SitePlan::candidatesNear(int64_t value,
                         const std::vector<std::optional<int64_t>> &arguments) const {
  std::vector<int64_t> candidates = {0, 1};
  // x + delta and x * factor where they fit in 64 bits.
  auto near = [&](int64_t x, std::initializer_list<int64_t> deltas) {
    for (int64_t delta : deltas)
      if (int64_t sum; !__builtin_add_overflow(x, delta, &sum))
        candidates.push_back(sum);
  };
  near(value, {-2, -1, 1, 2});
  uint64_t magnitude = value < 0 ? uint64_t(0) - uint64_t(value) : uint64_t(value);
  for (int64_t power = 1; power <= (int64_t(1) << 40); power *= 2) {
    if (uint64_t(power) <= magnitude && uint64_t(power) * 2 > magnitude)
      candidates.insert(candidates.end(), {power, power * 2});
    int64_t below = value / power * power, above;
    if (power >= 2 && power <= 1024 && !__builtin_add_overflow(below, power, &above))
      candidates.insert(candidates.end(), {below, above});
  }
  for (const host::Formula &holds : constraints_)
    for (const host::Formula::Node &node : holds.nodes)
      if (node.op == host::Formula::Op::Constant)
        near(node.value, {-1, 0, 1});
  // `width == height`, `pitch >= width`: the other arguments' values.
  for (const std::optional<int64_t> &other : arguments)
    if (other)
      near(*other, {-1, 0, 1});
  std::erase(candidates, value);
  auto distance = [&](int64_t x) {
    return x > value ? uint64_t(x) - uint64_t(value) : uint64_t(value) - uint64_t(x);
  };
  std::stable_sort(candidates.begin(), candidates.end(),
                   [&](int64_t a, int64_t b) { return distance(a) < distance(b); });
  return candidates;
}

bool SitePlan::searchedInteger(size_t index) const {
  return index >= arguments_.size() ? isHostVariable(index)
                                    : !userArgument_[index] && arguments_[index].isUnknown();
}

bool SitePlan::searchesParameter(size_t index) const {
  if (index >= arguments_.size() || userArgument_[index])
    return false;
  if (arguments_[index].isUnknown())
    return true;
  if (!arguments_[index].isFormula() || isDimsLeaf(index))
    return false;
  std::vector<uint32_t> read = arguments_[index].formula.arguments();
  return std::any_of(read.begin(), read.end(),
                     [&](uint32_t i) { return i >= arguments_.size() || searchedInteger(i); });
}

bool SitePlan::moveNearest(std::vector<std::optional<int64_t>> &arguments, size_t index,
                           const std::function<bool()> &meets) const {
  int64_t original = *arguments[index];
  for (int64_t candidate : candidatesNear(original, arguments)) {
    arguments[index] = candidate;
    if (meets())
      return true;
  }
  arguments[index] = original;
  return false;
}

bool SitePlan::meetConstraints(std::vector<std::optional<int64_t>> &arguments) const {
  if (holds(arguments))
    return true;
  // Two searched integers may each need moving (a loop's `stride`, a power
  // of two below `n`, and `n % 1024 == 0`): first each to what its own
  // constraints allow, then one searched integer (a parameter or a host
  // variable) to the nearest value that meets them all.
  for (size_t i = 0; i < arguments.size(); ++i)
    if (arguments[i] && searchedInteger(i) && !holds(arguments, uint32_t(i)))
      moveNearest(arguments, i, [&] { return holds(arguments, uint32_t(i)); });
  if (holds(arguments))
    return true;
  for (size_t i = 0; i < arguments.size(); ++i)
    if (arguments[i] && searchedInteger(i) &&
        moveNearest(arguments, i, [&] { return holds(arguments); }))
      return true;
  return false;
}

bool SitePlan::conventional(const std::vector<std::optional<int64_t>> &arguments) const {
  if (!wholeTiles(arguments))
    return false;
  for (size_t i = 0; i < arguments_.size(); ++i) {
    const ir::ParamInfo &param = kernel_->params[i];
    if (param.powerOfTwoFrom == 0 || !searchesParameter(i))
      continue;
    std::optional<int64_t> value =
        arguments_[i].isUnknown() ? arguments[i] : valueOf(arguments_[i], arguments);
    if (value && !param.conventionalInteger(*value))
      return false;
  }
  return true;
}

void SitePlan::meetConventions(std::vector<std::optional<int64_t>> &arguments) const {
  if (conventional(arguments))
    return;
  // Each size counted in tiles to the nearest whole number of them (at
  // least one) where the constraints allow.
  for (const auto &[index, tile] : tiles_) {
    if (index >= arguments.size() || !arguments[index] || wholeTiles(arguments, index))
      continue;
    int64_t original = *arguments[index];
    int64_t below = std::max<int64_t>(tile, original / tile * tile), above = below + tile;
    bool aboveNearer = original - below > above - original;
    for (int64_t candidate : {aboveNearer ? above : below, aboveNearer ? below : above}) {
      arguments[index] = candidate;
      if (holds(arguments))
        break;
      arguments[index] = original;
    }
  }
  if (conventional(arguments))
    return;
  for (size_t i = 0; i < arguments.size(); ++i)
    if (arguments[i] && searchedInteger(i) &&
        moveNearest(arguments, i, [&] { return conventional(arguments) && holds(arguments); }))
      return;
}

void SitePlan::fitThreads(std::vector<std::optional<int64_t>> &arguments,
                          const interp::LaunchConfig &config) const {
  std::set<uint32_t> sizing; // what the site's dims are computed from
  for (unsigned axis = 0; axis < 3; ++axis) {
    if (!user_.grid)
      addFormulaArguments(grid_[axis], sizing);
    if (!user_.block)
      addFormulaArguments(block_[axis], sizing);
  }
  // The launch's threads: the site's dims where it computes them, the
  // search's (or the user's) elsewhere; nothing when a dim is below 1.
  auto threads = [&]() -> std::optional<uint64_t> {
    uint64_t total = 1;
    auto multiply = [&](const SiteValue(&dims)[3], bool byUser, interp::Dim3 given) {
      for (unsigned axis = 0; axis < 3; ++axis) {
        std::optional<int64_t> extent = byUser || dims[axis].isUnknown()
                                            ? std::optional<int64_t>(axisOf(given, axis))
                                            : valueOf(dims[axis], arguments);
        if (!extent || *extent < 1)
          return false;
        total = total > UINT64_MAX / uint64_t(*extent) ? UINT64_MAX : total * uint64_t(*extent);
      }
      return true;
    };
    if (!multiply(grid_, user_.grid.has_value(), config.grid) ||
        !multiply(block_, user_.block.has_value(), config.block))
      return std::nullopt;
    return total;
  };
  bool wasConventional = conventional(arguments);
  for (int step = 0; step < 64; ++step) {
    std::optional<uint64_t> now = threads();
    if (!now || *now <= maxThreads_)
      return;
    std::vector<uint32_t> largestFirst;
    for (uint32_t i : sizing)
      if (i < arguments.size() && arguments[i] && *arguments[i] > 1 && searchedInteger(i) &&
          !isDimsLeaf(i))
        largestFirst.push_back(i);
    std::stable_sort(largestFirst.begin(), largestFirst.end(),
                     [&](uint32_t a, uint32_t b) { return *arguments[a] > *arguments[b]; });
    bool halved = false;
    for (uint32_t i : largestFirst) {
      int64_t original = *arguments[i];
      arguments[i] = original / 2;
      std::optional<uint64_t> fewer = threads();
      halved = fewer && *fewer < *now && holds(arguments) &&
               (!wasConventional || conventional(arguments));
      if (halved)
        break;
      arguments[i] = original;
    }
    if (!halved)
      return;
  }
}

bool SitePlan::zeroes(size_t index) const {
  return index < site_->zeroed.size() && site_->zeroed[index] && !userArgument_[index] &&
         kernel_->params[index].kind == ir::ValueKind::Pointer &&
         kernel_->params[index].resource == ir::ResourceKind::None;
}

bool SitePlan::fills(size_t index) const {
  const ir::ParamInfo &param = kernel_->params[index];
  bool number = param.elementKind == ir::ValueKind::Float
                    ? param.elementBytes == 4 || param.elementBytes == 8
                    : param.elementKind == ir::ValueKind::Int && param.elementBytes >= 1 &&
                          param.elementBytes <= 8;
  return index < site_->contents.size() && site_->contents[index].count > 0 &&
         !userArgument_[index] && param.kind == ir::ValueKind::Pointer &&
         param.resource == ir::ResourceKind::None && number && sizes(index);
}

std::optional<std::vector<uint8_t>>
SitePlan::contents(size_t index, uint64_t elements, const std::vector<ArgumentSpec> &specs) const {
  constexpr uint64_t kMostBytes = uint64_t(1) << 28;    // handed over as a copy
  constexpr uint64_t kMostElements = uint64_t(1) << 20; // each a formula's value
  if (!fills(index))
    return std::nullopt;
  const host::CallSite::HostContents &host = site_->contents[index];
  const ir::ParamInfo &param = kernel_->params[index];
  uint32_t size = param.elementBytes;
  uint64_t filled = std::min(elements, uint64_t(host.count));
  if (elements > kMostBytes / size || filled > kMostElements)
    return std::nullopt;
  std::vector<std::optional<int64_t>> arguments(arguments_.size());
  for (const ArgumentSpec &spec : specs)
    if (Result<size_t> p = findParameter(*kernel_, spec.name);
        p && kernel_->params[*p].kind == ir::ValueKind::Int)
      arguments[*p] = integerArgument(kernel_->params[*p], spec.value);
  std::vector<uint8_t> bytes(size_t(elements * size), 0);
  for (uint64_t i = 0; i < filled; ++i) {
    std::optional<int64_t> value =
        host::evaluate(host.element, [&](uint32_t read) -> std::optional<int64_t> {
          if (read == host::CallSite::kElementIndex)
            return int64_t(i);
          return read < arguments.size() ? arguments[read] : std::nullopt;
        });
    if (!value)
      return std::nullopt;
    uint8_t *at = bytes.data() + i * size;
    if (param.elementKind == ir::ValueKind::Float && size == 4) {
      auto single = float(*value);
      std::memcpy(at, &single, 4);
    } else if (param.elementKind == ir::ValueKind::Float) {
      auto real = double(*value);
      std::memcpy(at, &real, 8);
    } else {
      std::memcpy(at, &*value, size); // the low bytes: little-endian, as the device's
    }
  }
  return bytes;
}

bool SitePlan::sizes(size_t index) const {
  return index < allocationBytes_.size() && !allocationBytes_[index].isUnknown();
}

std::optional<size_t> SitePlan::pointsInto(size_t index) const {
  if (!sizes(index) || index >= site_->allocationAliasOf.size() ||
      site_->allocationAliasOf[index] < 0)
    return std::nullopt;
  auto other = size_t(site_->allocationAliasOf[index]);
  if (!sizes(other))
    return std::nullopt;
  return other;
}

// The arguments with `param` at `value`, the user's where given, 1 elsewhere.
std::vector<std::optional<int64_t>> SitePlan::argumentsWith(uint32_t param, int64_t value) const {
  std::vector<std::optional<int64_t>> arguments(formulaValues(), int64_t(1));
  for (size_t i = 0; i < arguments_.size(); ++i)
    if (userValues_[i])
      arguments[i] = userValues_[i];
  arguments[param] = value;
  return arguments;
}

uint64_t SitePlan::largestAllocationWith(uint32_t param, int64_t value) const {
  std::vector<std::optional<int64_t>> arguments = argumentsWith(param, value);
  uint64_t largest = 0;
  for (const SiteValue &bytes : allocationBytes_)
    if (std::optional<int64_t> size = valueOf(bytes, arguments); size && *size > 0)
      largest = std::max(largest, uint64_t(*size));
  return largest;
}

bool SitePlan::launchesWith(uint32_t param, int64_t value) const {
  std::vector<std::optional<int64_t>> arguments = argumentsWith(param, value);
  for (const SiteValue *dims : {grid_, block_})
    for (unsigned axis = 0; axis < 3; ++axis)
      if (dims[axis].isFormula())
        if (std::optional<int64_t> extent = valueOf(dims[axis], arguments); !extent || *extent < 1)
          return false;
  return true;
}

uint64_t SitePlan::threadsWith(uint32_t param, int64_t value) const {
  std::vector<std::optional<int64_t>> arguments = argumentsWith(param, value);
  uint64_t threads = 1;
  auto multiply = [&](uint64_t extent) {
    if (extent > 1)
      threads = threads > UINT64_MAX / extent ? UINT64_MAX : threads * extent;
  };
  // Unknown axes count as 1: the search keeps those small itself.
  auto multiplyDims = [&](const SiteValue(&dims)[3], const std::optional<interp::Dim3> &byUser) {
    if (byUser)
      return multiply(byUser->count());
    for (const SiteValue &axis : dims)
      if (std::optional<int64_t> extent = valueOf(axis, arguments); extent && *extent > 1)
        multiply(uint64_t(*extent));
  };
  multiplyDims(grid_, user_.grid);
  multiplyDims(block_, user_.block);
  return threads;
}

void SitePlan::shape(evo::SearchSpace &space) const {
  // The host's variables that the values the site gives read are searched.
  std::set<uint32_t> read;
  auto reads = [&](const SiteValue &value) { addFormulaArguments(value, read); };
  for (unsigned axis = 0; axis < 3; ++axis) {
    if (!user_.grid)
      reads(grid_[axis]);
    if (!user_.block)
      reads(block_[axis]);
  }
  if (!user_.dynamicSharedBytes)
    reads(shared_);
  for (size_t i = 0; i < arguments_.size(); ++i)
    if (derives(i))
      reads(arguments_[i]);
  for (size_t i = 0; i < allocationBytes_.size(); ++i)
    if (sizes(i)) {
      reads(allocationBytes_[i]);
      reads(allocationOffsets_[i]);
    }
  for (const MemberValue &member : memberValues_)
    reads(member.value);
  for (const MemberAllocation &member : memberAllocations_)
    reads(member.bytes);
  for (size_t leaf = 0; leaf < leaves_.size(); ++leaf)
    if (isHostVariable(arguments_.size() + leaf) &&
        read.count(uint32_t(arguments_.size() + leaf)) && !isDimsLeaf(arguments_.size() + leaf)) {
      space.scalars.push_back(
          evo::Gene::integer(leaves_[leaf].name, leaves_[leaf].bits, leaves_[leaf].isSigned));
      space.scalars.back().param = uint32_t(arguments_.size() + leaf);
    }
  // apply() sets determined dims per launch, and takes the integers of
  // searched dims from the search's.
  if (searchedGrid_.rank && !space.grid.fixed)
    space.grid.rank = searchedGrid_.rank;
  else if (!user_.grid && !space.grid.fixed && determined(grid_))
    space.grid.fixed = evo::Dims{1, 1, 1};
  if (searchedBlock_.rank && !space.block.fixed)
    space.block.rank = searchedBlock_.rank;
  else if (!user_.block && !space.block.fixed && determined(block_))
    space.block.fixed = evo::Dims{1, 1, 1};
  std::set<uint32_t> sizing; // parameters the dims and allocations are computed from
  auto addSizing = [&](const SiteValue &value) { addFormulaArguments(value, sizing); };
  for (const SiteValue *dims : {grid_, block_})
    for (unsigned axis = 0; axis < 3; ++axis)
      addSizing(dims[axis]);
  for (const SiteValue &bytes : allocationBytes_)
    addSizing(bytes);
  auto fits = [&](uint32_t param, int64_t value) {
    return threadsWith(param, value) <= maxThreads_ &&
           largestAllocationWith(param, value) <= kLargestSiteAllocationBytes;
  };
  for (evo::Gene &gene : space.scalars) {
    uint32_t index = formulaIndexOf(gene);
    if (gene.kind != evo::GeneKind::Int || !sizing.count(index))
      continue;
    // The largest value whose launch fits, assuming more means larger,
    // from the smallest power of two that gives a launch at all (a block of
    // block_size / 32 rows has none below 32).
    evo::GeneRange range = evo::geneRange(gene, space.limits);
    int64_t low = 1, high = int64_t(std::min(range.high, double(1u << 31)));
    while (low < high && !launchesWith(index, low))
      low *= 2;
    if (high < low || !launchesWith(index, low))
      continue;
    gene.lower = std::max(gene.lower.value_or(1.0), double(low));
    // Even the smallest launch is larger (sizes the program fixes): the
    // values the program may pass stay searched, judged as the cost cap
    // allows.
    if (!fits(index, low))
      continue;
    while (low < high) {
      int64_t middle = low + (high - low + 1) / 2;
      if (fits(index, middle))
        low = middle;
      else
        high = middle - 1;
    }
    gene.upper = std::min(gene.upper.value_or(double(high)), double(high));
  }
}

bool SitePlan::apply(interp::LaunchConfig &config, std::vector<ArgumentSpec> &specs,
                     std::vector<uint64_t> &positiveInts,
                     std::vector<uint64_t> &bufferElements,
                     std::vector<uint64_t> &bufferOffsets,
                     std::vector<SizedMember> *members) const {
  if (site_->sharedOptIn)
    config.sharedBytesLimit = uint32_t(interp::kMaxSharedBytesPerBlockOptIn);
  std::vector<std::optional<int64_t>> arguments(formulaValues());
  for (unsigned axis = 0; axis < 3; ++axis) {
    if (searchedGrid_.leaf[axis])
      arguments[*searchedGrid_.leaf[axis]] = int64_t(axisOf(config.grid, axis));
    if (searchedBlock_.leaf[axis])
      arguments[*searchedBlock_.leaf[axis]] = int64_t(axisOf(config.block, axis));
  }
  for (const ArgumentSpec &spec : specs) {
    for (size_t leaf = 0; leaf < leaves_.size(); ++leaf)
      if (leaves_[leaf].name == spec.name)
        arguments[arguments_.size() + leaf] = integerArgument(leaves_[leaf], spec.value);
    Result<size_t> index = findParameter(*kernel_, spec.name);
    if (index && kernel_->params[*index].kind == ir::ValueKind::Int)
      arguments[*index] = integerArgument(kernel_->params[*index], spec.value);
  }
  if (!meetConstraints(arguments))
    return false;
  meetConventions(arguments);
  fitThreads(arguments, config);
  for (ArgumentSpec &spec : specs) // searched values moved onto constraints and conventions
    if (Result<size_t> index = findParameter(*kernel_, spec.name);
        index && arguments[*index] && kernel_->params[*index].kind == ir::ValueKind::Int)
      spec.value = integerText(*arguments[*index], kernel_->params[*index]);
  // The host's variables are no kernel arguments: their values are in the
  // dims, shared bytes and arguments computed from them.
  std::erase_if(specs, [&](const ArgumentSpec &spec) {
    for (size_t leaf = 0; leaf < leaves_.size(); ++leaf)
      if (hostVariable_[leaf] && leaves_[leaf].name == spec.name)
        return true;
    return false;
  });
  auto setDims = [&](const SiteValue(&dims)[3], interp::Dim3 &out) {
    for (unsigned axis = 0; axis < 3; ++axis) {
      if (dims[axis].isUnknown())
        continue;
      std::optional<int64_t> extent = valueOf(dims[axis], arguments);
      if (!extent || *extent < 1 || *extent > int64_t(UINT32_MAX))
        return false;
      axisOf(out, axis) = uint32_t(*extent);
    }
    return true;
  };
  if (!user_.grid && !setDims(grid_, config.grid))
    return false;
  if (!user_.block && !setDims(block_, config.block))
    return false;
  if (!user_.dynamicSharedBytes && shared_.isFormula()) {
    std::optional<int64_t> bytes = valueOf(shared_, arguments);
    if (!bytes || *bytes < 0 || *bytes > int64_t(UINT32_MAX))
      return false;
    config.dynamicSharedBytes = uint32_t(*bytes);
  }
  // Dims computed from searched values that a GPU refuses (a block of 4096
  // threads) make no launch of the program's.
  if (((!user_.grid && anyComputed(grid_)) || searchesBlock() ||
       (!user_.dynamicSharedBytes && shared_.isFormula())) &&
      !interp::validateLaunch(config))
    return false;
  for (size_t i = 0; i < arguments_.size(); ++i) {
    if (!derives(i))
      continue;
    std::optional<int64_t> value =
        arguments_[i].isFormula() ? valueOf(arguments_[i], arguments) : arguments[i];
    if (!value)
      return false;
    const ir::ParamInfo &param = kernel_->params[i];
    specs.push_back({param.name, integerText(*value, param)});
    if (wrapToWidth(*value, param) > 0)
      positiveInts.push_back(uint64_t(wrapToWidth(*value, param)));
  }
  bufferElements.assign(allocationBytes_.size(), 0);
  bufferOffsets.assign(allocationBytes_.size(), 0);
  for (size_t i = 0; i < allocationBytes_.size(); ++i) {
    if (!sizes(i))
      continue;
    std::optional<int64_t> bytes = valueOf(allocationBytes_[i], arguments);
    std::optional<int64_t> offset = valueOf(allocationOffsets_[i], arguments);
    uint64_t elementBytes = std::max<uint64_t>(kernel_->params[i].elementBytes, 1);
    if (!bytes || *bytes < int64_t(elementBytes) || uint64_t(*bytes) > largestHostAllocationBytes())
      return false;
    // A pointer into the allocation, on an element of the kernel's type.
    if (!offset || *offset < 0 || *offset > *bytes || uint64_t(*offset) % elementBytes != 0)
      return false;
    bufferElements[i] = uint64_t(*bytes) / elementBytes;
    bufferOffsets[i] = uint64_t(*offset) / elementBytes;
  }
  for (const MemberValue &member : memberValues_) {
    if (!member.value.isFormula())
      continue;
    std::optional<int64_t> value = valueOf(member.value, arguments);
    if (!value)
      return false;
    const ir::ParamInfo &aggregate = kernel_->params[member.ref.param];
    ir::ParamInfo param = memberAsParameter(aggregate, aggregate.scalarMembers[member.ref.member]);
    specs.push_back({member.name, integerText(*value, param)});
    if (wrapToWidth(*value, param) > 0)
      positiveInts.push_back(uint64_t(wrapToWidth(*value, param)));
  }
  for (const MemberAllocation &member : memberAllocations_) {
    std::optional<int64_t> bytes = valueOf(member.bytes, arguments);
    const ir::PointerMember &pointer =
        kernel_->params[member.ref.param].pointerMembers[member.ref.member];
    uint64_t elementBytes = std::max<uint64_t>(pointer.elementBytes, 1);
    if (!bytes || *bytes < int64_t(elementBytes) || uint64_t(*bytes) > largestHostAllocationBytes())
      return false;
    if (members)
      members->push_back({member.ref, uint64_t(*bytes) / elementBytes});
  }
  return true;
}

namespace {
// Whether `path` is a source file whose host code may call a launcher:
// .cu, .cpp, .cc or .cxx.
bool isHostSource(const std::string &path) {
  std::string extension = llvm::sys::path::extension(path).lower();
  return extension == ".cu" || extension == ".cpp" || extension == ".cc" || extension == ".cxx";
}

// The source files in `path`'s directory but `path` (at most 256, in name
// order): where a kernel file's launchers are called from, when the program's
// main is a file of its own.
std::vector<std::string> sourcesBeside(const std::string &path) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  std::error_code ec;
  fs::path self = fs::weakly_canonical(path, ec);
  fs::path directory = fs::path(path).parent_path();
  for (auto it = fs::directory_iterator(directory.empty() ? fs::path(".") : directory,
                                        fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::directory_iterator(); it.increment(ec)) {
    std::error_code entry;
    if (!isHostSource(it->path().string()) || !it->is_regular_file(entry))
      continue;
    if (fs::weakly_canonical(it->path(), entry) != self)
      files.push_back(it->path().string());
  }
  std::sort(files.begin(), files.end());
  files.resize(std::min<size_t>(files.size(), 256));
  return files;
}
} // namespace

Result<host::HostCode> readHostCode(const std::string &path, const ir::LoadOptions &options) {
  std::vector<std::string> includeDirs;
  for (const std::string &arg : options.extraClangArgs)
    if (arg.rfind("-I", 0) == 0 && arg.size() > 2)
      includeDirs.push_back(arg.substr(2));
  std::string extension = llvm::sys::path::extension(path).lower();
  if (extension != ".cu" && extension != ".cuh")
    return host::HostCode{};
  // The files linked in are the program's too: their calls of its
  // launchers and launches of its kernels are the program's launches.
  std::vector<std::string> sources;
  for (const std::string &file : options.linkFiles)
    if (isHostSource(file))
      sources.push_back(file);
  std::vector<std::string> beside = sourcesBeside(path);
  if (!host::mayLaunchKernels(path, includeDirs, sources.empty() ? beside : sources))
    return host::HostCode{};
  return host::readCallSites(path, options.extraClangArgs, options.cudaPath, sources, beside);
}

std::vector<const host::CallSite *> sitesOf(const ir::Program &program,
                                            const ir::KernelInfo &kernel,
                                            const std::vector<host::CallSite> &sites) {
  std::vector<const host::CallSite *> matched;
  for (const host::CallSite &site : sites) {
    bool bySymbol = site.mangledName == kernel.name;
    bool byName = site.kernel == kernel.sourceName && !program.findKernel(site.mangledName);
    if (bySymbol || byName)
      matched.push_back(&site);
  }
  return matched;
}

namespace {

// "k" for "ns::k" and "k<256>": the name host code spells.
std::string unqualifiedName(std::string name) {
  if (size_t angle = name.find('<'); angle != std::string::npos)
    name.resize(angle);
  if (size_t colons = name.rfind("::"); colons != std::string::npos)
    name.erase(0, colons + 2);
  return name;
}

} // namespace

LaunchSource launchSourceOf(const ir::Program &program, const ir::KernelInfo &kernel,
                            const host::HostCode &host) {
  LaunchSource source;
  source.sites = sitesOf(program, kernel, host.sites);
  // Host code clang could not fully read may hold the launch; a kernel the
  // host code names without launching it directly (a table of kernel
  // pointers, a template launcher) may be launched through that name.
  std::string name = unqualifiedName(kernel.sourceName);
  // A library kernel (CUB, Thrust) is launched by the library's dispatch,
  // which the host code reaches through a call, never a launch.
  if (!source.sites.empty() || !host.firstError.empty() || kernel.library)
    return source;
  // Named in templates whose compiled code never launches it.
  if (host.compiledLaunches && !host.compiledLaunches->count(kernel.name)) {
    source.notLaunched = "the file's compiled host code never launches it (its launches are in "
                         "template instantiations the program never makes, or in branches its "
                         "constants rule out)";
    return source;
  }
  // The launches of its name are all of other overloads (`scale(float *)`
  // launched beside this `scale(double *)`), resolved by their symbols.
  auto named = [&](const host::CallSite &site) { return unqualifiedName(site.kernel) == name; };
  bool siblingsOnly =
      std::any_of(host.sites.begin(), host.sites.end(), named) &&
      std::all_of(host.sites.begin(), host.sites.end(), [&](const host::CallSite &site) {
        return !named(site) ||
               (site.mangledName != kernel.name && program.findKernel(site.mangledName));
      });
  if (siblingsOnly) {
    source.notLaunched = "the file's host code launches another overload of '" + name +
                         "' but never this one";
    return source;
  }
  if (host.ruledOut.count(name)) {
    source.notLaunched = "the file's host code launches it only through a kernel pointer it "
                         "stores under a value its launches never have";
    return source;
  }
  if (host.namedFunctions.count(name))
    return source;
  if (host.definesMain && host.measuredOnly.count(name)) {
    source.notLaunched = "the program only hands it to calls that never launch it (occupancy "
                         "and attribute queries)";
    return source;
  }
  if (host.launchedInText.count(name))
    source.notLaunched = "its only launch is in code the preprocessor leaves out";
  else if (!host.sites.empty())
    source.notLaunched = "the file's host code launches other kernels but never this one";
  return source;
}

Result<KernelAnalysis> analyzeKernel(const ir::Program &program, const ir::KernelInfo &kernel,
                                     const LaunchSource &source, const FixedSettings &fixed,
                                     const SearchSettings &settings,
                                     const AnalysisOptions &options) {
  if (!source.notLaunched)
    return searchAtSites(program, kernel, source.sites, fixed, settings, options);
  KernelAnalysis analysis;
  analysis.kernel = &kernel;
  analysis.verdict = detect::Verdict::NotLaunched;
  analysis.firstLaunchError = *source.notLaunched;
  return analysis;
}

namespace {

bool isBarrierVerdict(const detect::Finding &finding) {
  return finding.kind == detect::FindingKind::RedundantBarrier ||
         finding.kind == detect::FindingKind::UnreachedBarrier;
}

// Redundant-barrier and unreached-barrier findings hold for the kernel only
// when they hold for every site whose launches were judged: a barrier some
// site's launches need is not redundant; one some site reached is not
// unreached.
std::vector<detect::Finding> barrierFindings(const std::vector<KernelAnalysis> &analyses) {
  std::map<uint32_t, const detect::Finding *> redundant, unreached;
  std::map<uint32_t, size_t> redundantOrUnreachedAt;
  size_t judgedSites = 0;
  for (const KernelAnalysis &analysis : analyses) {
    if (analysis.counts.judged == 0)
      continue;
    ++judgedSites;
    std::set<uint32_t> here;
    for (const detect::Finding &finding : analysis.findings) {
      if (!isBarrierVerdict(finding) || finding.sites.empty())
        continue;
      uint32_t barrier = finding.sites.front().instruction;
      here.insert(barrier);
      auto &table = finding.kind == detect::FindingKind::RedundantBarrier ? redundant : unreached;
      table.try_emplace(barrier, &finding);
    }
    for (uint32_t barrier : here)
      ++redundantOrUnreachedAt[barrier];
  }
  std::vector<detect::Finding> kept;
  for (auto &[barrier, finding] : redundant)
    if (redundantOrUnreachedAt[barrier] == judgedSites)
      kept.push_back(*finding);
  for (auto &[barrier, finding] : unreached)
    if (!redundant.count(barrier) && redundantOrUnreachedAt[barrier] == judgedSites)
      kept.push_back(*finding);
  return kept;
}

// A site whose every launch a GPU refuses: the kernel never runs there,
// so nothing is judged (a failed launch, the cause named).
KernelAnalysis refusedLaunch(const ir::KernelInfo &kernel, const std::string &why) {
  KernelAnalysis analysis;
  analysis.kernel = &kernel;
  analysis.counts.failed = 1;
  analysis.firstLaunchError =
      "a GPU refuses the launch the call site makes (cudaErrorInvalidConfiguration), so the "
      "kernel never runs there: " +
      why;
  analysis.verdict = detect::verdictOf(analysis.findings, analysis.counts);
  return analysis;
}

} // namespace

Result<KernelAnalysis> searchAtSites(const ir::Program &program, const ir::KernelInfo &kernel,
                                     const std::vector<const host::CallSite *> &sites,
                                     const FixedSettings &fixed, const SearchSettings &settings,
                                     const AnalysisOptions &options) {
  if (sites.empty())
    return searchKernel(program, kernel, fixed, settings, options);
  KernelAnalysis combined;
  combined.kernel = &kernel;
  std::vector<KernelAnalysis> analyses;
  for (const host::CallSite *site : sites) {
    SitePlan plan(kernel, *site, fixed, settings.maxThreads);
    std::optional<std::string> refused = plan.refusedByAGpu();
    Result<KernelAnalysis> analysis =
        refused ? refusedLaunch(kernel, *refused)
                : searchKernel(program, kernel, plan.fixed(), settings, options);
    if (!analysis)
      return makeError(analysis.error().message + " (launched at " + host::locationText(*site) +
                       ")");
    detect::LaunchOrigin origin{site->file, site->line};
    // One launch read at several iterations of its loop is one call site.
    if (std::none_of(combined.sites.begin(), combined.sites.end(),
                     [&](const detect::LaunchOrigin &seen) {
                       return seen.file == origin.file && seen.line == origin.line;
                     }))
      combined.sites.push_back(origin);
    if (analyses.empty() || analysis->provenance == detect::Provenance::SiteSearch)
      combined.provenance = analysis->provenance;
    for (detect::Finding &finding : analysis->findings)
      finding.launch.origin = origin;
    if (analysis->bestLaunch)
      analysis->bestLaunch->origin = origin;
    analyses.push_back(std::move(*analysis));
  }

  std::map<std::string, size_t> seen;
  for (KernelAnalysis &analysis : analyses) {
    combined.counts += analysis.counts;
    combined.threadInstrs += analysis.threadInstrs;
    for (const std::string &note : analysis.notes)
      if (std::find(combined.notes.begin(), combined.notes.end(), note) == combined.notes.end())
        combined.notes.push_back(note);
    if (analysis.bestLaunch && (!combined.bestLaunch || analysis.bestRatio < combined.bestRatio)) {
      combined.bestLaunch = analysis.bestLaunch;
      combined.bestRatio = analysis.bestRatio;
    }
    for (detect::Finding &finding : analysis.findings) {
      if (isBarrierVerdict(finding))
        continue;
      auto [known, added] = seen.try_emplace(bugKey(program, finding), combined.findings.size());
      if (added)
        combined.findings.push_back(std::move(finding));
      else
        combined.findings[known->second].occurrences += finding.occurrences;
    }
  }
  // The first failure of a site whose launches ran (one whose every launch
  // was outside it says less), else of any site.
  for (bool ran : {true, false})
    for (const KernelAnalysis &analysis : analyses)
      if (combined.firstLaunchError.empty() && (!ran || analysis.counts.simulated() > 0))
        combined.firstLaunchError = analysis.firstLaunchError;
  for (detect::Finding &finding : barrierFindings(analyses))
    combined.findings.push_back(std::move(finding));
  combined.verdict = detect::verdictOf(combined.findings, combined.counts);
  return combined;
}

} // namespace simulee::session
