// Where the paths of a divergent branch meet again (the SIMT stack's
// reconvergence points): the branch's immediate post-dominator, over the
// paths that return. A path that can only end in `unreachable` (a trap, an
// assert, the fallback of a call through a function pointer) ends its
// threads there and holds no other thread back: counting it as an exit, as
// LLVM's post-dominator tree does, would leave the lanes of a branch
// around a virtual call apart until the function returns, and a barrier
// after the branch would look divergent.
#pragma once

#include <llvm/ADT/DenseMap.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/IR/Function.h>

#include <optional>

namespace simulee::ir {

class ReconvergencePoints {
public:
  explicit ReconvergencePoints(llvm::Function &function);

  // The block where the paths leaving `block` meet again; null when they
  // meet only as the function ends (several returns), or `block` cannot
  // return at all.
  const llvm::BasicBlock *of(const llvm::BasicBlock *block) const;

private:
  llvm::PostDominatorTree tree_;
  // When some block cannot return: the immediate post-dominators over the
  // blocks that can.
  std::optional<llvm::DenseMap<const llvm::BasicBlock *, const llvm::BasicBlock *>> overReturning_;
};

} // namespace simulee::ir
