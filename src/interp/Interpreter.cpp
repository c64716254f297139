#include "interp/Interpreter.h"

#include "interp/ChosenValue.h"
#include "interp/DevicePrintf.h"
#include "interp/MathLibrary.h"
#include "interp/Memory.h"
#include "interp/NamedBarriers.h"
#include "interp/ParallelBlocks.h"
#include "interp/Warp.h"
#include "ir/PointerEncoding.h"
#include "jit/Engine.h"
#include "support/Assert.h"
#include "support/MemoryLimit.h"
#include "support/SimulatedDevice.h"

#include <algorithm>
#include <barrier>
#include <bit>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <optional>
#include <set>
#include <thread>

namespace simulee::interp {
namespace {

using ir::Instr;
using ir::Op;

constexpr uint32_t kMaxCallDepth = 256;
constexpr uint32_t kMaxLocalBytesPerThread = 1u << 20;

template <class F> inline void forEachLane(LaneMask mask, F &&f) {
  if (mask == kAllLanes) {
    for (unsigned lane = 0; lane < kWarpSize; ++lane)
      f(lane);
    return;
  }
  while (mask) {
    unsigned lane = unsigned(std::countr_zero(mask));
    mask &= mask - 1;
    f(lane);
  }
}

bool compareInts(ir::IntPredicate pred, uint64_t a, uint64_t b, unsigned width) {
  int64_t sa = signExtend(a, width), sb = signExtend(b, width);
  switch (pred) {
  case ir::IntPredicate::EQ: return a == b;
  case ir::IntPredicate::NE: return a != b;
  case ir::IntPredicate::UGT: return a > b;
  case ir::IntPredicate::UGE: return a >= b;
  case ir::IntPredicate::ULT: return a < b;
  case ir::IntPredicate::ULE: return a <= b;
  case ir::IntPredicate::SGT: return sa > sb;
  case ir::IntPredicate::SGE: return sa >= sb;
  case ir::IntPredicate::SLT: return sa < sb;
  case ir::IntPredicate::SLE: return sa <= sb;
  }
  return false;
}

uint64_t integerOp(Op op, uint64_t a, uint64_t b, unsigned width) {
  const uint64_t mask = widthMask(width);
  switch (op) {
  case Op::Add: return (a + b) & mask;
  case Op::Sub: return (a - b) & mask;
  case Op::Mul: return (a * b) & mask;
  case Op::UDiv: return b == 0 ? mask : a / b;
  case Op::URem: return b == 0 ? a : a % b;
  case Op::SDiv: {
    int64_t sa = signExtend(a, width), sb = signExtend(b, width);
    if (sb == 0)
      return mask;
    if (sb == -1)
      return (uint64_t(0) - uint64_t(sa)) & mask; // INT_MIN / -1 is reported before
    return uint64_t(sa / sb) & mask;
  }
  case Op::SRem: {
    int64_t sa = signExtend(a, width), sb = signExtend(b, width);
    if (sb == 0)
      return a;
    if (sb == -1)
      return 0;
    return uint64_t(sa % sb) & mask;
  }
  case Op::Shl: return b >= width ? 0 : (a << b) & mask;
  case Op::LShr: return b >= width ? 0 : a >> b;
  case Op::AShr: {
    int64_t sa = signExtend(a, width);
    if (b >= width)
      return sa < 0 ? mask : 0;
    return uint64_t(sa >> b) & mask;
  }
  case Op::And: return a & b;
  case Op::Or: return a | b;
  case Op::Xor: return a ^ b;
  default: return 0;
  }
}

// PTX fns: the position of the |offset|-th set bit of `mask` counted from
// bit `base` upward (offset > 0) or downward (offset < 0); offset 0: base
// itself if set. ~0u when there is none.
uint32_t findNthSet(uint32_t mask, uint32_t base, int32_t offset) {
  if (base > 31)
    return ~0u;
  if (offset == 0)
    return (mask >> base & 1) ? base : ~0u;
  int64_t count = offset > 0 ? int64_t(offset) - 1 : -int64_t(offset) - 1;
  int step = offset > 0 ? 1 : -1;
  for (int position = int(base); position >= 0 && position < 32; position += step)
    if (mask >> position & 1) {
      if (count == 0)
        return uint32_t(position);
      --count;
    }
  return ~0u;
}

// The undefined behaviour `op` would execute on these operands, if any.
std::optional<UndefinedBehavior> integerUndefinedBehavior(Op op, uint64_t a, uint64_t b,
                                                          unsigned width) {
  const uint64_t mask = widthMask(width);
  switch (op) {
  case Op::Shl: case Op::LShr: case Op::AShr:
    if ((b & mask) >= width)
      return UndefinedBehavior::ShiftTooLarge;
    return std::nullopt;
  case Op::UDiv: case Op::URem: case Op::SDiv: case Op::SRem:
    if ((b & mask) == 0)
      return UndefinedBehavior::DivisionByZero;
    if ((op == Op::SDiv || op == Op::SRem) && signExtend(b, width) == -1 &&
        (a & mask) == (uint64_t(1) << (width - 1)))
      return UndefinedBehavior::DivisionOverflow;
    return std::nullopt;
  default:
    return std::nullopt;
  }
}

// Loads and stores must be aligned to their size (a misaligned address
// faults on the GPU).
bool isMisaligned(uint64_t offset, uint64_t size) {
  return size <= 16 && (size & (size - 1)) == 0 && (offset & (size - 1)) != 0;
}

uint64_t atomicResult(ir::AtomicOp op, uint64_t old, uint64_t value, unsigned width) {
  const uint64_t mask = widthMask(width);
  int64_t so = signExtend(old, width), sv = signExtend(value, width);
  switch (op) {
  case ir::AtomicOp::Xchg: return value;
  case ir::AtomicOp::Add: return (old + value) & mask;
  case ir::AtomicOp::Sub: return (old - value) & mask;
  case ir::AtomicOp::And: return old & value;
  case ir::AtomicOp::Or: return old | value;
  case ir::AtomicOp::Xor: return old ^ value;
  case ir::AtomicOp::Max: return uint64_t(std::max(so, sv)) & mask;
  case ir::AtomicOp::Min: return uint64_t(std::min(so, sv)) & mask;
  case ir::AtomicOp::UMax: return std::max(old, value);
  case ir::AtomicOp::UMin: return std::min(old, value);
  case ir::AtomicOp::FAdd: return floatArithmetic(Op::FAdd, old, value, width);
  case ir::AtomicOp::FSub: return floatArithmetic(Op::FSub, old, value, width);
  case ir::AtomicOp::FMax: return mathBinary(ir::MathFunction::Fmax, old, value, width);
  case ir::AtomicOp::FMin: return mathBinary(ir::MathFunction::Fmin, old, value, width);
  case ir::AtomicOp::UIncWrap: return old >= value ? 0 : (old + 1) & mask;
  case ir::AtomicOp::UDecWrap: return (old == 0 || old > value) ? value : old - 1;
  }
  return old;
}

// PTX redux.sync: the 32-bit values of the lanes of `group` combined.
uint64_t warpReduce(ir::WarpReduceOp op, LaneMask group, const uint64_t *value) {
  uint32_t result = op == ir::WarpReduceOp::Min   ? uint32_t(INT32_MAX)
                    : op == ir::WarpReduceOp::Max ? uint32_t(INT32_MIN)
                    : op == ir::WarpReduceOp::UMin || op == ir::WarpReduceOp::And ? ~0u
                                                                                  : 0u;
  forEachLane(group, [&](unsigned l) {
    uint32_t v = uint32_t(value[l]);
    switch (op) {
    case ir::WarpReduceOp::Add:
      result += v;
      break;
    case ir::WarpReduceOp::Min:
      result = uint32_t(std::min(int32_t(result), int32_t(v)));
      break;
    case ir::WarpReduceOp::Max:
      result = uint32_t(std::max(int32_t(result), int32_t(v)));
      break;
    case ir::WarpReduceOp::UMin:
      result = std::min(result, v);
      break;
    case ir::WarpReduceOp::UMax:
      result = std::max(result, v);
      break;
    case ir::WarpReduceOp::And:
      result &= v;
      break;
    case ir::WarpReduceOp::Or:
      result |= v;
      break;
    case ir::WarpReduceOp::Xor:
      result ^= v;
      break;
    }
  });
  return result;
}

uint64_t loadBytes(const uint8_t *bytes, uint64_t size) {
  uint64_t value = 0;
  std::memcpy(&value, bytes, std::min<uint64_t>(size, 8));
  return value;
}

void storeBytes(uint8_t *bytes, uint64_t value, uint64_t size) {
  std::memcpy(bytes, &value, std::min<uint64_t>(size, 8));
}

// Whether any function of the program has an instruction of one of `ops`.
bool programHas(const ir::Program &program, std::initializer_list<Op> ops) {
  for (const ir::Function &function : program.functions)
    for (const Instr &instr : function.code)
      if (std::find(ops.begin(), ops.end(), instr.op) != ops.end())
        return true;
  return false;
}

// Whether the blocks of a launch of `kernel` may run in parallel at all: not
// when the program syncs the grid (blocks wait for each other) or allocates
// device heap (allocations are numbered in the order blocks make them).
bool blocksMayRunInParallel(const ir::Program &program, const ir::KernelInfo &kernel) {
  return !kernel.syncsGrid && !programHas(program, {Op::GridBarrier, Op::Malloc, Op::Free});
}

// What the workers of a launch whose blocks run in parallel share
// (ParallelBlocks.h).
struct ChunkShare {
  GlobalClaims *claims;
  const std::vector<bool> *unchecked; // by instruction: claims nothing (empty: none)
  std::atomic<bool> *voided;          // the chunk cannot stand: stop
  std::atomic<bool> *blockTooLarge;   // void because a block's events outgrew kChunkEventBytes
};

// What the events of one chunk's blocks may hold in memory while they wait
// to be passed on (two chunks wait at most: one passed on while the next runs).
constexpr uint64_t kChunkEventBytes = uint64_t(32) << 20;

// The error a worker's block stops with once its chunk is void.
constexpr const char *kChunkVoided = "chunk void";

// The warp's 32 values of an operand: a register slot among `regs`, or a
// constant of the program (ir::kConstantOperand).
const uint64_t *operandLanes(const uint64_t *regs, const uint64_t *constants, uint32_t operand) {
  return (operand & ir::kConstantOperand)
             ? constants + size_t(operand & ~ir::kConstantOperand) * kWarpSize
             : regs + size_t(operand) * kWarpSize;
}

// Runs every block of one launch.
class Launch {
public:
  Launch(const ir::Program &program, const ir::KernelInfo &kernel, const LaunchConfig &config,
         std::vector<ArgumentValue> &args, const RunOptions &options)
      : program_(program), kernel_(kernel), config_(config), args_(args),
        listener_(options.listener),
        accessEvents_(options.listener && options.listener->wantsAccesses()),
        outputText_(options.listener && options.listener->wantsOutputText()),
        removedBarriers_(options.removedBarriers), quiet_(options.quietAccesses),
        cancel_(options.cancel), bound_(options.bound),
        jobs_(options.jobs ? options.jobs : std::max(1u, std::thread::hardware_concurrency())),
        memory_(program, args, config.dynamicSharedBytes, options.bound),
        constants_(program.constants.data()), engine_(options.engine) {
    if (engine_ != Engine::Interpreter) {
      codeCache_ = &jit::codeCacheOf(program);
      compiled_.assign(program.functions.size(), nullptr);
      compiledState_.assign(program.functions.size(), CompiledState::Unknown);
      interpretedSteps_.assign(program.functions.size(), 0);
      launchSteps_.assign(program.functions.size(), 0);
    }
  }

  Result<RunStats> run();

private:
  const ir::Program &program_;
  const ir::KernelInfo &kernel_;
  const LaunchConfig &config_;
  std::vector<ArgumentValue> &args_;
  ExecutionListener *listener_;
  bool accessEvents_; // listener_ wants onAccess
  bool outputText_;   // listener_ wants the text of each printf
  const std::vector<uint32_t> &removedBarriers_;
  const std::vector<bool> &quiet_; // RunOptions::quietAccesses
  // The listener wants no access of these (ExecutionListener::
  // wantsAccessesTo), asked once on the launch's thread: by shared and
  // constant variable, and by allocation of the caller's memory.
  std::vector<bool> unheardShared_, unheardConstant_, unheardBound_;
  void askWhichAccessesAreHeard();
  bool unheard(MemSpace space, uint32_t buffer) const {
    auto flagged = [](const std::vector<bool> &flags, uint64_t index) {
      return index < flags.size() && flags[index];
    };
    switch (space) {
    case MemSpace::Shared:
      return flagged(unheardShared_, buffer);
    case MemSpace::Constant:
      return flagged(unheardConstant_, buffer);
    case MemSpace::Global:
      return buffer >= ir::kFirstBoundBuffer &&
             flagged(unheardBound_, uint64_t(buffer) - ir::kFirstBoundBuffer);
    default:
      return false;
    }
  }
  const std::atomic<bool> *cancel_;
  BoundMemory *bound_;
  unsigned jobs_;
  LaunchMemory memory_;
  ResolveCache resolveCache_; // the lanes of the current instruction
  const uint64_t *constants_;
  // The compiled engine (jit/Engine.h): each function's code once made.
  Engine engine_;
  jit::CodeCache *codeCache_ = nullptr; // null: the interpreter alone
  enum class CompiledState : uint8_t { Unknown, Counting, Resolved };
  std::vector<const jit::CompiledFunction *> compiled_;
  std::vector<CompiledState> compiledState_;
  // The running warp's stacks for compiled code (jit::Frame::localBase).
  std::array<uint64_t, kWarpSize> localBases_{}, localSizes_{};
  std::vector<uint64_t> interpretedSteps_; // not yet told the cache
  std::vector<uint64_t> launchSteps_;      // told, by this launch
  // A worker's ChunkShare::unchecked as bytes, for compiled code.
  std::vector<uint8_t> unclaimed_;
  RunStats stats_;
  uint64_t totalBudgetInstrs_ = config_.totalBudgetInstrs ? config_.totalBudgetInstrs
                                                          : kDefaultLaunchBudgetInstrs;
  std::chrono::steady_clock::time_point lastMemoryCheck_ = std::chrono::steady_clock::now();
  // When the thread running this Launch first checked its time budget
  // (LaunchConfig::budgetSeconds), by the clock and in its CPU time: a
  // worker is made on one thread and run on another.
  struct BudgetStart {
    std::chrono::steady_clock::time_point wall;
    double cpuSeconds;
  };
  std::optional<BudgetStart> budgetStart_;

