// Which accesses the Memory-Access Model need not track
// (ir/ConflictFreeAccesses.h): each kernel below names, per pointer
// parameter, whether its accesses are read-only, thread-private or tracked,
// and why.
#include "ir/Loader.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

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
}

} // namespace
