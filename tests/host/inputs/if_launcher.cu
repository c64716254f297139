// A launcher that picks the kernel instantiation by comparing the block size,
// called from main with 32 unless the command line says otherwise, for
// CallSiteReaderTest.
#include <cstdlib>

template <int TILE> __global__ void tiles(float *out, int n) {}

void launchTiles(float *out, int n, int tile) {
  dim3 block(tile, tile);
  if (tile == 16)
    tiles<16><<<4, block>>>(out, n);
  else
    tiles<32><<<4, block>>>(out, n);
}

int main(int argc, char **argv) {
  float *out = nullptr;
  int tile = argc > 1 ? atoi(argv[1]) : 32;
  launchTiles(out, 1024, tile);
}
