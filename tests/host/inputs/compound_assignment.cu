// Integers changed by compound assignments (`n *= 1024`) before launches,
// and a kernel template whose last argument is deduced, for
// CallSiteReaderTest.
#include <cstdlib>
#include <cstring>

template <int Threads, typename Scale>
__global__ void scan(int n, Scale scale, float *d) {}

template <typename Scale>
void run(int steps, int n, Scale scale, float *d) {
  const int threads = 256;
  scan<threads><<<steps - 1, threads>>>(n, scale, d);
}

int main(int argc, char **argv) {
  int steps = 100, n = 32, shift = 3;
  for (int i = 1; i < argc; ++i)
    if (!strcmp(argv[i], "-n"))
      n = atoi(argv[++i]);
  n *= 1024;
  steps -= 36;
  float *d;
  cudaMalloc(&d, steps * n * sizeof(float));
  run(steps, n, 2.0f, d);
  n <<= shift;
  n += 1;
  run(steps, n, 2.0f, d);
  if (rand() % 2)
    n /= 2; // only sometimes: not known
  run(steps, n, 2.0f, d);
  return 0;
}
