// Warp matrix operations (nvcuda::wmma, tensor cores): a tiled GEMM whose
// warps each compute one 16x16 tile of C = alpha * A x B + beta * C, in the
// three shapes of half-precision wmma (16x16x16, 32x8x16, 8x32x16), with
// row- and column-major operands, float and half accumulators, and a
// fragment scaled element by element; then one tile in each of sm_80's
// types (bf16, tf32, double, signed and unsigned 8-bit integers). The
// matrices hold small integers, so every product and sum is exact and the
// output is what any GPU prints. Expected: no finding, every result equal
// to the host's.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>
#include <cstdio>
#include <vector>

using namespace nvcuda;

// C (M x N, row-major floats) = alpha * A (M x K, row-major) x B (K x N,
// column-major) + beta * C; one warp per 16x16 tile.
__global__ void gemm16(const half *a, const half *b, float *c, int M, int N, int K, float alpha,
                       float beta) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int tileRow = warp / (N / 16), tileCol = warp % (N / 16);
  if (tileRow >= M / 16)
    return;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> sum;
  wmma::fill_fragment(sum, 0.0f);
  for (int k = 0; k < K; k += 16) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> x;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> y;
    wmma::load_matrix_sync(x, a + tileRow * 16 * K + k, K);
    wmma::load_matrix_sync(y, b + tileCol * 16 * K + k, K);
    wmma::mma_sync(sum, x, y, sum);
  }
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> old;
  float *tile = c + tileRow * 16 * N + tileCol * 16;
  wmma::load_matrix_sync(old, tile, N, wmma::mem_row_major);
  for (int i = 0; i < sum.num_elements; ++i)
    sum.x[i] = alpha * sum.x[i] + beta * old.x[i];
  wmma::store_matrix_sync(tile, sum, N, wmma::mem_row_major);
}

// One 32x8 tile, half accumulators: A column-major, B row-major, C stored
// column-major.
__global__ void gemm32x8(const half *a, const half *b, half *c) {
  wmma::fragment<wmma::matrix_a, 32, 8, 16, half, wmma::col_major> x;
  wmma::fragment<wmma::matrix_b, 32, 8, 16, half, wmma::row_major> y;
  wmma::fragment<wmma::accumulator, 32, 8, 16, half> sum;
  wmma::fill_fragment(sum, __float2half(1.0f));
  wmma::load_matrix_sync(x, a, 32);
  wmma::load_matrix_sync(y, b, 8);
  wmma::mma_sync(sum, x, y, sum);
  wmma::store_matrix_sync(c, sum, 32, wmma::mem_col_major);
}

// One 8x32 tile: A and B row-major, C accumulated onto itself in place.
__global__ void gemm8x32(const half *a, const half *b, float *c) {
  wmma::fragment<wmma::matrix_a, 8, 32, 16, half, wmma::row_major> x;
  wmma::fragment<wmma::matrix_b, 8, 32, 16, half, wmma::row_major> y;
  wmma::fragment<wmma::accumulator, 8, 32, 16, float> sum;
  wmma::load_matrix_sync(sum, c, 32, wmma::mem_row_major);
  wmma::load_matrix_sync(x, a, 16);
  wmma::load_matrix_sync(y, b, 32);
  wmma::mma_sync(sum, x, y, sum);
  wmma::store_matrix_sync(c, sum, 32, wmma::mem_row_major);
}

// One M x N tile of C = A x B + C in one warp: A row-major, B column-major,
// C row-major; In is the type in memory, Fragment the fragment's.
template <typename In, typename Fragment, typename Acc, int M, int N, int K>
__global__ void tileProduct(const In *a, const In *b, Acc *c) {
  wmma::fragment<wmma::matrix_a, M, N, K, Fragment, wmma::row_major> x;
  wmma::fragment<wmma::matrix_b, M, N, K, Fragment, wmma::col_major> y;
  wmma::fragment<wmma::accumulator, M, N, K, Acc> sum;
  wmma::load_matrix_sync(sum, c, N, wmma::mem_row_major);
  wmma::load_matrix_sync(x, a, K);
  wmma::load_matrix_sync(y, b, K);
  wmma::mma_sync(sum, x, y, sum);
  wmma::store_matrix_sync(c, sum, N, wmma::mem_row_major);
}

