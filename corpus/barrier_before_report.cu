// Each block reverses its slice through shared memory; once every thread has
// written its result, thread 0 prints that the block is done. The second
// barrier orders no memory access, but it orders the output: no block's
// report is printed before all of its threads stored their element, so it is
// not redundant (the twin without the report, redundant_trailing_barrier,
// orders nothing).
__global__ void barrier_before_report(const float *in, float *out, int n) {
  __shared__ float s[1024];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = (i < n) ? in[i] : 0.0f;
  __syncthreads();
  if (i < n)
    out[i] = s[blockDim.x - 1 - threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0)
    printf("block %u reversed\n", blockIdx.x);
}
