// Pointers passed inside a struct by value: the search gives each pointer
// member memory of its own, as a pointer parameter gets, so the kernels are
// judged on what they do with that memory (not inconclusive, not a wild
// pointer). smooth_pairs reads its right neighbour's output slot, which a
// thread of another warp writes in the same barrier interval: a race.
// copy_pairs touches only its own slots: race-free.

struct Pair {
  const float *in;
  float *out;
};

__global__ void smooth_pairs(Pair io, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n)
    io.out[i] = io.in[i] + io.out[i + 1];
}

__global__ void copy_pairs(Pair io, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    io.out[i] = io.in[i] * 2.0f;
}
