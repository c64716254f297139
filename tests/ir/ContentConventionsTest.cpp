// What a kernel reads through its pointer parameters
// (ir/ContentConventions.h): offsets (two reads bounding one loop, never
// one), indices (a read that indexes an address; a scatter where only
// stores go there), sorted contents (a search's compared reads), integers
// masked with (powers of two), and the accesses whose
// address takes such a read as a key (rebased or scaled down first).
#include "ir/ContentConventions.h"
#include "ir/Loader.h"

#include <llvm/IR/Function.h>
#include <llvm/IR/Module.h>

#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

using namespace simulee;

namespace {

const char *kSource = R"(
__global__ void spmv(const int *rowStart, const int *column, const float *value,
                     const float *x, float *y, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float sum = 0;
  for (int j = rowStart[r]; j < rowStart[r + 1]; ++j)
    sum += value[j] * x[column[j]];
  y[r] = sum;
}
__global__ void byLength(const unsigned *segment, int *out, int n) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= n)
    return;
  for (unsigned k = 0; k < segment[s + 1] - segment[s]; ++k)
    out[segment[s] + k] = s;
}
__global__ void byCount(const int *count, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int total = 0;
  for (int k = 0; k < count[i]; ++k)
    total += k;
  out[i] = total;
}
__global__ void lowerBound(const int *keys, const int *queries, int *found, int n, int q) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= q)
    return;
  int lo = 0, hi = n;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (keys[mid] < queries[i]) lo = mid + 1; else hi = mid;
  }
  found[i] = lo;
}
__global__ void countPositive(const int *value, int *out, int n) {
  int count = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    if (value[i] > 0)
      ++count;
  out[threadIdx.x] = count;
}
__global__ void rankOf(const unsigned *sorted, unsigned *rank, unsigned v, unsigned n) {
  unsigned pos = 0;
  for (unsigned step = n; step > 0; step >>= 1) {
    unsigned next = pos + step < n ? pos + step : n;
    if (sorted[next - 1] <= v)
      pos = next;
  }
  rank[threadIdx.x] = pos;
}
__device__ __noinline__ unsigned searchIn(const unsigned *data, unsigned v, unsigned n) {
  unsigned pos = 0;
  for (unsigned step = n; step > 0; step >>= 1) {
    unsigned next = pos + step < n ? pos + step : n;
    if (data[next - 1] <= v)
      pos = next;
  }
  return pos;
}
__global__ void rankThroughHelper(const unsigned *sorted, unsigned *rank, unsigned n) {
  rank[threadIdx.x] = searchIn(sorted + 4, threadIdx.x, n);
}
__global__ void noLoop(const int *start, int *out) {
  out[threadIdx.x] = start[threadIdx.x + 1] - start[threadIdx.x];
}
__global__ void gatherScaled(const int *slot, const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[slot[i] * 2 + 1];
}
__global__ void chase(float *const *rows, float *out) {
  out[threadIdx.x] = rows[threadIdx.x][0];
}
__global__ void scatterTo(const int *place, const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[place[i] * 2 + 1] = in[i];
}
__global__ void accumulateAt(const int *bin, float *sum, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    sum[bin[i]] += 1.0f;
}
__global__ void scatterAndGather(const int *place, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[place[i]] = out[place[n - 1 - i]];
}
__device__ __noinline__ unsigned laneIn(unsigned i, unsigned width) { return i & (width - 1); }
__device__ __noinline__ unsigned quarterLane(unsigned i, unsigned width) {
  return laneIn(i, width / 4);
}
__global__ void masked(unsigned *out, unsigned size, unsigned stride, unsigned n, unsigned plain,
                       unsigned count) {
  out[threadIdx.x & (size - 1)] = 1;
  out[blockIdx.x & ((2 * stride) / 128 - 1)] = 2;
  out[quarterLane(threadIdx.x, n)] = 3;
  if ((plain & (plain - 1)) == 0)
    out[0] = plain;
  out[threadIdx.x % count] = 4;
}
)";

