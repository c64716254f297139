// The single-pass reduction (issue 20, "Fences"): each block sums its part
// into partial[blockIdx.x], fences, and takes a ticket with atomicInc; the
// block that takes the last ticket adds up every partial sum and resets the
// counter. The fence orders each block's partial write before its ticket,
// and the last block's ticket comes after every other: its reads are
// ordered after the writes (DESIGN.md, the fence rule). Expected: no
// finding. Without the __threadfence() (line 27) the partial sums would
// race with the last block's reads.
#include <cstdio>

constexpr int kBlock = 128;
__device__ unsigned int ticketsTaken = 0;

__global__ void sumAll(const float *in, float *partial, float *total, int n) {
  __shared__ float sums[kBlock];
  __shared__ bool isLast;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  sums[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half)
      sums[threadIdx.x] += sums[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = sums[0];
    __threadfence();
    unsigned int ticket = atomicInc(&ticketsTaken, gridDim.x);
    isLast = ticket == gridDim.x - 1;
  }
  __syncthreads();
  if (isLast && threadIdx.x == 0) {
    float sum = 0.0f;
    for (unsigned b = 0; b < gridDim.x; ++b)
      sum += partial[b];
    *total = sum;
    ticketsTaken = 0;
  }
}

int main() {
  const int n = 1000, blocks = (n + kBlock - 1) / kBlock;
  float *in, *partial, *total;
  cudaMallocManaged(&in, n * sizeof(float));
  cudaMallocManaged(&partial, blocks * sizeof(float));
  cudaMallocManaged(&total, sizeof(float));
  for (int i = 0; i < n; ++i)
    in[i] = float(i % 10);
  for (int round = 0; round < 2; ++round) {
    sumAll<<<blocks, kBlock>>>(in, partial, total, n);
    cudaDeviceSynchronize();
    printf("round %d: total %.0f\n", round, *total);
  }
  bool ok = *total == 4500.0f;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
