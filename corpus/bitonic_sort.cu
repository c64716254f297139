// Sorts 2 * blockDim.x keys in one block with a bitonic network. Each thread
// loads two keys and owns one comparator (pos, pos + stride) per step; the
// comparators of a step are disjoint. Race-free.
#define BIG 3.0e38f
__global__ void bitonic_sort(const float *in, float *out, int n) {
  __shared__ float s[3072];
  unsigned tid = threadIdx.x;
  unsigned half = blockDim.x;
  unsigned m = 2 * half;
  s[tid] = (tid < n) ? in[tid] : BIG;
  s[tid + half] = (tid + half < n) ? in[tid + half] : BIG;
  for (unsigned size = 2; size <= m; size <<= 1) {
    for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
      __syncthreads();
      unsigned pos = 2 * tid - (tid & (stride - 1));
      bool ascending = (tid & (size / 2)) == 0;
      float a = s[pos];
      float b = s[pos + stride];
      if ((a > b) == ascending) {
        s[pos] = b;
        s[pos + stride] = a;
      }
    }
  }
  __syncthreads();
  if (tid < n)
    out[tid] = s[tid];
  if (tid + half < n)
    out[tid + half] = s[tid + half];
}
