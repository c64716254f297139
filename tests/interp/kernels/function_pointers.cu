// Function pointers and virtual calls, resolved at run time.

typedef int (*BinaryOp)(int, int);

__device__ int addOp(int a, int b) { return a + b; }
__device__ int subOp(int a, int b) { return a - b; }
__device__ int mulOp(int a, int b) { return a * b; }
__device__ int maxOp(int a, int b) { return a > b ? a : b; }

// A dispatch table in device memory, indexed by data.
__device__ BinaryOp dispatchTable[4] = {addOp, subOp, mulOp, maxOp};

__device__ int applyTwice(BinaryOp op, int a, int b) { return op(op(a, b), b); }

// out[i] = table[ops[i] % 4](a[i], b[i]); then a pointer passed to a helper.
__global__ void dispatch(const int *ops, const int *a, const int *b, int *out, int *twice, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  BinaryOp op = dispatchTable[ops[i] & 3];
  out[i] = op(a[i], b[i]);
  twice[i] = applyTwice(op, a[i], b[i]);
}

struct Shape {
  __device__ virtual float area() const = 0;
  __device__ virtual float scaled(float k) const { return k * area(); }
};
struct Square : Shape {
  float side;
  __device__ Square(float s) : side(s) {}
  __device__ float area() const override { return side * side; }
};
struct Rect : Shape {
  float w, h;
  __device__ Rect(float w, float h) : w(w), h(h) {}
  __device__ float area() const override { return w * h; }
  __device__ float scaled(float k) const override { return 2.0f * k * w * h; }
};

// Objects constructed in the kernel; which one is used depends on the data.
__global__ void virtualArea(const int *kinds, const float *x, float *area, float *scaled, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  Square square(x[i]);
  Rect rect(x[i], 3.0f);
  const Shape *shape = kinds[i] ? static_cast<const Shape *>(&rect) : &square;
  area[i] = shape->area();
  scaled[i] = shape->scaled(0.5f);
}

// Calls through a value that is not a function: an error, never a crash.
__global__ void callsData(const long *bits, int *out) {
  BinaryOp op = (BinaryOp)bits[threadIdx.x];
  out[threadIdx.x] = op(1, 2);
}

// Objects made with `new`: operator new has no body here, so it returns a
// fresh private buffer (noted) and the vtable calls run on it.
struct Counter {
  __device__ virtual int next(int x) const { return x + 1; }
  __device__ virtual ~Counter() {}
};
struct Doubler : Counter {
  __device__ int next(int x) const override { return 2 * x; }
};
__global__ void virtualOnHeap(const int *kinds, int *out) {
  int t = threadIdx.x;
  Counter *counter = kinds[t] ? new Doubler() : new Counter();
  out[t] = counter->next(t);
  delete counter;
}
