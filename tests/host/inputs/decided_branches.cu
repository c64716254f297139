// Branches the program's constants decide, for CallSiteReaderTest: a launch
// in a branch no run takes is none, and what the taken branch assigns is
// the value at the launch.
#include <cstdlib>

__global__ void rows(float *d, int n) {}
__global__ void tiles(float *d, int n) {}

int main(int argc, char **argv) {
  const int batch = 32;
  const int width = 512;
  float *d;
  cudaMalloc(&d, batch * width * sizeof(float));
  dim3 grid, block;
  if (width <= 256)
    block.x = 256;
  else if (width <= 512)
    block.x = 512;
  else
    block.x = 1024;
  int n;
  if (argc > 1)
    n = atoi(argv[1]);
  else
    n = width;
  if (batch <= 4) {
    grid.x = batch * width;
    rows<<<grid, block>>>(d, n);
  } else {
    grid.x = batch;
    tiles<<<grid, block>>>(d, n);
  }
  return 0;
}
