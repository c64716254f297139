// A template kernel instantiated by host code, an overloaded kernel, a
// struct passed by value, and a main of its own: the replay harness must name
// each instance by its template arguments and rename this main away.
struct Pair {
  int key;
  float value;
};

template <typename T, int Factor> __global__ void scale(T *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = data[i] * Factor;
}

__global__ void tally(Pair *pairs, unsigned char flag, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    pairs[i].key += flag;
}

__global__ void tally(int *counts, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    counts[i] += 1;
}

// A struct passed by value: its bytes travel in a file like a buffer's.
__global__ void apply(Pair pair, int *out) {
  out[threadIdx.x] = pair.key + (int)pair.value;
}

int main() {
  scale<float, 3><<<1, 32>>>(nullptr, 0);
  scale<unsigned, 2><<<1, 32>>>(nullptr, 0);
  tally<<<1, 32>>>(static_cast<Pair *>(nullptr), 1, 0);
  tally<<<1, 32>>>(static_cast<int *>(nullptr), 0);
  apply<<<1, 32>>>(Pair{1, 2.0f}, nullptr);
  return 0;
}
