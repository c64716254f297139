// Each block writes its slice of buf, syncs, and reads the next block's
// slice. __syncthreads orders nothing across blocks: the read races with
// the other block's write, and within a block the barrier orders nothing.
__global__ void global_interblock_rw(const float *in, float *buf, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int total = gridDim.x * blockDim.x;
  buf[i] = in[i];
  __syncthreads();
  out[i] = buf[(i + blockDim.x) % total];
}
