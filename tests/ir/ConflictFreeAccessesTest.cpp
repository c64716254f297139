// Which accesses the Memory-Access Model need not track
// (ir/ConflictFreeAccesses.h): each kernel below names, per pointer
// parameter, whether its accesses are read-only, thread-private or tracked,
// and why.
#include "interp/Launch.h"
#include "ir/Loader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

using namespace simulee;

namespace {

const char *kSource = R"(
__device__ float load(const float *p, int i) { return p[i]; }
__device__ float *table[4];

// a, b read-only; c thread-private.
__global__ void add(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
// The index spelled otherwise, 64-bit, two fields of one element.
__global__ void pairs(float2 *v, size_t n) {
  size_t i = threadIdx.x + (size_t)blockDim.x * blockIdx.x;
  if (i < n) { v[i].x += 1.0f; v[i].y = v[i].x; }
}
// A grid-stride loop: thread-private across trips.
__global__ void stride(const float *in, float *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] += in[i];
}
// Tracked: a neighbour's element, an index that ignores the block, a stride
// too narrow for the element, a store through a pointer chosen by data.
__global__ void neighbour(float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n) c[i] = c[i + 1];
}
__global__ void perBlock(float *c) { c[threadIdx.x] = 1.0f; }
__global__ void overlapping(char *c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  *(int *)(c + i) = 0;
}
__global__ void scatter(const int *where, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[where[i]] = 1.0f;
}
// A read-only parameter stays untracked whatever its index.
__global__ void gather(const int *where, const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[where[i]];
}
// Escapes: a pointer passed to a function, or stored where others read it.
__global__ void helper(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = load(in, i);
}
__global__ void publish(float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  table[0] = in;
  out[i] = in[i];
}
// A write through a pointer of unknown origin could alias any parameter;
// a read through one, any thread-private one.
__global__ void unknownWrite(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  table[1][i] = in[i];
  out[i] = 0.0f;
}
__global__ void unknownRead(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i] + table[1][i];
}
// An atomic is never untracked.
__global__ void count(const int *in, int *bins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&bins[i], in[i]);
}
// A texture fetch reads its texels: the texture's parameter is read-only,
// and its reads are of unknown origin for the pointer parameters (its
// texels may be out's buffer), so out is not thread-private.
// The same through functions not inlined, which every caller passes it to.
__device__ __noinline__ float right(cudaTextureObject_t t, int i) { return tex1Dfetch<float>(t, i + 1); }
__device__ __noinline__ float both(cudaTextureObject_t t, int i) {
  return tex1Dfetch<float>(t, i - 1) + right(t, i);
}
__global__ void blur(cudaTextureObject_t tex, const float *w, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = w[0] * tex1Dfetch<float>(tex, i - 1) + w[1] * tex1Dfetch<float>(tex, i + 1);
}
__global__ void blurCalling(cudaTextureObject_t tex, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = both(tex, i);
}
// A function called with different textures: its fetch is no kernel's.
__global__ void blurTwo(cudaTextureObject_t a, cudaTextureObject_t b, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = right(a, i) + right(b, i);
}
// A surface store may write any texels: nothing is untracked.
__global__ void toSurface(cudaTextureObject_t tex, cudaSurfaceObject_t surf, const float *w) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  surf1Dwrite(tex1Dfetch<float>(tex, i) * w[0], surf, i * 4);
}
// Shared memory is no parameter's: the global accesses stay untracked.
__global__ void reduce(const float *in, float *out) {
  __shared__ float part[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  part[threadIdx.x] = in[i];
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = part[0];
}
// A struct copy is one instruction with two accesses: a float4 copied from
// a read-only parameter into a shared tile stays tracked (it writes the
// tile); one copied into the thread's own variable does not.
__global__ void tileCopy(const float4 *in, float *out) {
  __shared__ float4 tile[64];
  tile[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = tile[(threadIdx.x + 1) % 64].x;
}
__global__ void ownCopy(const float4 *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 mine = in[i];
  out[i] = mine.x + mine.w;
}
// Rows: c[row * width + col] with the width passed or a constant, each
// element read and written again in a loop (a matrix product's output).
__global__ void rows(const float *a, float *c, int width, int k) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  c[row * width + col] = 0.0f;
  for (int i = 0; i < k; ++i)
    c[row * width + col] += a[row * k + i];
}
__global__ void rows64(float2 *c) {
  size_t row = threadIdx.y + (size_t)blockIdx.y * blockDim.y;
  size_t col = blockIdx.x * blockDim.x + threadIdx.x;
  c[col + row * 64].y = 1.0f;
}
// Tracked: columns across rows (col * height + row), a row's neighbour, two
// widths, and rows with a grid-stride term.
__global__ void columns(float *c, int height) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  c[col * height + row] = 1.0f;
}
__global__ void rowNeighbour(float *c, int width) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  c[row * width + col] = c[row * width + col + 1];
}
__global__ void twoWidths(float *c, int width, int pitch) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  c[row * width + col] = c[row * pitch + col];
}
)";

