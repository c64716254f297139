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
  return 0;
}
