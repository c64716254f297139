// Host arrays filled element by element, then copied to the device.
__global__ void place(const int *start, const int *weight, const float *scale, int *out, int n) {
  out[threadIdx.x] = start[threadIdx.x % n] + weight[0] + int(scale[0]);
}

int main() {
  const int n = 4;
  int stride = 256;
  int *h_start = new int[n];
  int h_weight[8];
  float h_scale[8];
  for (int i = 0; i < n; ++i)
    h_start[i] = i * stride + 3;
  for (int k = 0; k < 8; k++) {
    h_weight[k] = rand() % 7;
    h_scale[k] = k * 0.5f;
  }
  int *start, *weight, *out;
  float *scale;
  cudaMalloc(&start, n * sizeof(int));
  cudaMalloc(&weight, 8 * sizeof(int));
  cudaMalloc(&scale, 8 * sizeof(float));
  cudaMalloc(&out, 64 * sizeof(int));
  cudaMemcpy(start, h_start, n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(weight, h_weight, sizeof(h_weight), cudaMemcpyHostToDevice);
  cudaMemcpy(scale, h_scale, sizeof(h_scale), cudaMemcpyHostToDevice);
  place<<<1, 64>>>(start, weight, scale, out, n);
  for (int i = 0; i < n; ++i)
    h_start[i] = n - i;
  place<<<1, 64>>>(start, weight, scale, out, n);
  cudaMemcpy(start, h_start, n * sizeof(int), cudaMemcpyHostToDevice);
  place<<<1, 64>>>(start, weight, scale, out, n);
  return 0;
}
