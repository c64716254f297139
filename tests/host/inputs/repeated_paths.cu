// One launcher reached through several chains of calls: each chain that
// passes the same values reads the same launch, which is one site; a chain
// passing other values reads another. A call whose value only the plain
// run fixes (no command-line arguments) takes every branch.
#include <cstdlib>
__global__ void halve(float *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] *= 0.5f;
}

__global__ void negate(float *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = -data[i];
}

void launch(float *data, int n, int which) {
  switch (which) {
  case 0:
    halve<<<(n + 127) / 128, 128>>>(data, n);
    break;
  default:
    negate<<<(n + 63) / 64, 64>>>(data, n);
    break;
  }
}

void launchEither(float *data, int n, bool wide) {
  if (wide)
    halve<<<n / 256, 256>>>(data, n);
  else
    negate<<<n / 32, 32>>>(data, n);
}

void repeat(float *data, int which) {
  for (int round = 0; round < 3; ++round)
    launch(data, 4096, which);
  // The same launch whichever `which` this call passes.
  halve<<<4096 / 512, 512>>>(data, 4096);
}

int main(int argc, char **argv) {
  float *data;
  cudaMalloc(&data, 4096 * sizeof(float));
  repeat(data, 0);
  repeat(data, 1);
  launch(data, 1024, 0);
  launchEither(data, 2048, true);
  int chosen = argc > 1 ? atoi(argv[1]) : 0;
  launch(data, 512, chosen);
  cudaDeviceSynchronize();
  return 0;
}
