// Launch settings a program parses into a struct and checks before it
// returns it; the struct reaches the launches as it is, through launcher
// functions and a lambda.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

constexpr int kMaxThreads = 256;

__global__ void fill(float *d, int n, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < iters; ++k)
    if (i < n)
      d[i] = float(k);
}

struct Options {
  int threads = 128;
  int n = 1 << 20;
  int iters = 10;
  int unchecked = 4;
};

Options parse(int argc, char **argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--threads") == 0)
      o.threads = std::atoi(argv[i + 1]);
    else if (std::strcmp(argv[i], "--n") == 0)
      o.n = std::atoi(argv[i + 1]);
    else if (std::strcmp(argv[i], "--iters") == 0)
      o.iters = std::atoi(argv[i + 1]);
    else
      o.unchecked = std::atoi(argv[i + 1]);
  }
  if (o.threads < 32 || o.threads > kMaxThreads || o.threads % 32 != 0) {
    std::fprintf(stderr, "bad --threads\n");
    std::exit(2);
  }
  if (o.iters < 1)
    throw std::invalid_argument("--iters must be positive");
  // Checked, then changed: the check says nothing of what is returned.
  if (o.unchecked > 8)
    std::exit(2);
  o.unchecked *= 2;
  if (o.n < 1024 || o.n > (1 << 24))
    std::exit(2);
  return o;
}

// Two returns: the guards hold only on the path through them.
Options parseLoosely(int argc, char **argv) {
  Options o;
  if (argc < 2)
    return o;
  o.iters = std::atoi(argv[1]);
  if (o.iters < 1)
    std::exit(2);
  return o;
}

void launch(const Options &o, float *d) {
  fill<<<(o.n + o.threads - 1) / o.threads, o.threads>>>(d, o.n, o.iters);
}

void measure(const Options &o, float *d) {
  for (int r = 0; r < 3; ++r)
    launch(o, d);
}

int main(int argc, char **argv) {
  const Options o = parse(argc, argv);
  float *d = nullptr;
  cudaMalloc(&d, sizeof(float) * (1 << 24));
  // Read where it is written, through two launchers, and in a lambda.
  fill<<<(o.n + o.threads - 1) / o.threads, o.threads>>>(d, o.n, o.unchecked);
  measure(o, d);
  const int half = o.n / 2;
  if (half % 1024 != 0)
    return 1;
  auto run = [&](int iters) { fill<<<half / o.threads, o.threads>>>(d, half, iters); };
  run(o.iters);
  const Options loose = parseLoosely(argc, argv);
  fill<<<1, 32>>>(d, 32, loose.iters);
  cudaFree(d);
  return 0;
}