// "name:read-only", "name:private" per parameter with untracked accesses,
// with how many of them.
std::map<std::string, std::string> untrackedOf(const ir::Program &program,
                                               const std::string &name) {
  const ir::KernelInfo *kernel = program.findKernel(name);
  EXPECT_NE(kernel, nullptr) << name;
  std::map<std::string, std::string> kinds;
  if (!kernel)
    return kinds;
  std::map<std::string, int> counts;
  for (const ir::UntrackedAccess &access : kernel->untracked) {
    const std::string &param = kernel->params[access.param].name;
    std::string kind = access.threadPrivate ? "private" : "read-only";
    EXPECT_TRUE(kinds.emplace(param, kind).second || kinds[param] == kind) << name << " " << param;
    ++counts[param];
  }
  for (auto &[param, kind] : kinds)
    kind += " x" + std::to_string(counts[param]);
  return kinds;
}

using Kinds = std::map<std::string, std::string>;

TEST(ConflictFreeAccesses, ReadOnlyAndThreadPrivateParametersAreUntracked) {
  Result<ir::Program> program = ir::loadProgramFromCuda(kSource, "untracked.cu");
  ASSERT_TRUE(program.ok()) << program.error().message;
  EXPECT_EQ(untrackedOf(*program, "_Z3addPKfS0_Pfi"),
            (Kinds{{"a", "read-only x1"}, {"b", "read-only x1"}, {"c", "private x1"}}));
  EXPECT_EQ(untrackedOf(*program, "_Z5pairsP6float2m"), (Kinds{{"v", "private x4"}}));
  EXPECT_EQ(untrackedOf(*program, "_Z6stridePKfPfi"),
            (Kinds{{"in", "read-only x1"}, {"out", "private x2"}}));
  EXPECT_EQ(untrackedOf(*program, "_Z6gatherPKiPKfPf"),
            (Kinds{{"where", "read-only x1"}, {"in", "read-only x1"}, {"out", "private x1"}}));
  EXPECT_EQ(untrackedOf(*program, "_Z6reducePKfPf"), (Kinds{{"in", "read-only x1"}}));
  EXPECT_EQ(untrackedOf(*program, "_Z4bluryPKfPfi"),
            (Kinds{{"tex", "read-only x2"}, {"w", "read-only x2"}}));
  // both's fetch; right's is also blurTwo's, with other textures.
  EXPECT_EQ(untrackedOf(*program, "_Z11blurCallingyPf"), (Kinds{{"tex", "read-only x1"}}));
  EXPECT_EQ(untrackedOf(*program, "_Z7blurTwoyyPf"), Kinds{});
}

