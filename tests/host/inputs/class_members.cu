// Launches in methods read the fields their object's constructor set.
#include <cstdlib>

__global__ void step(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] += 1.0f;
}

class Solver {
public:
  Solver(int size) : n(size) { cudaMalloc(&d, size * sizeof(float)); }
  void run() { step<<<(n + 255) / 256, 256>>>(d, n); }

private:
  int n;
  float *d;
};

__global__ void fill2d(float *d, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  d[y * width + x] = 0.0f;
}

struct Grid {
  Grid(int w, int h) {
    width = w;
    this->height = h * 2;
    cudaMalloc(&d, width * height * sizeof(float));
  }
  void clear() { fill2d<<<dim3(width / 16, height / 16), dim3(16, 16)>>>(d, width, height); }
  int width, height;
  float *d;
};

class Resized {
public:
  Resized(int size) : n(size) { cudaMalloc(&d, 8192 * sizeof(float)); }
  void run() { step<<<(n + 255) / 256, 128>>>(d, n); }
  void resize(int m);

private:
  int n;
  float *d;
};

int main(int argc, char **argv) {
  int n = std::atoi(argv[1]);
  if (n < 1024)
    return 1;
  Solver s(n);
  s.run();
  Solver t(4096);
  t.run();
  Solver *heap = new Solver(8192);
  heap->run();
  // A size no guard reads: a leaf of its own.
  int unchecked = std::atoi(argv[2]);
  Solver loose(unchecked);
  loose.run();
  Grid g(64, 32);
  g.clear();
  Resized r(2048);
  r.resize(8192);
  r.run();
  return 0;
}

// Defined after main: the field is still one the program changes.
void Resized::resize(int m) { n = m; }