// wmma::__float_to_tf32 (PTX cvt.rna.tf32.f32): to 10 mantissa bits, ties
// away from zero.
__global__ void toTf32(const float *in, unsigned *out) {
  out[threadIdx.x] = __float_as_uint(wmma::__float_to_tf32(in[threadIdx.x]));
}

template <typename T> T *deviceCopy(const std::vector<T> &host) {
  T *device;
  cudaMalloc(&device, host.size() * sizeof(T));
  cudaMemcpy(device, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice);
  return device;
}

template <typename T> std::vector<T> hostCopy(const T *device, size_t count) {
  std::vector<T> host(count);
  cudaMemcpy(host.data(), device, count * sizeof(T), cudaMemcpyDeviceToHost);
  return host;
}

// Element (r, c) of a small-integer matrix: -3 .. 3.
float entry(int seed, int r, int c) { return float((r * 5 + c * 3 + r * c + seed) % 7 - 3); }

// One tileProduct in In's type: the number of C's elements that differ from
// the host's product (unsigned inputs are entries + 3).
template <typename In, typename Fragment, typename Acc, int M, int N, int K>
int tileDifferences(In (*convert)(float), bool unsignedInputs) {
  std::vector<In> a(M * K), b(K * N);
  std::vector<Acc> c(M * N);
  auto value = [&](int seed, int r, int col) { return entry(seed, r, col) + (unsignedInputs ? 3 : 0); };
  for (int r = 0; r < M; ++r)
    for (int k = 0; k < K; ++k)
      a[r * K + k] = convert(value(7, r, k));
  for (int k = 0; k < K; ++k)
    for (int col = 0; col < N; ++col)
      b[col * K + k] = convert(value(8, k, col));
  for (int i = 0; i < M * N; ++i)
    c[i] = Acc(i % 9);
  In *da = deviceCopy(a), *db = deviceCopy(b);
  Acc *dc = deviceCopy(c);
  tileProduct<In, Fragment, Acc, M, N, K><<<1, 32>>>(da, db, dc);
  std::vector<Acc> got = hostCopy(dc, c.size());
  int differences = 0;
  for (int r = 0; r < M; ++r)
    for (int col = 0; col < N; ++col) {
      double sum = double(c[r * N + col]);
      for (int k = 0; k < K; ++k)
        sum += double(value(7, r, k)) * double(value(8, k, col));
      differences += double(got[r * N + col]) != sum;
    }
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  return differences;
}

