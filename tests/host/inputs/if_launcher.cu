// A launcher that picks the kernel instantiation by comparing the block size,
// called with 32 from main, for CallSiteReaderTest.
template <int TILE> __global__ void tiles(float *out, int n) {}

void launchTiles(float *out, int n, int tile) {
  dim3 block(tile, tile);
  if (tile == 16)
    tiles<16><<<4, block>>>(out, n);
  else
    tiles<32><<<4, block>>>(out, n);
}

int main() {
  float *out = nullptr;
  launchTiles(out, 1024, 32);
}
