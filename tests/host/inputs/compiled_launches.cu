// Launches written in templates the syntax tree cannot follow: read from the
// compiled host code.
template <int W> __global__ void widthK(float *p) { p[threadIdx.x] = W; }
__global__ void first(float *p) { p[0] = 1; }
__global__ void second(float *p) { p[1] = 2; }

template <int W> void launchWidth(float *p, int n) {
  dim3 block(W, 128 / W);
  widthK<W><<<(n + 127) / 128, block>>>(p);
}

template <typename T> struct Pick {
  void operator()(T *p, int n) const {
    if (false && n < 4)
      launchWidth<4>(p, n);
    else if (n < 64)
      launchWidth<32>(p, n);
    else
      launchWidth<16>(p, n);
  }
};

template <typename T> void runTable(T *p, int which) {
  void (*const table[])(float *) = {first, second};
  table[which % 2]<<<1, 64>>>(p);
}

int count();

int main() {
  float *p;
  cudaMalloc(&p, 4096);
  Pick<float>()(p, count());
  runTable(p, count());
  return 0;
}
