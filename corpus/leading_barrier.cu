// A barrier as the kernel's first statement (a habit copied from code that
// once reset shared memory there): nothing is accessed before it in any
// block, so it orders nothing and can go. The second barrier is needed.

__global__ void leading_barrier(const float *in, float *out, int n) {
  __shared__ float s[1024];
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = (i < n) ? in[i] : 0.0f;
  __syncthreads();
  if (i < n)
    out[i] = s[blockDim.x - 1 - threadIdx.x];
}
