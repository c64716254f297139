// cuRAND's host API under simulee exec: a device generator fills buffers a
// kernel then reads (uniform and normal numbers), a host generator fills the
// program's memory, a seed repeats its sequence, and an odd count of normal
// numbers is refused as cuRAND refuses it (a finding). The statistics
// printed hold for any generator of these distributions, a GPU's included.
#include <curand.h>
#include <cmath>
#include <cstdio>

#define COUNT (1 << 16)

// Sums the numbers and counts those in (0, 1].
__global__ void summarize(const float *x, int n, float *sum, float *squares, int *inUnit) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(sum, x[i]);
    atomicAdd(squares, x[i] * x[i]);
    if (x[i] > 0.0f && x[i] <= 1.0f)
      atomicAdd(inUnit, 1);
  }
}

struct Summary {
  float sum, squares;
  int inUnit;
};

Summary summarizeOnDevice(const float *data, float *dSum, float *dSquares, int *dInUnit) {
  cudaMemset(dSum, 0, sizeof(float));
  cudaMemset(dSquares, 0, sizeof(float));
  cudaMemset(dInUnit, 0, sizeof(int));
  summarize<<<COUNT / 256, 256>>>(data, COUNT, dSum, dSquares, dInUnit);
  Summary s;
  cudaMemcpy(&s.sum, dSum, sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(&s.squares, dSquares, sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(&s.inUnit, dInUnit, sizeof(int), cudaMemcpyDeviceToHost);
  return s;
}

int main() {
  float *data, *dSum, *dSquares;
  int *dInUnit;
  cudaMalloc(&data, COUNT * sizeof(float));
  cudaMalloc(&dSum, sizeof(float));
  cudaMalloc(&dSquares, sizeof(float));
  cudaMalloc(&dInUnit, sizeof(int));
  curandGenerator_t generator;
  curandCreateGenerator(&generator, CURAND_RNG_PSEUDO_DEFAULT);
  curandSetPseudoRandomGeneratorSeed(generator, 1234ULL);

  curandGenerateUniform(generator, data, COUNT);
  Summary uniform = summarizeOnDevice(data, dSum, dSquares, dInUnit);
  printf("uniform: %d of %d in (0, 1], mean %.2f\n", uniform.inUnit, COUNT,
         uniform.sum / COUNT);

  curandGenerateNormal(generator, data, COUNT, 0.0f, 1.0f);
  Summary normal = summarizeOnDevice(data, dSum, dSquares, dInUnit);
  float mean = normal.sum / COUNT;
  float deviation = sqrtf(normal.squares / COUNT - mean * mean);
  printf("normal: mean near 0 %s, deviation near 1 %s\n", fabsf(mean) < 0.05f ? "yes" : "no",
         fabsf(deviation - 1.0f) < 0.05f ? "yes" : "no");

  // The same seed again: the same numbers.
  float first[4], again[4];
  curandSetPseudoRandomGeneratorSeed(generator, 99ULL);
  curandGenerateUniform(generator, data, 4);
  cudaMemcpy(first, data, sizeof first, cudaMemcpyDeviceToHost);
  curandSetPseudoRandomGeneratorSeed(generator, 99ULL);
  curandGenerateUniform(generator, data, 4);
  cudaMemcpy(again, data, sizeof again, cudaMemcpyDeviceToHost);
  bool same = true;
  for (int i = 0; i < 4; ++i)
    same = same && first[i] == again[i];
  printf("same seed, same numbers: %s\n", same ? "yes" : "no");

  // Normal numbers come in pairs.
  curandStatus_t odd = curandGenerateNormal(generator, data, 3, 0.0f, 1.0f);
  printf("three normal numbers: %s\n",
         odd == CURAND_STATUS_LENGTH_NOT_MULTIPLE ? "CURAND_STATUS_LENGTH_NOT_MULTIPLE" : "?");
  curandDestroyGenerator(generator);

  // A host generator writes the program's memory.
  curandGenerator_t host;
  curandCreateGeneratorHost(&host, CURAND_RNG_PSEUDO_PHILOX4_32_10);
  double values[1000];
  curandGenerateUniformDouble(host, values, 1000);
  int inUnit = 0;
  for (double v : values)
    inUnit += v > 0.0 && v <= 1.0;
  printf("host generator: %d of 1000 in (0, 1]\n", inUnit);
  curandDestroyGenerator(host);
  cudaFree(data);
  return 0;
}
