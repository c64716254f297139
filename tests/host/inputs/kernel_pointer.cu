// A kernel pointer assigned in a loop, for CallSiteReaderTest.
__global__ void copy(float *o, const float *i, int n) {}
__global__ void flip(float *o, const float *i, int n) {}

int main() {
  float *o, *i;
  void (*kernel)(float *, const float *, int);
  for (int k = 0; k < 2; ++k) {
    if (k == 0)
      kernel = &copy;
    else
      kernel = flip;
    kernel<<<4, 64>>>(o, i, 256);
  }
  return 0;
}