  uint32_t block_ = 0;
  Dim3 blockIdx_;
  uint32_t epoch_ = 0;
  std::vector<Warp> warps_;
  uint64_t barrierTrue_ = 0, barrierArrived_ = 0;
  NamedBarriers namedBarriers_;
  std::set<std::pair<uint32_t, uint8_t>> reportedDivergence_; // (barrier, cause) per block
  LaneMask faultedLanes_ = 0; // lanes of the current instruction that executed UB
  bool gaveWay_ = false;      // the running warp stopped to let others run (givesWay)
  uint64_t localBytes_ = 0;   // private stacks of the block's threads, together
  // Of settings and arguments before the first block ran (chosenValue); set
  // by run() when the program has a ChosenValue instruction.
  uint64_t launchHash_ = 0;

  // Grid-wide barriers (ir/GridSync.h): the blocks that reached the current
  // one, each with everything that is its alone, until every block has.
  struct SuspendedBlock {
    uint32_t block = 0;
    Dim3 blockIdx;
    uint32_t epoch = 0;
    std::vector<Warp> warps;
    uint64_t barrierTrue = 0, barrierArrived = 0;
    NamedBarriers namedBarriers;
    std::set<std::pair<uint32_t, uint8_t>> reportedDivergence;
    uint64_t localBytes = 0;
    std::vector<std::vector<uint8_t>> shared;
  };
  std::vector<SuspendedBlock> suspended_;
  bool blockAtGridBarrier_ = false; // the running block stopped at a grid barrier
  // Paths of the running block waiting at a grid barrier (counted rather
  // than found by scanning every warp's stack after each barrier round:
  // 0.2% of the instructions of interp_bench's ReduceShared); 0 again once
  // the block is suspended there.
  uint32_t pathsAtGridBarrier_ = 0;
  uint32_t gridPhase_ = 0;          // grid barriers released so far
  bool reportedGridDivergence_ = false;
  // The last block that ended, and where: a grid barrier it never reached
  // names it.
  struct EndedBlock {
    uint32_t block = 0, thread = 0, instruction = 0;
  };
  std::optional<EndedBlock> lastEnded_;

  // A worker's share of a launch whose blocks run in parallel; null: this
  // launch runs its blocks itself.
  const ChunkShare *chunk_ = nullptr;
  BlockEvents *recording_ = nullptr; // a worker's block's events, waiting to be passed on
  UndoLog undo_; // a worker's writes in the running chunk

  Status runBlock();
  // Runs blocks [begin, end) one after another (the sequential launch).
  Status runBlocksInOrder(uint64_t begin, uint64_t end);
  // Runs the launch's blocks on jobs_ threads (ParallelBlocks.h).
  Result<RunStats> runInParallel();
  // A worker: block `block` with its events going to `events` (null: none).
  Status runWorkerBlock(uint64_t block, BlockEvents *events);
  // A worker's global access: claims its granules for the block and saves
  // what a write overwrites; false when the chunk is void.
  [[gnu::noinline]] bool admitInChunk(uint8_t *bytes, uint64_t size, AccessKind kind,
                                      uint32_t instr);
  // Runs the current block's warps until it ends or stops at a grid barrier
  // (blockAtGridBarrier_).
  Status continueBlock();
  Status suspendBlock();
  Status releaseGridBarrier();
  // A path parked at a barrier: a sibling path of the branch that can still
  // run goes first.
  void letSiblingRun(Warp &warp);
  // Polled every few thousand steps of a warp: cancelled, or out of time.
  // `warp`, the one running (at instruction `instr`), is named in a
  // time-budget error when it has run long: its loop may never end.
  Status checkStop(const Warp *warp = nullptr, uint32_t instr = 0);
  // At a stop check at `step`: whether the running warp gives way to the
  // block's other ready warps, as a GPU's scheduler would (a warp spinning
  // on what another warp of its block will write: libcu++'s block barrier,
  // a flag, a lock). A warp gives way once it has run kStopCheckSteps since
  // it was given the block; both engines ask at the same steps.
  bool givesWay(const Warp &warp, uint64_t step) const;
  void initWarp(Warp &warp, uint32_t index);
  Status runWarp(Warp &warp);
  Status execute(Warp &warp, bool oneDataInstruction = false);
  // Function `function`'s compiled code, when the engine runs it compiled
  // now (null: interpret it).
  const jit::CompiledFunction *compiledCode(uint32_t function);
  // Counts steps the interpreter ran of `function` (Engine::Auto compiles
  // it once they are many).
  void countInterpreted(uint32_t function, uint64_t warpSteps);
  // The interpreted steps after which Engine::Auto compiles `function`.
  uint64_t compileAfter(uint32_t function) const;
  // Runs compiled code from `pc` on the warp's top path; see execute().
  uint32_t runCompiled(Warp &warp, const jit::CompiledFunction &code, uint32_t &pc,
                       Status &stopped);
  // jit::ExecuteFn: data instruction `pc` for compiled code (execute's own).
  static uint32_t executeForCompiledCode(jit::Frame *frame, uint32_t pc);
  static uint32_t checkForCompiledCode(jit::Frame *frame, uint32_t instruction);
  static void localForCompiledCode(jit::Frame *frame);
  static void recordForCompiledCode(jit::Frame *frame, uint32_t pc);
  static void undoForCompiledCode(jit::Frame *frame, uint32_t pc);
  // The instruction at `pc` of the function on top of `warp`'s stack.
  const Instr &topInstruction(const Warp &warp, uint32_t pc) const {
    return program_.functions[warp.frames[warp.stack.back().frame].function].code[pc];
  }
  // jit::WindowFn: the buffer compiled code's loads and stores go to.
  static uint32_t windowForCompiledCode(jit::Frame *frame, uint64_t tag);
  void releaseBarrier();
  [[gnu::noinline]] Status arriveAtNamedBarrier(Warp &warp, const Instr &inst, LaneMask mask, uint64_t id,
                              uint64_t count, uint64_t step);
  void releaseNamedBarrier(uint32_t id);
  // The texture or surface a lane's handle names (null after reporting a bad one).
  const TextureDescriptor *textureOf(Warp &warp, unsigned lane, uint64_t handle, uint32_t instr);
  // The buffer holding the texels: the handle's own, or the one it aliases.
  static uint32_t texelBuffer(const TextureDescriptor &texture, uint64_t handle) {
    return texture.aliasOf >= 0 ? uint32_t(texture.aliasOf) : ir::decodePointer(handle).buffer;
  }
  // Off the hot loop: textures are rare next to loads and stores.
  [[gnu::noinline]] void executeTexture(Warp &warp, const Instr &in, LaneMask mask,
                                        const uint64_t *regs, const uint32_t *aux, uint64_t *dst,
                                        uint64_t step);
  void fetchTexels(Warp &warp, const Instr &in, LaneMask mask, const uint64_t *const *operands,
                   uint64_t *dst, uint64_t step);
  void accessSurface(Warp &warp, const Instr &in, LaneMask mask, const uint64_t *const *operands,
                     uint64_t *dst, uint64_t step);
  bool reportIncompleteNamedBarriers();
  void announceMask(Warp &warp);
  void copyByValueArgument(Warp &warp, const std::vector<uint8_t> &bytes, uint64_t *slot);
  void popFinishedFrames(Warp &warp);
  void diverge(Warp &warp, const std::pair<uint32_t, LaneMask> *paths, size_t count,
               uint32_t reconv);
  void exitLanes(Warp &warp, LaneMask lanes, uint32_t instr);
  uint64_t chosenValue(const Instr &in);
  Status callThroughNonFunction(const Warp &warp, LaneMask mask, const uint64_t *pointer,
                                uint32_t instr) const;
  ReadDeviceBytes bytesSeenBy(Warp &warp, unsigned lane);
  // The lanes of `mask` called printf: the listener hears each.
  [[gnu::noinline]] void printed(Warp &warp, LaneMask mask, const uint64_t *format,
                                 const uint64_t *arguments, uint32_t instr);
  // A failed `assert` in `lane`: the listener hears it, and the launch stops.
  [[gnu::noinline]] Status assertionFailed(Warp &warp, unsigned lane, const uint64_t *condition,
                                           uint32_t instr);
  void parkAtBarrier(Warp &warp, const Instr &inst, LaneMask mask);
  // `stored`: the bits a plain store writes, when known (AccessEvent::value).
  uint8_t *access(Warp &warp, unsigned lane, uint64_t pointer, uint64_t size, AccessKind kind,
                  uint32_t instr, uint64_t step, bool mustAlign = true,
                  std::optional<uint64_t> stored = std::nullopt);
  // Reports undefined behaviour of one lane. `stops`: the lane stops after
  // the instruction (a memory fault); else it goes on with the result a GPU
  // computes (a shift or division).
  void undefinedBehavior(const Warp &warp, unsigned lane, UndefinedBehavior kind, uint32_t instr,
                         uint64_t value, uint32_t width, bool stops = true);
  uint64_t specialRegister(const Warp &warp, unsigned lane, ir::SpecialRegister reg) const;
  std::string where(uint32_t instr) const;
  std::string threadName(const Warp &warp, unsigned lane) const;
  void reportDivergence(BarrierDivergenceEvent event);
};

std::string Launch::where(uint32_t instr) const {
  const ir::SourceLocation &loc = program_.instructions[instr].location;
  if (loc.known())
    return loc.file + ":" + std::to_string(loc.line) + ":" + std::to_string(loc.column);
  return "'" + program_.instructionText(instr) + "'";
}

std::string Launch::threadName(const Warp &warp, unsigned lane) const {
  return "thread " + formatDim3(Dim3{warp.tid[lane][0], warp.tid[lane][1], warp.tid[lane][2]}) +
         " of block " + formatDim3(blockIdx_);
}

void Launch::initWarp(Warp &warp, uint32_t index) {
  const ir::Function &fn = program_.functions[kernel_.function];
  uint64_t blockThreads = config_.block.count();
  warp.index = index;
  warp.firstThread = index * kWarpSize;
  uint64_t lanes = std::min<uint64_t>(kWarpSize, blockThreads - warp.firstThread);
  warp.fullMask = lanes == kWarpSize ? kAllLanes : (LaneMask(1) << lanes) - 1;
  warp.liveMask = warp.fullMask;
  warp.state = Warp::State::Ready;
  warp.step = 0;
  warp.announced = 0;
  warp.exitInstr = 0;
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    Dim3 t = unlinearize(warp.firstThread + lane, config_.block);
    warp.tid[lane] = {t.x, t.y, t.z};
    warp.local[lane].clear();
  }
  warp.localTop.fill(0);
  warp.stack.clear();
  warp.frames.clear();
  warp.pendingResults.clear();
  warp.regs.assign(size_t(fn.numSlots) * kWarpSize, 0);
  for (size_t p = 0; p < kernel_.params.size() && p < fn.paramSlots.size(); ++p) {
    const ArgumentValue &arg = args_[p];
    uint64_t *slot = warp.regs.data() + size_t(fn.paramSlots[p]) * kWarpSize;
    if (kernel_.params[p].byValueBytes && arg.kind == ArgumentValue::Kind::Buffer) {
      copyByValueArgument(warp, arg.bytes, slot);
      continue;
    }
    uint64_t value = arg.kind == ArgumentValue::Kind::Buffer
                         ? ir::encodePointer(ir::PointerSpace::Global, uint32_t(p),
                                             int64_t(arg.pointerOffset))
                         : arg.bits;
    std::fill_n(slot, kWarpSize, value);
  }
  warp.frames.push_back(Frame{kernel_.function, 0, 0, {}});
  warp.stack.push_back(StackEntry{0, ir::kNoReconvergence, warp.fullMask, 0});
}

// An aggregate passed by value is each thread's own copy (CUDA copies kernel
// parameters per thread): it goes on every lane's private stack, so writes to
// it are private, as a local variable's are.
void Launch::copyByValueArgument(Warp &warp, const std::vector<uint8_t> &bytes, uint64_t *slot) {
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    uint32_t offset = (warp.localTop[lane] + 15) / 16 * 16;
    std::vector<uint8_t> &local = warp.local[lane];
    local.resize(offset, 0);
    local.insert(local.end(), bytes.begin(), bytes.end());
    warp.localTop[lane] = uint32_t(local.size());
    slot[lane] = ir::encodePointer(ir::PointerSpace::Local, 0, offset);
  }
}

void Launch::announceMask(Warp &warp) {
  if (!listener_ || warp.stack.empty())
    return;
  LaneMask mask = warp.stack.back().mask;
  if (mask == warp.announced)
    return;
  warp.announced = mask;
  listener_->onMaskChange(MaskChangeEvent{block_, warp.index, warp.step, mask});
}

void Launch::popFinishedFrames(Warp &warp) {
  while (!warp.stack.empty() && warp.frames.size() > warp.stack.back().frame + 1) {
    warp.localTop = warp.frames.back().savedLocalTop;
    warp.frames.pop_back();
  }
}

// The paths of a divergent branch (in the order they should run) replace the
// current entry, which waits at the reconvergence point with their union.
void Launch::diverge(Warp &warp, const std::pair<uint32_t, LaneMask> *paths, size_t count,
                     uint32_t reconv) {
  StackEntry current = warp.stack.back();
  if (reconv == current.reconv)
    warp.stack.pop_back(); // the entry below already waits at `reconv`
  else
    warp.stack.back().pc = reconv;
  for (size_t i = count; i-- > 0;)
    if (paths[i].first != reconv)
      warp.stack.push_back(StackEntry{paths[i].first, reconv, paths[i].second, current.frame});
}

// The result of a call of a function with no body (ChosenValue.h).
uint64_t Launch::chosenValue(const Instr &in) {
  return interp::chosenValue(launchHash_, in.id, in.width, in.flags == 1);
}

