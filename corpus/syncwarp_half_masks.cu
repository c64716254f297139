// Each half of a warp (16 lanes, as tiled_partition<16> splits it) rotates
// values among its own lanes, separated by __syncwarp with the half's own
// member mask: lanes 0-15 name 0x0000ffff, lanes 16-31 name 0xffff0000.
// Each group meets on its own, so the reads see the writes: race-free.

__global__ void rotate_halves(const int *in, int *out) {
  __shared__ int slots[256];
  unsigned int half = threadIdx.x & 16;
  unsigned int members = 0xffffu << half;
  unsigned int base = threadIdx.x & ~15u;
  slots[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncwarp(members);
  out[blockIdx.x * blockDim.x + threadIdx.x] = slots[base + ((threadIdx.x + 1) & 15)];
}
