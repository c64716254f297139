// Threads write data[i] then read the element 32 away (another warp's)
// without __syncthreads: a read-write race in global memory.
__global__ void global_missing_barrier(const float *in, float *data, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  data[i] = in[i] * 2.0f;
  out[i] = data[i ^ 32];
}
