// The device heap: malloc/free and new/delete inside kernels. heap_scratch
// gives each thread a scratch array of its own (race-free). heap_block_buffer
// shares one new[] array per block through a __shared__ pointer and reverses
// values through it without a barrier between the writes (line 31) and the
// reads of other threads' slots (line 32): a race. heap_use_after_free reads
// its allocation after freeing it (line 43): undefined behaviour.

__global__ void heap_scratch(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int *scratch = (int *)malloc(8 * sizeof(int));
  if (!scratch)
    return;
  for (int k = 0; k < 8; ++k)
    scratch[k] = in[i] + k;
  int sum = 0;
  for (int k = 0; k < 8; ++k)
    sum += scratch[k];
  out[i] = sum;
  free(scratch);
}

__global__ void heap_block_buffer(int *out) {
  __shared__ int *buffer;
  if (threadIdx.x == 0)
    buffer = new int[blockDim.x];
  __syncthreads();
  if (!buffer)
    return;
  buffer[threadIdx.x] = int(threadIdx.x) * 3;
  out[blockIdx.x * blockDim.x + threadIdx.x] = buffer[blockDim.x - 1 - threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0)
    delete[] buffer;
}

__global__ void heap_use_after_free(int *out) {
  int *value = new int;
  *value = int(threadIdx.x);
  int copy = *value;
  delete value;
  out[threadIdx.x] = copy + *value;
}
