// Integers declared first and assigned later, for CallSiteReaderTest; the
// launches are in the order the test reads them.
__global__ void scale(float *data, int n) {}

int sizeFromUser();

int main() {
  int n = sizeFromUser();
  float *data;
  int threads;
  int blocks;
  threads = 256;
  blocks = (n + threads - 1) / threads;
  scale<<<blocks, threads>>>(data, n);
  threads = 128;
  scale<<<blocks, threads>>>(data, n);
  int stepped = 1;
  stepped++;
  scale<<<1, stepped>>>(data, n);
  int guarded = 32;
  if (n > 4)
    guarded = 64;
  scale<<<1, guarded>>>(data, n);
  int later;
  scale<<<1, later>>>(data, n);
  later = 64;
  return 0;
}
