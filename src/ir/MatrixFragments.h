// Warp matrix operations (nvcuda::wmma: load_matrix_sync, mma_sync,
// store_matrix_sync; clang's llvm.nvvm.wmma.* intrinsics) rewritten into
// ordinary LLVM IR before lowering, so that every thread's loads and stores
// reach the detectors like any other access and both engines run them.
//
// A fragment's layout across the warp is unspecified by CUDA (code may only
// touch its elements all alike, as fill_fragment and a scaling loop do), so
// simulee chooses one: element `s` of lane `l` is element (l * P + s) mod T
// of the matrix, P the elements a lane holds and T the matrix's, counted
// row by row for A (m x k) and the accumulator (m x n) and column by column
// for B (k x n). A row of A and a column of B are thus split over lanes
// along k alone, and the product is computed by each lane for its own
// accumulator elements from the other lanes' A and B elements, fetched with
// warp shuffles: a warp operation, as the tensor core's is.
//
// Products are fused multiply-adds in the accumulator's type in k order
// (exact for f16, bf16 and tf32 inputs, whose products fit a float); a
// GPU's tensor core may sum in another order, as its results may differ in
// the last bits from any other GPU's.
#pragma once

#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

namespace simulee::ir {

// Rewrites every call of a llvm.nvvm.wmma intrinsic of `module` whose shape
// and types it knows; whether it rewrote any. Others stay calls, which the
// lowering refuses with their name.
bool lowerMatrixFragments(llvm::Module &module);

} // namespace simulee::ir
