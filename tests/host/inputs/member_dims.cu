// dim3 members set one by one, for CallSiteReaderTest; lines are in the test.
__global__ void tile(float *data, int n) {}

int sizeFromUser();

int main() {
  int n = sizeFromUser();
  float *data;
  dim3 threads;
  threads.x = 16;
  threads.y = 16;
  dim3 blocks(1, 1);
  blocks.x = (n + threads.x - 1) / threads.x;
  blocks.y = (n + threads.y - 1) / threads.y;
  tile<<<blocks, threads>>>(data, n);
  dim3 twice(8);
  twice.x = 32;
  twice.x = 64;
  tile<<<1, twice>>>(data, n);
  if (n > 4) {
    dim3 inner(4);
    for (int i = 0; i < 2; ++i)
      inner.x = 8;
    tile<<<1, inner>>>(data, n);
  }
  dim3 grid, block;
  block = dim3(512, 1);
  grid = dim3(n / block.x, 1);
  tile<<<grid, block>>>(data, n);
  block = dim3(256);
  grid = dim3(n / (4 * block.x));
  for (int k = 0; k < 2; ++k)
    tile<<<grid, block>>>(data, n);
  dim3 later;
  if (n > 8)
    later = dim3(32);
  tile<<<1, later>>>(data, n);
  return 0;
}
