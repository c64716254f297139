// Reverses each block's elements through dynamic shared memory sized
// blockDim.x floats at launch. Race-free.
__global__ void reverse_dynamic_shared(const float *in, float *out, int n) {
  extern __shared__ float dyn[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  dyn[threadIdx.x] = (i < n) ? in[i] : 0.0f;
  __syncthreads();
  if (i < n)
    out[i] = dyn[blockDim.x - 1 - threadIdx.x];
}
