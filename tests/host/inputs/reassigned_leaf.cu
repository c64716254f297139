// A size nothing is known of until a later assignment bounds it from below.
#include <algorithm>
#include <cstdlib>

__global__ void wrap(int *data, size_t mask) {}

size_t roundDown(size_t requested);

int main(int argc, char **argv) {
  size_t bytes = roundDown(strtoull(argv[1], nullptr, 10));
  bytes = std::max(bytes, size_t(4096));
  int *d;
  cudaMalloc(&d, bytes);
  wrap<<<1, 256>>>(d, bytes / sizeof(int) - 1);
  wrap<<<1, 256>>>(d, bytes);
  return 0;
}
