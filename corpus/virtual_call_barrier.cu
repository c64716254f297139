// A virtual call on the even threads' path, then a barrier the whole block
// reaches. The call dispatches through a function pointer, whose fallback
// (a pointer that is no function) traps: that path ends its thread and must
// not keep the even and odd threads of a warp apart until the kernel
// returns. Race-free, and no barrier divergence.
#include <new>

struct Shape {
  __device__ virtual int area(int side) const = 0;
};
struct Square : Shape {
  __device__ int area(int side) const override { return side * side; }
};

__global__ void virtual_then_barrier(int *out) {
  __shared__ int staged[256];
  __shared__ unsigned char __align__(8) storage[sizeof(Square)];
  __shared__ Shape *shape;
  if (threadIdx.x == 0)
    shape = new (storage) Square();
  __syncthreads();
  int value = int(threadIdx.x);
  if (threadIdx.x % 2 == 0)
    value = shape->area(value);
  staged[threadIdx.x] = value;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = staged[blockDim.x - 1 - threadIdx.x];
}
