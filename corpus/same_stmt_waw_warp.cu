// Eight lanes of the warp store to each of four shared slots in one
// lockstep step: a write-write race within a single statement.
__global__ void same_stmt_waw_warp(float *out) {
  __shared__ float s[4];
  unsigned tid = threadIdx.x;
  s[tid % 4] = (float)tid;
  out[blockIdx.x * blockDim.x + tid] = s[tid % 4];
}
