// Only a device function: there is no kernel to analyse.
__device__ int twice(int x) { return 2 * x; }
