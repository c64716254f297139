// What the evolutionary search may vary for one kernel: grid and block dims
// (their rank, or a value the user fixed), scalar arguments and the element
// counts of buffers the user did not give, and the limits every launch keeps.
#pragma once

#include "evo/Dims.h"
#include "support/Result.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace simulee::evo {

// Hardware limits of current NVIDIA GPUs plus simulee's own caps, which keep
// one simulated launch affordable.
struct Limits {
  uint32_t maxThreadsPerBlock = 1024;
  uint32_t maxBlockDimXY = 1024;
  uint32_t maxBlockDimZ = 64;
  uint32_t maxGridDimX = 0x7fffffff;
  uint32_t maxGridDimYZ = 65535;
  uint64_t maxThreads = uint64_t(1) << 16; // whole launch; the CLI's --max-threads
  uint64_t maxBufferElements = uint64_t(1) << 24;
};

// Grid or block: either fixed by the user (never mutated) or free in the
// first `rank` axes. The caller derives the rank from the builtins the kernel
// reads: reading threadIdx.y means 2-D blocks.
struct DimsSetting {
  uint32_t rank = 1; // 1..3; axes at and beyond it stay 1
  std::optional<Dims> fixed;

  bool isFree() const { return !fixed.has_value(); }
  bool isFreeAxis(unsigned axis) const { return isFree() && axis < rank; }
};

enum class GeneKind : uint8_t { Int, Float };
// BufferFill: which of the caller's kFillKinds ways of filling an automatic
// buffer (zeros, sorted, in-range indices, ...), an integer in [0, kinds-1].
enum class GeneRole : uint8_t { Scalar, BufferSize, BufferFill };

// One number the search varies (or holds fixed): a scalar kernel argument,
// the element count of an automatically created buffer, or how it is filled.
struct Gene {
  std::string name;
  GeneRole role = GeneRole::Scalar;
  GeneKind kind = GeneKind::Int;
  uint32_t bits = 32; // Int: 1..64; Float: 16, 32 or 64
  bool isSigned = true;
  std::optional<double> fixed; // the user's value; never mutated
  std::optional<double> lower, upper;
  uint32_t param = 0; // the caller's bookkeeping: which kernel parameter
  // Int: the code masks with it (`i & (n - 1)`), so it is conventionally a
  // power of two of at least this; the first launches draw one. 0: any.
  uint64_t powerOfTwoFrom = 0;

  static Gene integer(std::string name, uint32_t bits, bool isSigned);
  static Gene floating(std::string name, uint32_t bits);
  static Gene bufferSize(std::string name);
  // `kinds` ways to fill a buffer; 0 is the typical one.
  static Gene bufferFill(std::string name, uint32_t kinds);
};

// The closed interval a gene's value is kept in: its type's range (integers
// capped at +-2^53, where doubles stop being exact), the user's bounds, and
// for buffer sizes [1, Limits::maxBufferElements].
struct GeneRange {
  double low = 0, high = 0;
};

struct SearchSpace {
  DimsSetting grid;
  DimsSetting block;
  std::vector<Gene> scalars; // genes 0..scalars.size()-1
  std::vector<Gene> buffers; // the genes after the scalars
  Limits limits;

  size_t geneCount() const { return scalars.size() + buffers.size(); }
  const Gene &gene(size_t index) const;
  GeneRange range(size_t index) const;

  // Whether any launch at all fits: ranks, fixed dims and values against the
  // limits, bounds in order. The error says which setting is wrong.
  Status validate() const;
};

GeneRange geneRange(const Gene &gene, const Limits &limits);

} // namespace simulee::evo
