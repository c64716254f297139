// Copies a width x height image into rows of `pitch` elements. Rows overlap
// when pitch < width; the host rejects such a pitch before the launch, so
// the rows of every launch it makes are disjoint.

__global__ void copy_rows(const float *in, float *out, int width, int height, int pitch) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y;
  if (x < width && y < height)
    out[y * pitch + x] = in[y * width + x];
}

int readDimension(int argc, char **argv, int which);

int main(int argc, char **argv) {
  int width = readDimension(argc, argv, 0);
  int height = readDimension(argc, argv, 1);
  int pitch = readDimension(argc, argv, 2);
  if (width <= 0 || height <= 0 || pitch < width)
    return 1;
  float *in, *out;
  cudaMalloc(&in, width * height * sizeof(float));
  cudaMalloc(&out, pitch * height * sizeof(float));
  copy_rows<<<dim3((width + 63) / 64, height), 64>>>(in, out, width, height, pitch);
  cudaDeviceSynchronize();
  return 0;
}
