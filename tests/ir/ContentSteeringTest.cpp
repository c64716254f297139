// Whether buffer contents can steer a kernel (ir/ContentSteering.h): each
// kernel below either executes the same instructions at the same addresses
// whatever its buffers hold, or lets a value read from memory decide a
// branch, an address, a divisor, a conversion or a call.
#include "ir/Loader.h"

#include <gtest/gtest.h>

using namespace simulee;

namespace {

const char *kSource = R"(
#include <cstdio>
__device__ float scaled(float x, float k) { return x * k; }
__device__ int twice(int i) { return 2 * i; }

// Not steered: data flows only into stored values.
__global__ void transpose(const float *in, float *out, int n) {
  __shared__ float tile[16][17];
  int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  if (x < n && y < n) tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  x = blockIdx.y * 16 + threadIdx.x; y = blockIdx.x * 16 + threadIdx.y;
  if (x < n && y < n) out[y * n + x] = sinf(tile[threadIdx.x][threadIdx.y]);
}
__global__ void helperOnData(const float *in, float *out) {
  int i = twice(threadIdx.x);
  out[i] = scaled(in[i], 3.0f);
  printf("%f\n", in[i]);
}

// Steered.
__global__ void branchOnData(const int *flags, int *out) {
  if (flags[threadIdx.x]) out[0] = threadIdx.x;
}
__global__ void gather(const int *index, const float *in, float *out) {
  out[threadIdx.x] = in[index[threadIdx.x]];
}
__global__ void addressThroughHelper(const int *index, float *out) {
  out[twice(index[threadIdx.x])] = 1.0f;
}
__global__ void divideByData(const int *in, int *out) { out[threadIdx.x] = 100 / in[threadIdx.x]; }
__global__ void convert(const float *in, int *out) { out[threadIdx.x] = (int)in[threadIdx.x]; }
__global__ void histogram(const unsigned char *in, unsigned *bins) {
  atomicAdd(&bins[in[threadIdx.x]], 1u);
}
__global__ void spin(volatile int *flag) { while (flag[0] == 0) {} }
__global__ void voteOnData(const int *in, int *out) {
  if (__any_sync(0xffffffffu, in[threadIdx.x] > 0)) out[threadIdx.x] = 1;
}
)";

bool steers(const ir::Program &program, const std::string &name) {
  const ir::KernelInfo *kernel = program.findKernel(name);
  EXPECT_NE(kernel, nullptr) << name;
  return kernel ? kernel->contentsSteer : false;
}

TEST(ContentSteering, OnlyDataReachingControlFlowAddressesOrUndefinedBehaviourSteers) {
  Result<ir::Program> program = ir::loadProgramFromCuda(kSource, "steering.cu");
  ASSERT_TRUE(program.ok()) << program.error().message;
  EXPECT_FALSE(steers(*program, "_Z9transposePKfPfi"));
  EXPECT_FALSE(steers(*program, "_Z12helperOnDataPKfPf"));
  EXPECT_TRUE(steers(*program, "_Z12branchOnDataPKiPi"));
  EXPECT_TRUE(steers(*program, "_Z6gatherPKiPKfPf"));
  EXPECT_TRUE(steers(*program, "_Z20addressThroughHelperPKiPf"));
  EXPECT_TRUE(steers(*program, "_Z12divideByDataPKiPi"));
  EXPECT_TRUE(steers(*program, "_Z7convertPKfPi"));
  EXPECT_TRUE(steers(*program, "_Z9histogramPKhPj"));
  EXPECT_TRUE(steers(*program, "_Z4spinPVi"));
  EXPECT_TRUE(steers(*program, "_Z10voteOnDataPKiPi"));
}

} // namespace
