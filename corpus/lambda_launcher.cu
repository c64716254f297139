// Two kernels that stage WIDTH elements per block in shared memory and read
// a neighbour's slot: race-free in blocks of WIDTH threads, while in wider
// blocks two threads would share a slot. The program launches window_sum
// only through a generic lambda, and window_diff only through the pointer
// kernelFor hands back; both always in blocks of WIDTH threads.
#define WIDTH 128

__global__ void window_sum(const int *in, int *out, int n) {
  __shared__ int slot[WIDTH];
  int i = blockIdx.x * WIDTH + threadIdx.x;
  slot[threadIdx.x % WIDTH] = i < n ? in[i] : 0;
  __syncthreads();
  int left = slot[(threadIdx.x + WIDTH - 1) % WIDTH];
  if (i < n)
    out[i] = left + slot[threadIdx.x % WIDTH];
}

__global__ void window_diff(const int *in, int *out, int n) {
  __shared__ int slot[WIDTH];
  int i = blockIdx.x * WIDTH + threadIdx.x;
  slot[threadIdx.x % WIDTH] = i < n ? in[i] : 0;
  __syncthreads();
  int right = slot[(threadIdx.x + 1) % WIDTH];
  if (i < n)
    out[i] = right - slot[threadIdx.x % WIDTH];
}

using Window = void (*)(const int *, int *, int);

Window kernelFor(bool differences) {
  if (differences)
    return window_diff;
  return nullptr;
}

int sizeFromInput(int argc, char **argv);

int main(int argc, char **argv) {
  int n = sizeFromInput(argc, argv);
  int *in, *out;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&out, n * sizeof(int));
  auto launch = [&](auto kernel) { kernel<<<(n + WIDTH - 1) / WIDTH, WIDTH>>>(in, out, n); };
  launch(window_sum);
  Window chosen = kernelFor(argc > 1);
  if (chosen)
    chosen<<<(n + WIDTH - 1) / WIDTH, WIDTH>>>(in, out, n);
  cudaDeviceSynchronize();
  return 0;
}
