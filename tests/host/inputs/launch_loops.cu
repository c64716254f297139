// Launch values main computes with loops of its own before the launch.
#include <iostream>

__global__ void banks(unsigned *d, unsigned long mask, int stride) {
  extern __shared__ unsigned words[];
  for (unsigned long i = threadIdx.x; i <= mask; i += blockDim.x)
    words[i] = d[i];
  __syncthreads();
  d[threadIdx.x] = words[(threadIdx.x * stride) & mask];
}

void adjust(int &value) { value += 1; }

int main() {
  int stride = 0, requested = 0;
  std::cin >> stride >> requested;
  if (stride < 1 || stride > 32 || requested < 1)
    return 1;
  // Rounded up to a power of two, then doubled until 256 threads fit.
  unsigned long words = 1;
  while (words < (unsigned long)requested)
    words <<= 1;
  const unsigned long need = 255ul * stride + 16;
  if (words < need) {
    while (words < need)
      words <<= 1;
  }
  unsigned *d = nullptr;
  cudaMalloc(&d, words * sizeof(unsigned));
  banks<<<1, 256, words * sizeof(unsigned)>>>(d, words - 1, stride);
  // A loop that changes two variables, and one passed by reference after:
  // neither value is read.
  int blocks = 1, rounds = 0;
  while (blocks < requested) {
    blocks *= 2;
    ++rounds;
  }
  banks<<<blocks, 32, 128>>>(d, 31, rounds);
  int threads = 32;
  for (int i = 0; i < stride; ++i)
    threads += 32;
  adjust(threads);
  banks<<<1, threads, 128>>>(d, 31, 1);
  cudaFree(d);
  return 0;
}
