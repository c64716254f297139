// Pointers the host stores in memory a kernel's pointer argument points to:
// inside structs (through a pointer or a reference) and in an array of row
// pointers. The host fills them with memory it allocated, so the search backs
// each with memory of its own, never random bytes (which would be wild
// pointers, and reports about them false). shift_tally reads the slot its
// right neighbour writes through tally->counts in the same barrier interval:
// a race. scale_tally and scale_rows touch only their own slots: race-free.

struct Tally {
  int unused;
  float *counts;
  const float *weights;
};

__global__ void shift_tally(Tally *tally, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n)
    tally->counts[i] = tally->weights[i] + tally->counts[i + 1];
}

__global__ void scale_tally(Tally &tally, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    tally.counts[i] = tally.weights[i] * 2.0f;
}

__global__ void scale_rows(float **rows, int n, int width) {
  int r = blockIdx.x;
  for (int c = threadIdx.x; r < n && c < width; c += blockDim.x)
    rows[r][c] *= 2.0f;
}
