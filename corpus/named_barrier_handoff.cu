// Warp-specialised hand-off on a named barrier, as CUTLASS-style kernels do
// it: the first two warps (producers) fill a shared stage and arrive at
// barrier 1 without waiting (bar.arrive); the last two warps (consumers)
// wait there (bar.sync) until all 128 threads arrived, then read the stage.
__global__ void named_barrier_handoff(const float *in, float *out) {
  __shared__ float stage[64];
  unsigned t = threadIdx.x;
  if (t < 64) {
    stage[t] = in[blockIdx.x * 64 + t] * 2.0f;
    asm volatile("bar.arrive 1, 128;" ::: "memory");
  } else {
    asm volatile("bar.sync 1, 128;" ::: "memory");
    out[blockIdx.x * 64 + t - 64] = stage[127 - t];
  }
}

// The same hand-off with the consumers waiting at barrier 2 among
// themselves: nothing orders the producers' writes before their reads.
__global__ void named_barrier_wrong_id(const float *in, float *out) {
  __shared__ float stage[64];
  unsigned t = threadIdx.x;
  if (t < 64) {
    stage[t] = in[blockIdx.x * 64 + t] * 2.0f;
    asm volatile("bar.arrive 1, 128;" ::: "memory");
  } else {
    asm volatile("bar.sync 2, 64;" ::: "memory");
    out[blockIdx.x * 64 + t - 64] = stage[127 - t];
  }
}

// The hand-off with the consumers' barrier removed.
__global__ void named_barrier_no_wait(const float *in, float *out) {
  __shared__ float stage[64];
  unsigned t = threadIdx.x;
  if (t < 64) {
    stage[t] = in[blockIdx.x * 64 + t] * 2.0f;
    asm volatile("bar.arrive 1, 128;" ::: "memory");
  } else {
    out[blockIdx.x * 64 + t - 64] = stage[127 - t];
  }
}
