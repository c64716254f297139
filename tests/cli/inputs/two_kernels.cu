// Two kernels in one file: `run` must be told which one.
__global__ void scale(float *data, float factor) {
  data[threadIdx.x] *= factor;
}

__global__ void fill(int *data, int value) {
  data[threadIdx.x] = value;
}