// A dispatch over function pointers found no function (ir/IndirectCalls.h).
Status Launch::callThroughNonFunction(const Warp &warp, LaneMask mask, const uint64_t *pointer,
                                      uint32_t instr) const {
  unsigned lane = unsigned(std::countr_zero(mask));
  char value[24];
  std::snprintf(value, sizeof value, "0x%llx", static_cast<unsigned long long>(pointer[lane]));
  uint64_t bits = pointer[lane];
  uint64_t function = bits & ~ir::kFunctionPointerTag;
  std::string what = std::string("a pointer that is not a function (") + value + ")";
  if (ir::isFunctionPointer(bits))
    what = function < program_.functions.size()
               ? "a pointer to '" + program_.functions[function].name + "' with another type"
               : std::string("a pointer to a function with no body");
  return makeError(program_.path + ": kernel '" + kernel_.sourceName + "': " +
                   threadName(warp, lane) + " calls through " + what + " at " + where(instr));
}

void Launch::exitLanes(Warp &warp, LaneMask lanes, uint32_t instr) {
  warp.liveMask &= ~lanes;
  warp.exitInstr = instr;
  for (StackEntry &entry : warp.stack)
    entry.mask &= ~lanes;
}

void Launch::reportDivergence(BarrierDivergenceEvent event) {
  if (!listener_)
    return;
  if (!reportedDivergence_.insert({event.barrierInstr, uint8_t(event.cause)}).second)
    return;
  listener_->onBarrierDivergence(event);
}

void Launch::parkAtBarrier(Warp &warp, const Instr &inst, LaneMask mask) {
  StackEntry &top = warp.stack.back();
  top.waiting = true;
  top.barrierInstr = inst.id;
  if (listener_)
    listener_->onBarrierArrive(
        BarrierArriveEvent{block_, warp.index, warp.step - 1, inst.id, mask});
  if (mask == warp.liveMask)
    return;
  // Part of the warp: report, then let the other path of the branch run on
  // until it reaches a barrier or exits (DESIGN.md).
  LaneMask others = warp.liveMask & ~mask;
  uint32_t otherInstr = inst.id;
  size_t n = warp.stack.size();
  if (n >= 2) {
    const StackEntry &below = warp.stack[n - 2];
    const ir::Function &fn = program_.functions[warp.frames[below.frame].function];
    if (below.pc < fn.code.size())
      otherInstr = fn.code[below.pc].id;
  }
  reportDivergence(BarrierDivergenceEvent{
      BarrierDivergenceEvent::Cause::PartialWarp, block_, warp.index, inst.id, otherInstr,
      warp.firstThread + unsigned(std::countr_zero(mask)),
      warp.firstThread + unsigned(std::countr_zero(others))});
  letSiblingRun(warp);
}

void Launch::letSiblingRun(Warp &warp) {
  size_t n = warp.stack.size();
  if (n < 2)
    return;
  StackEntry &top = warp.stack[n - 1], &sibling = warp.stack[n - 2];
  if (!sibling.waiting && sibling.reconv == top.reconv && sibling.frame == top.frame &&
      sibling.pc != sibling.reconv)
    std::swap(top, sibling);
}

void Launch::undefinedBehavior(const Warp &warp, unsigned lane, UndefinedBehavior kind,
                               uint32_t instr, uint64_t value, uint32_t width, bool stops) {
  if (stops)
    faultedLanes_ |= LaneMask(1) << lane;
  if (listener_)
    listener_->onUndefinedBehavior(
        UndefinedBehaviorEvent{kind, block_, warp.firstThread + lane, instr, value, width});
}

uint8_t *Launch::access(Warp &warp, unsigned lane, uint64_t pointer, uint64_t size,
                        AccessKind kind, uint32_t instr, uint64_t step, bool mustAlign,
                        std::optional<uint64_t> stored) {
  ResolvedAccess resolved = memory_.resolve(pointer, size, warp.local[lane], resolveCache_);
  if (!resolved.namesBuffer) {
    bool isNull = ir::decodePointer(pointer).isNull;
    undefinedBehavior(warp, lane,
                      isNull ? UndefinedBehavior::NullPointer : UndefinedBehavior::WildPointer,
                      instr, pointer, uint32_t(std::min<uint64_t>(size, UINT32_MAX)));
    return nullptr;
  }
  if (resolved.bytes && mustAlign && isMisaligned(resolved.offset, size)) {
    undefinedBehavior(warp, lane, UndefinedBehavior::Misaligned, instr, resolved.offset,
                      uint32_t(size));
    return nullptr;
  }
  if (chunk_ && resolved.bytes && resolved.space == MemSpace::Global &&
      !admitInChunk(resolved.bytes, size, kind, instr))
    return nullptr;
  if (!listener_ || (resolved.bytes && (resolved.space == MemSpace::Local || !accessEvents_ ||
                                        unheard(resolved.space, resolved.buffer))))
    return resolved.bytes;
  // Shared memory belongs to one block: a block-scoped atomic there is atomic
  // for every thread that can reach it.
  if (kind == AccessKind::BlockAtomic && resolved.space != MemSpace::Global)
    kind = AccessKind::Atomic;
  AccessEvent event{resolved.space,      kind,        resolved.buffer,
                    resolved.offset,     uint32_t(std::min<uint64_t>(size, UINT32_MAX)), block_,
                    warp.firstThread + lane, warp.index, lane,
                    step,                instr};
  if (stored && size <= 8) {
    event.value = *stored & (size == 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * size)) - 1);
    event.valueKnown = true;
  }
  if (resolved.bytes)
    listener_->onAccess(event);
  else
    listener_->onOutOfBounds(OutOfBoundsEvent{event, resolved.bufferSizeBytes});
  return resolved.bytes;
}

uint64_t Launch::specialRegister(const Warp &warp, unsigned lane, ir::SpecialRegister reg) const {
  using R = ir::SpecialRegister;
  switch (reg) {
  case R::TidX: return warp.tid[lane][0];
  case R::TidY: return warp.tid[lane][1];
  case R::TidZ: return warp.tid[lane][2];
  case R::NTidX: return config_.block.x;
  case R::NTidY: return config_.block.y;
  case R::NTidZ: return config_.block.z;
  case R::CtaIdX: return blockIdx_.x;
  case R::CtaIdY: return blockIdx_.y;
  case R::CtaIdZ: return blockIdx_.z;
  case R::NCtaIdX: return config_.grid.x;
  case R::NCtaIdY: return config_.grid.y;
  case R::NCtaIdZ: return config_.grid.z;
  case R::LaneId: return lane;
  case R::WarpId: return warp.index;
  case R::WarpSize: return kWarpSize;
  case R::LaneMaskLt: return (uint64_t(1) << lane) - 1;
  case R::LaneMaskLe: return (uint64_t(2) << lane) - 1;
  case R::LaneMaskEq: return uint64_t(1) << lane;
  case R::LaneMaskGe: return ~((uint64_t(1) << lane) - 1);
  case R::LaneMaskGt: return ~((uint64_t(2) << lane) - 1);
  // The warp's steps squared: increasing like a GPU's cycle counter, while
  // a wait for D cycles (`while (clock64() - start < D);`, a busy kernel of
  // a streams demo) ends after about sqrt(D) steps, not D: simulee keeps
  // no time, and a billion-cycle wait would pass any step budget. clock()
  // is its low 32 bits, which wrap as a GPU's do.
  case R::Clock:
    return uint32_t(warp.step * warp.step);
  case R::Clock64:
    return warp.step * warp.step;
  case R::GlobalTimer: return warp.step * 1000;
  case R::SmId: return block_ % 80;
  case R::NSmId: return 80;
  case R::DynamicSharedSize: return config_.dynamicSharedBytes;
  // A non-null workspace address (its 32-bit halves) in a cooperative launch:
  // never dereferenced, since the barrier's statements became builtins.
  case R::GridWorkspaceLow: return config_.cooperative ? 0x1000 : 0;
  case R::GridWorkspaceHigh: return 0;
  }
  return 0;
}

Status Launch::runWarp(Warp &warp) {
  for (;;) {
    popFinishedFrames(warp);
    if (warp.stack.empty()) {
      warp.state = Warp::State::Done;
      return Ok{};
    }
    StackEntry &top = warp.stack.back();
    if (top.pc == top.reconv || top.pc == ir::kNoReconvergence || top.mask == 0) {
      warp.stack.pop_back();
      continue;
    }
    if (top.waiting) {
      warp.state = top.gridBarrier           ? Warp::State::AtGridBarrier
                   : top.namedBarrier >= 0 ? Warp::State::AtNamedBarrier
                                           : Warp::State::AtBarrier;
      return Ok{};
    }
    announceMask(warp);
    uint32_t function = warp.frames[top.frame].function;
    uint64_t stepsBefore = warp.step;
    if (Status status = execute(warp); !status)
      return status;
    if (codeCache_ && compiledState_[function] == CompiledState::Counting)
      countInterpreted(function, warp.step - stepsBefore);
    if (gaveWay_) {
      gaveWay_ = false;
      return Ok{}; // still Ready: the block's other warps run first
    }
  }
}

const jit::CompiledFunction *Launch::compiledCode(uint32_t function) {
  if (!codeCache_)
    return nullptr;
  if (compiledState_[function] == CompiledState::Unknown) {
    // Engine::Auto compiles a function that already ran long, in this
    // launch or an earlier one of its program, and uses code made already.
    bool now = engine_ == Engine::Compiled || codeCache_->made(function) ||
               codeCache_->hot(function, 0, compileAfter(function));
    compiledState_[function] = now ? CompiledState::Resolved : CompiledState::Counting;
    if (now)
      compiled_[function] = codeCache_->compiled(program_, function);
  }
  return compiled_[function];
}

uint64_t Launch::compileAfter(uint32_t function) const {
  uint64_t units = program_.functions[function].code.size() / kCompileUnitInstrs + 1;
  return kCompileAfterWarpSteps * units * (accessEvents_ ? kCompileLaterWithAccesses : 1);
}

void Launch::countInterpreted(uint32_t function, uint64_t warpSteps) {
  constexpr uint64_t kStepsBetweenReports = 4096;
  uint64_t &steps = interpretedSteps_[function];
  steps += warpSteps;
  if (steps < kStepsBetweenReports)
    return;
  const uint64_t threshold = compileAfter(function);
  bool hot = codeCache_->hot(function, steps, threshold);
  launchSteps_[function] += steps;
  steps = 0;
  // Blocks run in order of their linear index, on one core or in chunks.
  const uint64_t begun = uint64_t(block_) + 1;
  if (begun >= 2 && launchSteps_[function] / begun >= threshold / config_.grid.count())
    hot = true;
  if (!hot)
    return;
  compiledState_[function] = CompiledState::Resolved;
  compiled_[function] = codeCache_->compiled(program_, function);
}

// What compiled code needs of the interpreter to run a data instruction.
struct CompiledRun {
  Launch *launch;
  Warp *warp;
  Status stopped = Ok{};
};

// Compiled code carries no type signature before its entry for
// -fsanitize=function to check (the sanitizer build): not checked.
#if defined(__clang__)
__attribute__((no_sanitize("function")))
#endif
uint32_t Launch::runCompiled(Warp &warp, const jit::CompiledFunction &code, uint32_t &pc,
                             Status &stopped) {
  StackEntry &top = warp.stack.back();
  CompiledRun run{this, &warp};
  jit::Frame frame{};
  frame.regs = warp.regs.data() + warp.frames[top.frame].regBase;
  frame.constants = constants_;
  frame.step = warp.step;
  frame.threadInstrs = stats_.threadInstrs;
  frame.stepLimit = config_.budgetInstrs;
  frame.instrLimit = totalBudgetInstrs_;
  frame.execute = &Launch::executeForCompiledCode;
  frame.check = &Launch::checkForCompiledCode;
  frame.context = &run;
  frame.pc = pc;
  frame.mask = top.mask;
  frame.reconv = top.reconv;
  frame.activeLanes = uint32_t(std::popcount(top.mask));
  // Compiled code makes no access a worker claims (admitInChunk) but the
  // unclaimed ones, saving what their stores overwrite as admitInChunk
  // would; whether its accesses send events is set with each window
  // (windowForCompiledCode), found before any access is made.
  if (chunk_ && unclaimed_.empty() && !chunk_->unchecked->empty())
    unclaimed_.assign(chunk_->unchecked->begin(), chunk_->unchecked->end());
  frame.unclaimed = unclaimed_.empty() ? nullptr : unclaimed_.data();
  frame.undo = &Launch::undoForCompiledCode;
  frame.window = &Launch::windowForCompiledCode;
  frame.windowTag = ~uint64_t(0);
  frame.local = &Launch::localForCompiledCode;
  frame.record = &Launch::recordForCompiledCode;
  frame.localBase = localBases_.data();
  frame.localSize = localSizes_.data();
  frame.threadIds = warp.tid[0].data();
  for (unsigned k = 0; k < 9; ++k)
    frame.launchRegisters[k] =
        specialRegister(warp, 0, ir::SpecialRegister(unsigned(ir::SpecialRegister::NTidX) + k));
  // Data instructions compiled code hands back bring the counts up to date
  // (executeForCompiledCode) before they run.
  const uint64_t instrsBefore = stats_.threadInstrs;
  uint32_t exit = code.entry(&frame);
  stats_.compiledThreadInstrs += frame.threadInstrs - instrsBefore;
  warp.step = frame.step;
  stats_.threadInstrs = frame.threadInstrs;
  pc = frame.pc;
  if (exit == jit::kStopped)
    stopped = std::move(run.stopped);
  return exit;
}

uint32_t Launch::windowForCompiledCode(jit::Frame *frame, uint64_t tag) {
  CompiledRun &run = *static_cast<CompiledRun *>(frame->context);
  // The buffer a pointer with these bits names at offset 0, as an access
  // would resolve it (never a thread's stack, nor an address found another
  // way: ResolveCache).
  ResolveCache cache;
  run.launch->memory_.resolve(tag | ir::kOffsetBias, 0, run.warp->local[0], cache);
  if (cache.tag != tag)
    return 0;
  frame->windowTag = tag;
  frame->windowBase = cache.base;
  frame->windowSizeBytes = cache.sizeBytes;
  frame->windowWritable = cache.space == MemSpace::Global || cache.space == MemSpace::Shared;
  frame->windowSpace = uint32_t(cache.space);
  frame->windowBuffer = cache.buffer;
  const Launch &launch = *run.launch;
  frame->plainAccesses =
      !launch.listener_ || !launch.accessEvents_ || launch.unheard(cache.space, cache.buffer);
  frame->windowClaimed = run.launch->chunk_ && cache.space == MemSpace::Global;
  return 1;
}

