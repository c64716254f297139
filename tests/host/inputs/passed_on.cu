// A launcher and a kernel each passed on from one function to the next, for
// CallSiteReaderTest.
__global__ void halve(float *out, const float *in, int n) {}
__global__ void square(float *p, int n) {}

int reduce(float *out, float *in, int n) {
  halve<<<n / 256, 256>>>(out, in, n);
  return n / 2;
}

void repeat(int (*step)(float *, float *, int), float *out, float *in, int n) {
  step(out, in, n);
}

void bench(int (*step)(float *, float *, int), float *out, float *in, int n) {
  step(out, in, n);          // two buffers
  repeat(step, out, out, n); // in place, through a second function
}

typedef void (*Kernel)(float *, int);
void launch(Kernel kernel, float *p, int n) { kernel<<<n / 128, 128>>>(p, n); }
void forward(Kernel kernel, float *p, int n) { launch(kernel, p, n); }

int main() {
  int n = 4096;
  float *a, *b;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  bench(reduce, a, b, n);
  forward(square, a, 1024);
  return 0;
}
