// A kernel that launches a kernel: clang has no CUDA device runtime.
__global__ void child(int *data) { data[threadIdx.x] = 1; }
__global__ void parent(int *data) {
  if (threadIdx.x == 0)
    child<<<1, 32>>>(data);
}
