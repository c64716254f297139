// What a kernel's code says its buffers hold, where CUDA code conventionally
// assumes it without checking (DESIGN.md's conventions for free values):
// indices are in range of what they index, and a buffer of offsets (CSR row
// offsets, segment or bucket starts) is non-decreasing. A search fills such
// a buffer that way first, and a finding seen only with other contents is a
// note naming the condition.
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
//    an address (`in[idx[i]]`, `out[perm[i] * 4 + k]`), and it is no offsets.
//  - None: anything else, and parameters that are no pointers.
std::vector<ContentRole> contentRoles(const llvm::Function &kernel);

} // namespace simulee::ir
