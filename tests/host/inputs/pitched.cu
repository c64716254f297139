// Pitches from cudaMallocPitch, for CallSiteReaderTest; the launches are in
// the order the test reads them.
__global__ void transpose(float *c, const float *a, unsigned n, size_t pitch) {}

unsigned sizeFromUser();

int main() {
  unsigned n = sizeFromUser();
  float *a, *c;
  size_t pitch = 0;
  cudaMallocPitch((void **)&a, &pitch, n * sizeof(float), n);
  cudaMallocPitch((void **)&c, &pitch, n * sizeof(float), n);
  transpose<<<1, 32>>>(c, a, n, pitch);
  unsigned pitchInElements = pitch / sizeof(float);
  transpose<<<1, 32>>>(c, a, n, pitchInElements);
  size_t changed;
  cudaMallocPitch((void **)&a, &changed, n * sizeof(float), n);
  changed += 4;
  transpose<<<1, 32>>>(c, a, n, changed);
  return 0;
}

// A pitch in bytes made one in elements, in a launcher whose sizes are the
// members of a struct it is passed.
struct Extent {
  unsigned width, height;
};
void launchPadded(float *c, const float *a, Extent size) {
  size_t inElements;
  cudaMallocPitch((void **)&c, &inElements, size.width * sizeof(float), size.height);
  inElements /= sizeof(float);
  transpose<<<size.width / 32, 32>>>(c, a, size.width, inElements);
}
