#include "report/FindingRules.h"

#include "support/Assert.h"

namespace simulee::report {

using detect::FindingKind;

const std::array<FindingRule, detect::kFindingKinds> &findingRules() {
  static const std::array<FindingRule, detect::kFindingKinds> rules = {{
      {FindingKind::DataRace, "correctness", "Data race between two threads of a CUDA kernel.",
       "Two accesses to overlapping bytes, at least one a write and not both atomic, from "
       "different threads that nothing orders: different blocks on global memory, different "
       "warps between the same two barriers, or one warp on different sides of a divergent "
       "branch (or both writing from the same instruction in one lockstep step).",
       "Separate the two accesses with __syncthreads() (or __syncwarp() within a warp), make "
       "them atomic, or give each thread its own location."},
      {FindingKind::RedundantBarrier, "performance",
       "Barrier that orders nothing in any judged launch, even on GPUs with independent thread "
       "scheduling.",
       "Every executed instance of this barrier, in every judged launch, separates accesses "
       "that could be merged into one visit order without creating a data race under "
       "independent thread scheduling (Volta and later), and some instance separated accesses "
       "of one variable by several warps on both sides. Barriers reported together were "
       "re-simulated removed together; a group means only one of them can go.",
       "Check whether the barrier is needed for launches that were not simulated; if not, "
       "remove it to save a block-wide synchronization."},
      {FindingKind::BarrierDivergence, "correctness", "Barrier reached by only part of a block.",
       "A warp reached the barrier with only part of its live lanes, or some threads of the "
       "block exited or waited at a different barrier while others waited here. The behaviour "
       "is undefined in CUDA.",
       "Move the barrier out of the divergent branch, or make every thread of the block take "
       "the branch."},
      {FindingKind::OutOfBounds, "correctness", "Memory access outside its buffer.",
       "A thread read or wrote bytes outside the buffer its pointer refers to (or outside "
       "every buffer). The access was not performed in the simulation.",
       "Guard the access with a bounds check against the buffer's size, or fix the index "
       "computation."},
      {FindingKind::UnreachedBarrier, "coverage", "Barrier never executed in any judged launch.",
       "No simulated launch executed this barrier, so whether it is needed was not checked.",
       "Simulate a launch that reaches the barrier (other dimensions or arguments) to check "
       "it."},
      {FindingKind::UninitializedRead, "correctness",
       "Read of shared memory no thread of the block has written.",
       "A thread read (or atomically updated) bytes of a __shared__ variable that no thread of "
       "its block had written before: shared memory starts with whatever the hardware left "
       "there, so the value is garbage.",
       "Initialise the shared variable (and separate the initialisation from the read with "
       "__syncthreads()) before reading it."},
      {FindingKind::UndefinedBehavior, "correctness", "Undefined behaviour executed by a thread.",
       "A thread shifted by at least the bit width, divided an integer by zero (or INT_MIN by "
       "-1), or accessed memory through a null, wild or misaligned pointer. The simulation did "
       "not perform the operation and stopped the thread there.",
       "Guard the operation (check the divisor, the shift amount or the pointer), or fix the "
       "computation that produced its operand."},
      {FindingKind::AssertionFailed, "correctness", "A device-side assert failed.",
       "A thread's assert() condition was false. On a GPU the kernel stops there, the launch's "
       "next synchronizing call returns cudaErrorAssert and the context cannot be used again: "
       "every later CUDA call fails.",
       "Fix what made the condition false (the kernel's inputs or its computation), or the "
       "assertion if it is wrong."},
      {FindingKind::AtomicityViolation, "correctness",
       "Two atomic accesses meant as one step, with another thread's access between them.",
       "A thread made two atomic accesses to one address that its code treats as one step (a "
       "value read and written back, a check and then an act on it, a value written and read "
       "back), and another thread's atomic access to that address can run between them: each "
       "access is atomic, so there is no data race, but the pair is not. Patterns: "
       "read-write-read, read-write-write (lost update), write-read-write, write-write-read, "
       "check-then-act.",
       "Make the pair one atomic operation: one atomicAdd/atomicSub/atomicExch that does the "
       "whole update, atomicMax/atomicMin for a bound, or an atomicCAS loop that retries when the "
       "value changed since it was read."},
  }};
  return rules;
}

uint32_t ruleIndex(FindingKind kind) {
  auto index = static_cast<uint32_t>(kind);
  SIMULEE_ASSERT(index < findingRules().size(), "finding kind without a rule");
  return index;
}

const FindingRule &ruleFor(FindingKind kind) {
  const FindingRule &rule = findingRules()[ruleIndex(kind)];
  SIMULEE_ASSERT(rule.kind == kind, "rule table out of FindingKind order");
  return rule;
}

const char *ruleId(FindingKind kind) { return detect::findingKindName(kind); }

Severity severityOf(FindingKind kind) {
  return detect::isBug(kind) ? Severity::Warning : Severity::Note;
}

Severity severityOf(const detect::Finding &finding) {
  return detect::isBug(finding) ? Severity::Warning : Severity::Note;
}

const char *severityName(Severity severity) {
  return severity == Severity::Warning ? "warning" : "note";
}

} // namespace simulee::report
