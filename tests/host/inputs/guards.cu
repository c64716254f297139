// Conditions around launches, for CallSiteReaderTest; lines are in the test.
#include <cassert>
#include <cstdlib>
__global__ void step(float *d, int n, int stride) {}

int sizeFromUser();

int main() {
  int n = sizeFromUser();
  float *d;
  if (n % 32 != 0) {
    exit(1);
  }
  assert(n <= 4096);
  for (int stride = 2; stride < n; stride *= 2)
    step<<<1, 32>>>(d, n, stride);
  if (n > 64)
    step<<<2, 32>>>(d, n, 1);
  else
    step<<<3, 32>>>(d, n, 1);
  return 0;
}
