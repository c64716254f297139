// The host sizes the dynamic shared memory for the block it launches with
// (threads floats, 16 threads), but the kernel adds slot tid + 16, written for
// blocks of at least 32 threads: every launch the program makes reads past
// the shared memory it was given. The size and the block are the site's, so
// the read is the program's out-of-bounds bug, never a launch to skip.

__global__ void pair_sums(const float *in, float *out, int n) {
  extern __shared__ float buffer[];
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + tid;
  buffer[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  if (tid < 16 && i < n)
    out[i] = buffer[tid] + buffer[tid + 16];
}

int readCount();

int main() {
  int n = readCount();
  int threads = 16;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  pair_sums<<<(n + threads - 1) / threads, threads, threads * sizeof(float)>>>(in, out, n);
  cudaDeviceSynchronize();
  return 0;
}
