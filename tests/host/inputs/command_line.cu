// Values the program takes from its command line, with defaults: read as
// the program runs without arguments.
#include <cstdlib>
#include <unistd.h>

__global__ void offsetAdd(float *a, int offset, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x + offset;
  if (i < n)
    a[i] += 1.0f;
}

__global__ void scaled(float *a, int n, int times) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] *= times;
}

bool hasFlag(int argc, char **argv, const char *flag);
int flagValue(int argc, char **argv, const char *flag);

int main(int argc, char **argv) {
  int n = 1 << 12;
  int offset = 0;
  if (argc >= 2)
    offset = atoi(argv[1]);
  int times = argc > 2 ? atoi(argv[2]) : 3;
  int threads = 128;
  if (hasFlag(argc, argv, "threads"))
    threads = flagValue(argc, argv, "threads");
  int opt;
  int blocksWanted = 0;
  while ((opt = getopt(argc, argv, "b:")) != -1)
    blocksWanted = atoi(optarg);
  for (int i = 1; i < argc; ++i)
    n = atoi(argv[i]);
  int unknown = 7;
  if (n > 100 && hasFlag(argc, argv, "x"))
    unknown = 1;
  int shift = 2;
  if (argc > 3 && argv[3][0] == 'x')
    threads = 64;
  else
    shift = 4;

  float *a;
  cudaMalloc(&a, n * sizeof(float));
  offsetAdd<<<n / threads, threads>>>(a, offset, n);
  scaled<<<blocksWanted + n / threads, threads>>>(a, n, times * unknown);
  scaled<<<n / threads, threads>>>(a, times, times << shift);
  return 0;
}
