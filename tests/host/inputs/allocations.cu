// Allocations for CallSiteReaderTest; the line numbers are in the test.
__global__ void shift(const float *in, float *out, int n) {}
__global__ void tabled(float *data, int n) {}
__global__ void unlaunched(float *data, int n) {}

int sizeFromUser();

int main() {
  int n = sizeFromUser();
  const int fixed = 64;
  float *in, *out, *other, *swapped;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc((void **)&out, fixed * sizeof(float));
  cudaMalloc(&swapped, 16);
  swapped = other;
  shift<<<(n + 127) / 128, 128>>>(in, out, n);
  shift<<<1, 32>>>(out, swapped, fixed);
  void (*table[])(float *, int) = {tabled};
  table[0]<<<1, 32>>>(in, n);
  float *cast; // as NVIDIA's samples allocate
  cudaMalloc(reinterpret_cast<void **>(&cast), 2 * fixed * sizeof(float));
  shift<<<1, 32>>>(reinterpret_cast<const float *>(cast), out, fixed);
#if 0
  unlaunched<<<1, 32>>>(in, n);
#endif
  return 0;
}