int main() {
  const int M = 48, N = 32, K = 64;
  std::vector<half> a(M * K), b(K * N);
  std::vector<float> c(M * N);
  for (int r = 0; r < M; ++r)
    for (int k = 0; k < K; ++k)
      a[r * K + k] = __float2half(entry(1, r, k));
  for (int k = 0; k < K; ++k)
    for (int col = 0; col < N; ++col)
      b[col * K + k] = __float2half(entry(2, k, col)); // column-major
  for (int i = 0; i < M * N; ++i)
    c[i] = float(i % 5);
  half *da = deviceCopy(a), *db = deviceCopy(b);
  float *dc = deviceCopy(c);
  int warps = (M / 16) * (N / 16);
  gemm16<<<(warps + 3) / 4, 128>>>(da, db, dc, M, N, K, 2.0f, -1.0f);
  std::vector<float> got = hostCopy(dc, c.size());
  int differences = 0;
  for (int r = 0; r < M; ++r)
    for (int col = 0; col < N; ++col) {
      float sum = 0;
      for (int k = 0; k < K; ++k)
        sum += entry(1, r, k) * entry(2, k, col);
      differences += got[r * N + col] != 2.0f * sum - c[r * N + col];
    }
  printf("16x16x16: %d differences of %d, C[5][7] = %g\n", differences, M * N, got[5 * N + 7]);

  // 32x8x16: A 32x16 column-major, B 16x8 row-major.
  std::vector<half> a2(32 * 16), b2(16 * 8);
  for (int r = 0; r < 32; ++r)
    for (int k = 0; k < 16; ++k)
      a2[k * 32 + r] = __float2half(entry(3, r, k));
  for (int k = 0; k < 16; ++k)
    for (int col = 0; col < 8; ++col)
      b2[k * 8 + col] = __float2half(entry(4, k, col));
  half *da2 = deviceCopy(a2), *db2 = deviceCopy(b2), *dc2;
  cudaMalloc(&dc2, 32 * 8 * sizeof(half));
  gemm32x8<<<1, 32>>>(da2, db2, dc2);
  std::vector<half> got2 = hostCopy(dc2, 32 * 8);
  differences = 0;
  for (int r = 0; r < 32; ++r)
    for (int col = 0; col < 8; ++col) {
      float sum = 1;
      for (int k = 0; k < 16; ++k)
        sum += entry(3, r, k) * entry(4, k, col);
      differences += __half2float(got2[col * 32 + r]) != sum;
    }
  printf("32x8x16: %d differences of 256, C[31][0] = %g\n", differences, __half2float(got2[31]));

  // 8x32x16: A 8x16 and B 16x32 row-major, C 8x32 accumulated in place.
  std::vector<half> a3(8 * 16), b3(16 * 32);
  std::vector<float> c3(8 * 32);
  for (int i = 0; i < 8 * 16; ++i)
    a3[i] = __float2half(entry(5, i / 16, i % 16));
  for (int i = 0; i < 16 * 32; ++i)
    b3[i] = __float2half(entry(6, i / 32, i % 32));
  for (int i = 0; i < 8 * 32; ++i)
    c3[i] = float(i);
  half *da3 = deviceCopy(a3), *db3 = deviceCopy(b3);
  float *dc3 = deviceCopy(c3);
  gemm8x32<<<1, 32>>>(da3, db3, dc3);
  std::vector<float> got3 = hostCopy(dc3, 8 * 32);
  differences = 0;
  for (int r = 0; r < 8; ++r)
    for (int col = 0; col < 32; ++col) {
      float sum = c3[r * 32 + col];
      for (int k = 0; k < 16; ++k)
        sum += entry(5, r, k) * entry(6, k, col);
      differences += got3[r * 32 + col] != sum;
    }
  printf("8x32x16: %d differences of 256, C[7][31] = %g\n", differences, got3[7 * 32 + 31]);

  printf("bf16 16x16x16: %d differences\n",
         tileDifferences<__nv_bfloat16, __nv_bfloat16, float, 16, 16, 16>(
             [](float v) { return __float2bfloat16(v); }, false));
  printf("bf16 32x8x16: %d differences\n",
         tileDifferences<__nv_bfloat16, __nv_bfloat16, float, 32, 8, 16>(
             [](float v) { return __float2bfloat16(v); }, false));
  printf("tf32 16x16x8: %d differences\n",
         tileDifferences<float, wmma::precision::tf32, float, 16, 16, 8>([](float v) { return v; },
                                                                         false));
  printf("double 8x8x4: %d differences\n",
         tileDifferences<double, double, double, 8, 8, 4>([](float v) { return double(v); }, false));
  printf("s8 16x16x16: %d differences\n",
         tileDifferences<signed char, signed char, int, 16, 16, 16>(
             [](float v) { return (signed char)v; }, false));
  std::vector<float> ties = {1.0f + 1.0f / 2048, 1.0f + 3.0f / 2048, -1.0f - 1.0f / 2048, 3.0f};
  float *dTies = deviceCopy(ties);
  unsigned *dBits;
  cudaMalloc(&dBits, ties.size() * sizeof(unsigned));
  toTf32<<<1, unsigned(ties.size())>>>(dTies, dBits);
  std::vector<unsigned> bits = hostCopy(dBits, ties.size());
  printf("tf32 rounding: %08x %08x %08x %08x\n", bits[0], bits[1], bits[2], bits[3]);
  cudaFree(dTies);
  cudaFree(dBits);
  printf("u8 8x32x16: %d differences\n",
         tileDifferences<unsigned char, unsigned char, int, 8, 32, 16>(
             [](float v) { return (unsigned char)v; }, true));
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  cudaFree(da2);
  cudaFree(db2);
  cudaFree(dc2);
  cudaFree(da3);
  cudaFree(db3);
  cudaFree(dc3);
  return 0;
}
