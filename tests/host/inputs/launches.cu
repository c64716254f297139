// Launches for CallSiteReaderTest; the line numbers are in the test.
#define THREADS 128
constexpr int kWarp = 32;

__global__ void scale(float *data, int n, float factor) {}
template <int BLOCK, typename T> __global__ void fill(T *data, int n, int half) {}
__global__ void cooperative(int *flags, int count) {}

int sizeFromUser();

int main() {
  int n = sizeFromUser();
  const int rows = 8;
  float *data;
  int *flags;
  scale<<<(n + THREADS - 1) / THREADS, THREADS>>>(data, n, 2.5f);
  dim3 block(kWarp, rows / 2);
  dim3 grid(n / kWarp, 3);
  fill<64, float><<<grid, block, n * sizeof(float)>>>(data, n, n / 2);
  int changed = 4;
  changed += n;
  scale<<<changed, 1 << 5>>>(data, changed, 1.0f);
  void *args[] = {&flags, &n};
  cudaLaunchCooperativeKernel((void *)cooperative, dim3(2), dim3(kWarp * 2), args, 0, 0);
  scale<<<max(1, min(n / 32, 64)), 32>>>(data, n, 0.5f);
  return 0;
}