uint32_t Launch::executeForCompiledCode(jit::Frame *frame, uint32_t pc) {
  CompiledRun &run = *static_cast<CompiledRun *>(frame->context);
  Launch &launch = *run.launch;
  frame->windowTag = ~uint64_t(0); // the instruction may move or free buffers
  frame->localValid = 0;           // or grow a stack
  // The interpreter counts the instruction again, as it would have: from
  // the counts before it, at the path's pc.
  Warp &warp = *run.warp;
  warp.step = frame->step - 1;
  launch.stats_.threadInstrs = frame->threadInstrs - frame->activeLanes;
  warp.stack.back().pc = pc;
  Status status = launch.execute(warp, /*oneDataInstruction=*/true);
  if (!status) {
    run.stopped = std::move(status);
    return jit::kFailed;
  }
  return launch.faultedLanes_ ? jit::kLanesFaulted : jit::kExecuted;
}

void Launch::localForCompiledCode(jit::Frame *frame) {
  CompiledRun &run = *static_cast<CompiledRun *>(frame->context);
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    std::vector<uint8_t> &stack = run.warp->local[lane];
    frame->localBase[lane] = uint64_t(reinterpret_cast<uintptr_t>(stack.data()));
    frame->localSize[lane] = stack.size();
  }
  frame->localValid = 1;
}

// The events Launch::access sends for a load or store in bounds of the
// window's buffer, which compiled code makes itself.
void Launch::recordForCompiledCode(jit::Frame *frame, uint32_t pc) {
  CompiledRun &run = *static_cast<CompiledRun *>(frame->context);
  Launch &launch = *run.launch;
  const Warp &warp = *run.warp;
  const Instr &in = launch.topInstruction(warp, pc);
  auto src = [&](uint32_t operand) { return operandLanes(frame->regs, frame->constants, operand); };
  const bool store = in.op == Op::Store;
  const uint64_t *pointers = src(in.a), *stored = store ? src(in.b) : nullptr;
  const AccessKind kind = (in.flags & 1) ? AccessKind::Atomic
                          : store        ? AccessKind::Write
                                         : AccessKind::Read;
  const uint32_t size = uint32_t(in.imm);
  const uint64_t valueMask = size >= 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * size)) - 1;
  const bool quiet = in.id < launch.quiet_.size() && launch.quiet_[in.id];
  forEachLane(quiet ? frame->mask & -frame->mask : frame->mask, [&](unsigned l) {
    AccessEvent event{MemSpace(frame->windowSpace),
                      kind,
                      frame->windowBuffer,
                      uint64_t(ir::decodePointer(pointers[l]).offset),
                      size,
                      launch.block_,
                      warp.firstThread + l,
                      warp.index,
                      l,
                      frame->step - 1,
                      in.id,
                      quiet ? frame->activeLanes : 1};
    if (store && size <= 8) {
      event.value = stored[l] & valueMask;
      event.valueKnown = true;
    }
    launch.listener_->onAccess(event);
  });
}

// What a worker's unclaimed store, which compiled code makes itself in the
// window's buffer, overwrites: saved lane by lane as admitInChunk saves the
// interpreter's.
void Launch::undoForCompiledCode(jit::Frame *frame, uint32_t pc) {
  CompiledRun &run = *static_cast<CompiledRun *>(frame->context);
  Launch &launch = *run.launch;
  const Instr &in = launch.topInstruction(*run.warp, pc);
  const uint64_t *pointers = operandLanes(frame->regs, frame->constants, in.a);
  forEachLane(frame->mask, [&](unsigned l) {
    launch.undo_.save(frame->windowBase + uint64_t(ir::decodePointer(pointers[l]).offset), in.imm);
  });
}

uint32_t Launch::checkForCompiledCode(jit::Frame *frame, uint32_t instruction) {
  CompiledRun &run = *static_cast<CompiledRun *>(frame->context);
  // As the interpreter's loop makes it, the instruction counted.
  run.warp->step = frame->step + 1;
  if (Status status = run.launch->checkStop(run.warp, instruction); !status) {
    run.stopped = std::move(status);
    return jit::kFailed;
  }
  return run.launch->givesWay(*run.warp, frame->step) ? jit::kYield : jit::kExecuted;
}

