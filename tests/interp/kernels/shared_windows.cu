// Shared-memory window addresses (32-bit, as sm_80 code hands them to inline
// PTX): __cvta_generic_to_shared and back, an ld.shared through one, and
// PTX cvta in both directions. Each thread reads its neighbour's element
// four ways.
__global__ void sharedWindows(const int *in, int *out) {
  __shared__ int s[64];
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  int *neighbour = &s[(threadIdx.x + 1) % 64];
  unsigned window = unsigned(__cvta_generic_to_shared(neighbour));
  int loaded;
  asm volatile("ld.shared.u32 %0, [%1];" : "=r"(loaded) : "r"(window));
  int *back = static_cast<int *>(__cvta_shared_to_generic(window));
  unsigned long long ptxWindow, generic;
  asm("cvta.to.shared.u64 %0, %1;" : "=l"(ptxWindow) : "l"(neighbour));
  asm("cvta.shared.u64 %0, %1;" : "=l"(generic) : "l"(ptxWindow));
  out[4 * threadIdx.x] = loaded;
  out[4 * threadIdx.x + 1] = *back;
  out[4 * threadIdx.x + 2] = *reinterpret_cast<int *>(generic);
  out[4 * threadIdx.x + 3] = ptxWindow == window;
}
