// Loads and stores of a kernel that no other thread's access can conflict
// with, so the Memory-Access Model need not track them (GMRace's static
// pruning; issue 18, DESIGN.md "Untracked accesses"). Two kinds, each decided
// per pointer parameter, for every access made through it:
//
//  - read-only: nothing in the kernel writes through the parameter (no
//    store, atomic or memcpy into it; it never escapes into memory, a call or
//    an integer) and no write goes through a pointer of unknown origin (one
//    loaded from memory, a callee's argument). Two reads never conflict.
//  - thread-private: every access through the parameter has a byte offset
//    a * (G + k * T) + c, with G = blockIdx.x * blockDim.x + threadIdx.x,
//    T = blockDim.x * gridDim.x, k any integer (a grid-stride loop), one
//    coefficient a != 0 for all, and every [c, c + size) inside one window of
//    |a| bytes; and no access at all goes through a pointer of unknown
//    origin. In a one-dimensional launch (grid and block of height and depth
//    1) of fewer than 2^31 threads, G is distinct per thread in [0, T), so
//    two threads never touch the same byte through the parameter. Exact
//    unless the index arithmetic overflows its type (undefined for signed
//    integers; for unsigned ones it needs buffers of 2^32 - T elements).
//    Or, in two dimensions, a * (G + W * R) + c with R = blockIdx.y *
//    blockDim.y + threadIdx.y and W a constant or an integer parameter (a
//    row-major `c[row * width + col]`), no grid-stride term: in a launch of
//    depth 1 whose row G never reaches W (W >= gridDim.x * blockDim.x) and
//    whose rows times W stay below 2^31, G + W * R is distinct per thread.
//
//  - texture fetches, read-only: a fetch through the texture a parameter
//    passes (to the functions the kernel calls too: every call of them
//    passes that parameter), in a kernel that stores through no surface (nor through a
//    pointer of unknown origin). Its texels can conflict only with writes
//    through a pointer parameter into the same buffer.
//
// All assume no two pointer or texture parameters point into one buffer
// and none into a __device__ variable: interp::untrackedInstructions checks
// that, and the launch's shape, per launch.
#pragma once

#include <cstdint>
#include <vector>

namespace llvm {
class Function;
class Instruction;
} // namespace llvm

namespace simulee::ir {

struct ConflictFreeAccess {
  const llvm::Instruction *instruction = nullptr;
  uint32_t param = 0;          // the pointer (or texture) parameter it goes through
  bool threadPrivate = false;  // false: read-only; true: needs a 1-D launch
  // Thread-private in rows: the row width, a constant (in the accesses'
  // coefficients) or the integer parameter rowWidthParam; 0 and -1: 1-D.
  int64_t rowWidth = 0;
  int32_t rowWidthParam = -1;
};

// Every conflict-free load and store of `kernel` (in the kernel's own body;
// accesses in the functions it calls are always tracked), and its
// conflict-free texture fetches (in the functions it calls too).
std::vector<ConflictFreeAccess> conflictFreeAccesses(const llvm::Function &kernel);

} // namespace simulee::ir
