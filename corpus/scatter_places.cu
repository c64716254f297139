// Scatters: each thread stores at the place a buffer gives it. Places the
// kernel only stores to are kept apart by its callers (a permutation, an
// order computed before); places it reads and writes back, as a histogram
// does, may repeat, and then a plain update races.
__global__ void place_at(const int *place, const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[place[i]] = in[i] * 2.0f;
}

__global__ void add_at(const int *bin, const float *weight, float *sum, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    sum[bin[i]] += weight[i];
}
