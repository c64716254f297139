// Threads whose staged value is non-zero copy it one slot up, where the
// neighbour reads its own value in the same barrier interval: a race that
// only non-zero data exposes.
__global__ void guarded_by_data(const int *in, int *out, int n) {
  __shared__ int s[1025];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = (i < n) ? in[i] : 0;
  __syncthreads();
  if (s[threadIdx.x] != 0)
    s[threadIdx.x + 1] = s[threadIdx.x];
  __syncthreads();
  if (i < n)
    out[i] = s[threadIdx.x];
}
