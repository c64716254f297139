// Marks each entry of a CSR matrix with the row it belongs to. Row r owns
// the entries from rowStart[r] up to rowStart[r + 1]: with non-decreasing
// offsets, as CSR code assumes without checking, no two rows share an
// entry, so the kernel is race-free. Offsets that decrease make rows
// overlap, which no CSR matrix does.
__global__ void expand_rows(const int *rowStart, int *rowOf, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  for (int j = rowStart[r]; j < rowStart[r + 1]; ++j)
    rowOf[j] = r;
}

// The bug: the loop bound is inclusive, so each row also marks the next
// row's first entry, which that row marks too, whatever the offsets.
__global__ void expand_rows_inclusive(const int *rowStart, int *rowOf, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  for (int j = rowStart[r]; j <= rowStart[r + 1]; ++j)
    rowOf[j] = r;
}