// Executes instructions of the warp's top path until control flow changes
// the stack (a branch, call, return, barrier or exit), the function's compiled
// code where it has some (jit/Engine.h). `oneDataInstruction`: only the data
// instruction at the path's pc, which compiled code counted already
// (executeForCompiledCode); lanes it faults are left in faultedLanes_.
Status Launch::execute(Warp &warp, bool oneDataInstruction) {
  StackEntry *top = &warp.stack.back();
  const ir::Function &fn = program_.functions[warp.frames[top->frame].function];
  const Instr *code = fn.code.data();
  const uint32_t *aux = fn.aux.data();
  uint64_t *regs = warp.regs.data() + warp.frames[top->frame].regBase;
  const LaneMask mask = top->mask;
  const unsigned activeLanes = unsigned(std::popcount(mask));
  uint32_t pc = top->pc;

  auto src = [&](uint32_t operand) { return operandLanes(regs, constants_, operand); };
  auto applyMoves = [&](uint32_t begin, uint32_t end, LaneMask lanes) {
    for (uint32_t k = begin; k < end; k += 2) {
      uint64_t *d = regs + size_t(aux[k]) * kWarpSize;
      const uint64_t *s = src(aux[k + 1]);
      forEachLane(lanes, [&](unsigned l) { d[l] = s[l]; });
    }
  };

  const jit::CompiledFunction *compiled =
      codeCache_ && !oneDataInstruction ? compiledCode(warp.frames[top->frame].function) : nullptr;
  uint32_t interpretAt = ir::kNoReconvergence; // where compiled code just left to the interpreter
  for (;;) {
    if (compiled && pc != interpretAt && compiled->entersAt(pc)) {
      Status stopped = Ok{};
      switch (runCompiled(warp, *compiled, pc, stopped)) {
      case jit::kBranched:
        top->pc = pc;
        return Ok{};
      case jit::kFaulted: {
        LaneMask faulted = faultedLanes_;
        faultedLanes_ = 0;
        top->pc = pc;
        exitLanes(warp, faulted, code[pc - 1].id);
        return Ok{};
      }
      case jit::kStopped:
        return stopped;
      default: // kInterpretAt (or kNotEntered)
        interpretAt = pc;
        continue;
      }
    }
    const Instr &in = code[pc];
    const uint64_t step = warp.step++;
    stats_.threadInstrs += activeLanes;
    if (warp.step > config_.budgetInstrs)
      return makeError(
          program_.path + ": kernel '" + kernel_.sourceName + "' " + kDoesNotTerminate + ": " +
          threadName(warp, unsigned(std::countr_zero(mask))) + " executed more than " +
          std::to_string(config_.budgetInstrs) + " instructions (last at " + where(in.id) + ")");
    if (stats_.threadInstrs > totalBudgetInstrs_)
      return makeError(std::string(kLaunchTooCostly) + ": more than " +
                       std::to_string(totalBudgetInstrs_) +
                       " thread-instructions (limit it with a smaller --grid)");
    if ((step & (jit::kStopCheckSteps - 1)) == 0) {
      if (Status go = checkStop(&warp, in.id); !go)
        return go;
      if (!oneDataInstruction && givesWay(warp, step)) {
        // Not run: the warp comes back to this instruction, at this step.
        warp.step = step;
        stats_.threadInstrs -= activeLanes;
        top->pc = pc;
        gaveWay_ = true;
        return Ok{};
      }
    }
    uint64_t *d = regs + size_t(in.dst) * kWarpSize;
    resolveCache_.clear(); // buffers may have moved since the last instruction
    switch (in.op) {
    case Op::Nop:
      break;
    case Op::Fence:
      if (listener_)
        listener_->onFence(FenceEvent{block_, warp.index, step, mask,
                                      ir::FenceScope(in.flags) == ir::FenceScope::Device});
      break;
    case Op::Move: {
      const uint64_t *a = src(in.a);
      forEachLane(mask, [&](unsigned l) { d[l] = a[l]; });
      break;
    }
    case Op::Add: case Op::Sub: case Op::Mul: case Op::And: case Op::Or: case Op::Xor: {
      const uint64_t *a = src(in.a), *b = src(in.b);
      const uint64_t m = widthMask(in.width);
      switch (in.op) {
      case Op::Add: forEachLane(mask, [&](unsigned l) { d[l] = (a[l] + b[l]) & m; }); break;
      case Op::Sub: forEachLane(mask, [&](unsigned l) { d[l] = (a[l] - b[l]) & m; }); break;
      case Op::Mul: forEachLane(mask, [&](unsigned l) { d[l] = (a[l] * b[l]) & m; }); break;
      case Op::And: forEachLane(mask, [&](unsigned l) { d[l] = a[l] & b[l]; }); break;
      case Op::Or: forEachLane(mask, [&](unsigned l) { d[l] = a[l] | b[l]; }); break;
      default: forEachLane(mask, [&](unsigned l) { d[l] = a[l] ^ b[l]; }); break;
      }
      break;
    }
    case Op::UDiv: case Op::SDiv: case Op::URem: case Op::SRem: case Op::Shl: case Op::LShr:
    case Op::AShr: {
      const uint64_t *a = src(in.a), *b = src(in.b);
      // Undefined in C++, but not on a GPU: PTX clamps shift amounts and
      // NVIDIA's division gives fixed results (integerOp), which the
      // program goes on with, as it would on a GPU.
      forEachLane(mask, [&](unsigned l) {
        if (auto ub = integerUndefinedBehavior(in.op, a[l], b[l], in.width))
          undefinedBehavior(warp, l, *ub, in.id, b[l], in.width, /*stops=*/false);
        d[l] = integerOp(in.op, a[l], b[l], in.width);
      });
      break;
    }
    case Op::ICmp: {
      const uint64_t *a = src(in.a), *b = src(in.b);
      auto pred = ir::IntPredicate(in.flags);
      forEachLane(mask, [&](unsigned l) { d[l] = compareInts(pred, a[l], b[l], in.width); });
      break;
    }
    case Op::SExt: {
      const uint64_t *a = src(in.a);
      const uint64_t m = widthMask(in.width);
      forEachLane(mask, [&](unsigned l) { d[l] = uint64_t(signExtend(a[l], unsigned(in.imm))) & m; });
      break;
    }
    case Op::Trunc: {
      const uint64_t *a = src(in.a);
      const uint64_t m = widthMask(in.width);
      forEachLane(mask, [&](unsigned l) { d[l] = a[l] & m; });
      break;
    }
    case Op::FAdd: case Op::FSub: case Op::FMul: case Op::FDiv: case Op::FRem: case Op::FNeg: {
      const uint64_t *a = src(in.a), *b = src(in.b);
      if (auto mode = ir::RoundingMode(in.flags); mode != ir::RoundingMode::Nearest) {
        HostRounding rounding(mode);
        forEachLane(
            mask, [&](unsigned l) { d[l] = floatArithmeticRounded(in.op, a[l], b[l], in.width); });
      } else if (in.width == 32 && in.op == Op::FAdd) {
        forEachLane(mask, [&](unsigned l) {
          d[l] = floatResultBits(std::bit_cast<float>(uint32_t(a[l])) +
                                 std::bit_cast<float>(uint32_t(b[l])));
        });
      } else if (in.width == 32 && in.op == Op::FMul) {
        forEachLane(mask, [&](unsigned l) {
          d[l] = floatResultBits(std::bit_cast<float>(uint32_t(a[l])) *
                                 std::bit_cast<float>(uint32_t(b[l])));
        });
      } else {
        forEachLane(mask, [&](unsigned l) { d[l] = floatArithmetic(in.op, a[l], b[l], in.width); });
      }
      break;
    }
    case Op::FCmp: {
      const uint64_t *a = src(in.a), *b = src(in.b);
      forEachLane(mask, [&](unsigned l) { d[l] = floatCompare(in.flags, a[l], b[l], in.width); });
      break;
    }
    case Op::FPConv: {
      const uint64_t *a = src(in.a);
      forEachLane(mask, [&](unsigned l) {
        d[l] = doubleToFloatBits(floatBitsToDouble(a[l], unsigned(in.imm)), in.width);
      });
      break;
    }
    case Op::FPToUI: case Op::FPToSI: {
      const uint64_t *a = src(in.a);
      bool isSigned = in.op == Op::FPToSI;
      forEachLane(mask, [&](unsigned l) {
        double v = floatBitsToDouble(a[l], unsigned(in.imm));
        d[l] = isSigned ? floatToSigned(v, in.width) : floatToUnsigned(v, in.width);
      });
      break;
    }
    case Op::UIToFP: case Op::SIToFP: {
      const uint64_t *a = src(in.a);
      bool isSigned = in.op == Op::SIToFP;
      unsigned from = unsigned(in.imm);
      if (auto mode = ir::RoundingMode(in.flags); mode != ir::RoundingMode::Nearest) {
        forEachLane(mask, [&](unsigned l) {
          d[l] = intToFloatBits(a[l], from, isSigned, in.width, mode);
        });
        break;
      }
      forEachLane(mask, [&](unsigned l) {
        uint64_t v = a[l] & widthMask(from);
        if (in.width == 32) // round once, directly to float
          d[l] = std::bit_cast<uint32_t>(isSigned ? float(signExtend(v, from)) : float(v));
        else
          d[l] = doubleToFloatBits(isSigned ? double(signExtend(v, from)) : double(v), in.width);
      });
      break;
    }
    case Op::Select: {
      const uint64_t *c = src(in.a), *t = src(in.b), *f = src(in.c);
      forEachLane(mask, [&](unsigned l) { d[l] = (c[l] & 1) ? t[l] : f[l]; });
      break;
    }
    case Op::PtrAdd: {
      const uint64_t *a = src(in.a);
      // Plain adds (they vectorise); lanes whose sum left the offset field
      // are redone exactly (saturating inside their buffer).
      uint64_t carried = 0;
      forEachLane(mask, [&](unsigned l) {
        uint64_t moved = a[l] + in.imm;
        carried |= (a[l] ^ moved) & ~ir::kOffsetMask;
        d[l] = moved;
      });
      if (carried)
        forEachLane(mask, [&](unsigned l) { d[l] = ir::offsetPointer(a[l], int64_t(in.imm)); });
      break;
    }
    case Op::PtrAddScaled: {
      const uint64_t *a = src(in.a), *b = src(in.b);
      forEachLane(mask, [&](unsigned l) {
        int64_t delta;
        bool overflow = __builtin_mul_overflow(signExtend(b[l], in.width), int64_t(in.imm), &delta);
        uint64_t moved = a[l] + uint64_t(delta);
        if (overflow || ((a[l] ^ moved) & ~ir::kOffsetMask))
          moved = ir::offsetPointer(a[l], ir::scaledOffset(signExtend(b[l], in.width), int64_t(in.imm)));
        d[l] = moved;
      });
      break;
    }
    case Op::Load: {
      const uint64_t *a = src(in.a);
      AccessKind kind = (in.flags & 1) ? AccessKind::Atomic : AccessKind::Read;
      forEachLane(mask, [&](unsigned l) {
        uint8_t *bytes = access(warp, l, a[l], in.imm, kind, in.id, step);
        d[l] = bytes ? loadBytes(bytes, in.imm) : 0;
      });
      break;
    }
    case Op::Store: {
      const uint64_t *a = src(in.a), *v = src(in.b);
      AccessKind kind = (in.flags & 1) ? AccessKind::Atomic : AccessKind::Write;
      forEachLane(mask, [&](unsigned l) {
        if (uint8_t *bytes = access(warp, l, a[l], in.imm, kind, in.id, step, true, v[l]))
          storeBytes(bytes, v[l], in.imm);
      });
      break;
    }
    case Op::AtomicRMW: {
      const uint64_t *a = src(in.a), *v = src(in.b);
      AccessKind kind = in.flags & ir::kBlockScope ? AccessKind::BlockAtomic : AccessKind::Atomic;
      forEachLane(mask, [&](unsigned l) {
        uint8_t *bytes = access(warp, l, a[l], in.imm, kind, in.id, step);
        if (!bytes) {
          d[l] = 0;
          return;
        }
        uint64_t old = loadBytes(bytes, in.imm);
        storeBytes(bytes, atomicResult(ir::AtomicOp(in.flags & ~ir::kBlockScope), old, v[l], in.width),
                   in.imm);
        d[l] = old;
      });
      break;
    }
    case Op::CmpXchg: {
      const uint64_t *a = src(in.a), *cmp = src(in.b), *v = src(in.c);
      uint64_t *success = d + kWarpSize;
      const uint64_t m = widthMask(in.width);
      AccessKind kind = in.flags & ir::kBlockScope ? AccessKind::BlockAtomic : AccessKind::Atomic;
      forEachLane(mask, [&](unsigned l) {
        uint8_t *bytes = access(warp, l, a[l], in.imm, kind, in.id, step);
        uint64_t old = bytes ? loadBytes(bytes, in.imm) : 0;
        bool swapped = bytes && (old & m) == (cmp[l] & m);
        if (swapped)
          storeBytes(bytes, v[l], in.imm);
        d[l] = old;
        success[l] = swapped;
      });
      break;
    }
    case Op::MemCopy: {
      const uint64_t *to = src(in.a), *from = src(in.b), *length = src(in.c);
      forEachLane(mask, [&](unsigned l) {
        uint64_t n = length[l] & widthMask(in.width);
        if (n == 0)
          return;
        uint8_t *s = access(warp, l, from[l], n, AccessKind::Read, in.id, step, false);
        uint8_t *t = access(warp, l, to[l], n, AccessKind::Write, in.id, step, false);
        if (s && t)
          std::memmove(t, s, n);
      });
      break;
    }
    case Op::MemSet: {
      const uint64_t *to = src(in.a), *value = src(in.b), *length = src(in.c);
      forEachLane(mask, [&](unsigned l) {
        uint64_t n = length[l] & widthMask(in.width);
        if (n == 0)
          return;
        if (uint8_t *t = access(warp, l, to[l], n, AccessKind::Write, in.id, step, false))
          std::memset(t, int(value[l] & 0xff), n);
      });
      break;
    }
    case Op::Alloca: {
      uint32_t align = std::max<uint32_t>(in.flags, 1);
      std::string error;
      forEachLane(mask, [&](unsigned l) {
        uint64_t offset = (uint64_t(warp.localTop[l]) + align - 1) / align * align;
        if (in.imm > kMaxLocalBytesPerThread || offset + in.imm > kMaxLocalBytesPerThread) {
          error = "more than 1 MiB of local memory";
          return;
        }
        uint64_t end = offset + in.imm;
        warp.localTop[l] = uint32_t(end);
        if (warp.local[l].size() < end) {
          uint64_t grown = std::max<uint64_t>(end, warp.local[l].size() * 2);
          localBytes_ += grown - warp.local[l].size();
          if (localBytes_ > memoryLimitBytes() / 2) {
            error = "local memory over half the memory limit for the block (--max-memory)";
            return;
          }
          warp.local[l].resize(grown, 0);
        }
        d[l] = ir::encodePointer(ir::PointerSpace::Local, 0, offset);
      });
      if (!error.empty())
        return makeError(program_.path + ": " + threadName(warp, 0) + " uses " + error + " at " +
                         where(in.id));
      break;
    }
    case Op::ExtractDyn: {
      const uint64_t *index = src(in.b);
      forEachLane(mask, [&](unsigned l) {
        uint64_t i = index[l] & widthMask(in.width);
        d[l] = i < in.imm ? regs[(size_t(in.a) + i) * kWarpSize + l] : 0;
      });
      break;
    }
    case Op::InsertDyn: {
      const uint64_t *index = src(in.b), *value = src(in.c);
      forEachLane(mask, [&](unsigned l) {
        uint64_t i = index[l] & widthMask(in.width);
        if (i < in.imm)
          regs[(size_t(in.dst) + i) * kWarpSize + l] = value[l];
      });
      break;
    }
    case Op::BitcastPack: {
      forEachLane(mask, [&](unsigned l) {
        uint64_t packed = 0;
        for (unsigned i = 0; i < in.flags; ++i)
          packed |= (regs[(size_t(in.a) + i) * kWarpSize + l] & widthMask(unsigned(in.imm)))
                    << (i * in.imm);
        d[l] = packed;
      });
      break;
    }
    case Op::BitcastUnpack: {
      const uint64_t *a = src(in.a);
      forEachLane(mask, [&](unsigned l) {
        for (unsigned i = 0; i < in.flags; ++i)
          regs[(size_t(in.dst) + i) * kWarpSize + l] =
              (a[l] >> (i * in.imm)) & widthMask(unsigned(in.imm));
      });
      break;
    }
    case Op::SpecialReg: {
      const uint64_t m = widthMask(in.width);
      auto reg = ir::SpecialRegister(in.flags);
      forEachLane(mask, [&](unsigned l) { d[l] = specialRegister(warp, l, reg) & m; });
      using R = ir::SpecialRegister;
      if (reg == R::Clock || reg == R::Clock64 || reg == R::GlobalTimer)
        listener_->onClockRead(ClockReadEvent{block_, warp.index});
      break;
    }
    case Op::MathUnary: {
      const uint64_t *a = src(in.a);
      auto f = ir::MathFunction(in.flags);
      const auto from = unsigned(in.imm & 0xff);
      if (auto mode = ir::RoundingMode(in.imm >> 8); mode != ir::RoundingMode::Nearest) {
        HostRounding rounding(mode);
        forEachLane(mask, [&](unsigned l) { d[l] = mathUnaryRounded(f, a[l], in.width); });
      } else {
        forEachLane(mask, [&](unsigned l) { d[l] = mathUnary(f, a[l], from, in.width); });
      }
      break;
    }
    case Op::MathBinary: {
      const uint64_t *a = src(in.a), *b = src(in.b);
      auto f = ir::MathFunction(in.flags);
      forEachLane(mask, [&](unsigned l) { d[l] = mathBinary(f, a[l], b[l], in.width); });
      break;
    }
    case Op::Fma: {
      const uint64_t *a = src(in.a), *b = src(in.b), *c = src(in.c);
      if (auto mode = ir::RoundingMode(in.flags); mode != ir::RoundingMode::Nearest) {
        HostRounding rounding(mode);
        forEachLane(
            mask, [&](unsigned l) { d[l] = fusedMultiplyAddRounded(a[l], b[l], c[l], in.width); });
      } else {
        forEachLane(mask, [&](unsigned l) { d[l] = fusedMultiplyAdd(a[l], b[l], c[l], in.width); });
      }
      break;
    }
    case Op::IntUnary: {
      const uint64_t *a = src(in.a);
      auto f = ir::IntFunction(in.flags);
      forEachLane(mask, [&](unsigned l) { d[l] = intUnary(f, a[l], in.width); });
      break;
    }
    case Op::IntBinary: {
      const uint64_t *a = src(in.a), *b = src(in.b);
      auto f = ir::IntFunction(in.flags);
      const uint64_t *c =
          (f == ir::IntFunction::Sad || f == ir::IntFunction::USad) ? src(in.c) : nullptr;
      bool hasOverflow = f >= ir::IntFunction::UAddO && f <= ir::IntFunction::SMulO;
      forEachLane(mask, [&](unsigned l) {
        uint64_t overflow = 0;
        intBinary(f, a[l], b[l], c ? c[l] : 0, in.width, d[l], overflow);
        if (hasOverflow)
          d[kWarpSize + l] = overflow;
      });
      break;
    }
    case Op::FunnelShift: {
      const uint64_t *a = src(in.a), *b = src(in.b), *c = src(in.c);
      const unsigned w = in.width;
      const uint64_t m = widthMask(w);
      forEachLane(mask, [&](unsigned l) {
        unsigned shift = unsigned(c[l] % w);
        unsigned __int128 both = ((unsigned __int128)(a[l] & m) << w) | (b[l] & m);
        d[l] = in.flags == 0 ? uint64_t((both << shift) >> w) & m : uint64_t(both >> shift) & m;
      });
      break;
    }
    case Op::Shuffle: {
      const uint64_t *value = src(in.a), *lane = src(in.b), *control = src(in.c);
      auto mode = ir::ShuffleMode(in.flags);
      uint64_t result[kWarpSize];
      forEachLane(mask, [&](unsigned l) {
        uint32_t c = uint32_t(control[l]);
        uint32_t segmask = (c >> 8) & 0x1f, clamp = c & 0x1f, b = uint32_t(lane[l]);
        uint32_t minLane = l & segmask, maxLane = minLane | (clamp & ~segmask);
        int64_t j = l;
        bool inRange = true;
        switch (mode) {
        case ir::ShuffleMode::Up: j = int64_t(l) - b; inRange = j >= int64_t(maxLane); break;
        case ir::ShuffleMode::Down: j = int64_t(l) + b; inRange = j <= int64_t(maxLane); break;
        case ir::ShuffleMode::Bfly: j = l ^ b; inRange = j <= int64_t(maxLane); break;
        case ir::ShuffleMode::Idx: j = minLane | (b & 0x1f & ~segmask); inRange = j <= int64_t(maxLane); break;
        }
        if (!inRange)
          j = l;
        result[l] = value[j & 31] & widthMask(in.width);
      });
      forEachLane(mask, [&](unsigned l) { d[l] = result[l]; });
      break;
    }
    case Op::Vote: {
      const uint64_t *predicate = src(in.a), *member = src(in.b);
      LaneMask ballot = 0;
      forEachLane(mask, [&](unsigned l) { ballot |= LaneMask(predicate[l] & 1) << l; });
      forEachLane(mask, [&](unsigned l) {
        LaneMask group = mask & LaneMask(member[l]);
        LaneMask votes = ballot & group;
        switch (ir::VoteMode(in.flags)) {
        case ir::VoteMode::All: d[l] = votes == group; break;
        case ir::VoteMode::Any: d[l] = votes != 0; break;
        case ir::VoteMode::Uni: d[l] = votes == 0 || votes == group; break;
        case ir::VoteMode::Ballot: d[l] = votes; break;
        }
      });
      break;
    }
    case Op::MatchAny: {
      const uint64_t *value = src(in.a), *member = src(in.b);
      uint64_t result[kWarpSize];
      forEachLane(mask, [&](unsigned l) {
        LaneMask same = 0;
        forEachLane(mask & LaneMask(member[l]), [&](unsigned k) {
          if (value[k] == value[l])
            same |= LaneMask(1) << k;
        });
        result[l] = same;
      });
      forEachLane(mask, [&](unsigned l) { d[l] = result[l]; });
      break;
    }
    case Op::WarpReduce: {
      const uint64_t *value = src(in.a), *member = src(in.b);
      uint64_t result[kWarpSize];
      forEachLane(mask, [&](unsigned l) {
        result[l] = warpReduce(ir::WarpReduceOp(in.flags), mask & LaneMask(member[l]), value);
      });
      forEachLane(mask, [&](unsigned l) { d[l] = result[l]; });
      break;
    }
    case Op::WarpSync: {
      // Lanes may name different member masks (the two halves of a warp
      // split by tiled_partition<16>): each group of lanes naming one mask
      // meets on its own.
      if (listener_) {
        const uint64_t *member = src(in.a);
        LaneMask pending = mask;
        while (pending) {
          LaneMask named = LaneMask(member[std::countr_zero(pending)]);
          LaneMask group = 0;
          forEachLane(pending, [&](unsigned l) {
            if (LaneMask(member[l]) == named)
              group |= LaneMask(1) << l;
          });
          pending &= ~group;
          listener_->onWarpSync(WarpSyncEvent{block_, warp.index, step, named & group});
        }
      }
      break;
    }
    case Op::Print:
      forEachLane(mask, [&](unsigned l) { d[l] = 0; });
      if (listener_)
        printed(warp, mask, src(in.a), src(aux[in.aux]), in.id);
      break;
    case Op::Trap:
      if (ir::TrapReason(in.flags) == ir::TrapReason::CallThroughNonFunction)
        return callThroughNonFunction(warp, mask, src(in.a), in.id);
      if (ir::TrapReason(in.flags) == ir::TrapReason::Assert)
        return assertionFailed(warp, unsigned(std::countr_zero(mask)), src(in.a), in.id);
      return makeError(program_.path + ": kernel '" + kernel_.sourceName + "' " + kKernelTrapped +
                       " in " + threadName(warp, unsigned(std::countr_zero(mask))) + " at " +
                       where(in.id));
    case Op::ChosenValue: {
      uint64_t value = chosenValue(in);
      forEachLane(mask, [&](unsigned l) { d[l] = value; });
      break;
    }
    case Op::Unreachable:
      return makeError(program_.path + ": kernel '" + kernel_.sourceName +
                       "': " + threadName(warp, unsigned(std::countr_zero(mask))) + " " +
                       kKernelReachedUnreachable + " (undefined behaviour) at " + where(in.id));
    case Op::Barrier: {
      auto kind = ir::BarrierKind(in.flags);
      if (!removedBarriers_.empty() && kind == ir::BarrierKind::Plain &&
          std::find(removedBarriers_.begin(), removedBarriers_.end(), in.id) !=
              removedBarriers_.end())
        break;
      if (kind != ir::BarrierKind::Plain) {
        const uint64_t *predicate = src(in.a);
        forEachLane(mask, [&](unsigned l) { barrierTrue_ += (predicate[l] & widthMask(32)) != 0; });
        warp.pendingResults.push_back(
            PendingBarrierResult{warp.frames[top->frame].regBase + size_t(in.dst) * kWarpSize, mask,
                                 in.flags, in.width});
      }
      barrierArrived_ += activeLanes;
      top->pc = pc + 1;
      parkAtBarrier(warp, in, mask);
      return Ok{};
    }
    case Op::TextureFetch:
    case Op::SurfaceLoad:
    case Op::SurfaceStore:
      executeTexture(warp, in, mask, regs, aux, d, step);
      break;
    case Op::FindNthSet: {
      const uint64_t *bits = src(in.a), *base = src(in.b), *offset = src(in.c);
      forEachLane(mask, [&](unsigned l) {
        d[l] = findNthSet(uint32_t(bits[l]), uint32_t(base[l]), int32_t(offset[l]));
      });
      break;
    }
    case Op::Malloc: {
      const uint64_t *size = src(in.a);
      forEachLane(mask, [&](unsigned l) { d[l] = memory_.heapAllocate(size[l], in.id); });
      break;
    }
    case Op::Free: {
      const uint64_t *pointer = src(in.a);
      forEachLane(mask, [&](unsigned l) {
        if (!ir::decodePointer(pointer[l]).isNull && !memory_.heapFree(pointer[l]))
          undefinedBehavior(warp, l, UndefinedBehavior::InvalidFree, in.id, pointer[l], 64);
      });
      break;
    }
    case Op::GridBarrier:
      // Every block arrives before any goes on: this path waits (continueBlock
      // then suspends the block); the counter it reads back has flipped.
      forEachLane(mask, [&](unsigned l) { d[l] = 0x80000000u; });
      top->pc = pc + 1;
      top->waiting = true;
      top->gridBarrier = true;
      top->barrierInstr = in.id;
      ++pathsAtGridBarrier_;
      letSiblingRun(warp);
      return Ok{};
    case Op::NamedBarrier: {
      unsigned first = unsigned(std::countr_zero(mask));
      top->pc = pc + 1;
      if (Status status = arriveAtNamedBarrier(warp, in, mask, src(in.a)[first] & widthMask(32),
                                               src(in.b)[first] & widthMask(32), step);
          !status)
        return status;
      if (ir::NamedBarrierMode(in.flags) == ir::NamedBarrierMode::Sync)
        return Ok{};
      break; // bar.arrive: go on
    }
    case Op::Exit:
      exitLanes(warp, mask, in.id);
      return Ok{};
    case Op::Br:
      applyMoves(aux[in.aux], aux[in.aux + 1], mask);
      top->pc = uint32_t(in.imm);
      return Ok{};
    case Op::CondBr: {
      const uint32_t *info = aux + in.aux;
      const uint64_t *cond = src(in.a);
      LaneMask taken = 0;
      forEachLane(mask, [&](unsigned l) { taken |= LaneMask(cond[l] & 1) << l; });
      LaneMask notTaken = mask & ~taken;
      if (taken)
        applyMoves(info[3], info[4], taken);
      if (notTaken)
        applyMoves(info[5], info[6], notTaken);
      if (!notTaken || !taken) {
        top->pc = taken ? info[0] : info[1];
        return Ok{};
      }
      std::pair<uint32_t, LaneMask> paths[2] = {{info[0], taken}, {info[1], notTaken}};
      diverge(warp, paths, 2, info[2]);
      return Ok{};
    }
    case Op::Switch: {
      const uint32_t *info = aux + in.aux;
      const uint64_t *value = src(in.a);
      uint32_t cases = info[1];
      // Group lanes by the case they take; index `cases` is the default.
      std::pair<uint32_t, LaneMask> paths[kWarpSize];
      size_t pathCount = 0;
      forEachLane(mask, [&](unsigned l) {
        uint64_t v = value[l] & widthMask(in.width);
        const uint32_t *target = info + 2; // default: target, movesBegin, movesEnd
        for (uint32_t c = 0; c < cases; ++c)
          if (info[5 + 4 * c] == v)
            target = info + 5 + 4 * c + 1;
        applyMoves(target[1], target[2], LaneMask(1) << l);
        for (size_t p = 0; p < pathCount; ++p)
          if (paths[p].first == target[0]) {
            paths[p].second |= LaneMask(1) << l;
            return;
          }
        paths[pathCount++] = {target[0], LaneMask(1) << l};
      });
      if (pathCount == 1) {
        top->pc = paths[0].first;
        return Ok{};
      }
      diverge(warp, paths, pathCount, info[0]);
      return Ok{};
    }
    case Op::Call: {
      const ir::Function &callee = program_.functions[in.imm];
      if (warp.frames.size() >= kMaxCallDepth)
        return makeError(program_.path + ": kernel '" + kernel_.sourceName +
                         "': calls nested deeper than " + std::to_string(kMaxCallDepth) + " at " +
                         where(in.id) + " (unbounded recursion?)");
      top->pc = pc + 1;
      size_t callerBase = warp.frames[top->frame].regBase;
      size_t base = callerBase + size_t(fn.numSlots) * kWarpSize;
      size_t needed = base + size_t(callee.numSlots) * kWarpSize;
      if (needed * sizeof(uint64_t) > memoryLimitBytes() / std::max<size_t>(warps_.size(), 1))
        return makeError(program_.path + ": kernel '" + kernel_.sourceName + "': calls at " +
                         where(in.id) + " need " +
                         overMemoryLimit(needed * sizeof(uint64_t) * warps_.size()));
      if (warp.regs.size() < needed)
        warp.regs.resize(std::max(needed, warp.regs.size() * 2), 0);
      regs = warp.regs.data() + callerBase;
      uint64_t *calleeRegs = warp.regs.data() + base;
      uint32_t count = aux[in.aux];
      for (uint32_t i = 0; i < count; ++i) {
        const uint64_t *s = src(aux[in.aux + 1 + i]);
        uint64_t *t = calleeRegs + size_t(i) * kWarpSize;
        forEachLane(mask, [&](unsigned l) { t[l] = s[l]; });
      }
      uint32_t frame = uint32_t(warp.frames.size());
      warp.frames.push_back(Frame{uint32_t(in.imm), base, in.dst, warp.localTop});
      warp.stack.push_back(StackEntry{0, ir::kNoReconvergence, mask, frame});
      return Ok{};
    }
    case Op::Ret: {
      uint32_t frame = top->frame;
      if (frame == 0) {
        warp.stack.pop_back();
        exitLanes(warp, mask, in.id);
        return Ok{};
      }
      const Frame &callee = warp.frames[frame];
      uint64_t *callerRegs = warp.regs.data() + warp.frames[frame - 1].regBase;
      for (uint32_t i = 0; i < in.imm; ++i) {
        const uint64_t *s = src(in.a + i);
        uint64_t *t = callerRegs + size_t(callee.returnDst + i) * kWarpSize;
        forEachLane(mask, [&](unsigned l) { t[l] = s[l]; });
      }
      warp.stack.pop_back();
      return Ok{};
    }
    }
    ++pc;
    if (oneDataInstruction)
      return Ok{};
    if (faultedLanes_) {
      // Lanes that executed undefined behaviour stop; the others go on.
      LaneMask faulted = faultedLanes_;
      faultedLanes_ = 0;
      top->pc = pc;
      exitLanes(warp, faulted, in.id);
      return Ok{};
    }
  }
}

