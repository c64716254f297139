// A kernel launch the file's host code makes (`k<<<grid, block, shmem,
// stream>>>(args)`, cudaLaunchKernel, cudaLaunchCooperativeKernel), as read
// from clang's AST of the host-side compile: where it is, which kernel
// instantiation it launches, and what it passes. Each of grid, block, shared
// bytes and every argument is a constant, a formula over other arguments of
// the same launch (grid.x = (n + 255) / 256 with n passed as an argument),
// or unknown. The session searches a kernel inside what its sites allow.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace simulee::host {

// An integer expression over the values a launch passes as kernel
// arguments, with C++'s 64-bit integer semantics. Operands precede their
// operator in `nodes`; the last node is the root.
struct Formula {
  enum class Op : uint8_t {
    Constant, // `value`
    Argument, // the integer passed as kernel argument `argument`
    Neg,
    Not,
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    And,
    Or,
    Xor,
    Min, // std::min, min
    Max,
    // Comparisons and logic, 1 for true and 0 for false (a site's
    // constraints: `n % 32 == 0`, `(n & (n - 1)) == 0 && n > 0`).
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    LogicalAnd,
    LogicalOr,
    LogicalNot, // lhs only
    // A helper of the program's with loops (`floor_pow2(n)`): procedure
    // `argument` of `procedures` run on lhs (and rhs, where `value` is 2).
    Call,
  };
  struct Node {
    Op op = Op::Constant;
    int64_t value = 0;         // Constant; Call: its number of operands
    uint32_t argument = 0;     // Argument; Call: the procedure
    uint32_t lhs = 0, rhs = 0; // operand node indices (Neg/Not: lhs only)
    bool operator==(const Node &) const = default;
  };
  std::vector<Node> nodes;
  std::vector<std::shared_ptr<const struct Procedure>> procedures;

  static Formula constant(int64_t value);
  static Formula argument(uint32_t index);
  static Formula unary(Op op, const Formula &operand);
  static Formula binary(Op op, const Formula &lhs, const Formula &rhs);
  // `procedure` run on `operands` (one or two).
  static Formula call(std::shared_ptr<const Procedure> procedure,
                      const std::vector<Formula> &operands);

  // The arguments the formula reads, ascending, without repeats.
  std::vector<uint32_t> arguments() const;
  // A condition split at its outermost `&&`s (`n >= 128 && m >= 128`: two),
  // each part non-zero exactly when the whole is.
  std::vector<Formula> conjuncts() const;
  bool operator==(const Formula &) const = default;
};

// A helper function of the host program, as straight-line steps over its
// locals (its parameters first): assignments, jumps where a condition is
// false, and returns, each expression a Formula whose arguments are the
// locals. Run by evaluate() for at most kMostSteps steps.
struct Procedure {
  struct Step {
    enum class Kind : uint8_t { Assign, JumpUnless, Jump, Return };
    Kind kind = Kind::Return;
    uint32_t local = 0;  // Assign: the local set
    uint32_t target = 0; // JumpUnless, Jump: the step to go on at
    Formula expression;  // Assign, JumpUnless (the condition), Return
  };
  static constexpr uint64_t kMostSteps = 1u << 16;
  std::string name;
  uint32_t parameters = 0, locals = 0;
  std::vector<Step> steps;
};

// Value of argument `index`, or nullopt when it has none.
using ArgumentValues = std::function<std::optional<int64_t>(uint32_t index)>;

// `formula` with each argument replaced by the formula `leaf` gives it, or
// nullopt when `leaf` gives one none.
std::optional<Formula>
substitute(const Formula &formula,
           const std::function<std::optional<Formula>(uint32_t index)> &leaf);

// nullopt when an argument has no value, on division by zero, or on a shift
// by a negative amount or by 64 or more.
std::optional<int64_t> evaluate(const Formula &formula, const ArgumentValues &arguments);

// What a launch passes in one position.
struct SiteValue {
  enum class Kind : uint8_t { Unknown, Constant, Formula };
  Kind kind = Kind::Unknown;
  std::string text; // as written at the site ("(n + 255) / 256"); empty for defaults
  // Constant: an integer, or a floating-point value when isFloat.
  bool isFloat = false;
  int64_t integer = 0;
  double real = 0;
  host::Formula formula; // Kind::Formula

  static SiteValue unknown(std::string text);
  static SiteValue ofInteger(int64_t value, std::string text);
  static SiteValue ofReal(double value, std::string text);
  static SiteValue ofFormula(host::Formula formula, std::string text);

  bool isConstant() const { return kind == Kind::Constant; }
  bool isFormula() const { return kind == Kind::Formula; }
  bool isUnknown() const { return kind == Kind::Unknown; }
  bool operator==(const SiteValue &) const = default;
};

enum class LaunchForm : uint8_t { TripleChevron, LaunchKernel, LaunchCooperativeKernel };

