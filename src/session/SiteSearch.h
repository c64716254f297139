// Searching a kernel from the launches its file's host code makes
// (DESIGN.md, "Evolutionary input search"): once per call site, inside what
// the site allows (constant dims and arguments fixed, formulas followed,
// unknowns searched), every finding naming the site that exposed it. A
// kernel with no site, or every kernel under --explore, is searched freely.
#pragma once

#include "evo/SearchSpace.h"
#include "host/CallSiteReader.h"
#include "ir/Loader.h"
#include "session/Analysis.h"
#include "session/Arguments.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace simulee::session {

// How one call site shapes the searched launches of its kernel. What the
// user fixed (FixedSettings) always wins over the site.
class SitePlan {
public:
  // `maxThreads`: the search's cap on a launch's threads.
  SitePlan(const ir::KernelInfo &kernel, const host::CallSite &site, const FixedSettings &user,
           uint64_t maxThreads);

  const host::CallSite &site() const { return *site_; }

  // The user's settings plus the site's constants: constant arguments,
  // shared bytes, and grid or block when all three axes are constant and
  // the launch fits maxThreads. The result points at this plan for the rest.
  FixedSettings fixed() const;

  // Why a GPU refuses every launch the site makes, whose grid, block and
  // shared bytes are constants (`k<<<n, 1280>>>`: more threads than a block
  // holds; cudaErrorInvalidConfiguration, and the kernel never runs there);
  // nothing when it accepts them or they are not all constant.
  std::optional<std::string> refusedByAGpu() const;

  // Whether the site computes parameter `index` from other arguments, or
  // passes the block's or grid's extent as it (SearchedDims): it is not
  // searched.
  bool derives(size_t index) const;

  // Whether the host allocated the buffer it passes as parameter `index`
  // with a size the site determines: its size is not searched, and an
  // access past it is a finding. `allocation` says where ("cudaMalloc at
  // main.cu:40").
  bool sizes(size_t index) const;
  const std::string &allocation(size_t index) const { return site_->allocations[index]; }

  // The parameter before `index` whose buffer the pointer parameter `index`
  // points into: the host passes both pointers into one allocation it sizes
  // (`k<<<g, b>>>(d, d, n)`). The buffer is that parameter's alone.
  std::optional<size_t> pointsInto(size_t index) const;

  // Whether the site computes the number inside a struct argument named
  // `name` ("p.n") from other arguments: it is not searched. Constant
  // members are in fixed().
  bool derivesMember(const std::string &name) const;

  // Where the host allocated the buffer a struct's pointer member points to
  // (global buffer `buffer`, an ir::memberBufferId), when the site states
  // its size.
  std::optional<std::string> memberAllocation(uint32_t buffer) const;

  // Whether the host zeroes the buffer it passes as parameter `index` just
  // before the launch (`cudaMemset(p, 0, ...)`): its contents are not
  // searched.
  bool zeroes(size_t index) const;

  // Whether the host copies contents it computes into the buffer it passes
  // as parameter `index` (host::CallSite::contents: an array it filled in a
  // loop), a buffer whose size the site states: its contents are not
  // searched.
  bool fills(size_t index) const;
  // Those contents for the buffer's `elements` elements, with the launch's
  // integer arguments as `specs` give them: the host's elements, zeros
  // after them. Nothing where a value has no number, or the buffer is too
  // large to hand over as bytes.
  std::optional<std::vector<uint8_t>> contents(size_t index, uint64_t elements,
                                               const std::vector<ArgumentSpec> &specs) const;

  // Whether the site (or the user) states the dynamic shared memory's size
  // and the block: an access past it is a finding.
  bool sizesShared() const;

  // Whether the block of a launch is computed from searched values (a block
  // of `threads` the host does not fix): chosen by the search, not the host.
  bool searchesBlock() const;

  // Whether the value of parameter `index` is the search's choice: searched
  // itself, or computed from searched integers (`arrayLength / 1024` of a
  // launcher's searched arrayLength).
  bool searchesParameter(size_t index) const;

  // Whether the site computes its block from formula index `index` (a host
  // variable choosing the block size).
  bool sizesBlock(uint32_t index) const;

  // The parameters the site's grid counts in tiles (`(n + 255) / 256` or
  // `n / 256` blocks of a searched n), each with its tile: CUDA code
  // conventionally passes whole tiles (a kernel without bounds checks needs
  // them), and the search moves them there (meetConventions).
  std::vector<std::pair<std::string, int64_t>> tiledParameters() const;

  // Keeps the search to launches the site can make: grid and block that the
  // site determines are not searched, and the searched integers that size
  // them stay within [1, the largest value whose launch fits maxThreads].
  void shape(evo::SearchSpace &space) const;

