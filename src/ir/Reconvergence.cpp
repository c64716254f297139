#include "ir/Reconvergence.h"

#include <llvm/IR/CFG.h>
#include <llvm/IR/Instructions.h>

#include <bit>
#include <vector>

namespace simulee::ir {
namespace {

// The blocks from which a return is reachable.
llvm::DenseMap<const llvm::BasicBlock *, unsigned> returningBlocks(llvm::Function &function) {
  std::vector<const llvm::BasicBlock *> pending;
  for (const llvm::BasicBlock &block : function)
    if (llvm::isa<llvm::ReturnInst>(block.getTerminator()))
      pending.push_back(&block);
  llvm::DenseMap<const llvm::BasicBlock *, unsigned> index;
  for (const llvm::BasicBlock *block : pending)
    index.try_emplace(block, 0);
  while (!pending.empty()) {
    const llvm::BasicBlock *block = pending.back();
    pending.pop_back();
    for (const llvm::BasicBlock *predecessor : llvm::predecessors(block))
      if (index.try_emplace(predecessor, 0).second)
        pending.push_back(predecessor);
  }
  return index;
}

} // namespace

ReconvergencePoints::ReconvergencePoints(llvm::Function &function) : tree_(function) {
  llvm::DenseMap<const llvm::BasicBlock *, unsigned> returning = returningBlocks(function);
  if (returning.size() == function.size())
    return; // every path returns: the tree is the answer
  // Post-dominator sets over the returning blocks, as bit sets: a block's is
  // itself and what every returning successor's holds.
  std::vector<const llvm::BasicBlock *> blocks;
  for (const llvm::BasicBlock &block : function)
    if (returning.count(&block)) {
      returning[&block] = unsigned(blocks.size());
      blocks.push_back(&block);
    }
  size_t words = (blocks.size() + 63) / 64;
  std::vector<uint64_t> sets(blocks.size() * words, ~uint64_t(0));
  auto set = [&](size_t b) { return sets.data() + b * words; };
  for (size_t b = 0; b < blocks.size(); ++b)
    if (llvm::isa<llvm::ReturnInst>(blocks[b]->getTerminator())) {
      std::fill(set(b), set(b) + words, 0);
      set(b)[b / 64] |= uint64_t(1) << (b % 64);
    }
  std::vector<uint64_t> next(words);
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t b = blocks.size(); b-- > 0;) {
      if (llvm::isa<llvm::ReturnInst>(blocks[b]->getTerminator()))
        continue;
      std::fill(next.begin(), next.end(), ~uint64_t(0));
      for (const llvm::BasicBlock *successor : llvm::successors(blocks[b]))
        if (auto found = returning.find(successor); found != returning.end())
          for (size_t w = 0; w < words; ++w)
            next[w] &= set(found->second)[w];
      next[b / 64] |= uint64_t(1) << (b % 64);
      if (!std::equal(next.begin(), next.end(), set(b))) {
        std::copy(next.begin(), next.end(), set(b));
        changed = true;
      }
    }
  }
  // The immediate post-dominator is the strict one closest to the block:
  // the one with the most post-dominators of its own.
  std::vector<size_t> sizes(blocks.size(), 0);
  for (size_t b = 0; b < blocks.size(); ++b)
    for (size_t w = 0; w < words; ++w)
      sizes[b] += size_t(std::popcount(set(b)[w]));
  overReturning_.emplace();
  for (size_t b = 0; b < blocks.size(); ++b) {
    const llvm::BasicBlock *closest = nullptr;
    size_t closestSize = 0;
    for (size_t w = 0; w < words; ++w)
      for (uint64_t bits = set(b)[w]; bits; bits &= bits - 1) {
        size_t c = w * 64 + size_t(std::countr_zero(bits));
        if (c != b && sizes[c] > closestSize) {
          closest = blocks[c];
          closestSize = sizes[c];
        }
      }
    (*overReturning_)[blocks[b]] = closest;
  }
}

const llvm::BasicBlock *ReconvergencePoints::of(const llvm::BasicBlock *block) const {
  if (overReturning_) {
    auto found = overReturning_->find(block);
    return found == overReturning_->end() ? nullptr : found->second;
  }
  llvm::DomTreeNode *node = tree_.getNode(block);
  if (!node || !node->getIDom())
    return nullptr;
  return node->getIDom()->getBlock();
}

} // namespace simulee::ir
