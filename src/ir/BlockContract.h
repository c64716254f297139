// The block shape a kernel's CUB block collectives were instantiated for.
// cub::BlockReduce<int, 128>, BlockScan, BlockLoad, BlockRadixSort and the
// rest take the block's dimensions as template arguments (BLOCK_DIM_X, _Y,
// _Z) and work only in blocks of exactly that shape, a contract CUB states
// and nothing checks at run time. A launch of another shape is one the
// program cannot correctly make, so the search keeps to this one.
#pragma once

#include <llvm/IR/Function.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace simulee::ir {

struct BlockContract {
  std::array<uint32_t, 3> dims{1, 1, 1};
  std::string source; // "cub::BlockReduce (BLOCK_DIM_X = 128)"
};

// From the debug info of the code the kernel runs (CUB's functions, its own
// callees): the one shape all its CUB collectives agree on; none when it uses
// none, or they disagree. Needs the debug info as clang wrote it: before
// inlineCudaHeaderFunctions attributes CUB's lines to the user's.
std::optional<BlockContract> blockContractOf(const llvm::Function &kernel);

// A 1-D kernel written for one block size: every thread stores into a
// static __shared__ array of N < 1024 elements at index threadIdx.x (a block
// reduction's `s[tid] = ...`), so blocks of fewer threads leave slots no one
// writes and blocks of more overrun it. N threads; none when the kernel uses
// threadIdx.y or .z, or its arrays disagree. A kernel meant for any block
// size sizes its array for 1024 threads or uses dynamic shared memory.
// Likewise a 2-D kernel storing into a static __shared__ tile of R x C
// elements (powers of two, 32 to 1024 in all) at [threadIdx.y][threadIdx.x]
// (a tiled matrix product's `A_tile[ty][tx] = ...`): blocks of C x R
// threads; none when it reads threadIdx.z or its tiles disagree.
std::optional<BlockContract> sharedArrayContractOf(const llvm::Function &kernel);

// Records each kernel's contract on it (function attributes), for
// `recordedBlockContract` after the header functions are inlined.
void recordBlockContracts(llvm::Module &module);
std::optional<BlockContract> recordedBlockContract(const llvm::Function &kernel);

} // namespace simulee::ir
