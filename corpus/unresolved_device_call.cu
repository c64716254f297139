// Kernels calling a __device__ function defined in no file given to the
// analysis: its result is a value the search chooses per launch (noted in the
// verdict), and the kernel is still analysed.
extern __device__ float weightOf(int index);
extern __device__ void trace(int index);

// Each thread weights its element, then reads its neighbour's without a
// barrier: a race whatever weightOf returns.
__global__ void weightedShift(const float *in, float *out, int n) {
  __shared__ float tile[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  tile[t] = i < n ? in[i] * weightOf(i) : 0.0f;
  trace(i);
  if (i < n)
    out[i] = tile[(t + 1) % blockDim.x];
}

// The same with the barrier in place: race-free.
__global__ void weightedShiftSynced(const float *in, float *out, int n) {
  __shared__ float tile[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  tile[t] = i < n ? in[i] * weightOf(i) : 0.0f;
  trace(i);
  __syncthreads();
  if (i < n)
    out[i] = tile[(t + 1) % blockDim.x];
}
