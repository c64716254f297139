// A launcher given the matrices' dimensions as dim3 parameters (by reference
// and by value): its grid and its arguments read the same members.
__global__ void product(float *c, int wA, int wB) {
  c[threadIdx.y * wB + blockIdx.x * 16 + threadIdx.x] = float(wA);
}

void multiply(float *c, int blockSize, const dim3 &dimsA, const dim3 &dimsB) {
  dim3 threads(blockSize, blockSize);
  dim3 grid(dimsB.x / threads.x, dimsA.y / threads.y);
  product<<<grid, threads>>>(c, dimsA.x, dimsB.x);
}

void multiply16(float *c, dim3 dimsA, dim3 dimsB) {
  product<<<dim3(dimsB.x / 16, dimsA.y / 16), dim3(16, 16)>>>(c, dimsA.x, dimsB.x);
}