TEST(ConflictFreeAccesses, AccessesOtherThreadsCanReachStayTracked) {
  Result<ir::Program> program = ir::loadProgramFromCuda(kSource, "untracked.cu");
  ASSERT_TRUE(program.ok()) << program.error().message;
  EXPECT_EQ(untrackedOf(*program, "_Z9neighbourPfi"), Kinds{});
  EXPECT_EQ(untrackedOf(*program, "_Z8perBlockPf"), Kinds{});
  EXPECT_EQ(untrackedOf(*program, "_Z11overlappingPc"), Kinds{});
  EXPECT_EQ(untrackedOf(*program, "_Z7scatterPKiPf"), (Kinds{{"where", "read-only x1"}}));
  EXPECT_EQ(untrackedOf(*program, "_Z6helperPKfPf"), (Kinds{{"out", "private x1"}}));
  EXPECT_EQ(untrackedOf(*program, "_Z7publishPfS_"), (Kinds{{"out", "private x1"}}));
  EXPECT_EQ(untrackedOf(*program, "_Z12unknownWritePKfPf"), Kinds{});
  EXPECT_EQ(untrackedOf(*program, "_Z11unknownReadPKfPf"), (Kinds{{"in", "read-only x1"}}));
  EXPECT_EQ(untrackedOf(*program, "_Z5countPKiPi"), (Kinds{{"in", "read-only x1"}}));
  EXPECT_EQ(untrackedOf(*program, "_Z9toSurfaceyyPKf"), Kinds{});
  EXPECT_EQ(untrackedOf(*program, "_Z8tileCopyPK6float4Pf"), (Kinds{{"out", "private x1"}}));
  EXPECT_EQ(untrackedOf(*program, "_Z7ownCopyPK6float4Pf"),
            (Kinds{{"in", "read-only x3"}, {"out", "private x1"}}));
  EXPECT_EQ(untrackedOf(*program, "_Z7columnsPfi"), Kinds{});
  EXPECT_EQ(untrackedOf(*program, "_Z12rowNeighbourPfi"), Kinds{});
  EXPECT_EQ(untrackedOf(*program, "_Z9twoWidthsPfii"), Kinds{});
}

// The width of each thread-private access's rows: "param 2", "64", or ""
// for one-dimensional ones.
std::vector<std::string> rowWidthsOf(const ir::Program &program, const std::string &name) {
  std::vector<std::string> widths;
  for (const ir::UntrackedAccess &access : program.findKernel(name)->untracked)
    if (access.threadPrivate)
      widths.push_back(access.rowWidthParam >= 0 ? "param " + std::to_string(access.rowWidthParam)
                       : access.rowWidth         ? std::to_string(access.rowWidth)
                                                 : "");
  return widths;
}

TEST(ConflictFreeAccesses, RowsOfAWidthAreThreadPrivateWhereTheLaunchFitsTheWidth) {
  Result<ir::Program> program = ir::loadProgramFromCuda(kSource, "untracked.cu");
  ASSERT_TRUE(program.ok()) << program.error().message;
  // c's store, and the loop's load and store of it.
  EXPECT_EQ(untrackedOf(*program, "_Z4rowsPKfPfii"),
            (Kinds{{"a", "read-only x1"}, {"c", "private x3"}}));
  using Widths = std::vector<std::string>;
  EXPECT_EQ(rowWidthsOf(*program, "_Z4rowsPKfPfii"), (Widths{"param 2", "param 2", "param 2"}));
  // 8-byte elements, 64 to a row: the row coefficient is 64 times the column's.
  EXPECT_EQ(untrackedOf(*program, "_Z6rows64P6float2"), (Kinds{{"c", "private x1"}}));
  EXPECT_EQ(rowWidthsOf(*program, "_Z6rows64P6float2"), Widths{"64"});

  // A launch keeps them apart when no row's x reaches the width.
  const ir::KernelInfo *kernel = program->findKernel("_Z4rowsPKfPfii");
  interp::LaunchConfig config;
  config.grid = {2, 3, 1};
  config.block = {16, 4, 1};
  auto argsWith = [](int64_t width) {
    return std::vector<interp::ArgumentValue>{
        interp::ArgumentValue::buffer(std::vector<uint8_t>(4096)),
        interp::ArgumentValue::buffer(std::vector<uint8_t>(4096)),
        interp::ArgumentValue::scalar(uint64_t(width) & 0xFFFFFFFFu),
        interp::ArgumentValue::scalar(8)};
  };
  auto untrackedCount = [&](const interp::LaunchConfig &launch, int64_t width) {
    std::vector<bool> untracked =
        interp::untrackedInstructions(*program, *kernel, launch, argsWith(width));
    return std::count(untracked.begin(), untracked.end(), true);
  };
  EXPECT_EQ(untrackedCount(config, 32), 4); // 2 x 16 columns: a's load and c's three
  EXPECT_EQ(untrackedCount(config, 100), 4);
  EXPECT_EQ(untrackedCount(config, 31), 1); // a row's last column meets the next row
  EXPECT_EQ(untrackedCount(config, -32), 1);
  interp::LaunchConfig deep = config;
  deep.block = {16, 4, 2}; // threads of two depths share a row
  EXPECT_EQ(untrackedCount(deep, 32), 1);
}

} // namespace
