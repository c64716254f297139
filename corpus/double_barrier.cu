// Reversal through shared memory with the barrier written twice. Either one
// can go; removing both lets the reads race with the stores. The pair must
// be reported once, as a group of which only one can go.
__global__ void double_barrier(const float *in, float *out, int n) {
  __shared__ float s[1024];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = (i < n) ? in[i] : 0.0f;
  __syncthreads();
  __syncthreads();
  if (i < n)
    out[i] = s[blockDim.x - 1 - threadIdx.x];
}