// A warp arrives at named barrier `id` (whole-warp granularity, as the ISA
// counts it); bar.sync parks it until `count` threads arrived (0: the whole
// block), bar.arrive only counts. The arrival that completes the barrier
// releases its waiters at once.
Status Launch::arriveAtNamedBarrier(Warp &warp, const Instr &inst, LaneMask mask, uint64_t id,
                                    uint64_t count, uint64_t step) {
  uint64_t blockThreads = uint64_t(warps_.size()) * kWarpSize;
  if (id >= NamedBarriers::kBarriers || count % kWarpSize != 0 || count > blockThreads)
    return makeError(program_.path + ": kernel '" + kernel_.sourceName + "': named barrier " +
                     std::to_string(id) + " with a thread count of " + std::to_string(count) +
                     " at " + where(inst.id) +
                     " (ids are 0..15, counts multiples of 32 up to the block's " +
                     std::to_string(blockThreads) + " threads)");
  bool waits = ir::NamedBarrierMode(inst.flags) == ir::NamedBarrierMode::Sync;
  if (listener_)
    listener_->onNamedBarrierArrive(
        NamedBarrierArriveEvent{block_, warp.index, step, uint32_t(id), inst.id, waits});
  if (waits) {
    warp.stack.back().namedBarrier = int8_t(id);
    parkAtBarrier(warp, inst, mask);
  }
  if (namedBarriers_.arrive(uint32_t(id), count ? uint32_t(count) : uint32_t(blockThreads),
                            kWarpSize))
    releaseNamedBarrier(uint32_t(id));
  return Ok{};
}

void Launch::executeTexture(Warp &warp, const Instr &in, LaneMask mask, const uint64_t *regs,
                            const uint32_t *aux, uint64_t *dst, uint64_t step) {
  auto src = [&](uint32_t operand) { return operandLanes(regs, constants_, operand); };
  // handle, x, y, z, then a store's values
  const uint64_t *operands[8] = {src(in.a), src(in.b), src(in.c), src(uint32_t(in.imm))};
  if (in.op == Op::SurfaceStore)
    for (uint32_t i = 0; i < aux[in.aux] && i < 4; ++i)
      operands[4 + i] = src(aux[in.aux + 1 + i]);
  if (in.op == Op::TextureFetch)
    fetchTexels(warp, in, mask, operands, dst, step);
  else
    accessSurface(warp, in, mask, operands, dst, step);
}

const TextureDescriptor *Launch::textureOf(Warp &warp, unsigned lane, uint64_t handle,
                                           uint32_t instr) {
  ir::DecodedPointer decoded = ir::decodePointer(handle);
  bool names = !decoded.isNull && decoded.space == ir::PointerSpace::Global &&
               decoded.offset == 0 && decoded.buffer < args_.size() &&
               args_[decoded.buffer].texture.has_value();
  if (names)
    return &*args_[decoded.buffer].texture;
  undefinedBehavior(warp, lane,
                    decoded.isNull ? UndefinedBehavior::NullPointer : UndefinedBehavior::WildPointer,
                    instr, handle, 0);
  return nullptr;
}

// tex.*: each texel the sample uses is a read of the parameter's buffer.
void Launch::fetchTexels(Warp &warp, const Instr &in, LaneMask mask,
                         const uint64_t *const *operands, uint64_t *dst, uint64_t step) {
  forEachLane(mask, [&](unsigned l) {
    for (unsigned c = 0; c < 4; ++c)
      dst[c * kWarpSize + l] = 0;
    const TextureDescriptor *texture = textureOf(warp, l, operands[0][l], in.id);
    if (!texture)
      return;
    struct Reader final : TexelReader {
      Launch &launch;
      Warp &warp;
      unsigned lane;
      const TextureDescriptor &texture;
      uint32_t buffer, instr;
      uint64_t step;
      Reader(Launch &launch, Warp &warp, unsigned lane, const TextureDescriptor &texture,
             uint32_t buffer, uint32_t instr, uint64_t step)
          : launch(launch), warp(warp), lane(lane), texture(texture), buffer(buffer), instr(instr),
            step(step) {}
      const uint8_t *read(uint64_t index) override {
        uint64_t pointer = ir::encodePointer(ir::PointerSpace::Global, buffer,
                                             int64_t(texture.texelOffset(index)));
        return launch.access(warp, lane, pointer, texture.texelBytes(), AccessKind::Read, instr,
                             step, false);
      }
    } reader(*this, warp, l, *texture, texelBuffer(*texture, operands[0][l]), in.id, step);
    std::array<uint32_t, 3> coords = {uint32_t(operands[1][l]), uint32_t(operands[2][l]),
                                      uint32_t(operands[3][l])};
    std::array<uint32_t, 4> channels = fetchTexture(*texture, in.flags, coords, reader);
    for (unsigned c = 0; c < 4; ++c)
      dst[c * kWarpSize + l] = channels[c];
  });
}

// suld/sust: one read or write of the element's bytes in the surface's
// buffer; outside the surface, .trap is an out-of-bounds access, .zero
// reads 0 and writes nothing.
void Launch::accessSurface(Warp &warp, const Instr &in, LaneMask mask,
                           const uint64_t *const *operands, uint64_t *dst, uint64_t step) {
  bool store = in.op == Op::SurfaceStore;
  uint32_t count = in.flags >> 4;
  uint32_t elementBytes = in.width / 8;
  uint32_t sizeBytes = elementBytes * count;
  auto boundary = ir::SurfaceBoundary(in.flags >> 2 & 3);
  forEachLane(mask, [&](unsigned l) {
    if (!store)
      for (uint32_t i = 0; i < count; ++i)
        dst[i * kWarpSize + l] = 0;
    const TextureDescriptor *surface = textureOf(warp, l, operands[0][l], in.id);
    if (!surface)
      return;
    uint32_t buffer = texelBuffer(*surface, operands[0][l]);
    std::array<int64_t, 3> coords = {int32_t(operands[1][l]), int32_t(operands[2][l]),
                                     int32_t(operands[3][l])};
    SurfaceAddress at = surfaceAddress(*surface, uint8_t(in.flags & 15), coords, sizeBytes);
    if (!at.inside && boundary == ir::SurfaceBoundary::Zero)
      return;
    // Outside with .trap: reported out of bounds, at the offset a square (cubic)
    // surface holding these coordinates would need, so that an automatic
    // surface grows to fit them (session/Analysis.cpp repairs overruns).
    uint64_t offset = at.inside ? at.byteOffset : surfaceOverrunOffset(*surface, coords, sizeBytes);
    uint64_t pointer = ir::encodePointer(ir::PointerSpace::Global, buffer, int64_t(offset));
    std::optional<uint64_t> stored;
    if (store && count == 1)
      stored = operands[4][l];
    uint8_t *bytes = access(warp, l, pointer, sizeBytes, store ? AccessKind::Write : AccessKind::Read,
                            in.id, step, false, stored);
    if (!bytes)
      return;
    for (uint32_t i = 0; i < count; ++i) {
      if (store)
        storeBytes(bytes + i * elementBytes, operands[4 + i][l], elementBytes);
      else
        dst[i * kWarpSize + l] = loadBytes(bytes + i * elementBytes, elementBytes);
    }
  });
}

