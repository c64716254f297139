// A launcher that switches on the block size, for CallSiteReaderTest.
template <unsigned BLOCK> __global__ void reduce(const float *in, float *out, int n) {}

void launchReduce(const float *in, float *out, int n, int threads) {
  dim3 block(threads, 1, 1);
  int shared = threads <= 32 ? 2 * threads * 4 : threads * 4;
  switch (threads) {
  case 128:
    reduce<128><<<4, block, shared>>>(in, out, n);
    break;
  case 32:
  case 64:
    reduce<64><<<4, block, shared>>>(in, out, n);
    break;
  }
}
