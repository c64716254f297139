// Each block reverses its tile of the input through shared memory, one slot
// per thread modulo MAX_TILE: race-free in blocks of at most MAX_TILE
// threads, while in a wider block two threads would share a slot. The
// program's option parser exits on --threads outside [32, MAX_TILE] before it
// returns the options, which reach the launch through a measuring function
// and a launcher: every launch the program can make is race-free.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#define MAX_TILE 256

__global__ void tile_reverse(const float *in, float *out, int n) {
  __shared__ float tile[MAX_TILE];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x % MAX_TILE] = i < n ? in[i] : 0.0f;
  __syncthreads();
  if (i < n)
    out[i] = tile[(blockDim.x - 1 - threadIdx.x) % MAX_TILE];
}

struct Options {
  int threads = 128;
  int n = 1 << 16;
  int repeats = 3;
};

Options parse(int argc, char **argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--threads") == 0)
      o.threads = std::atoi(argv[i + 1]);
    else if (std::strcmp(argv[i], "--n") == 0)
      o.n = std::atoi(argv[i + 1]);
    else if (std::strcmp(argv[i], "--repeats") == 0)
      o.repeats = std::atoi(argv[i + 1]);
  }
  if (o.threads < 32 || o.threads > MAX_TILE) {
    std::fprintf(stderr, "--threads must be in [32, %d]\n", MAX_TILE);
    std::exit(2);
  }
  if (o.n < 1 || o.repeats < 1)
    throw std::invalid_argument("--n and --repeats must be positive");
  return o;
}

void launch(const Options &o, const float *in, float *out) {
  tile_reverse<<<(o.n + o.threads - 1) / o.threads, o.threads>>>(in, out, o.n);
}

void measure(const Options &o, const float *in, float *out) {
  for (int r = 0; r < o.repeats; ++r)
    launch(o, in, out);
  cudaDeviceSynchronize();
}

int main(int argc, char **argv) {
  const Options o = parse(argc, argv);
  float *in, *out;
  cudaMalloc(&in, o.n * sizeof(float));
  cudaMalloc(&out, o.n * sizeof(float));
  measure(o, in, out);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
