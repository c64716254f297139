// A kernel whose only launch sits in code the preprocessor leaves out (a
// disabled experiment): the program never launches it, so the default search
// reports it as not launched instead of warning about its race.

__global__ void last_writer(int *flag, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    flag[0] = i;
}

int main() {
  int *flag;
  cudaMalloc(&flag, sizeof(int));
#if 0
  last_writer<<<4, 128>>>(flag, 512);
#endif
  cudaFree(flag);
  return 0;
}
