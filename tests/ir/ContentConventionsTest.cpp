// Which pointer parameters a kernel reads offsets through
// (ir/ContentConventions.h): two reads bounding one loop, never one.
#include "ir/ContentConventions.h"
#include "ir/Loader.h"

#include <llvm/IR/Function.h>
#include <llvm/IR/Module.h>

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

using namespace simulee;

namespace {

const char *kSource = R"(
__global__ void spmv(const int *rowStart, const int *column, const float *value,
                     const float *x, float *y, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float sum = 0;
  for (int j = rowStart[r]; j < rowStart[r + 1]; ++j)
    sum += value[j] * x[column[j]];
  y[r] = sum;
}
__global__ void byLength(const unsigned *segment, int *out, int n) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= n)
    return;
  for (unsigned k = 0; k < segment[s + 1] - segment[s]; ++k)
    out[segment[s] + k] = s;
}
__global__ void byCount(const int *count, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int total = 0;
  for (int k = 0; k < count[i]; ++k)
    total += k;
  out[i] = total;
}
__global__ void lowerBound(const int *keys, const int *queries, int *found, int n, int q) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= q)
    return;
  int lo = 0, hi = n;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (keys[mid] < queries[i]) lo = mid + 1; else hi = mid;
  }
  found[i] = lo;
}
__global__ void noLoop(const int *start, int *out) {
  out[threadIdx.x] = start[threadIdx.x + 1] - start[threadIdx.x];
}
)";

std::vector<bool> offsetsOf(const std::string &kernel) {
  static std::unique_ptr<ir::Program> program = [] {
    Result<ir::Program> p = ir::loadProgramFromCuda(kSource, "content_conventions.cu");
    EXPECT_TRUE(p.ok()) << p.error().message;
    return p ? std::make_unique<ir::Program>(std::move(*p)) : nullptr;
  }();
  for (const llvm::Function &function : *program->module)
    if (!function.isDeclaration() && function.getName().contains(kernel))
      return ir::offsetParameters(function);
  ADD_FAILURE() << "no kernel " << kernel;
  return {};
}

TEST(ContentConventions, TwoReadsBoundingOneLoopAreOffsets) {
  // The start and the end of each row; column indices and values are not.
  EXPECT_EQ(offsetsOf("spmv"), (std::vector<bool>{true, false, false, false, false, false}));
  // A trip count as the difference of two offsets.
  EXPECT_EQ(offsetsOf("byLength"), (std::vector<bool>{true, false, false}));
}

TEST(ContentConventions, OneReadBoundingALoopOrReadsOutsideLoopsAreNot) {
  // A count may be any number; a binary search compares one read per step;
  // a difference of two reads bounding no loop assumes nothing.
  EXPECT_EQ(offsetsOf("byCount"), (std::vector<bool>{false, false, false}));
  EXPECT_EQ(offsetsOf("lowerBound"), (std::vector<bool>{false, false, false, false, false}));
  EXPECT_EQ(offsetsOf("noLoop"), (std::vector<bool>{false, false}));
}

TEST(ContentConventions, TheLoaderRecordsThemOnTheKernelsParameters) {
  Result<ir::Program> p = ir::loadProgramFromCuda(kSource, "content_conventions.cu");
  ASSERT_TRUE(p.ok()) << p.error().message;
  const ir::KernelInfo *spmv = nullptr;
  for (const ir::KernelInfo &kernel : p->kernels)
    if (kernel.sourceName == "spmv")
      spmv = &kernel;
  ASSERT_NE(spmv, nullptr);
  EXPECT_TRUE(spmv->params[0].offsets);
  EXPECT_FALSE(spmv->params[1].offsets);
}

} // namespace
