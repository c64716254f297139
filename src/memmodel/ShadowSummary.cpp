#include "memmodel/ShadowSummary.h"

#include "support/Assert.h"

#include <tuple>

namespace simulee::memmodel {

// A ShadowCell is two 64-bit words:
//
//   word0  63            44 43       36 35  34 33        24 23             0
//         +----------------+-----------+------+------------+----------------+
//         |  visitOrder    |  byteMask | act. |   thread   |  instruction   |
//         |  20 bits, sat. |  8 bits   | 2 b  |  10 bits   |    24 bits     |
//         +----------------+-----------+------+------------+----------------+
//   word1  63                         32 31                                0
//         +-----------------------------+----------------------------------+
//         |   lockstep step, 32 bits,   |        block (linear id)         |
//         |   saturating                |                                  |
//         +-----------------------------+----------------------------------+
//
// byteMask == 0 marks an empty cell. warp and lane are thread / 32 and
// thread % 32 (warps are 32 consecutive linear thread ids), so they take no
// bits. Saturated visit orders or steps (beyond 2^20 barriers or 2^32 steps in
// one block) make ordering answers approximate, never crash.
namespace {
constexpr unsigned kInstrBits = 24, kThreadBits = 10, kActionBits = 2, kMaskBits = 8,
                   kVisitBits = 20;
constexpr unsigned kThreadShift = kInstrBits;
constexpr unsigned kActionShift = kThreadShift + kThreadBits;
constexpr unsigned kMaskShift = kActionShift + kActionBits;
constexpr unsigned kVisitShift = kMaskShift + kMaskBits;
static_assert(kVisitShift + kVisitBits == 64, "word0 must be full");

constexpr uint64_t lowBits(unsigned n) { return (uint64_t(1) << n) - 1; }
uint64_t saturate(uint64_t value, unsigned bits) {
  return value > lowBits(bits) ? lowBits(bits) : value;
}
uint64_t field(uint64_t word, unsigned shift, unsigned bits) {
  return (word >> shift) & lowBits(bits);
}
} // namespace

ShadowCell ShadowCell::pack(const Access &access, ByteMask mask) {
  SIMULEE_ASSERT(access.instruction <= lowBits(kInstrBits), "instruction id exceeds 24 bits");
  SIMULEE_ASSERT(access.thread <= lowBits(kThreadBits), "thread id exceeds 10 bits");
  ShadowCell cell;
  cell.word0 = uint64_t(access.instruction) | uint64_t(access.thread) << kThreadShift |
               uint64_t(access.action) << kActionShift | uint64_t(mask) << kMaskShift |
               saturate(access.visitOrder, kVisitBits) << kVisitShift;
  cell.word1 = uint64_t(access.block) | saturate(access.step, 32) << 32;
  return cell;
}

uint32_t ShadowCell::instruction() const { return uint32_t(field(word0, 0, kInstrBits)); }
uint32_t ShadowCell::thread() const { return uint32_t(field(word0, kThreadShift, kThreadBits)); }
interp::AccessKind ShadowCell::action() const {
  return interp::AccessKind(field(word0, kActionShift, kActionBits));
}
ByteMask ShadowCell::byteMask() const { return ByteMask(field(word0, kMaskShift, kMaskBits)); }
uint32_t ShadowCell::visitOrder() const { return uint32_t(field(word0, kVisitShift, kVisitBits)); }
uint32_t ShadowCell::block() const { return uint32_t(word1); }
uint64_t ShadowCell::step() const { return word1 >> 32; }

Access ShadowCell::unpack(const GranuleKey &key) const {
  Access access;
  access.space = key.space;
  access.action = action();
  access.buffer = key.buffer;
  access.offset = key.firstByte() + firstByteOf(byteMask());
  access.sizeBytes = spanOf(byteMask());
  access.visitOrder = visitOrder();
  access.block = block();
  access.thread = thread();
  access.warp = thread() / interp::kWarpSize;
  access.lane = thread() % interp::kWarpSize;
  access.step = step();
  access.instruction = instruction();
  return access;
}

namespace {

// Retention. Which earlier accesses a future access can race with:
//  - any access of an earlier block (global memory): one witness per
//    (instruction, action) is as good as any other;
//  - accesses of the current block in the current or previous visit order:
//    one witness per (instruction, action, thread, visit order), the newest
//    step being the strongest for the same-warp divergence test.
// A cell is "historic" when it can only serve the first purpose.
struct WitnessClass {
  uint32_t instruction;
  interp::AccessKind action;
  bool historic;
  uint32_t thread;     // unused when historic
  uint32_t visitOrder; // unused when historic
  bool operator==(const WitnessClass &) const = default;
};

bool isHistoric(const ShadowCell &cell, const Access &now) {
  return cell.block() != now.block || cell.visitOrder() + 1 < now.visitOrder;
}

WitnessClass classOf(const ShadowCell &cell, const Access &now) {
  if (isHistoric(cell, now))
    return {cell.instruction(), cell.action(), true, 0, 0};
  return {cell.instruction(), cell.action(), false, cell.thread(), cell.visitOrder()};
}

WitnessClass classOf(const Access &now) {
  return {now.instruction, now.action, false, now.thread, now.visitOrder};
}

// Older = historic first, then an earlier block, visit order, step.
bool olderThan(const ShadowCell &a, const ShadowCell &b, const Access &now) {
  auto age = [&](const ShadowCell &c) {
    return std::make_tuple(!isHistoric(c, now), c.block() == now.block, c.visitOrder(), c.step());
  };
  return age(a) < age(b);
}

constexpr unsigned kNone = kCellsPerGranule;

unsigned oldestMatching(const ShadowRecord &record, const Access &now, auto &&matches) {
  unsigned chosen = kNone;
  for (unsigned i = 0; i < kCellsPerGranule; ++i) {
    const ShadowCell &cell = record.cells[i];
    if (cell.empty() || !matches(i))
      continue;
    if (chosen == kNone || olderThan(cell, record.cells[chosen], now))
      chosen = i;
  }
  return chosen;
}

// The cell the new access overwrites, in order of preference.
unsigned chooseSlot(const ShadowRecord &record, const Access &now, ByteMask mask) {
  const auto &cells = record.cells;
  // 1. The same thread's access of the same kind in this visit order, which
  //    the new one subsumes (a later step is the stronger witness).
  for (unsigned i = 0; i < kCellsPerGranule; ++i)
    if (!cells[i].empty() && classOf(cells[i], now) == classOf(now) &&
        (cells[i].byteMask() & ~mask) == 0)
      return i;
  // 2. An empty cell.
  for (unsigned i = 0; i < kCellsPerGranule; ++i)
    if (cells[i].empty())
      return i;
  // 3. The older of two witnesses of one class.
  unsigned slot = oldestMatching(record, now, [&](unsigned i) {
    for (unsigned j = 0; j < kCellsPerGranule; ++j)
      if (j != i && classOf(cells[j], now) == classOf(cells[i], now))
        return true;
    return false;
  });
  if (slot != kNone)
    return slot;
  // 4. The oldest cell, historic ones first; shared memory's historic cells
  //    serve nothing (no other block sees them).
  return oldestMatching(record, now, [](unsigned) { return true; });
}

} // namespace

void ShadowSummary::record(const Access &access, PriorAccessVisitor &visitor) {
  forEachGranule(access, [&](const GranuleKey &key, ByteMask mask) {
    ShadowRecord &record = records_[key];
    for (const ShadowCell &cell : record.cells)
      if (cell.byteMask() & mask)
        visitor.visit(cell.unpack(key));
    record.cells[chooseSlot(record, access, mask)] = ShadowCell::pack(access, mask);
  });
}

} // namespace simulee::memmodel
