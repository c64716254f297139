// One kernel, two launches: in place with offset 0 (each thread reads and
// writes its own element) and with offset 1 (threads read what their
// neighbours write: a race). Only the second site exposes it.
__global__ void shift_add(float *data, int n, int offset) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + offset < n)
    data[i] = data[i] + data[i + offset];
}

int sizeFromUser();

int main() {
  int n = sizeFromUser();
  float *data;
  cudaMalloc(&data, n * sizeof(float));
  shift_add<<<(n + 127) / 128, 128>>>(data, n, 0);
  shift_add<<<(n + 127) / 128, 128>>>(data, n, 1);
  return 0;
}
