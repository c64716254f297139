// Every fifth thread records its index in flag[0] with a plain store.
__global__ void flag_waw(int *flag, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i % 5 == 0)
    flag[0] = i;
}
