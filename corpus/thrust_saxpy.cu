// y = a * x + y with Thrust: the library launches its own kernel through its
// dispatch, which the host code reaches by a call, never by <<<...>>>.
#include <thrust/device_vector.h>
#include <thrust/transform.h>

struct Saxpy {
  float a;
  __host__ __device__ float operator()(float x, float y) const { return a * x + y; }
};

int main() {
  thrust::device_vector<float> x(1000, 1.0f), y(1000, 2.0f);
  thrust::transform(x.begin(), x.end(), y.begin(), y.begin(), Saxpy{2.0f});
  return 0;
}
