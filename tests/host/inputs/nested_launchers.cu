// Launchers calling launchers, as benchmark programs dispatch a kernel
// version: main passes the sizes to forward(), which passes them on to the
// launcher of the version asked for, which launches. For CallSiteReaderTest.
#include <cstdlib>

__global__ void rows(float *out, int n, int width) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i * width] = 1.0f;
}

void launchRows(float *out, int n, int width, int threads) {
  rows<<<(n + threads - 1) / threads, threads>>>(out, n, width);
}

void forward(int version, float *out, int n, int width, int threads) {
  switch (version) {
  case 1:
    launchRows(out, n, width, threads);
    break;
  }
}

int main(int argc, char **argv) {
  int batch = 8, tokens = 64, width = 768;
  int version = argc > 1 ? atoi(argv[1]) : 1;
  float *out;
  cudaMalloc(&out, batch * tokens * width * sizeof(float));
  forward(version, out, batch * tokens, width, 128);
  forward(version, out, batch * tokens, width, 256);
  return 0;
}
