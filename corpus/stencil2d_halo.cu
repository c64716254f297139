// 2-D five-point stencil on a w x h grid; block 16 x 16 stages an 18 x 18
// tile (one halo cell per side, edge threads load the halo). Race-free.
#define B2 16
__global__ void stencil2d_halo(const float *in, float *out, int w, int h) {
  __shared__ float tile[B2 + 2][B2 + 2];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x = blockIdx.x * B2 + tx;
  int y = blockIdx.y * B2 + ty;
  int lx = tx + 1, ly = ty + 1;
  tile[ly][lx] = (x < w && y < h) ? in[y * w + x] : 0.0f;
  if (tx == 0)
    tile[ly][0] = (x > 0 && y < h) ? in[y * w + x - 1] : 0.0f;
  if (tx == B2 - 1)
    tile[ly][B2 + 1] = (x + 1 < w && y < h) ? in[y * w + x + 1] : 0.0f;
  if (ty == 0)
    tile[0][lx] = (y > 0 && x < w) ? in[(y - 1) * w + x] : 0.0f;
  if (ty == B2 - 1)
    tile[B2 + 1][lx] = (y + 1 < h && x < w) ? in[(y + 1) * w + x] : 0.0f;
  __syncthreads();
  if (x < w && y < h)
    out[y * w + x] = tile[ly][lx - 1] + tile[ly][lx + 1] + tile[ly - 1][lx] + tile[ly + 1][lx] - 4.0f * tile[ly][lx];
}
