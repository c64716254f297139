// Every thread stages its element one slot past its own in an 8-slot tile:
// whatever the launch, the stores land outside the static array. No launch
// the search can make is within the kernel's size contract, so none can be
// judged: the kernel must come out inconclusive, never clean.
__global__ void tile_past_end(const float *in, float *out, int n) {
  __shared__ float tile[8];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x + 8] = (i < n) ? in[i] : 0.0f;
  __syncthreads();
  if (i < n)
    out[i] = tile[threadIdx.x % 8];
}
