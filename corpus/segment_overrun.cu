// Each launch smooths one segment of a long array: out[i] = in[i] + in[i + 1]
// for every i < n. The host launches it once per segment, moving both
// pointers by the loop variable; the last segment's last thread reads one
// element past the allocation (the earlier ones read their neighbour's
// first element, which is in bounds). Simulee reads the site at the loop's
// last iteration, where the allocation has n floats left.

__global__ void smooth_segment(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] + in[i + 1];
}

int main() {
  const int segments = 4, n = 1024;
  float *in, *out;
  cudaMalloc(&in, segments * n * sizeof(float));
  cudaMalloc(&out, segments * n * sizeof(float));
  for (int s = 0; s < segments; ++s) {
    int first = s * n;
    smooth_segment<<<n / 256, 256>>>(&in[first], &out[first], n);
  }
  cudaDeviceSynchronize();
  return 0;
}
