// sm_80's warp reductions (__reduce_*_sync, PTX redux.sync): every lane of
// the whole warp, and the even lanes alone with a mask of their own (odd
// lanes reduce the odd ones), each writes its result at its own index.
__global__ void warpReductions(const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int value = in[i];
  unsigned half = (threadIdx.x & 1) ? 0xaaaaaaaau : 0x55555555u;
  int *row = out + i * 9;
  row[0] = __reduce_add_sync(0xffffffffu, value);
  row[1] = __reduce_min_sync(0xffffffffu, value);
  row[2] = __reduce_max_sync(0xffffffffu, value);
  row[3] = int(__reduce_min_sync(0xffffffffu, unsigned(value)));
  row[4] = int(__reduce_max_sync(0xffffffffu, unsigned(value)));
  row[5] = int(__reduce_and_sync(half, unsigned(value)));
  row[6] = int(__reduce_or_sync(half, unsigned(value)));
  row[7] = int(__reduce_xor_sync(half, unsigned(value)));
  row[8] = __reduce_add_sync(half, value);
}
