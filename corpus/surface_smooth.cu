// A 1-D smoothing step on surfaces (cudaSurfaceObject_t, surf1Dread/write).
// The clean kernel reads `in` and writes `out`; the in-place one reads its
// neighbours from the surface it writes, so a neighbour's write races with
// the read (surface reads and writes are ordinary global accesses).
__global__ void surface_smooth(cudaSurfaceObject_t in, cudaSurfaceObject_t out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  float left = surf1Dread<float>(in, (x - 1) * 4, cudaBoundaryModeClamp);
  float right = surf1Dread<float>(in, (x + 1) * 4, cudaBoundaryModeClamp);
  surf1Dwrite(0.5f * (left + right), out, x * 4);
}

__global__ void surface_smooth_inplace(cudaSurfaceObject_t data) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  float left = surf1Dread<float>(data, (x - 1) * 4, cudaBoundaryModeClamp);
  float right = surf1Dread<float>(data, (x + 1) * 4, cudaBoundaryModeClamp);
  surf1Dwrite(0.5f * (left + right), data, x * 4);
}
