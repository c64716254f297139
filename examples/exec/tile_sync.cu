// Tile and partial-warp synchronization (issue 20): threads exchange values
// through shared memory within a group smaller than the block, ordered only
// by that group's sync. Each kernel is race-free exactly when the sync
// orders the lanes that take part:
//  - tiles of 4, 8, 16 and 32 from tiled_partition<N>: each thread writes its
//    slot, the tile syncs, and it reads its neighbour's slot in the tile;
//  - coalesced_threads() of the odd lanes of each warp: the same, among them;
//  - __syncwarp(mask) with a per-lane mask naming the lane's half-warp.
// Expected: no finding, and every result checked against the host's.
#include <cooperative_groups.h>
#include <cstdio>

namespace cg = cooperative_groups;

constexpr int kBlock = 128;

template <int N> __global__ void rotateInTiles(const int *in, int *out) {
  __shared__ int slots[kBlock];
  cg::thread_block_tile<N> tile = cg::tiled_partition<N>(cg::this_thread_block());
  int i = blockIdx.x * kBlock + threadIdx.x;
  slots[threadIdx.x] = in[i] * 2;
  tile.sync();
  int base = threadIdx.x - tile.thread_rank();
  out[i] = slots[base + (tile.thread_rank() + 1) % N];
}

__global__ void rotateAmongOddLanes(const int *in, int *out) {
  __shared__ int slots[kBlock];
  int i = blockIdx.x * kBlock + threadIdx.x;
  out[i] = 0;
  if (threadIdx.x % 2 == 1) {
    cg::coalesced_group odd = cg::coalesced_threads();
    slots[threadIdx.x] = in[i] + 1;
    odd.sync();
    unsigned next = (odd.thread_rank() + 1) % odd.size();
    out[i] = slots[threadIdx.x - 2 * odd.thread_rank() + 2 * next];
  }
}

__global__ void rotateInHalfWarps(const int *in, int *out) {
  __shared__ int slots[kBlock];
  int i = blockIdx.x * kBlock + threadIdx.x;
  unsigned lane = threadIdx.x % 32;
  unsigned half = lane < 16 ? 0x0000ffffu : 0xffff0000u;
  slots[threadIdx.x] = in[i] - 3;
  __syncwarp(half);
  unsigned start = threadIdx.x - lane % 16;
  out[i] = slots[start + (lane + 1) % 16];
}

// The host's answer for a rotation by one inside groups of `size` lanes
// (every `stride`-th lane from `first`), with `transform` applied.
template <typename Transform>
int check(const char *name, const int *in, const int *out, int n, int size, int stride, int first,
          Transform transform) {
  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    int lane = i % 32;
    int expected = 0;
    if (lane % stride == first % stride) {
      int rank = (lane / stride) % size;
      int groupStart = i - rank * stride;
      expected = transform(in[groupStart + ((rank + 1) % size) * stride]);
    }
    wrong += out[i] != expected;
  }
  printf("%s: %s\n", name, wrong ? "FAIL" : "ok");
  return wrong;
}

int main() {
  const int blocks = 2, n = blocks * kBlock;
  int *in, *out;
  cudaMallocManaged(&in, n * sizeof(int));
  cudaMallocManaged(&out, n * sizeof(int));
  for (int i = 0; i < n; ++i)
    in[i] = i * 7 + 1;
  int wrong = 0;
  auto twice = [](int v) { return v * 2; };
  rotateInTiles<4><<<blocks, kBlock>>>(in, out);
  cudaDeviceSynchronize();
  wrong += check("tiles of 4", in, out, n, 4, 1, 0, twice);
  rotateInTiles<8><<<blocks, kBlock>>>(in, out);
  cudaDeviceSynchronize();
  wrong += check("tiles of 8", in, out, n, 8, 1, 0, twice);
  rotateInTiles<16><<<blocks, kBlock>>>(in, out);
  cudaDeviceSynchronize();
  wrong += check("tiles of 16", in, out, n, 16, 1, 0, twice);
  rotateInTiles<32><<<blocks, kBlock>>>(in, out);
  cudaDeviceSynchronize();
  wrong += check("tiles of 32", in, out, n, 32, 1, 0, twice);
  rotateAmongOddLanes<<<blocks, kBlock>>>(in, out);
  cudaDeviceSynchronize();
  wrong += check("odd lanes", in, out, n, 16, 2, 1, [](int v) { return v + 1; });
  rotateInHalfWarps<<<blocks, kBlock>>>(in, out);
  cudaDeviceSynchronize();
  wrong += check("half warps", in, out, n, 16, 1, 0, [](int v) { return v - 3; });
  printf("%s\n", wrong ? "FAIL" : "PASS");
  return wrong ? 1 : 0;
}
