// The program's main for split_kernels.cu, in a file of its own: it calls
// the launcher directly (once with a float where an int is expected) and
// through a function pointer.
void runScale(float *data, int n, int factor);

void timed(void (*run)(float *, int, int), float *data, int n) { run(data, n, 5); }

int main() {
  float *data;
  cudaMalloc(&data, 4096 * sizeof(float));
  runScale(data, 4096, 3);
  timed(runScale, data, 2048);
  float elements = 1024;
  runScale(data, elements, 2);
  cudaDeviceSynchronize();
  return 0;
}
