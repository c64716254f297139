// The OpenCL twin of tests/interp/kernels/reduce_shared.cu, for Oclgrind
// (bench/oclgrind_compare.sh): the same tree reduction, line for line.
#define BLOCK 256
__kernel void reduceSum(__global const int *in, __global int *blockSums, int n) {
  __local int partial[BLOCK];
  unsigned tid = get_local_id(0);
  unsigned i = get_group_id(0) * get_local_size(0) + tid;
  partial[tid] = i < (unsigned)n ? in[i] : 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (unsigned stride = get_local_size(0) / 2; stride > 0; stride >>= 1) {
    if (tid < stride)
      partial[tid] += partial[tid + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (tid == 0)
    blockSums[get_group_id(0)] = partial[0];
}
