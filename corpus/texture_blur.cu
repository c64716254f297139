// A 1-D blur that reads its input through a texture (tex1Dfetch, zero
// outside) and writes the result. With the texture on its own memory it is
// clean; bound to the output buffer itself (the texture aliases `out`), a
// thread's write races with its neighbours' texture reads.
__global__ void texture_blur(cudaTextureObject_t in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float left = tex1Dfetch<float>(in, i - 1);
  float right = tex1Dfetch<float>(in, i + 1);
  out[i] = 0.5f * (left + right);
}
