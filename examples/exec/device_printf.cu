// Device printf (issue 20: exec prints what a GPU prints). Two threads print
// a line each, wait at a barrier, and thread 0 prints one more. As on a GPU,
// a launch's lines reach the program's output when the host next waits for
// the device (cudaDeviceSynchronize, a blocking cudaMemcpy, the next launch),
// not while the kernel runs: the host's line printed between the launch and
// the synchronization comes first. The last launch's line is never printed:
// nothing waits for the device after it, and a GPU does not flush its printf
// buffer at exit (the report notes it). Expected: no finding; the barrier
// orders the two phases of output, so it is not redundant.
#include <cstdio>

__global__ void greet(int round) {
  printf("round %d: thread %u of %u says %s\n", round, threadIdx.x, blockDim.x,
         threadIdx.x % 2 == 0 ? "even" : "odd");
  __syncthreads();
  if (threadIdx.x == 0)
    printf("round %d done: %c%c %5.2f%% 0x%x %lld [%-4d|%*d]\n", round, 'o', 'k', 12.5f, 255u,
           1LL << 40, 7, 3, 9);
}

__global__ void square(int *out) {
  int i = threadIdx.x;
  out[i] = i * i;
  if (i == 3)
    printf("square of %d is %d\n", i, out[i]);
}

int main() {
  greet<<<1, 2>>>(1);
  printf("host: launched\n");
  cudaDeviceSynchronize();
  int *d = nullptr;
  int h[4];
  cudaMalloc(&d, sizeof h);
  square<<<1, 4>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("host: copied %d\n", h[3]);
  cudaFree(d);
  greet<<<1, 1>>>(2);
  return 0;
}
