// Launchers kept in lambdas, and kernels a function hands back.
enum class Mode { kRead, kWrite };

__global__ void fill(int *p, int n) {}
__global__ void twice(int *p, int n) {}
__global__ void thrice(int *p, int n) {}
template <Mode M> __global__ void stream(int *p, int n) {}
__global__ void unused(int *p, int n) {}

using Kernel = void (*)(int *, int);

Kernel kernelFor(Mode mode) {
  switch (mode) {
  case Mode::kRead:
    return stream<Mode::kRead>;
  case Mode::kWrite:
    return stream<Mode::kWrite>;
  }
  return nullptr;
}

int main(int argc, char **argv) {
  const int n = 1000;
  int *d;
  cudaMalloc(&d, n * sizeof(int));
  // A lambda whose parameter is the grid.
  auto run = [&](int blocks) { fill<<<blocks, 256>>>(d, n); };
  run(4);
  // A generic lambda handed kernels (its label unused).
  auto bench = [&](auto kernel, const char *label) { kernel<<<8, 128>>>(d, n); };
  bench(twice, "twice");
  bench(thrice, "thrice");
  // A pointer a function returns.
  Kernel chosen = kernelFor(argc > 1 ? Mode::kWrite : Mode::kRead);
  chosen<<<2, 512>>>(d, n);
  return 0;
}
