// cuBLAS under simulee exec: a program that checks its own kernels against
// cuBLAS, as benchmark programs do. The values are small integers, so every
// sum is exact and the output is the one a GPU prints. One bug: the last
// Sgemm accumulates (beta = 1) into a matrix nothing initialized.
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cstdio>
#include <vector>

#define N 8

// C = A B, row-major, one thread per element.
__global__ void matmulRowMajor(const float *a, const float *b, float *c, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n && col < n) {
    float sum = 0;
    for (int k = 0; k < n; ++k)
      sum += a[row * n + k] * b[k * n + col];
    c[row * n + col] = sum;
  }
}

// Counts the elements where two results differ.
__global__ void countDifferences(const float *x, const float *y, int count, int *differences) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count && x[i] != y[i])
    atomicAdd(differences, 1);
}

int main() {
  std::vector<float> a(N * N), b(N * N);
  for (int i = 0; i < N * N; ++i) {
    a[i] = float(i % 5 - 2);
    b[i] = float(i % 3);
  }
  float *da, *db, *dc, *dRef;
  int *dDiff;
  cudaMalloc(&da, sizeof(float) * N * N);
  cudaMalloc(&db, sizeof(float) * N * N);
  cudaMalloc(&dc, sizeof(float) * N * N);
  cudaMalloc(&dRef, sizeof(float) * N * N);
  cudaMalloc(&dDiff, sizeof(int));
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return 1;
  cublasSetMatrix(N, N, sizeof(float), a.data(), N, da, N);
  cudaMemcpy(db, b.data(), sizeof(float) * N * N, cudaMemcpyHostToDevice);

  // Row-major A B is column-major B A: the usual way to call cuBLAS.
  float one = 1, zero = 0;
  cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, &one, db, N, da, N, &zero, dRef, N);
  matmulRowMajor<<<dim3(1, 1), dim3(N, N)>>>(da, db, dc, N);
  cudaMemset(dDiff, 0, sizeof(int));
  countDifferences<<<1, N * N>>>(dc, dRef, N * N, dDiff);
  int differences = -1;
  cudaMemcpy(&differences, dDiff, sizeof(int), cudaMemcpyDeviceToHost);
  printf("sgemm against the kernel: %d differences\n", differences);

  // Transposes: (A^T B^T)^T = B A, read back with cublasGetMatrix.
  cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_T, N, N, N, &one, da, N, db, N, &zero, dc, N);
  std::vector<float> c(N * N);
  cublasGetMatrix(N, N, sizeof(float), dc, N, c.data(), N);
  float expected = 0;
  for (int k = 0; k < N; ++k)
    expected += a[k + 1 * N] * b[2 + k * N]; // (A^T B^T)(1, 2) = sum of A(k, 1) B(2, k)
  printf("transposed: %g (expected %g)\n", c[1 + 2 * N], expected);

  // Half inputs, float result, four products strided in one call.
  std::vector<__half> h(4 * N * N);
  for (int i = 0; i < 4 * N * N; ++i)
    h[i] = __float2half(float(i % 7 - 3));
  __half *dh;
  float *dBatch;
  cudaMalloc(&dh, sizeof(__half) * 4 * N * N);
  cudaMalloc(&dBatch, sizeof(float) * 4 * N * N);
  cudaMemcpy(dh, h.data(), sizeof(__half) * 4 * N * N, cudaMemcpyHostToDevice);
  cublasGemmStridedBatchedEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, &one, dh, CUDA_R_16F, N,
                             N * N, dh, CUDA_R_16F, N, N * N, &zero, dBatch, CUDA_R_32F, N, N * N,
                             4, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  std::vector<float> batch(4 * N * N);
  cudaMemcpy(batch.data(), dBatch, sizeof(float) * 4 * N * N, cudaMemcpyDeviceToHost);
  float last = 0;
  for (int k = 0; k < N; ++k)
    last += __half2float(h[3 * N * N + 5 + k * N]) * __half2float(h[3 * N * N + k + 6 * N]);
  printf("batched half: %g (expected %g)\n", batch[3 * N * N + 5 + 6 * N], last);

  // Level 1, results on the host and on the device.
  float two = 2, dot = 0;
  cublasSaxpy(handle, N * N, &two, da, 1, db, 1); // b += 2 a
  cublasSdot(handle, N, db, N, db, N, &dot);      // first row of b, squared
  int largest = 0;
  cublasIsamax(handle, N * N, db, 1, &largest);
  float *dNorm;
  cudaMalloc(&dNorm, sizeof(float));
  cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE);
  cublasSnrm2(handle, 4, da, 1, dNorm);
  cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST);
  float norm = 0;
  cudaMemcpy(&norm, dNorm, sizeof(float), cudaMemcpyDeviceToHost);
  printf("dot %g, isamax %d, nrm2 %g\n", dot, largest, norm);

  // The bug: dAcc was never written, and beta = 1 reads it.
  float *dAcc;
  cudaMalloc(&dAcc, sizeof(float) * N * N);
  cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, &one, da, N, db, N, &one, dAcc, N);

  cublasDestroy(handle);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  cudaFree(dRef);
  cudaFree(dDiff);
  cudaFree(dh);
  cudaFree(dBatch);
  cudaFree(dNorm);
  cudaFree(dAcc);
  return 0;
}
