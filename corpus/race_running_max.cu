// Keeps the largest of the values in *largest. The buggy kernel reads the
// largest so far and writes its own value when that is larger, in two plain
// accesses: a larger value another thread writes in between is overwritten,
// and the threads' reads and writes race.
__global__ void largest_plain(const float *value, float *largest, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float seen = *largest;
  if (value[i] > seen)
    *largest = value[i];
}

// The fix: a compare-and-swap loop. The value is written only if the
// largest is still the one compared against; otherwise the comparison is
// made again with the value another thread wrote.
__global__ void largest_cas_loop(const float *value, float *largest, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int *bits = reinterpret_cast<int *>(largest);
  int seen = atomicAdd(bits, 0);
  while (value[i] > __int_as_float(seen)) {
    int before = atomicCAS(bits, seen, __float_as_int(value[i]));
    if (before == seen)
      break;
    seen = before;
  }
}