void Launch::releaseNamedBarrier(uint32_t id) {
  std::vector<uint32_t> waiters;
  for (Warp &warp : warps_) {
    bool released = false;
    for (StackEntry &entry : warp.stack)
      if (entry.waiting && entry.namedBarrier == int8_t(id)) {
        entry.waiting = false;
        entry.namedBarrier = -1;
        released = true;
      }
    if (!released)
      continue;
    waiters.push_back(warp.index);
    if (warp.state == Warp::State::AtNamedBarrier)
      warp.state = Warp::State::Ready;
  }
  if (listener_)
    listener_->onNamedBarrierRelease(NamedBarrierReleaseEvent{block_, id, std::move(waiters)});
}

// Nothing can run and some warps wait at a named barrier that too few threads
// reach: a deadlock on a GPU. Reported once per barrier instruction; the
// release that follows lets the simulation go on. True when there were any
// (they name the exited threads or other barriers already).
bool Launch::reportIncompleteNamedBarriers() {
  bool any = false;
  for (const Warp &warp : warps_)
    for (const StackEntry &entry : warp.stack) {
      if (!entry.waiting || entry.namedBarrier < 0 || !entry.mask)
        continue;
      uint32_t waitingThread = warp.firstThread + unsigned(std::countr_zero(entry.mask));
      uint32_t otherThread = waitingThread, otherInstr = entry.barrierInstr;
      for (const Warp &other : warps_) {
        LaneMask exited = other.fullMask & ~other.liveMask;
        const StackEntry *waitingElsewhere = nullptr;
        for (const StackEntry &e : other.stack)
          if (e.waiting && e.mask && e.barrierInstr != entry.barrierInstr)
            waitingElsewhere = &e;
        if (waitingElsewhere) {
          otherThread = other.firstThread + unsigned(std::countr_zero(waitingElsewhere->mask));
          otherInstr = waitingElsewhere->barrierInstr;
          break;
        }
        if (exited) {
          otherThread = other.firstThread + unsigned(std::countr_zero(exited));
          otherInstr = other.exitInstr;
          break;
        }
      }
      reportDivergence(BarrierDivergenceEvent{
          BarrierDivergenceEvent::Cause::IncompleteNamedBarrier, block_, warp.index,
          entry.barrierInstr, otherInstr, waitingThread, otherThread});
      any = true;
    }
  return any;
}

void Launch::releaseBarrier() {
  bool deadlocked = reportIncompleteNamedBarriers();
  namedBarriers_.reset();
  // Threads waiting at different barriers, or exited while others wait.
  std::vector<uint32_t> barriers;
  uint32_t waitingThread = 0, firstBarrier = 0;
  bool haveWaiting = false;
  for (Warp &warp : warps_)
    for (const StackEntry &entry : warp.stack)
      if (entry.waiting && entry.mask) {
        if (!haveWaiting) {
          waitingThread = warp.firstThread + unsigned(std::countr_zero(entry.mask));
          firstBarrier = entry.barrierInstr;
          haveWaiting = true;
        }
        if (std::find(barriers.begin(), barriers.end(), entry.barrierInstr) == barriers.end())
          barriers.push_back(entry.barrierInstr);
      }
  for (Warp &warp : warps_)
    for (const StackEntry &entry : warp.stack)
      if (!deadlocked && entry.waiting && entry.mask && entry.barrierInstr != firstBarrier)
        reportDivergence(BarrierDivergenceEvent{
            BarrierDivergenceEvent::Cause::DifferentBarriers, block_, warp.index, firstBarrier,
            entry.barrierInstr, waitingThread,
            warp.firstThread + unsigned(std::countr_zero(entry.mask))});
  for (Warp &warp : warps_) {
    LaneMask exited = warp.fullMask & ~warp.liveMask;
    if (exited && haveWaiting && !deadlocked) {
      reportDivergence(BarrierDivergenceEvent{BarrierDivergenceEvent::Cause::ExitedThreads, block_,
                                              warp.index, firstBarrier, warp.exitInstr,
                                              waitingThread,
                                              warp.firstThread + unsigned(std::countr_zero(exited))});
      break;
    }
  }

  // __syncthreads_count/and/or results.
  for (Warp &warp : warps_) {
    for (const PendingBarrierResult &pending : warp.pendingResults) {
      uint64_t value = 0;
      switch (ir::BarrierKind(pending.kind)) {
      case ir::BarrierKind::Count: value = barrierTrue_; break;
      case ir::BarrierKind::And: value = barrierTrue_ == barrierArrived_; break;
      case ir::BarrierKind::Or: value = barrierTrue_ != 0; break;
      case ir::BarrierKind::Plain: break;
      }
      value &= widthMask(pending.width);
      forEachLane(pending.mask, [&](unsigned l) { warp.regs[pending.regIndex + l] = value; });
    }
    warp.pendingResults.clear();
  }
  barrierTrue_ = barrierArrived_ = 0;

  ++epoch_;
  for (Warp &warp : warps_) {
    for (StackEntry &entry : warp.stack) {
      entry.waiting = false;
      entry.namedBarrier = -1;
    }
    if (warp.state == Warp::State::AtBarrier || warp.state == Warp::State::AtNamedBarrier)
      warp.state = Warp::State::Ready;
  }
  if (listener_)
    listener_->onBarrierRelease(BarrierReleaseEvent{block_, epoch_, barriers});
}

// Reads of `lane`'s view of the launch's memory (its own stack included),
// outside the model: a printf's arguments, an assert's text.
ReadDeviceBytes Launch::bytesSeenBy(Warp &warp, unsigned lane) {
  return [this, &local = warp.local[lane]](uint64_t address, uint64_t size, uint8_t *out) {
    ResolvedAccess bytes = memory_.resolve(address, size, local);
    if (bytes.bytes)
      std::memcpy(out, bytes.bytes, size);
    return bytes.bytes != nullptr;
  };
}

// Each lane's printf, in lane order (a GPU orders a warp's lines so too).
void Launch::printed(Warp &warp, LaneMask mask, const uint64_t *format, const uint64_t *arguments,
                     uint32_t instr) {
  forEachLane(mask, [&](unsigned lane) {
    OutputEvent event{block_, warp.index, warp.firstThread + lane, instr, {}};
    if (outputText_)
      event.text = formatDevicePrintf(format[lane], arguments[lane], bytesSeenBy(warp, lane))
                       .value_or("<printf with an unreadable format>\n");
    listener_->onOutput(event);
  });
}

Status Launch::assertionFailed(Warp &warp, unsigned lane, const uint64_t *condition,
                               uint32_t instr) {
  // The condition's text, a string literal of the program (a few hundred
  // characters at most are shown).
  std::string text =
      readDeviceString(condition[lane], bytesSeenBy(warp, lane), 512).value_or(std::string());
  if (listener_)
    listener_->onAssertionFailed(AssertionEvent{block_, warp.firstThread + lane, instr, text});
  return makeError(program_.path + ": kernel '" + kernel_.sourceName + "' " + kKernelTrapped +
                   ": assertion" + (text.empty() ? "" : " `" + text + "`") + " failed in " +
                   threadName(warp, lane) + " at " + where(instr));
}

Status Launch::runBlock() {
  memory_.beginBlock();
  localBytes_ = 0;
  epoch_ = 0;
  barrierTrue_ = barrierArrived_ = 0;
  namedBarriers_.reset();
  reportedDivergence_.clear();
  if (listener_)
    listener_->onBlockBegin(block_);
  uint32_t warpCount = uint32_t((config_.block.count() + kWarpSize - 1) / kWarpSize);
  warps_.resize(warpCount);
  for (uint32_t w = 0; w < warpCount; ++w)
    initWarp(warps_[w], w);
  return continueBlock();
}

Status Launch::continueBlock() {
  for (;;) {
    // A named barrier's completion makes warps that waited there ready again.
    for (bool ran = true; ran;) {
      ran = false;
      for (Warp &warp : warps_)
        if (warp.state == Warp::State::Ready) {
          ran = true;
          warp.givenBlockAt = warp.step;
          if (Status status = runWarp(warp); !status)
            return status;
        }
    }
    // The block goes on once every block of the grid has reached the grid
    // barrier: the warps that wait at a barrier of the block wait with it.
    blockAtGridBarrier_ = pathsAtGridBarrier_ != 0;
    if (blockAtGridBarrier_)
      return Ok{};
    bool anyWaiting = std::any_of(warps_.begin(), warps_.end(), [](const Warp &w) {
      return w.state == Warp::State::AtBarrier || w.state == Warp::State::AtNamedBarrier;
    });
    if (!anyWaiting)
      break;
    releaseBarrier();
  }
  for (const Warp &warp : warps_) {
    stats_.warpSteps += warp.step;
    if (warp.fullMask != warp.liveMask || warp.liveMask == 0)
      lastEnded_ = EndedBlock{block_, warp.firstThread, warp.exitInstr};
  }
  if (listener_)
    listener_->onBlockEnd(block_);
  return Ok{};
}

// The running block waits at a grid barrier: it is put aside with its state.
// A grid barrier needs every block resident at once, as a cooperative launch
// guarantees: a grid larger than the simulated device holds cannot sync.
Status Launch::suspendBlock() {
  uint64_t threadsPerBlock = config_.block.count();
  uint64_t sharedBytes = config_.dynamicSharedBytes + kernel_.staticSharedBytes;
  uint64_t resident =
      simulatedResidentBlocksPerMultiprocessor(threadsPerBlock, sharedBytes) * kSimulatedMultiProcessors;
  uint32_t barrierInstr = 0;
  for (const Warp &warp : warps_)
    for (const StackEntry &entry : warp.stack)
      if (entry.waiting && entry.gridBarrier)
        barrierInstr = entry.barrierInstr;
  if (config_.grid.count() > resident)
    return makeError(program_.path + ": kernel '" + kernel_.sourceName +
                     "' synchronizes the grid (a grid-wide barrier at " + where(barrierInstr) +
                     ") in a launch of " + std::to_string(config_.grid.count()) +
                     " blocks, but at most " + std::to_string(resident) + " blocks of " +
                     std::to_string(threadsPerBlock) +
                     " threads are resident on the simulated device at once: a cooperative "
                     "launch this large fails (cudaErrorCooperativeLaunchTooLarge)");
  SuspendedBlock suspended;
  suspended.block = block_;
  suspended.blockIdx = blockIdx_;
  suspended.epoch = epoch_;
  suspended.warps = std::move(warps_);
  suspended.barrierTrue = barrierTrue_;
  suspended.barrierArrived = barrierArrived_;
  suspended.namedBarriers = namedBarriers_;
  suspended.reportedDivergence = std::move(reportedDivergence_);
  suspended.localBytes = localBytes_;
  suspended.shared = memory_.takeShared();
  pathsAtGridBarrier_ = 0;
  warps_.clear();
  reportedDivergence_.clear();
  if (listener_)
    listener_->onBlockSuspend(block_);
  suspended_.push_back(std::move(suspended));
  blockAtGridBarrier_ = false;
  return Ok{};
}

// Every block waits at the grid barrier or has ended: the waiting ones go on,
// one after another, each until it ends or reaches the next grid barrier.
// Blocks that ended without reaching it would leave the others waiting
// forever on a GPU: reported once, then the rest go on.
Status Launch::releaseGridBarrier() {
  ++gridPhase_;
  const SuspendedBlock &first = suspended_.front();
  if (suspended_.size() < config_.grid.count() && lastEnded_ && !reportedGridDivergence_ &&
      listener_) {
    reportedGridDivergence_ = true;
    for (const Warp &warp : first.warps)
      for (const StackEntry &entry : warp.stack)
        if (entry.waiting && entry.gridBarrier && entry.mask) {
          listener_->onBarrierDivergence(BarrierDivergenceEvent{
              BarrierDivergenceEvent::Cause::GridBarrierNotReached, first.block, warp.index,
              entry.barrierInstr, lastEnded_->instruction,
              warp.firstThread + unsigned(std::countr_zero(entry.mask)), lastEnded_->thread,
              lastEnded_->block});
          break;
        }
  }
  if (listener_)
    listener_->onGridBarrierRelease(GridBarrierReleaseEvent{gridPhase_, uint32_t(suspended_.size())});
  std::vector<SuspendedBlock> waiting = std::move(suspended_);
  suspended_.clear();
  for (SuspendedBlock &resumed : waiting) {
    block_ = resumed.block;
    blockIdx_ = resumed.blockIdx;
    epoch_ = resumed.epoch + 1; // the grid barrier is a barrier of the block too
    warps_ = std::move(resumed.warps);
    barrierTrue_ = resumed.barrierTrue;
    barrierArrived_ = resumed.barrierArrived;
    namedBarriers_ = resumed.namedBarriers;
    reportedDivergence_ = std::move(resumed.reportedDivergence);
    localBytes_ = resumed.localBytes;
    memory_.restoreShared(std::move(resumed.shared));
    for (Warp &warp : warps_) {
      for (StackEntry &entry : warp.stack)
        if (entry.gridBarrier)
          entry.waiting = entry.gridBarrier = false;
      if (warp.state == Warp::State::AtGridBarrier)
        warp.state = Warp::State::Ready;
    }
    if (listener_)
      listener_->onBlockResume(block_, epoch_);
    if (Status status = continueBlock(); !status)
      return status;
    if (blockAtGridBarrier_)
      if (Status status = suspendBlock(); !status)
        return status;
  }
  return Ok{};
}

