// A struct passed by value is each thread's own copy: every thread may
// overwrite its fields without racing with any other thread.
struct Params {
  int offset[4];
  float scale;
};

__global__ void byval_struct_param(Params p, const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  p.offset[0] = threadIdx.x;
  p.scale = p.scale * 2.0f;
  if (i < n)
    out[i] = in[i] * p.scale + float(p.offset[0]);
}
