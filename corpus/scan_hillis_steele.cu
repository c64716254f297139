// Inclusive scan per block (Hillis-Steele), ping-ponging between two shared
// buffers. Race-free: reads and writes of one step use different buffers.
__global__ void scan_hillis_steele(const float *in, float *out, int n) {
  __shared__ float buf[2][1024];
  unsigned tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int cur = 0;
  buf[0][tid] = (i < n) ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned off = 1; off < blockDim.x; off *= 2) {
    int nxt = 1 - cur;
    if (tid >= off)
      buf[nxt][tid] = buf[cur][tid] + buf[cur][tid - off];
    else
      buf[nxt][tid] = buf[cur][tid];
    cur = nxt;
    __syncthreads();
  }
  if (i < n)
    out[i] = buf[cur][tid];
}
