// A row kernel whose block size is a template argument, launched the way
// benchmark programs launch their variants: main hands the launcher to a
// step function and to a timing template that forwards its arguments, and
// the launcher dispatches the block size through a generic lambda. Each
// block writes whole chunks of BlockSize columns of its row, so a width
// that is not a multiple of BlockSize would spill into the next row (a race
// between blocks); the program's width, 128, never does.
#include <type_traits>
#include <utility>

template <int BlockSize>
__global__ void scaleRows(const float *in, float *out, int rows, int width) {
  int row = blockIdx.x;
  if (row >= rows)
    return;
  int chunks = (width + BlockSize - 1) / BlockSize;
  for (int chunk = 0; chunk < chunks; ++chunk) {
    int col = chunk * BlockSize + threadIdx.x;
    float value = in[row * width + min(col, width - 1)];
    out[row * width + col] = 2.0f * value;
  }
}

template <class Body> void withBlockSize(Body &&body, int blockSize) {
  switch (blockSize) {
  case 32:
    return body(std::integral_constant<int, 32>{});
  case 64:
    return body(std::integral_constant<int, 64>{});
  }
}

void launchScale(const float *in, float *out, int rows, int width, int blockSize) {
  auto launch = [&](auto size) {
    scaleRows<size.value><<<rows, size.value>>>(in, out, rows, width);
  };
  withBlockSize(launch, blockSize);
}

template <class Step>
void step(const float *in, float *out, int rows, int width, Step run, int blockSize) {
  run(in, out, rows, width, blockSize);
}

template <class Launcher, class... Args> void timed(int repeats, Launcher launcher, Args &&...args) {
  for (int i = 0; i < repeats; ++i)
    launcher(std::forward<Args>(args)...);
}

int main() {
  int rows = 8, width = 128, blockSize = 64;
  float *in, *out;
  cudaMalloc(&in, rows * width * sizeof(float));
  cudaMalloc(&out, rows * width * sizeof(float));
  step(in, out, rows, width, launchScale, blockSize);
  timed(10, launchScale, in, out, rows, width, blockSize);
  return 0;
}