using Roles = std::vector<ir::ContentRole>;
constexpr ir::ContentRole kNone = ir::ContentRole::None, kIndex = ir::ContentRole::Index,
                          kOffsets = ir::ContentRole::Offsets, kSorted = ir::ContentRole::Sorted;

Roles rolesOf(const std::string &kernel) {
  static std::unique_ptr<ir::Program> program = [] {
    Result<ir::Program> p = ir::loadProgramFromCuda(kSource, "content_conventions.cu");
    EXPECT_TRUE(p.ok()) << p.error().message;
    return p ? std::make_unique<ir::Program>(std::move(*p)) : nullptr;
  }();
  for (const llvm::Function &function : *program->module)
    if (!function.isDeclaration() && function.getName().contains(kernel))
      return ir::contentRoles(function);
  ADD_FAILURE() << "no kernel " << kernel;
  return {};
}

TEST(ContentConventions, TwoReadsBoundingOneLoopAreOffsets) {
  // The start and the end of each row (which index the values too); the
  // column indices index x; values and x are data.
  EXPECT_EQ(rolesOf("spmv"), (Roles{kOffsets, kIndex, kNone, kNone, kNone, kNone}));
  // A trip count as the difference of two offsets.
  EXPECT_EQ(rolesOf("byLength"), (Roles{kOffsets, kNone, kNone}));
}

TEST(ContentConventions, OneReadBoundingALoopOrReadsOutsideLoopsAreNoOffsets) {
  // A count may be any number; a binary search compares one read per step
  // (sorted, below); a difference of two reads bounding no loop assumes
  // nothing.
  EXPECT_EQ(rolesOf("byCount"), (Roles{kNone, kNone, kNone}));
  EXPECT_EQ(rolesOf("lowerBound")[0], kSorted);
  EXPECT_EQ(rolesOf("noLoop"), (Roles{kNone, kNone}));
}

TEST(ContentConventions, AReadWhoseComparisonSteersTheNextReadIsSorted) {
  // Binary searches: the keys compared decide where the next probe goes
  // (lo or hi, pos); the query read at the thread's index steers nothing.
  EXPECT_EQ(rolesOf("lowerBound"), (Roles{kSorted, kNone, kNone, kNone, kNone}));
  EXPECT_EQ(rolesOf("rankOf"), (Roles{kSorted, kNone, kNone, kNone}));
  // Searched in a function the kernel calls, through a pointer into it.
  EXPECT_EQ(rolesOf("rankThroughHelper"), (Roles{kSorted, kNone, kNone}));
  // A comparison that decides a count, not where the loop reads next.
  EXPECT_EQ(rolesOf("countPositive"), (Roles{kNone, kNone, kNone}));
}

TEST(ContentConventions, AReadThatIndexesAnAddressIsAnIndex) {
  // Through arithmetic, but not as the base of the address (a pointer read
  // from memory is followed, not indexed).
  EXPECT_EQ(rolesOf("gatherScaled"), (Roles{kIndex, kNone, kNone, kNone}));
  EXPECT_EQ(rolesOf("chase"), (Roles{kNone, kNone}));
}

TEST(ContentConventions, AnIndexOnlyStoredThroughIsAScatter) {
  // Threads store where place[i] says: distinct places, by convention.
  EXPECT_EQ(rolesOf("scatterTo"), (Roles{ir::ContentRole::Scatter, kNone, kNone, kNone}));
  // Read and written back at the index (an accumulation), or read through
  // it elsewhere: the indices may repeat.
  EXPECT_EQ(rolesOf("accumulateAt"), (Roles{kIndex, kNone, kNone}));
  EXPECT_EQ(rolesOf("scatterAndGather"), (Roles{kIndex, kNone, kNone}));
}

