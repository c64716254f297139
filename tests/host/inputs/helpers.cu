// One-line helpers and ceil() computing a launch's grid, for
// CallSiteReaderTest; the launches are in the order the test reads them.
template <typename T> inline T div_up(T a, T b) {
  return (a + b - 1) / b;
  // a comment
}
inline int iDivUp(int a, int b) { return (a % b != 0) ? (a / b + 1) : (a / b); }
int twice(int v) { int w = v; return 2 * w; }
__global__ void k(float *d, unsigned n) {}
unsigned sizeFromUser();
int main() {
  unsigned n = sizeFromUser();
  float *d;
  dim3 block(256);
  dim3 grid(div_up(n, block.x));
  k<<<grid, block>>>(d, n);
  k<<<iDivUp(n, 128), 128>>>(d, n);
  k<<<twice(n), 128>>>(d, n);
  k<<<ceil((float)n / 64), 64>>>(d, n);
  k<<<ceil(n / 32.0), 32>>>(d, n);
  k<<<ceil(n / 2.5), 32>>>(d, n);
}
