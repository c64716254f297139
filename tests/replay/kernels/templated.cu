// A template kernel instantiated by host code, an overload of it by
// parameter type, and a main of its own: the replay harness must name the
// instance by its template arguments and rename this main away.
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

int main() {
  scale<float, 3><<<1, 32>>>(nullptr, 0);
  scale<unsigned, 2><<<1, 32>>>(nullptr, 0);
  tally<<<1, 32>>>(static_cast<Pair *>(nullptr), 1, 0);
  tally<<<1, 32>>>(static_cast<int *>(nullptr), 0);
  return 0;
}
