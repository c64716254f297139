// A counter that wraps before it can go negative: the loop never ends, in
// any launch. Every launch is stopped by the instruction budget, so nothing
// is judged and the verdict is inconclusive (non-terminating).
__global__ void spin_forever(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int k = 0;
  while (k >= 0)
    k = (k + 1) & 0xffff;
  if (i < n)
    out[i] = float(k);
}
