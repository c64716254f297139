// An extern "C" kernel (unmangled symbol) with a __device__ counter that
// keeps its value across launches on a GPU unless the harness resets it.
__device__ int launches = 5;

extern "C" __global__ void count_launch(int *seen, double scale, long long offset) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    seen[0] = launches;
    launches = launches + 1;
    seen[1] = (int)(scale * 2.0) + (int)offset;
  }
}
