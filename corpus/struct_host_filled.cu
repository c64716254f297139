// Launch parameters passed as one struct that the host fills before the
// launches: its pointers come from cudaMalloc (n floats each), its count is
// n and its step 1. Simulee reads those members at the call sites, so the
// kernels are judged with the host's values and allocations, as the program
// runs them.

struct Work {
  const float *in;
  float *out;
  int n;
  int step;
};

// Reads the right neighbour of every element: the last thread reads one
// float past the host's allocation of n floats for `in`.
__global__ void shift_members(Work w) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < w.n)
    w.out[i] = w.in[i + 1];
}

// Writes out[(i * step) % n]: a permutation of the slots when step and n
// share no factor. The host passes step 1, so no two threads write one slot;
// a step of 2 with an even n would be a race, but no launch of this program
// has one.
__global__ void permute_by_step(Work w) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < w.n)
    w.out[(i * w.step) % w.n] = w.in[i];
}

int main() {
  const int n = 1000;
  Work w;
  cudaMalloc(&w.in, n * sizeof(float));
  cudaMalloc(&w.out, n * sizeof(float));
  w.n = n;
  w.step = 1;
  shift_members<<<(n + 255) / 256, 256>>>(w);
  Work v = {w.in, w.out, n, 1};
  permute_by_step<<<(n + 255) / 256, 256>>>(v);
  cudaDeviceSynchronize();
  return 0;
}