TEST(ContentConventions, AnIntegerMaskedWithIsAPowerOfTwo) {
  Result<ir::Program> p = ir::loadProgramFromCuda(kSource, "content_conventions.cu");
  ASSERT_TRUE(p.ok()) << p.error().message;
  const ir::KernelInfo *masked = p->findKernel("masked");
  ASSERT_NE(masked, nullptr);
  // `i & (size - 1)`: any power of two; `(2 * stride) / 128 - 1`: stride at
  // least 64; n / 4 masked two calls down: at least 4. A test of whether
  // `plain` is one, and a remainder, assume nothing.
  std::vector<uint64_t> least;
  for (const ir::ParamInfo &param : masked->params)
    least.push_back(param.powerOfTwoFrom);
  EXPECT_EQ(least, (std::vector<uint64_t>{0, 1, 64, 4, 0, 0}));
  EXPECT_TRUE(masked->params[2].conventionalInteger(128));
  EXPECT_FALSE(masked->params[2].conventionalInteger(32));
  EXPECT_FALSE(masked->params[2].conventionalInteger(96));
  EXPECT_TRUE(masked->params[4].conventionalInteger(7));
}

const char *kKeyRangeSource = R"(
__global__ void letterBins(const char *text, int *out, int n) {
  __shared__ int bins[7];
  if (threadIdx.x < 7)
    bins[threadIdx.x] = 0;
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    atomicAdd(&bins[(text[i] - 'a') / 4], 1);
  __syncthreads();
  if (threadIdx.x < 7)
    out[threadIdx.x] = bins[threadIdx.x];
}
__device__ int coarse[16];
__global__ void twoArrays(const unsigned *value, const int *plain, int n) {
  __shared__ int fine[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(&fine[value[i] >> 2], 1);
    atomicAdd(&coarse[value[i] >> 4], 1);
    atomicAdd(&fine[plain[i] % 64], 1);
  }
}
)";

TEST(ContentConventions, KeysOfFixedSizeArraysHaveTheRangeThatKeepsThemInBounds) {
  Result<ir::Program> p = ir::loadProgramFromCuda(kKeyRangeSource, "key_ranges.cu");
  ASSERT_TRUE(p.ok()) << p.error().message;
  using Range = std::optional<std::pair<int64_t, int64_t>>;
  // (c - 'a') / 4 into 7 bins: 'a' (97) to 97 + 27.
  const ir::KernelInfo *letters = p->findKernel("letterBins");
  ASSERT_NE(letters, nullptr);
  EXPECT_EQ(letters->params[0].keyRange, (Range{{97, 124}}));
  EXPECT_EQ(letters->params[1].keyRange, Range{});
  // v >> 2 into 64 and v >> 4 into 16: both below 256; a remainder keeps
  // any value in bounds (no inverse, no range).
  const ir::KernelInfo *two = p->findKernel("twoArrays");
  ASSERT_NE(two, nullptr);
  EXPECT_EQ(two->params[0].keyRange, (Range{{0, 255}}));
  EXPECT_EQ(two->params[1].keyRange, Range{});
}

TEST(ContentConventions, TheLoaderRecordsThemOnTheKernelsParameters) {
  Result<ir::Program> p = ir::loadProgramFromCuda(kSource, "content_conventions.cu");
  ASSERT_TRUE(p.ok()) << p.error().message;
  const ir::KernelInfo *spmv = nullptr;
  for (const ir::KernelInfo &kernel : p->kernels)
    if (kernel.sourceName == "spmv")
      spmv = &kernel;
  ASSERT_NE(spmv, nullptr);
  EXPECT_EQ(spmv->params[0].contents, kOffsets);
  EXPECT_EQ(spmv->params[1].contents, kIndex);
  EXPECT_EQ(spmv->params[2].contents, kNone);
}

const char *kKeysSource = R"(
__global__ void letters(const char *text, int *count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&count[(text[i] - 'a') / 4], 1);
}
__global__ void brightness(const unsigned *pixel, int *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&bins[pixel[i] >> 4], 1);
}
__global__ void oneBased(const int *column, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[column[i] - 1];
}
__global__ void nextSlot(const int *slot, const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[slot[i] + 1];
}
__global__ void privatized(const int *bin, int *hist, int n, int bins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(hist + blockIdx.x * bins + bin[i], 1);
}
__global__ void reversed(const int *slot, const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[n - 1 - slot[i] * 2];
}
struct Table { int *keys; float *cells; int scale; };
__global__ void throughMembers(Table t, Table *p, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  p->cells[i] = t.cells[t.keys[i] - 1];
  out[i] = n / t.keys[i] + (n >> p->keys[i]) + n / p->scale + i % n;
}
)";

