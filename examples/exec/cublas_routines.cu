// More of cuBLAS under simulee exec: double precision, transposition by geam,
// gemv, pointer arrays, the CUDA 10 spelling of GemmEx's compute type, a
// captured stream, and the errors a GPU's cuBLAS answers: a leading
// dimension too small, a matrix past its allocation, a freed matrix, a
// device scalar in host pointer mode and a destroyed handle (each also a
// finding). Every value is a small integer,
// so the output is a GPU's.
#include <cublas_v2.h>
#include <cstdio>
#include <vector>

// Doubles every element: a kernel reading what cuBLAS wrote.
__global__ void twice(double *x, int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count)
    x[i] *= 2;
}

int main() {
  const int m = 3, n = 4;
  std::vector<double> a(m * n), y(m, 1);
  for (int i = 0; i < m * n; ++i)
    a[i] = i; // column-major 3 x 4: A(i, j) = i + 3 j
  double *da, *dt, *dx, *dy;
  cudaMalloc(&da, sizeof(double) * m * n);
  cudaMalloc(&dt, sizeof(double) * m * n);
  cudaMalloc(&dx, sizeof(double) * n);
  cudaMalloc(&dy, sizeof(double) * m);
  cudaMemcpy(da, a.data(), sizeof(double) * m * n, cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y.data(), sizeof(double) * m, cudaMemcpyHostToDevice);
  cublasHandle_t handle;
  cublasCreate(&handle);

  // T = A^T (4 x 3), then doubled by a kernel.
  double one = 1, zero = 0;
  cublasDgeam(handle, CUBLAS_OP_T, CUBLAS_OP_N, n, m, &one, da, m, &zero, nullptr, n, dt, n);
  twice<<<1, 32>>>(dt, m * n);
  std::vector<double> t(m * n);
  cudaMemcpy(t.data(), dt, sizeof(double) * m * n, cudaMemcpyDeviceToHost);
  printf("geam: T(1, 2) = %g\n", t[1 + 2 * n]); // 2 A(2, 1) = 10

  // y = A x + 2 y, with x = (1, 1, 1, 1).
  std::vector<double> ones(n, 1);
  cublasSetVector(n, sizeof(double), ones.data(), 1, dx, 1);
  double two = 2;
  cublasDgemv(handle, CUBLAS_OP_N, m, n, &one, da, m, dx, 1, &two, dy, 1);
  cublasGetVector(m, sizeof(double), dy, 1, y.data(), 1);
  printf("gemv: %g %g %g\n", y[0], y[1], y[2]); // 18+2 22+2 26+2

  // Two 2 x 2 products through device arrays of pointers: C_i = A_i A_i.
  float hostA[2][4] = {{1, 2, 3, 4}, {0, 1, 1, 0}};
  float *pa[2], *pc[2];
  for (int i = 0; i < 2; ++i) {
    cudaMalloc(&pa[i], sizeof hostA[i]);
    cudaMalloc(&pc[i], sizeof hostA[i]);
    cudaMemcpy(pa[i], hostA[i], sizeof hostA[i], cudaMemcpyHostToDevice);
  }
  float **dpa, **dpc;
  cudaMalloc(&dpa, sizeof pa);
  cudaMalloc(&dpc, sizeof pc);
  cudaMemcpy(dpa, pa, sizeof pa, cudaMemcpyHostToDevice);
  cudaMemcpy(dpc, pc, sizeof pc, cudaMemcpyHostToDevice);
  float fone = 1, fzero = 0;
  cublasSgemmBatched(handle, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &fone, dpa, 2, dpa, 2, &fzero, dpc,
                     2, 2);
  float c0[4], c1[4];
  cudaMemcpy(c0, pc[0], sizeof c0, cudaMemcpyDeviceToHost);
  cudaMemcpy(c1, pc[1], sizeof c1, cudaMemcpyDeviceToHost);
  printf("batched: %g %g %g %g | %g %g %g %g\n", c0[0], c0[1], c0[2], c0[3], c1[0], c1[1], c1[2],
         c1[3]);

  // The compute type named by a data type (CUDA 10), on a captured stream.
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  cublasSetStream(handle, stream);
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
  cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &fone, pa[1], CUDA_R_32F, 2, pa[0],
               CUDA_R_32F, 2, &fzero, pc[0], CUDA_R_32F, 2, CUDA_R_32F, CUBLAS_GEMM_DEFAULT);
  cudaStreamEndCapture(stream, &graph);
  cudaMemcpy(c0, pc[0], sizeof c0, cudaMemcpyDeviceToHost);
  printf("captured, not yet run: %g\n", c0[0]);
  cudaGraphInstantiate(&exec, graph, 0);
  cudaGraphLaunch(exec, stream);
  cudaStreamSynchronize(stream);
  cudaMemcpy(c0, pc[0], sizeof c0, cudaMemcpyDeviceToHost);
  printf("graph: %g %g %g %g\n", c0[0], c0[1], c0[2], c0[3]);
  cublasSetStream(handle, 0);

  // Errors: each status as cuBLAS gives it.
  cublasStatus_t small = cublasDgemv(handle, CUBLAS_OP_N, m, n, &one, da, 2, dx, 1, &zero, dy, 1);
  cublasStatus_t past = cublasDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n + 1, m, &one, da, m, da,
                                    m, &zero, dt, m);
  cudaFree(dx);
  cublasStatus_t freed = cublasDgemv(handle, CUBLAS_OP_N, m, n, &one, da, m, dx, 1, &zero, dy, 1);
  double *dTwo; // a device scalar while the pointer mode is the host's
  cudaMalloc(&dTwo, sizeof(double));
  cudaMemcpy(dTwo, &two, sizeof(double), cudaMemcpyHostToDevice);
  cublasStatus_t wrongMode = cublasDscal(handle, m, dTwo, dy, 1);
  cublasDestroy(handle);
  cublasStatus_t destroyed = cublasDscal(handle, m, &two, dy, 1);
  printf("%s %s %s\n%s %s\n", cublasGetStatusName(small), cublasGetStatusName(past),
         cublasGetStatusName(freed), cublasGetStatusName(wrongMode),
         cublasGetStatusName(destroyed));
  return 0;
}
