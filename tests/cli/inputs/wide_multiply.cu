// A 128-bit multiply: integers wider than 64 bits are not simulated.
__global__ void wideMultiply(const unsigned long long *a, unsigned long long *high) {
  unsigned __int128 product = (unsigned __int128)a[0] * a[1];
  high[threadIdx.x] = (unsigned long long)(product >> 64);
}