// A thread that has run this many instructions when the launch's time budget
// runs out is named in its error.
constexpr uint64_t kLongThreadSteps = uint64_t(1) << 20;

// The CPU time the calling thread has used, in seconds. A launch's time
// budget counts it, not the wall clock, so that a verdict does not depend on
// what else the machine runs (a scan's other jobs, a build).
double threadCpuSeconds() {
  timespec used{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &used);
  return double(used.tv_sec) + double(used.tv_nsec) * 1e-9;
}

Status Launch::checkStop(const Warp *warp, uint32_t instr) {
  if (cancel_ && cancel_->load(std::memory_order_relaxed))
    return makeError(kInterrupted);
  if (chunk_ && chunk_->voided->load(std::memory_order_relaxed))
    return makeError(kChunkVoided);
  // A block whose events outgrow what a whole chunk may hold cannot wait to
  // be passed on: its chunk is void and runs again block after block, the
  // events going straight to the model (memory stays bounded however long
  // one block runs).
  if (recording_ && recording_->bytes() > kChunkEventBytes) {
    chunk_->voided->store(true, std::memory_order_relaxed);
    chunk_->blockTooLarge->store(true, std::memory_order_relaxed);
    return makeError(kChunkVoided);
  }
  // The model of a large launch grows with the addresses it touches: past
  // --max-memory the launch stops rather than exhaust the machine. Read at
  // most every 50 ms.
  auto now = std::chrono::steady_clock::now();
  if (config_.stopOverMemory && now - lastMemoryCheck_ > std::chrono::milliseconds(50)) {
    lastMemoryCheck_ = now;
    if (uint64_t resident = residentBytes(); resident > memoryLimitBytes())
      return makeError(std::string(kLaunchTooCostly) + ": its simulation outgrew --max-memory (" +
                       std::to_string(resident >> 20) + " MiB resident, the limit is " +
                       std::to_string(memoryLimitBytes() >> 20) + " MiB) in block " +
                       std::to_string(block_) + " of " + std::to_string(config_.grid.count()));
  }
  if (config_.budgetSeconds > 0 && !budgetStart_)
    budgetStart_ = BudgetStart{now, threadCpuSeconds()};
  // A thread's CPU time grows no faster than the clock: it is read (a
  // system call) only once the clock has passed the budget.
  if (budgetStart_ &&
      std::chrono::duration<double>(now - budgetStart_->wall).count() > config_.budgetSeconds &&
      threadCpuSeconds() - budgetStart_->cpuSeconds > config_.budgetSeconds) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%g", config_.budgetSeconds);
    std::string message = std::string(kLaunchTooCostly) + ": it ran past its time budget of " +
                          seconds + " s (--launch-seconds) in block " + std::to_string(block_) +
                          " of " + std::to_string(config_.grid.count()) + ", after " +
                          std::to_string(stats_.threadInstrs) + " thread-instructions";
    if (warp && warp->step >= kLongThreadSteps)
      message += "; " + threadName(*warp, unsigned(std::countr_zero(warp->stack.back().mask))) +
                 " had run " + std::to_string(warp->step) + " instructions (last at " +
                 where(instr) + "): a loop that may never end";
    return makeError(message);
  }
  return Ok{};
}

bool Launch::givesWay(const Warp &warp, uint64_t step) const {
  if (step - warp.givenBlockAt < jit::kStopCheckSteps)
    return false;
  return std::any_of(warps_.begin(), warps_.end(), [&](const Warp &other) {
    return &other != &warp && other.state == Warp::State::Ready;
  });
}

Status Launch::runBlocksInOrder(uint64_t begin, uint64_t end) {
  for (uint64_t b = begin; b < end; ++b) {
    block_ = uint32_t(b);
    blockIdx_ = unlinearize(b, config_.grid);
    if ((b & 0xff) == 0)
      if (Status go = checkStop(); !go)
        return go;
    if (Status status = runBlock(); !status)
      return status;
    if (blockAtGridBarrier_)
      if (Status status = suspendBlock(); !status)
        return status;
  }
  return Ok{};
}

bool Launch::admitInChunk(uint8_t *bytes, uint64_t size, AccessKind kind, uint32_t instr) {
  bool writes = kind != AccessKind::Read;
  if (chunk_->unchecked->empty() || !(*chunk_->unchecked)[instr])
    if (!chunk_->claims->claim(bytes, size, writes, block_)) {
      chunk_->voided->store(true, std::memory_order_relaxed);
      return false;
    }
  if (writes)
    undo_.save(bytes, size);
  return true;
}

Status Launch::runWorkerBlock(uint64_t block, BlockEvents *events) {
  listener_ = events;
  recording_ = events;
  block_ = uint32_t(block);
  blockIdx_ = unlinearize(block, config_.grid);
  if (chunk_->voided->load(std::memory_order_relaxed))
    return makeError(kChunkVoided);
  return runBlock();
}

// Chunks voided before the rest of a launch runs block after block.
constexpr unsigned kVoidedChunksBeforeInOrder = 2;

// One chunk of a launch whose blocks run in parallel: blocks [begin, end),
// each block's events and how it ended.
struct Chunk {
  uint64_t begin = 0, end = 0;
  std::vector<BlockEvents> events;
  std::vector<Status> outcomes;
  uint64_t eventBytes() const {
    uint64_t bytes = 0;
    for (const BlockEvents &block : events)
      bytes += block.bytes();
    return bytes;
  }
};

Result<RunStats> Launch::runInParallel() {
  const uint64_t blocks = config_.grid.count();
  const unsigned jobs = unsigned(std::min<uint64_t>(jobs_, blocks));
  std::vector<bool> unchecked = untrackedInstructions(program_, kernel_, config_, args_);
  GlobalClaims claims(18);
  std::atomic<bool> voided{false}, blockTooLarge{false};
  ChunkShare share{&claims, &unchecked, &voided, &blockTooLarge};

  // The workers share the launch's global memory: its arguments, variables
  // and the caller's bound memory.
  BoundMemory shared;
  std::optional<SerializedExternalMemory> external;
  if (bound_) {
    shared.allocations = bound_->allocations;
    if (bound_->external)
      shared.external = &external.emplace(*bound_->external);
  }
  shared.globalVariables = memory_.globalVariables();
  shared.constantVariables = memory_.constantVariables();
  RunOptions workerOptions;
  workerOptions.removedBarriers = removedBarriers_;
  workerOptions.quietAccesses = quiet_;
  workerOptions.cancel = cancel_;
  workerOptions.bound = &shared;
  workerOptions.engine = engine_;
  std::vector<std::unique_ptr<Launch>> workers;
  for (unsigned j = 0; j < jobs; ++j) {
    workers.push_back(std::make_unique<Launch>(program_, kernel_, config_, args_, workerOptions));
    workers.back()->chunk_ = &share;
    workers.back()->accessEvents_ = accessEvents_;
    workers.back()->outputText_ = outputText_;
    workers.back()->unheardShared_ = unheardShared_;
    workers.back()->unheardConstant_ = unheardConstant_;
    workers.back()->unheardBound_ = unheardBound_;
    workers.back()->launchHash_ = launchHash_;
  }

  // Each thread takes the running chunk's next block until none is left.
  Chunk chunks[2];
  Chunk *running = nullptr;
  std::atomic<uint64_t> nextBlock{0};
  auto work = [&](Launch &worker) {
    for (;;) {
      uint64_t b = nextBlock.fetch_add(1, std::memory_order_relaxed);
      if (b >= running->end)
        return;
      uint64_t slot = b - running->begin;
      running->outcomes[slot] =
          worker.runWorkerBlock(b, listener_ ? &running->events[slot] : nullptr);
      if (!running->outcomes[slot])
        voided.store(true, std::memory_order_relaxed);
    }
  };
  std::barrier sync(jobs);
  bool finished = false;
  std::vector<std::jthread> helpers;
  for (unsigned j = 1; j < jobs; ++j)
    helpers.emplace_back([&, j] {
      for (;;) {
        sync.arrive_and_wait(); // a chunk is ready, or the launch is over
        if (finished)
          return;
        work(*workers[j]);
        sync.arrive_and_wait(); // the chunk is done
      }
    });
  struct Release { // the helpers stop however the launch ends
    std::barrier<> &sync;
    bool &finished;
    ~Release() {
      finished = true;
      sync.arrive_and_wait();
    }
  } release{sync, finished};

  // A chunk that stood waits in `standing` until its events are passed on,
  // which this thread does while the helpers start on the next chunk.
  Chunk *standing = nullptr;
  auto passOn = [&] {
    if (standing && listener_)
      for (BlockEvents &block : standing->events)
        block.replay(*listener_);
    standing = nullptr;
  };
  uint64_t chunkBlocks = 2 * uint64_t(jobs), mostChunkBlocks = 64 * uint64_t(jobs);
  unsigned voidedChunks = 0;
  for (uint64_t next = 0; next < blocks;) {
    if (voidedChunks >= kVoidedChunksBeforeInOrder || blockTooLarge.load()) {
      passOn();
      if (Status status = runBlocksInOrder(next, blocks); !status)
        return status.error();
      break;
    }
    if (Status go = checkStop(); !go)
      return go.error();
    Chunk &chunk = chunks[standing == &chunks[0] ? 1 : 0];
    chunk.begin = next;
    chunk.end = std::min(blocks, next + chunkBlocks);
    chunk.events.resize(chunk.end - chunk.begin);
    chunk.outcomes.assign(chunk.end - chunk.begin, Ok{});
    running = &chunk;
    nextBlock.store(chunk.begin, std::memory_order_relaxed);
    uint64_t budgetLeft = totalBudgetInstrs_ - stats_.threadInstrs;
    for (auto &worker : workers) {
      worker->stats_ = {};
      worker->totalBudgetInstrs_ = budgetLeft;
    }
    sync.arrive_and_wait();
    passOn();
    work(*workers[0]);
    sync.arrive_and_wait();

    RunStats chunkStats;
    for (auto &worker : workers) {
      chunkStats.threadInstrs += worker->stats_.threadInstrs;
      chunkStats.warpSteps += worker->stats_.warpSteps;
      chunkStats.compiledThreadInstrs += worker->stats_.compiledThreadInstrs;
    }
    for (const Status &outcome : chunk.outcomes)
      if (!outcome && outcome.error().message == kInterrupted)
        return outcome.error();
    uint64_t perBlock = std::max<uint64_t>(1, chunk.eventBytes() / (chunk.end - chunk.begin));
    // A full claims table says only that the chunk touched too much: the
    // later ones are smaller, down to one block per thread.
    bool tooLarge = claims.full() && chunkBlocks > jobs;
    if (!voided.load() && !claims.full() && chunkStats.threadInstrs <= budgetLeft) {
      standing = &chunk;
      stats_.threadInstrs += chunkStats.threadInstrs;
      stats_.warpSteps += chunkStats.warpSteps;
      stats_.compiledThreadInstrs += chunkStats.compiledThreadInstrs;
      stats_.blocksInParallel += chunk.end - chunk.begin;
    } else {
      // Undone and run again block after block: a failure then fails as it
      // would have, at the same block and with the same events.
      for (auto &worker : workers)
        worker->undo_.undo();
      for (BlockEvents &block : chunk.events)
        block.clear();
      voidedChunks += !tooLarge;
      if (Status status = runBlocksInOrder(chunk.begin, chunk.end); !status)
        return status.error();
    }
    for (auto &worker : workers)
      worker->undo_.clear();
    claims.clear();
    voided.store(false);
    // As many blocks as keep the events waiting within kChunkEventBytes.
    if (tooLarge)
      mostChunkBlocks = std::max<uint64_t>(jobs, chunkBlocks / 4);
    chunkBlocks = std::clamp<uint64_t>(kChunkEventBytes / perBlock, jobs, mostChunkBlocks);
    next = chunk.end;
  }
  passOn();
  return stats_;
}

void Launch::askWhichAccessesAreHeard() {
  if (!accessEvents_)
    return;
  auto ask = [&](std::vector<bool> &flags, MemSpace space, size_t count, uint32_t first) {
    for (size_t i = 0; i < count; ++i)
      flags.push_back(!listener_->wantsAccessesTo(space, first + uint32_t(i)));
  };
  ask(unheardShared_, MemSpace::Shared, program_.sharedVariables.size(), 0);
  ask(unheardConstant_, MemSpace::Constant, program_.constantVariables.size(), 0);
  if (bound_)
    ask(unheardBound_, MemSpace::Global, bound_->allocations.size(), ir::kFirstBoundBuffer);
}

Result<RunStats> Launch::run() {
  uint64_t blocks = config_.grid.count();
  askWhichAccessesAreHeard();
  // The arguments as they are before any block wrote them, however blocks
  // are run (ChosenValue.h).
  if (programHas(program_, {Op::ChosenValue}))
    launchHash_ = launchHash(config_, args_);
  if (jobs_ > 1 && blocks > 1 && blocksMayRunInParallel(program_, kernel_))
    return runInParallel();
  if (Status status = runBlocksInOrder(0, blocks); !status)
    return status.error();
  while (!suspended_.empty())
    if (Status status = releaseGridBarrier(); !status)
      return status.error();
  return stats_;
}

} // namespace

Engine engineNamed(const std::string &name) {
  if (name == "interp")
    return Engine::Interpreter;
  return name == "compiled" ? Engine::Compiled : Engine::Auto;
}

Result<RunStats> runKernel(const ir::Program &program, const ir::KernelInfo &kernel,
                           const LaunchConfig &config, std::vector<ArgumentValue> &args,
                           const RunOptions &options) {
  std::string prefix = program.path + ": kernel '" + kernel.sourceName + "': ";
  if (!kernel.unsupported.empty())
    return makeError(prefix + kernel.unsupported);
  if (Status valid = validateLaunch(config); !valid)
    return makeError(prefix + valid.error().message);
  if (args.size() != kernel.params.size())
    return makeError(prefix + "expects " + std::to_string(kernel.params.size()) +
                     " arguments, got " + std::to_string(args.size()));
  if (Status small = validateLaunchSize(config); !small)
    return makeError(prefix + small.error().message);
  if (Status fits = validateLaunchMemory(program, kernel, config, args); !fits)
    return makeError(prefix + fits.error().message);
  Launch launch(program, kernel, config, args, options);
  return launch.run();
}

} // namespace simulee::interp
