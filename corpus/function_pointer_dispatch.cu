// Device function pointers: a dispatch table indexed by data, and virtual
// calls on objects built in the kernel. Calls are resolved at run time.
typedef float (*Transform)(float);

__device__ float halve(float x) { return 0.5f * x; }
__device__ float square(float x) { return x * x; }
__device__ float negate(float x) { return -x; }

__device__ Transform transforms[3] = {halve, square, negate};

// Each thread applies the transform its opcode selects to its own element.
__global__ void applyTransforms(const int *opcodes, const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = transforms[opcodes[i] % 3](in[i]);
}

// The transformed values are staged in shared memory and read back shifted
// by a warp without a barrier: a race between the warps of a block.
__global__ void applyTransformsShifted(const int *opcodes, const float *in, float *out) {
  __shared__ float staged[256];
  int t = threadIdx.x;
  Transform f = transforms[opcodes[t] % 3];
  staged[t] = f(in[t]);
  out[t] = staged[(t + 32) % blockDim.x];
}

struct Accumulator {
  __device__ virtual void add(float *slot, float value) const { *slot += value; }
};
struct ScaledAccumulator : Accumulator {
  float scale;
  __device__ explicit ScaledAccumulator(float s) : scale(s) {}
  __device__ void add(float *slot, float value) const override { *slot += scale * value; }
};

// A virtual call chosen by data; each thread updates its own slot.
__global__ void virtualAccumulate(const int *kinds, const float *in, float *sums, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  Accumulator plain;
  ScaledAccumulator scaled(2.0f);
  const Accumulator *acc = kinds[i] % 2 ? static_cast<const Accumulator *>(&scaled) : &plain;
  acc->add(&sums[i], in[i]);
}
