// Compare-and-swap retry loops whose first guess is a plain read, as code
// written before native float atomics does it: read the word, compute the
// new value from the guess, and swap it in only if the word still holds
// the guess; otherwise try again with what the swap found. A stale guess
// only costs another try, so the plain read races with nothing.
__device__ float addBySwap(float *address, float add) {
  unsigned *word = reinterpret_cast<unsigned *>(address);
  unsigned found = *word;
  unsigned guess;
  do {
    guess = found;
    found = atomicCAS(word, guess, __float_as_uint(__uint_as_float(guess) + add));
  } while (found != guess);
  return __uint_as_float(found);
}

__global__ void sum_by_swap(const float *value, float *total, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    addBySwap(total, value[i]);
}

// A maximum whose guess is read as a float and swapped as its bits; a
// value no larger than the guess needs no swap at all.
__global__ void largest_by_swap(const float *value, float *largest, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float guess = *largest;
  while (value[i] > guess) {
    int found = atomicCAS(reinterpret_cast<int *>(largest), __float_as_int(guess),
                          __float_as_int(value[i]));
    if (found == __float_as_int(guess))
      break;
    guess = __int_as_float(found);
  }
}

// Not a retry loop: the plain read is kept as a snapshot of the count, and
// the swap's expected value is a constant. The read races with the other
// blocks' swaps.
__global__ void snapshot_beside_swap(int *count, int *seen, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  seen[i] = *count;
  atomicCAS(count, 0, i + 1);
}
