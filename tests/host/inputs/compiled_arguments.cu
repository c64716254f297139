// A launch in a template reached through a function object, whose
// arguments are constants of main's: read from the compiled host code.
struct Span { float *data; long length; }; // 16 bytes: two lowered arguments

template <int W> __global__ void spread(Span s, int count, float scale) {
  s.data[threadIdx.x % count] = scale * threadIdx.x;
}

template <int W, typename T> inline void launchSpread(Span s, int count) {
  spread<W><<<1, W>>>(s, count, 2.5f);
}

template <typename T> struct Spread {
  void operator()(Span s, int count) const { launchSpread<64, T>(s, count); }
};

int main() {
  float *d;
  cudaMalloc(&d, 1024);
  Spread<int>()(Span{d, 256}, 100);
  return 0;
}