  // The site's grid, block and shared bytes for one launch (the searched
  // integers first moved onto the site's constraints: `assert(n % 32 == 0)`
  // makes a searched n of 100 one of 96; then, where they can be, onto the
  // kernel's conventions, a power of two it masks with, and halved until
  // the launch fits the search's thread cap), its derived
  // arguments appended to `specs` (which hold every other scalar), their
  // positive values to `positiveInts`, the element counts of the buffers
  // it sizes to `bufferElements` (by parameter; 0 for the others) and how
  // many elements into them the pointers point (`p + k`) to `bufferOffsets`. False
  // when the site would make no launch with these values (a dimension below
  // 1, a division by zero, an empty or oversized allocation).
  // The struct members it computes are appended to `specs` too, and the
  // element counts of the buffers of pointer members it sizes to `members`.
  struct SizedMember {
    MemberRef ref;
    uint64_t elements = 0;
  };
  bool apply(interp::LaunchConfig &config, std::vector<ArgumentSpec> &specs,
             std::vector<uint64_t> &positiveInts, std::vector<uint64_t> &bufferElements,
             std::vector<uint64_t> &bufferOffsets,
             std::vector<SizedMember> *members = nullptr) const;

private:
  const ir::KernelInfo *kernel_;
  const host::CallSite *site_;
  // The site's values as the plan uses them: formulas over non-integer
  // parameters, and values for pointer parameters, count as unknown.
  host::SiteValue grid_[3], block_[3], shared_;
  std::vector<host::SiteValue> arguments_;
  std::vector<host::SiteValue> allocationBytes_;   // by parameter
  std::vector<host::SiteValue> allocationOffsets_; // by parameter, in bytes
  std::vector<host::Formula> constraints_;       // each non-zero at every launch
  // Numbers inside struct arguments the host sets (constants or formulas).
  struct MemberValue {
    MemberRef ref;
    std::string name; // "p.n"
    host::SiteValue value;
  };
  std::vector<MemberValue> memberValues_;
  // Pointers inside struct arguments to memory the host allocated.
  struct MemberAllocation {
    MemberRef ref;
    host::SiteValue bytes;
    std::string where;
  };
  std::vector<MemberAllocation> memberAllocations_;
  // The searched struct members the site's formulas read (CallSite::Member::
  // leaf), each as a parameter of its own named "p.n", and the host's
  // variables (CallSite::Variable), named "threads (host)", by formula index
  // minus the number of parameters; an index with no leaf has no name.
  std::vector<ir::ParamInfo> leaves_;
  std::vector<bool> hostVariable_; // by leaf: a host variable, not a struct member
  // A block (or grid) whose axes are searched integers as they are
  // (`<<<blocks, threads>>>` with threads a host variable or a searched
  // argument, `dim3 b(w, h)`): the search draws it as it draws blocks
  // (multiples of 32, powers of two) or grids, and each axis's integer (by
  // formula index) follows it. The first `rank` axes are such; the rest are
  // 1. rank 0: not such dims.
  struct SearchedDims {
    std::optional<uint32_t> leaf[3];
    uint32_t rank = 0;
  };
  SearchedDims searchedBlock_, searchedGrid_;
  std::map<uint32_t, int64_t> tiles_; // tiledParameters(), by formula index
  bool isDimsLeaf(size_t index) const;
  // Whether formula index `index` is a host variable's leaf.
  bool isHostVariable(size_t index) const;

  // How many values a formula may read: the parameters, then the leaves.
  size_t formulaValues() const { return arguments_.size() + leaves_.size(); }
  // The formula index of a searched value: its parameter's, or its leaf's.
  uint32_t formulaIndexOf(const evo::Gene &gene) const;
  FixedSettings user_;
  std::vector<bool> userArgument_;                 // by parameter
  std::vector<std::optional<int64_t>> userValues_; // the user's integer arguments
  uint64_t maxThreads_ = 0;

