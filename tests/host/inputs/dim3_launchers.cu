// Launch shapes passed to launcher functions and methods as dim3s.
#include <cstdlib>

__global__ void fill(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] = 1.0f;
}

void run(dim3 grid, dim3 block, float *d, int n) { fill<<<grid, block>>>(d, n); }
void outer(dim3 grid, float *d, int n) { run(grid, dim3(128), d, n); }

struct Launcher {
  void launch(void *kernel, dim3 grid, dim3 block, void **args) {
    cudaLaunchKernel(kernel, grid, block, args, 0, 0);
  }
};

int main(int argc, char **argv) {
  int n = std::atoi(argv[1]);
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  run(dim3((n + 255) / 256), dim3(256), d, n);
  outer(dim3((n + 127) / 128), d, n);
  Launcher launcher;
  void *args[] = {&d, &n};
  launcher.launch((void *)fill, dim3(8, 2), dim3(32, 4), args);
  return 0;
}
