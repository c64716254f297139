// Calls of device functions declared here and defined nowhere the analysis
// sees: they return a value chosen per launch, a fresh buffer, or do nothing.

extern __device__ int weight(int i);
extern __device__ float scale(float x);
extern __device__ int *scratch(int n);
extern __device__ void logValue(int value);

__global__ void unresolved(int *out, float *fout) {
  int i = threadIdx.x;
  out[i] = weight(i);
  fout[i] = scale(1.0f);
  int *buffer = scratch(4);
  buffer[0] = i;
  buffer[3] = i + 1;
  out[i] += buffer[0] - i;
  logValue(out[i]);
}