  bool determined(const host::SiteValue (&dims)[3]) const;
  std::optional<int64_t> valueOf(const host::SiteValue &value,
                                 const std::vector<std::optional<int64_t>> &arguments) const;
  // Whether the dims computed with `param` at `value` (see argumentsWith)
  // all have a value of at least 1.
  bool launchesWith(uint32_t param, int64_t value) const;
  uint64_t threadsWith(uint32_t param, int64_t value) const;
  uint64_t largestAllocationWith(uint32_t param, int64_t value) const;
  // Whether the constraints hold; only those that read argument `only`
  // alone, when given.
  bool holds(const std::vector<std::optional<int64_t>> &arguments,
             std::optional<uint32_t> only = std::nullopt) const;
  // Meets the site's constraints: each searched integer first moved to the
  // nearest value that meets the constraints on it alone (`stride` a power
  // of two of at least 1024, `n % 1024 == 0`), then one of them to the
  // nearest value that meets them all; false when none does.
  bool meetConstraints(std::vector<std::optional<int64_t>> &arguments) const;
  // Moves integer `index` to the nearest value (candidatesNear's order) at
  // which `meets()` holds; leaves it as it was, false, where none does.
  bool moveNearest(std::vector<std::optional<int64_t>> &arguments, size_t index,
                   const std::function<bool()> &meets) const;
  // Whether the searched parameters take values the kernel's code
  // conventionally assumes (ir::ParamInfo::conventionalInteger, whole tiles).
  bool conventional(const std::vector<std::optional<int64_t>> &arguments) const;
  // Moves each size counted in tiles to a whole number of them, then one
  // searched integer to the nearest value that makes the parameters
  // conventional, while the constraints still hold; leaves them as they are
  // where none does (the search may leave conventions).
  void meetConventions(std::vector<std::optional<int64_t>> &arguments) const;
  // A grid extent `(n + tile - 1) / tile` or `n / tile` of one integer:
  // its formula index and the tile.
  static std::optional<std::pair<uint32_t, int64_t>> tileOf(const host::SiteValue &extent);
  // Whether every size counted in tiles (or only `only`) is a whole number
  // of them, at least one.
  bool wholeTiles(const std::vector<std::optional<int64_t>> &arguments,
                  std::optional<uint32_t> only = std::nullopt) const;
  // Halves the searched integers the site's dims are computed from, the
  // largest first, until the launch has at most maxThreads threads
  // (`config`'s dims where the site does not compute them) or none halves
  // without breaking a constraint (or a convention met before): two searched
  // sizes that each fit alone (a batch and a length, a width and a height)
  // multiply past the cap.
  void fitThreads(std::vector<std::optional<int64_t>> &arguments,
                  const interp::LaunchConfig &config) const;
  // Whether formula index `index` is an integer the search picks: a
  // parameter no one gives, or a host variable.
  bool searchedInteger(size_t index) const;
  std::vector<int64_t> candidatesNear(int64_t value,
                                      const std::vector<std::optional<int64_t>> &arguments) const;
  std::vector<std::optional<int64_t>> argumentsWith(uint32_t param, int64_t value) const;
};

// The call sites of a .cu file's host code (host/), read only when the file
// can launch kernels; none for .ll and .bc. Fails only when clang cannot
// read the host side at all.
Result<host::HostCode> readHostCode(const std::string &path, const ir::LoadOptions &options);

// The sites among `sites` that launch `kernel`: by device symbol, else by
// source name when no kernel of `program` has the site's symbol.
std::vector<const host::CallSite *> sitesOf(const ir::Program &program,
                                            const ir::KernelInfo &kernel,
                                            const std::vector<host::CallSite> &sites);

// Where a kernel's launches come from, by what the file's host code shows
// (DESIGN.md, "Launch domain and provenance").
struct LaunchSource {
  std::vector<const host::CallSite *> sites; // none: searched freely
  // Set when the host code never launches the kernel: it launches other
  // kernels, or this one only in code the preprocessor leaves out.
  std::optional<std::string> notLaunched;
};

// The launch source of `kernel` in a file whose host code is `host` (empty
// for a file without host code, and under --explore: searched freely). A
// kernel the host code names other than in a launch it could read (a table
// of kernel pointers, a template launcher), or host code clang could not
// fully read, never makes a kernel "not launched".
LaunchSource launchSourceOf(const ir::Program &program, const ir::KernelInfo &kernel,
                            const host::HostCode &host);

// Analyses `kernel` from its launch source: searched at its sites, freely
// without any, or not at all when it is not launched (verdict NotLaunched,
// the reason in firstLaunchError).
Result<KernelAnalysis> analyzeKernel(const ir::Program &program, const ir::KernelInfo &kernel,
                                     const LaunchSource &source, const FixedSettings &fixed,
                                     const SearchSettings &settings,
                                     const AnalysisOptions &options);

// Searches `kernel` once per site (freely with no site) and combines the
// searches: findings in site order, each carrying its site as
// LaunchRecord::origin; counts added; a barrier is redundant only when no
// site's launches needed it.
Result<KernelAnalysis> searchAtSites(const ir::Program &program, const ir::KernelInfo &kernel,
                                     const std::vector<const host::CallSite *> &sites,
                                     const FixedSettings &fixed, const SearchSettings &settings,
                                     const AnalysisOptions &options);

} // namespace simulee::session
