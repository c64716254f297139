// Each thread of a block scatters its element into a dynamic shared table
// at a stride, masking the slot to the table, and reads its neighbour's slot
// after the barrier. The host sizes the table with loops of its own: the
// request rounded up to a power of two, then doubled until 256 threads at the
// stride fit. In that launch no two threads share a slot; a smaller table,
// which the program never makes, would wrap two threads onto one.
#include <iostream>

__global__ void scatter_banks(const unsigned *in, unsigned *out, unsigned long mask,
                              int stride) {
  extern __shared__ unsigned table[];
  table[(threadIdx.x * stride) & mask] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = table[(((threadIdx.x + 1) % blockDim.x) * stride) & mask];
}

int main() {
  int stride = 0, requested = 0;
  std::cin >> stride >> requested;
  if (stride < 1 || stride > 32 || requested < 1 || requested > (1 << 14))
    return 1;
  unsigned long words = 1;
  while (words < (unsigned long)requested)
    words <<= 1;
  const unsigned long need = 255ul * stride + 1;
  while (words < need)
    words <<= 1;
  unsigned *in, *out;
  cudaMalloc(&in, 256 * sizeof(unsigned));
  cudaMalloc(&out, 256 * sizeof(unsigned));
  scatter_banks<<<1, 256, words * sizeof(unsigned)>>>(in, out, words - 1, stride);
  cudaDeviceSynchronize();
  return 0;
}