struct CallSite {
  std::string file; // as clang names it (the path given, or an #included file's)
  uint32_t line = 0;
  uint32_t column = 0;
  LaunchForm form = LaunchForm::TripleChevron;
  std::string kernel;                         // source name, "reduce"
  std::string mangledName;                    // the device-side symbol (ir::KernelInfo::name)
  std::vector<std::string> templateArguments; // "128", "float"
  SiteValue grid[3], block[3];
  SiteValue sharedBytes;
  std::vector<SiteValue> arguments; // one per kernel parameter, in order
  // A site read from the compiled host code (host/HostIrLaunches.h) has no
  // `arguments`: what its host stub is passed instead, one per argument of
  // the stub's lowered x86-64 signature (a by-value struct of 9 to 16 bytes
  // is two; one of no bytes none), constant where the optimised code folds it.
  std::vector<SiteValue> loweredArguments;
  // Per kernel parameter: for a pointer the host allocated itself, the
  // allocation's size in bytes (a constant, or a formula over the launch's
  // integer arguments) and where it was made ("cudaMalloc at main.cu:40");
  // unknown and empty otherwise.
  std::vector<SiteValue> allocationBytes;
  std::vector<std::string> allocations;
  // Per kernel parameter with an allocation: how far into it the pointer
  // points, in bytes (`d_in + RADIUS`: RADIUS times the element size); 0 for
  // the allocation's start.
  std::vector<SiteValue> allocationOffsets;
  // Per kernel parameter with an allocation: the first parameter before it
  // that the host passes a pointer into the same allocation (`k<<<g,
  // b>>>(d, d, n)`: 0 for the second), else -1. Both point into one buffer.
  std::vector<int32_t> allocationAliasOf;
  // The host raises the kernel's dynamic shared memory limit past 48 KiB
  // (`cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
  // bytes)` anywhere in its code), so launches with more are the program's.
  bool sharedOptIn = false;
  // Where the site is read at its loop's last iteration (a pointer moved
  // through its allocation by the loop variable): the values, "s = 3".
  std::string lastIteration;
  // Where the site is one of several read at iterations of the loops around
  // the launch (its grid computed from a loop variable no argument passes):
  // that iteration's values, "segment = 2048".
  std::string iteration;
  // Per kernel parameter: the host's last write into the buffer before the
  // launch was `cudaMemset(p, 0, ...)`, so it holds zeros.
  std::vector<bool> zeroed;
  // Per kernel parameter: the host's last write into the buffer before the
  // launch copied a host array there (`cudaMemcpy(d, h, ...)`) that it
  // filled element by element in a counted loop from 0 (`for (int i = 0; i <
  // n; ++i) h[i] = i * 4;`): each element's value, a formula over the
  // launch's arguments and the element's index (argument kElementIndex),
  // for the loop's `count` elements. count 0: nothing known.
  static constexpr uint32_t kElementIndex = 0xFFFFFFF0u;
  struct HostContents {
    Formula element;
    int64_t count = 0;
    std::string text; // as written: "i * NUM_ELEMS"
    bool operator==(const HostContents &) const = default;
  };
  std::vector<HostContents> contents;
  // Conditions over the launch's integer arguments that hold whenever the
  // host code reaches the launch: an `assert` or an early exit (`if (n % 32)
  // return 1;`) before it, the branch of an `if` it sits in, the range of a
  // loop variable it passes. A launch violating one is not the program's.
  struct Constraint {
    Formula holds;    // non-zero when the condition holds
    std::string text; // as written: "n % 32 == 0", "!(n <= 0)"
    bool operator==(const Constraint &) const = default;
  };
  std::vector<Constraint> constraints;
  // The numbers and pointers inside a by-value struct argument that the host
  // fills before the launch (`Params p = {d_in, d_out, n};`, `p.n = n;`,
  // `cudaMalloc(&p.in, bytes)`), one per member something is known of.
  struct Member {
    uint32_t param = 0; // the kernel parameter the struct is passed as
    std::string path;   // "n", "dims.width": the member's names joined by dots
    SiteValue value;    // a number's value (constant or formula); unknown for pointers
    // A number the host copies from a variable nothing is known of (`p.n =
    // n;` with n read at run time): searched, and the site's formulas refer
    // to it as argument index *leaf (past the kernel's parameters), so that a
    // grid of (n + 255) / 256 and a cudaMalloc(&p.in, n * 4) follow it.
    std::optional<uint32_t> leaf;
    // A pointer's allocation, as allocationBytes and allocations say for a
    // pointer parameter; unknown and empty otherwise.
    SiteValue allocationBytes;
    std::string allocation;
    bool operator==(const Member &) const = default;
  };
  std::vector<Member> members;
  // Integer variables of the host code that the launch's values are computed
  // from but that no argument passes and nothing is known of (a block size
  // read from the command line, a launcher's parameter no call fixes):
  // searched, one value each, and the site's formulas refer to each as
  // argument `index` (past the kernel's parameters and the struct leaves),
  // so that a block of `threads`, `threads * sizeof(float)` shared bytes
  // and a grid of `(n + threads - 1) / threads` follow one choice.
  struct Variable {
    std::string name; // as declared: "threads"
    uint32_t index = 0;
    uint32_t bits = 32;
    bool isSigned = true;
    bool operator==(const Variable &) const = default;
  };
  std::vector<Variable> variables;

  // Equal in every value read: the same launch to judge.
  bool operator==(const CallSite &) const = default;
};

// The device-side symbol of a kernel. In the host-side compile clang mangles
// a kernel as its stub (`_Z17__device_stub__trPfS_ii`); the device compile
// names it `_Z2trPfS_ii`: the same mangling without the prefix.
std::string deviceSymbol(const std::string &hostSymbol);

// "file:line".
std::string locationText(const CallSite &site);

// One line: "reduce<128><<<(n + 255) / 256, 256, 0>>>(in, out, n)" with the
// values as written and what they mean ("n: searched", constants folded).
std::string describe(const CallSite &site);

// "256", "(n + 255) / 256", "?" for a value nothing is known of.
std::string describe(const SiteValue &value);

// A formula as text when its source text is not known: "((argument 2 * 4) + 1)".
std::string formulaText(const Formula &formula);

// "16, 16, 1".
std::string describeDims(const SiteValue (&dims)[3]);

} // namespace simulee::host
