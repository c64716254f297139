// cuRAND's device API and Thrust's functors inside kernels.
#include <curand_kernel.h>
#include <thrust/functional.h>

__global__ void uniformNumbers(unsigned long long seed, float *out, int perThread) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  curandState state;
  curand_init(seed, i, 0, &state);
  for (int k = 0; k < perThread; ++k)
    out[i * perThread + k] = curand_uniform(&state);
}

// The body of thrust::transform(x, y, out, saxpy) and thrust::reduce(out,
// thrust::plus) as a kernel: the functors are Thrust's and the user's own.
struct Saxpy {
  float a;
  __host__ __device__ float operator()(float x, float y) const { return a * x + y; }
};

__global__ void transformReduce(const float *x, const float *y, float *out, float *blockSums,
                                float a) {
  __shared__ float partial[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float value = Saxpy{a}(x[i], y[i]);
  out[i] = value;
  partial[threadIdx.x] = value;
  __syncthreads();
  thrust::plus<float> plus;
  thrust::maximum<int> maximum;
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride)
      partial[threadIdx.x] = plus(partial[threadIdx.x], partial[threadIdx.x + stride]);
    __syncthreads();
  }
  if (threadIdx.x == 0)
    blockSums[blockIdx.x] = partial[0] + float(maximum(0, -1));
}
