// Reverses the elements of each block through shared memory. Race-free.
__global__ void reverse_shared(const float *in, float *out, int n) {
  __shared__ float s[1024];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = (i < n) ? in[i] : 0.0f;
  __syncthreads();
  if (i < n)
    out[i] = s[blockDim.x - 1 - threadIdx.x];
}
