// A kernel pointer chosen in a switch on a launcher's parameter, launched
// with a grid from a global dim3 table a setup function fills; a table of
// three stages of which a loop launches two. For CallSiteReaderTest.
__global__ void narrow(float *o) {}
__global__ void wide(float *o) {}
__global__ void unused(float *o) {}
__global__ void first(float *o) {}
__global__ void second(float *o) {}
__global__ void third(float *o) {}

void (*const stages[])(float *) = {first, second, third};

dim3 grids[3];

void setup() {
  grids[0] = dim3(8);
  grids[1] = dim3(4, 2);
}

void launch(int mode, float *o) {
  void (*kernel)(float *) = nullptr;
  switch (mode) {
  case 0:
    kernel = narrow;
    break;
  case 1:
    kernel = wide;
    break;
  case 2:
    kernel = unused;
    break;
  }
  kernel<<<grids[mode], 64 * (mode + 1)>>>(o);
}

int main() {
  float *o = nullptr;
  setup();
  launch(0, o);
  launch(1, o);
  for (int s = 0; s < 2; ++s)
    stages[s]<<<1, 32 * (s + 1)>>>(o);
  return 0;
}
