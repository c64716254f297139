// Conditions around a launcher's call, for CallSiteReaderTest: the launch
// sits in a function whose caller asserts, exits early and loops.
#include <cassert>
#include <cstdlib>
__global__ void step(float *d, int n, int stride) {}

static void runStep(float *d, int n, int stride) { step<<<1, 32>>>(d, n, stride); }

void sortAll(float *d, int n) {
  if (n % 32 != 0)
    exit(1);
  assert(n <= 4096);
  for (int stride = 2; stride < n; stride *= 2)
    runStep(d, n, stride);
}
