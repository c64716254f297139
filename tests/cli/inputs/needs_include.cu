// Compiles only with -I (for tile_width.h) and -D SCALE=...: checks that
// those options work wherever they stand on the command line.
#include "tile_width.h"
#ifndef SCALE
#error "compile with -D SCALE=<value>"
#endif
__global__ void scaled(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = float(TILE_WIDTH * SCALE);
}
