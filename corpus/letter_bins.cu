// Letters counted into seven shared bins by (c - 'a') / 4, then added to
// the global counts. The bins are read back after a barrier in the first
// kernel; the second reads them while other warps still add to them.
__global__ void letter_counts(const char *text, int *counts, int n) {
  __shared__ int bins[7];
  if (threadIdx.x < 7)
    bins[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&bins[(text[i] - 'a') / 4], 1);
  __syncthreads();
  if (threadIdx.x < 7)
    atomicAdd(&counts[threadIdx.x], bins[threadIdx.x]);
}

__global__ void letter_counts_early(const char *text, int *counts, int n) {
  __shared__ int bins[7];
  if (threadIdx.x < 7)
    bins[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&bins[(text[i] - 'a') / 4], 1);
  if (threadIdx.x < 7)
    atomicAdd(&counts[threadIdx.x], bins[threadIdx.x]);
}

int main() {
  int n = 1 << 12;
  char *text;
  int *counts;
  cudaMalloc(&text, n);
  cudaMalloc(&counts, 7 * sizeof(int));
  cudaMemset(counts, 0, 7 * sizeof(int));
  letter_counts<<<n / 256, 256>>>(text, counts, n);
  letter_counts_early<<<n / 256, 256>>>(text, counts, n);
  return 0;
}
