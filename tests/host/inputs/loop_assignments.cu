// Values assigned in loops and blocks around launches, for
// CallSiteReaderTest; the launches are in the order the test reads them.
__global__ void pass(unsigned *data, int segment) {}
__global__ void sortTile(unsigned *data) {}

int sizeFromUser();

int main() {
  int n = sizeFromUser();
  unsigned *data;
  dim3 blocks(256), grid(4);
  // Before the loop that assigns them: their initializers.
  sortTile<<<grid, blocks>>>(data);
  for (unsigned segment = 1024; segment < 16384; segment <<= 1) {
    blocks = make_uint3(segment / 256, 1, 1);
    grid = make_uint3(16384 / segment, 1, 1);
    // segment passed: formulas over it.
    pass<<<grid, blocks>>>(data, segment);
    // Not passed: one site per iteration, segment = 1024, 2048, 4096, 8192.
    sortTile<<<grid, blocks>>>(data);
  }
  int threads = 64;
  for (int round = 0; round < 3; ++round) {
    // Not known: the next round sees the assignment after the launch.
    sortTile<<<1, threads>>>(data);
    threads = 128;
  }
  int width;
  if (n > 0) {
    // Assigned by a statement of a block around the launch: 32.
    width = 32;
    sortTile<<<1, width>>>(data);
  }
  // 34 iterations: four sites spread from the first to the last.
  for (int i = 0; i < 100; i += 3)
    sortTile<<<i + 1, 32>>>(data);
  // A copy of an allocated pointer: its allocation.
  unsigned *buffer;
  cudaMalloc(&buffer, 1000 * sizeof(unsigned));
  unsigned *alias = buffer;
  sortTile<<<1, 32>>>(alias);
  return 0;
}
