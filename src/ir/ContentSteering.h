// Whether the contents of memory can steer a kernel: decide a branch, an
// address, a divisor or shift amount, a float-to-integer conversion, or
// anything else whose outcome the detectors read. When they cannot, every
// launch with one grid, block and scalar arguments executes the same
// instructions at the same addresses whatever its buffers hold, so the
// program's own launch (everything fixed by its call site) needs judging
// once, not once per content variant (issue 18, "a fixed launch is judged
// once").
#pragma once

namespace llvm {
class Function;
}

namespace simulee::ir {

// A forward taint analysis over the kernel and every function it calls:
// values read from memory (loads, atomics, calls that read memory) are
// tainted, and so is whatever is computed from them; the answer is true
// when a tainted value reaches a use that changes control flow, addresses
// or undefined behaviour. Conservative: inline assembly, indirect calls and
// calls to unknown functions with tainted arguments count as steering.
bool contentsSteer(const llvm::Function &kernel);

} // namespace simulee::ir
