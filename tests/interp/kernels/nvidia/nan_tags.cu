// nan(tag) and nanf(tag) in device code, which clang's CUDA headers declare
// but never define: the quiet NaN whose payload the tag spells, as nvcc's
// libdevice builds it. An interval library marks its empty interval with
// nan("") and tests `x != x`; a chosen value in its place is no NaN.
#include <cmath>

__global__ void nanTags(double *out, float *outFloat) {
  double empty = nan("");
  out[0] = empty;
  out[1] = empty != empty ? 1.0 : 0.0;
  out[2] = nan("0x12");
  out[3] = nan("7");
  float emptyFloat = nanf("");
  outFloat[0] = emptyFloat;
  outFloat[1] = nanf("0x5");
}
