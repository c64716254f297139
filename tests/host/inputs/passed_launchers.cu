// Launchers reached the ways benchmark programs reach them: a timing
// template forwarding its arguments (a forwarding reference changes nothing),
// a launcher passed by name to the function that calls it, and a launch
// inside a generic lambda handed to a block-size dispatcher. For
// CallSiteReaderTest.
#include <type_traits>
#include <utility>

template <int Threads> __global__ void rowScale(float *rows, int count, int width) {
  int row = blockIdx.x;
  if (row < count && threadIdx.x < Threads)
    rows[row * width + threadIdx.x] *= 2.0f;
}

__global__ void clearRows(float *rows, int count, int width) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count * width)
    rows[i] = 0.0f;
}

template <class Body> void byBlockSize(Body &&body, int threads) {
  switch (threads) {
  case 64:
    return body(std::integral_constant<int, 64>{});
  case 128:
    return body(std::integral_constant<int, 128>{});
  }
}

void launchScale(float *rows, int count, int width, int threads) {
  auto launch = [&](auto size) {
    rowScale<size.value><<<count, size.value>>>(rows, count, width);
  };
  byBlockSize(launch, threads);
}

void launchClear(float *rows, int count, int width, int threads) {
  clearRows<<<(count * width + threads - 1) / threads, threads>>>(rows, count, width);
}

template <class Step>
void pass(float *rows, int count, int width, Step step, int threads) {
  launchClear(rows, count, width, threads);
  step(rows, count, width, threads);
}

template <class Launcher, class... Args> float timed(int repeats, Launcher launcher, Args &&...args) {
  for (int i = 0; i < repeats; ++i)
    launcher(std::forward<Args>(args)...);
  return 0.0f;
}

int main() {
  int count = 300, width = 96, threads = 128;
  float *rows;
  cudaMalloc(&rows, count * width * sizeof(float));
  pass(rows, count, width, launchScale, threads);
  timed(10, launchClear, rows, count, width, threads);
  return 0;
}
