// Keys sorted into buckets: each thread takes the next free slot of its
// key's bucket. The host starts bucket b at slot b * n, so buckets never
// meet; counters made up otherwise would overlap them.
__global__ void to_buckets(const int *key, int *slots, int *next, int n, int buckets) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && key[i] < buckets)
    slots[atomicAdd(&next[key[i]], 1)] = i;
}

int main() {
  const int n = 1024, buckets = 4;
  int *start = new int[buckets];
  for (int b = 0; b < buckets; ++b)
    start[b] = b * n;
  int *key, *slots, *next;
  cudaMalloc(&key, n * sizeof(int));
  cudaMalloc(&slots, n * buckets * sizeof(int));
  cudaMalloc(&next, buckets * sizeof(int));
  cudaMemcpy(next, start, buckets * sizeof(int), cudaMemcpyHostToDevice);
  to_buckets<<<n / 256, 256>>>(key, slots, next, n, buckets);
  return 0;
}