// The parameters that key (or, with `anyRead`, are read into) the
// addresses of `kernel`'s accesses on `line`; with `operands`, those read
// into the operands of its arithmetic there.
std::set<uint32_t> keysOn(const std::string &kernel, uint32_t line, bool anyRead = false,
                          bool operands = false) {
  static std::unique_ptr<ir::Program> program = [] {
    Result<ir::Program> p = ir::loadProgramFromCuda(kKeysSource, "keys.cu");
    EXPECT_TRUE(p.ok()) << p.error().message;
    return p ? std::make_unique<ir::Program>(std::move(*p)) : nullptr;
  }();
  const ir::KernelInfo *info = program->findKernel(kernel);
  EXPECT_NE(info, nullptr) << kernel;
  std::set<uint32_t> keys;
  for (uint32_t id = 0; info && id < program->instructions.size(); ++id)
    if (program->instructions[id].location.line == line)
      for (uint32_t parameter : operands  ? ir::operandParameters(*program, *info, id)
                                : anyRead ? ir::addressParameters(*program, *info, id)
                                          : ir::keyedAddressParameters(*program, *info, id))
        keys.insert(parameter);
  return keys;
}

TEST(ContentConventions, ReadsRebasedOrScaledDownIntoAnAddressAreKeys) {
  // Letters counted by (c - 'a') / 4, pixels binned by v >> 4, 1-based
  // columns: what the buffer holds is no index of what is addressed.
  EXPECT_EQ(keysOn("letters", 5), (std::set<uint32_t>{0}));
  EXPECT_EQ(keysOn("brightness", 10), (std::set<uint32_t>{0}));
  EXPECT_EQ(keysOn("oneBased", 15), (std::set<uint32_t>{0}));
  // Indices added to or subtracted from are indices: the off-by-one past
  // the end, the reversal.
  EXPECT_EQ(keysOn("nextSlot", 20), (std::set<uint32_t>{}));
  EXPECT_EQ(keysOn("reversed", 30), (std::set<uint32_t>{}));
  // Beside a block's index, an offset into the block's slice.
  EXPECT_EQ(keysOn("privatized", 25), (std::set<uint32_t>{0}));
  // Nothing on lines without a keyed access.
  EXPECT_EQ(keysOn("letters", 3), (std::set<uint32_t>{}));
}

TEST(ContentConventions, TheBuffersAnAddressIsReadFromAreKnownKeysOrIndices) {
  // Keys and indices alike: slot in `in[slot[i] + 1]`, column in
  // `x[column[i] - 1]`; `out[i]` reads no buffer (nor do the lines without
  // an access).
  EXPECT_EQ(keysOn("nextSlot", 20, true), (std::set<uint32_t>{0}));
  EXPECT_EQ(keysOn("oneBased", 15, true), (std::set<uint32_t>{0}));
  EXPECT_EQ(keysOn("privatized", 25, true), (std::set<uint32_t>{0}));
  EXPECT_EQ(keysOn("letters", 3, true), (std::set<uint32_t>{}));
}

TEST(ContentConventions, ContentsBehindAStructsPointersAreTheStructs) {
  // t.keys[i] - 1 keys an address: the contents are the by-value struct
  // t's (its member buffers), while the pointers t.cells and p->cells, read
  // from the structs, are memory, no key or index of anything.
  EXPECT_EQ(keysOn("throughMembers", 35), (std::set<uint32_t>{0}));
  EXPECT_EQ(keysOn("throughMembers", 35, true), (std::set<uint32_t>{0}));
}

TEST(ContentConventions, TheBuffersArithmeticOperandsAreReadFromAreKnown) {
  // n / t.keys[i] and n >> p->keys[i] hang on contents (t's, p's members);
  // n / p->scale on p's own bytes; i % n on no buffer at all.
  EXPECT_EQ(keysOn("throughMembers", 36, false, true), (std::set<uint32_t>{0, 1}));
  EXPECT_EQ(keysOn("privatized", 25, false, true), (std::set<uint32_t>{}));
}

} // namespace
