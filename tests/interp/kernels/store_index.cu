// One store per thread: out[i] = i over the whole grid, every word written
// once by its own thread (the shape of the memory benchmark's launches).
__global__ void storeIndex(int *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = int(i);
}
