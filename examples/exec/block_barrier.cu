// Block-scope synchronization through libcu++ (issue 20): cuda::barrier in
// shared memory, release and acquire atomics handing a flag between warps,
// and the address-space tests such code asks.
//  - rotate: a `__shared__ cuda::barrier` (a class nvcc leaves unconstructed,
//    which clang refuses until simulee rewrites it) and an `alignas` tile
//    filled with float4 copies; the barrier's arrive_and_wait orders the
//    tile's writes before other warps' reads, twice per round. No finding.
//  - readBeforeWait: the same tile read between arrive() and wait(): a data
//    race on the tile (lines 46 and 48).
//  - handOff: warp 1 fills a buffer and raises a flag with a release store;
//    warp 0, which runs first, spins on an acquire load until it sees the
//    flag (simulee lets a spinning warp give way), then reads. No finding.
//  - spaces: __isShared / __isGlobal / __isLocal of pointers of each kind.
// Expected: every result checked against the host's, one data race.
#include <cuda/atomic>
#include <cuda/barrier>
#include <cstdio>

constexpr int kBlock = 256;
constexpr int kRounds = 2;

__global__ void rotate(const float *in, float *out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ alignas(16) float tile[kBlock];
  if (threadIdx.x == 0)
    init(&bar, blockDim.x);
  __syncthreads();
  float sum = 0;
  for (int round = 0; round < kRounds; ++round) {
    if (threadIdx.x < kBlock / 4)
      reinterpret_cast<float4 *>(tile)[threadIdx.x] =
          reinterpret_cast<const float4 *>(in + blockIdx.x * kBlock)[threadIdx.x];
    bar.arrive_and_wait();
    sum += tile[(threadIdx.x + 32 * (round + 1)) % kBlock];
    bar.arrive_and_wait();
  }
  out[blockIdx.x * kBlock + threadIdx.x] = sum;
}

__global__ void readBeforeWait(const float *in, float *out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ float tile[kBlock];
  if (threadIdx.x == 0)
    init(&bar, blockDim.x);
  __syncthreads();
  tile[threadIdx.x] = in[threadIdx.x];
  cuda::barrier<cuda::thread_scope_block>::arrival_token token = bar.arrive();
  float early = tile[(threadIdx.x + 32) % kBlock];
  bar.wait(std::move(token));
  out[threadIdx.x] = early;
}

__global__ void handOff(int *out) {
  __shared__ int data[32];
  __shared__ int flag;
  if (threadIdx.x == 0)
    flag = 0;
  __syncthreads();
  cuda::atomic_ref<int, cuda::thread_scope_block> raised(flag);
  if (threadIdx.x >= 32) {
    data[threadIdx.x - 32] = 3 * (threadIdx.x - 32);
    __syncwarp();
    if (threadIdx.x == 32)
      raised.store(1, cuda::memory_order_release);
  } else {
    while (raised.load(cuda::memory_order_acquire) == 0) {
    }
    out[threadIdx.x] = data[threadIdx.x];
  }
}

__global__ void spaces(const int *global, int *answers) {
  __shared__ int shared[1];
  int local = 0;
  answers[0] = __isShared(shared);
  answers[1] = __isGlobal(shared);
  answers[2] = __isGlobal(global);
  answers[3] = __isShared(global);
  answers[4] = __isLocal(&local);
  answers[5] = __isShared(&local);
}

int main() {
  const int blocks = 4, n = blocks * kBlock;
  float *in, *out;
  cudaMallocManaged(&in, n * sizeof(float));
  cudaMallocManaged(&out, n * sizeof(float));
  for (int i = 0; i < n; ++i)
    in[i] = float(i % 97);
  rotate<<<blocks, kBlock>>>(in, out);
  cudaDeviceSynchronize();
  bool ok = true;
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < kBlock; ++t) {
      float sum = 0;
      for (int round = 0; round < kRounds; ++round)
        sum += in[b * kBlock + (t + 32 * (round + 1)) % kBlock];
      ok = ok && out[b * kBlock + t] == sum;
    }
  printf("rotate: %s\n", ok ? "ok" : "WRONG");

  readBeforeWait<<<1, kBlock>>>(in, out);
  cudaDeviceSynchronize();

  int *handed;
  cudaMallocManaged(&handed, 32 * sizeof(int));
  handOff<<<1, 64>>>(handed);
  cudaDeviceSynchronize();
  ok = true;
  for (int i = 0; i < 32; ++i)
    ok = ok && handed[i] == 3 * i;
  printf("hand-off: %s\n", ok ? "ok" : "WRONG");

  int *answers;
  cudaMallocManaged(&answers, 6 * sizeof(int));
  spaces<<<1, 1>>>(handed, answers);
  cudaDeviceSynchronize();
  printf("spaces: %d %d %d %d %d %d\n", answers[0], answers[1], answers[2], answers[3], answers[4],
         answers[5]);
  return 0;
}
