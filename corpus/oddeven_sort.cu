// Odd-even transposition sort of blockDim.x keys per block: in each phase
// thread t compares keys 2t+p and 2t+p+1 (p = phase parity). Race-free.
__global__ void oddeven_sort(const float *in, float *out, int n) {
  __shared__ float s[1024];
  unsigned tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[tid] = (i < n) ? in[i] : 3.0e38f;
  __syncthreads();
  for (unsigned phase = 0; phase < blockDim.x; ++phase) {
    unsigned j = 2 * tid + (phase & 1);
    if (j + 1 < blockDim.x) {
      float a = s[j];
      float b = s[j + 1];
      if (a > b) {
        s[j] = b;
        s[j + 1] = a;
      }
    }
    __syncthreads();
  }
  if (i < n)
    out[i] = s[tid];
}
