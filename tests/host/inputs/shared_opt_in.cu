// Dynamic shared memory past 48 KiB for CallSiteReaderTest: `wide` opts in
// (through a cast, as NVIDIA's samples write it), `narrow` does not.
__global__ void wide(float *out) {}
__global__ void narrow(float *out) {}

int main() {
  float *out;
  cudaMalloc(&out, 1024);
  cudaFuncSetAttribute(reinterpret_cast<const void *>(wide),
                       cudaFuncAttributeMaxDynamicSharedMemorySize, 96 * 1024);
  cudaFuncSetAttribute(narrow, cudaFuncAttributePreferredSharedMemoryCarveout, 100);
  wide<<<1, 32, 96 * 1024>>>(out);
  narrow<<<1, 32, 1024>>>(out);
  return 0;
}
