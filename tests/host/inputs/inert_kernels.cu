// Kernels handed to functions, for CallSiteReaderTest: those only measured
// or configured (occupancy and attribute calls of the runtime, directly or
// through the program's own functions) are not named as kernels the program
// may launch; one passed on to a launch, or stored, is.
typedef void (*Kernel)(float *);

__global__ void measured(float *d) {}
__global__ void configured(float *d) {}
__global__ void forwarded(float *d) {}
__global__ void stored(float *d) {}

Kernel saved;

template <typename K> void report(K kernel) {
  int minGrid = 0, block = 0;
  cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, kernel, 0, 0);
}
void run(Kernel k, float *d) { k<<<1, 32>>>(d); }
void outer(Kernel k, float *d) { run(k, d); }
void keep(Kernel k) { saved = k; }

int main() {
  float *d;
  cudaMalloc(&d, 128);
  report(measured);
  cudaFuncSetAttribute(configured, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024);
  outer(forwarded, d);
  keep(stored);
  return 0;
}
