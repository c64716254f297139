// nvcc's command line and macros (issue 20): host code parallelised with
// OpenMP fills the input and checks the result, as many programs do. Built
// as a Makefile would build it with nvcc:
//   simulee exec openmp_host.cu -std=c++17 -Xcompiler -fopenmp,-Wall -arch=sm_80 -lineinfo
// (expect.json's "options"): -std and -Xcompiler reach the compiler,
// -fopenmp links clang's OpenMP runtime, the code-generation flags change
// nothing. `#if __CUDACC__` and __CUDACC_VER_MAJOR__ preprocess as under
// nvcc. Expected: no finding, and the program's own check passes.
#include <cstdio>
#include <omp.h>
#include <vector>

#if __CUDACC__ && __CUDACC_VER_MAJOR__ >= 12
constexpr int kScale = 3;
#else
constexpr int kScale = -1; // would fail the check below
#endif

__global__ void scale(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * kScale;
}

int main() {
  const int n = 1 << 14;
  std::vector<float> in(n), out(n);
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    in[i] = float(i % 97);
  float *dIn, *dOut;
  cudaMalloc(&dIn, n * sizeof(float));
  cudaMalloc(&dOut, n * sizeof(float));
  cudaMemcpy(dIn, in.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  scale<<<(n + 255) / 256, 256>>>(dIn, dOut, n);
  cudaMemcpy(out.data(), dOut, n * sizeof(float), cudaMemcpyDeviceToHost);
  int wrong = 0;
#pragma omp parallel for reduction(+ : wrong)
  for (int i = 0; i < n; ++i)
    wrong += out[i] != in[i] * 3;
  if (auto standard = __cplusplus; standard < 201703L)
    wrong = -1;
  printf("openmp threads > 0: %d\n", omp_get_max_threads() > 0);
  printf("%s\n", wrong ? "FAIL" : "PASS");
  return wrong ? 1 : 0;
}
