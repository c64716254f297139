// What a kernel's code says its buffers hold, where CUDA code conventionally
// assumes it without checking (DESIGN.md's conventions for free values):
// indices are in range of what they index, and distinct where they say where
// to store, a buffer of offsets (CSR row offsets, segment or bucket starts)
// is non-decreasing, a buffer a kernel binary-searches is sorted, and an
// integer it masks with is a power of two. A search fills such a buffer and
// picks such an integer that way first, and a finding seen only otherwise is
// a note naming the condition.
#pragma once

#include "ir/Program.h"

#include <vector>

namespace llvm {
class Function;
}

namespace simulee::ir {

// By parameter of `kernel`, what its contents are to the code:
//  - Offsets: two reads through the parameter bound one loop: one starts it
//    and the other ends it (`for (j = start[r]; j < start[r + 1]; ++j)`), or
//    both give its trip count (`j < start[r + 1] - start[r]`). A single read
//    bounding a loop is a count, which any value may be.
//  - Index: a value read through it (or computed from one) is an index of
//    an address (`in[idx[i]]`, `hist[bin[i]] += w`), and it is no offsets.
//  - Scatter: an Index whose address only plain stores write through, never
//    read (`out[perm[i] * 4 + k] = v`): threads store to places the caller
//    keeps apart. An accumulation (`out[idx[i]] += v`), read and written,
//    stays an Index: its indices may repeat, which is its race to find.
//  - Sorted: a value read through it in a loop, compared, decides where the
//    loop reads it next (`if (keys[mid] < q) lo = mid + 1; else hi = mid;`):
//    a search, which finds what it looks for only in sorted contents. Not
//    when the value itself indexes (that is an Index).
//  - None: anything else, and parameters that are no pointers.
std::vector<ContentRole> contentRoles(const llvm::Function &kernel);

// By parameter of `kernel`, for an integer the code masks with, in the
// kernel or a function it passes the integer to (a few calls deep), the
// least power of two it may conventionally be: `x & (n - 1)` gives 1,
// `blockIdx.x & ((2 * stride) / 128 - 1)` gives 64 (2 * stride / 128 a
// power of two of at least 1). The integer reaches the mask through casts
// and multiplications, divisions and shifts by powers of two; `n & (n - 1)`
// tests whether it is one, and is no mask. 0 for any other parameter.
std::vector<uint64_t> maskedIntegers(const llvm::Function &kernel);

// By parameter of `kernel`, the values read through it that keep the
// kernel's keyed accesses of fixed-size arrays (a static `__shared__` or
// `__device__` array) in bounds: the access's index is computed from the
// value alone by casts and additions, subtractions, multiplications,
// divisions and shifts by constants (`hist[(c - 'a') / 4]` into 7 bins:
// 97..124), inverted from the array's extent; intersected over every such
// access of the parameter. None for other parameters, and where the ranges
// do not meet.
std::vector<std::optional<std::pair<int64_t, int64_t>>> keyRanges(const llvm::Function &kernel);

// The pointer parameters, by number, whose contents the address of the
// access `instruction` (a load, store, atomic or memory builtin; a Program
// instruction id) is computed from as keys: a value read through the
// parameter is rebased or scaled down on its way (`hist[(a[i] - 'a') / 4]`,
// `bins[v >> 4]`), or added to a thread's or block's index (`H + blockIdx.x
// * BINS + A[i]`: an offset into the block's slice), so it is no index of
// what it addresses but a character, a pixel, an offset. Values used as
// indices (`in[slot[i] + 1]`, `out[perm[i] * 4 + k]`) are not keys. Empty
// for any other instruction, and for an access outside `kernel`'s own code
// (a called function's parameters are not the kernel's).
std::vector<uint32_t> keyedAddressParameters(const Program &program, const KernelInfo &kernel,
                                             uint32_t instruction);

// Every parameter whose contents the address of access `instruction` is
// computed from, keys or indices (`hist[A[i]]`: A); empty where the address
// reads no buffer (`tile[(t + 1) * 2 * s - 1]`), and for an access outside
// `kernel`'s own code, as above.
std::vector<uint32_t> addressParameters(const Program &program, const KernelInfo &kernel,
                                        uint32_t instruction);

// Every parameter whose contents an operand of the arithmetic `instruction`
// (a division, remainder or shift, on which undefined behaviour hangs: `x /
// data[i].maxVal`) is computed from; empty for other instructions, where
// the operands read no buffer, and outside `kernel`'s own code, as above.
std::vector<uint32_t> operandParameters(const Program &program, const KernelInfo &kernel,
                                        uint32_t instruction);

} // namespace simulee::ir
