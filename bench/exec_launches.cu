// simulee exec on a program that makes 200 launches of 4M threads (issue 18:
// under 60 s, and the report says how many launches were fully checked):
//
//   /usr/bin/time build/simulee exec bench/exec_launches.cu
//   /usr/bin/time build/simulee exec bench/exec_launches.cu --check-all
//
// The program checks its own result, as a GPU run would: every launch runs
// whole, the first three fully checked, the rest with light checks.
#include <cstdio>
#include <vector>

__global__ void axpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

int main() {
  const int n = 1 << 22, launches = 200;
  std::vector<float> host(n, 1.0f);
  float *x, *y;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cudaMemcpy(x, host.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(y, host.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  for (int k = 0; k < launches; ++k)
    axpy<<<n / 256, 256>>>(0.5f, x, y, n);
  cudaMemcpy(host.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost);
  bool ok = host[0] == 1.0f + 0.5f * launches && host[n - 1] == host[0];
  std::printf("%s: y = %g after %d launches\n", ok ? "PASSED" : "FAILED", host[0], launches);
  return ok ? 0 : 1;
}
