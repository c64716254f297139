// segment_overrun's twin: the host allocates one element more than the
// segments hold, so the last segment's read of its neighbour stays inside
// the allocation. Clean in every launch the loop makes.

__global__ void smooth_segment(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] + in[i + 1];
}

int main() {
  const int segments = 4, n = 1024;
  float *in, *out;
  cudaMalloc(&in, (segments * n + 1) * sizeof(float));
  cudaMalloc(&out, segments * n * sizeof(float));
  for (int s = 0; s < segments; ++s)
    smooth_segment<<<n / 256, 256>>>(in + s * n, out + s * n, n);
  cudaDeviceSynchronize();
  return 0;
}
