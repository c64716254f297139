// Random event streams through the full tuple log and the shadow summary must
// give the same finding keys: the summary is only a smaller memory, never a
// different verdict.
#include "DetectTestSupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

using namespace simulee;
using namespace simulee::testing;
using interp::AccessKind;
using interp::LaneMask;
using interp::MemSpace;
using memmodel::MemoryModel;
using memmodel::Representation;

namespace {

struct StreamShape {
  unsigned blocks = 2;
  unsigned warps = 2;
  unsigned lanesPerWarp = 4;
  unsigned instructions = 6;
  unsigned addresses = 3; // 4-byte words
  unsigned steps = 40;    // instruction steps per block
  // Kernel-like addressing: each instruction reads or writes word
  // (base + stride * thread) % addresses, as in a[t], a[t + 1], a[0].
  bool affine = false;
};

// A plausible execution: each step one warp runs one instruction (fixed
// action and space) for a random subset of its active lanes; masks change,
// barriers release and __syncwarp runs now and then.
void randomLaunch(interp::ExecutionListener &listener, uint64_t seed, const StreamShape &shape) {
  std::mt19937_64 random(seed);
  auto chance = [&](unsigned percent) { return random() % 100 < percent; };
  std::vector<AccessKind> actionOf(shape.instructions);
  std::vector<MemSpace> spaceOf(shape.instructions);
  std::vector<unsigned> baseOf(shape.instructions), strideOf(shape.instructions);
  for (unsigned i = 0; i < shape.instructions; ++i) {
    actionOf[i] = AccessKind(random() % 3);
    spaceOf[i] = chance(50) ? MemSpace::Global : MemSpace::Shared;
    baseOf[i] = unsigned(random() % shape.addresses);
    strideOf[i] = unsigned(random() % 3);
  }
  LaneMask allLanes = (LaneMask(1) << shape.lanesPerWarp) - 1;
  SyntheticRun run(listener);
  for (unsigned block = 0; block < shape.blocks; ++block) {
    run.block(block);
    std::vector<uint64_t> step(shape.warps, 0);
    std::vector<LaneMask> active(shape.warps, allLanes);
    for (unsigned w = 0; w < shape.warps; ++w)
      run.mask(w, 0, allLanes);
    uint32_t epoch = 0;
    for (unsigned n = 0; n < shape.steps; ++n) {
      unsigned warp = unsigned(random() % shape.warps);
      if (chance(15)) {
        LaneMask mask = LaneMask(random() % allLanes) + 1;
        active[warp] = mask;
        run.mask(warp, step[warp], mask);
        continue;
      }
      if (chance(7)) {
        run.barrier(++epoch, {100 + unsigned(random() % 2)});
        continue;
      }
      if (chance(5)) {
        run.warpSync(warp, step[warp]++, LaneMask(random() % (allLanes + 1)));
        continue;
      }
      uint32_t instruction = uint32_t(random() % shape.instructions);
      run.in(spaceOf[instruction]);
      for (unsigned lane = 0; lane < shape.lanesPerWarp; ++lane) {
        if (!(active[warp] >> lane & 1) || chance(40))
          continue;
        unsigned thread = warp * shape.lanesPerWarp + lane;
        uint64_t word = shape.affine ? (baseOf[instruction] + strideOf[instruction] * thread)
                                     : random();
        uint64_t offset = 4 * (word % shape.addresses);
        uint32_t size = shape.affine || chance(85) ? 4 : 1;
        if (size == 1)
          offset += random() % 4;
        run.access(actionOf[instruction], warp * interp::kWarpSize + lane, step[warp], instruction,
                   offset, size);
      }
      ++step[warp];
    }
  }
}

std::set<detect::FindingKey> findingKeys(Representation representation, uint64_t seed,
                                         const StreamShape &shape, bool independentThreads) {
  detect::FindingCollector collector({100, 101, 102});
  for (uint64_t launch = 0; launch < 2; ++launch) {
    MemoryModel model({.representation = representation, .independentThreads = independentThreads});
    randomLaunch(model, seed * 7 + launch, shape);
    collector.addLaunch(model, {});
  }
  return keysOf(collector.findings());
}

std::set<detect::FindingKey> ofKind(const std::set<detect::FindingKey> &keys,
                                    detect::FindingKind kind) {
  std::set<detect::FindingKey> result;
  for (const detect::FindingKey &key : keys)
    if (key.kind == kind)
      result.insert(key);
  return result;
}

bool includes(const std::set<detect::FindingKey> &outer, const std::set<detect::FindingKey> &inner) {
  return std::includes(outer.begin(), outer.end(), inner.begin(), inner.end());
}

// The summary keeps fewer witnesses than the log, never different facts: it
// may miss a race the log finds (and so call a needed barrier redundant) but
// never invents one. And on streams whose granules fit its cells it agrees.
void expectSummaryAgrees(const StreamShape &shape, bool independentThreads,
                         unsigned minIdenticalPercent) {
  constexpr unsigned kSeeds = 300;
  unsigned identical = 0;
  for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
    auto full = findingKeys(Representation::Full, seed, shape, independentThreads);
    auto summary = findingKeys(Representation::Summary, seed, shape, independentThreads);
    using detect::FindingKind;
    EXPECT_TRUE(includes(ofKind(full, FindingKind::DataRace), ofKind(summary, FindingKind::DataRace)))
        << "seed " << seed << ": the summary reported a race the full log does not";
    EXPECT_TRUE(includes(ofKind(summary, FindingKind::RedundantBarrier),
                         ofKind(full, FindingKind::RedundantBarrier)))
        << "seed " << seed << ": the summary found a barrier needed that the log does not";
    for (FindingKind kind :
         {FindingKind::BarrierDivergence, FindingKind::OutOfBounds, FindingKind::UnreachedBarrier})
      EXPECT_EQ(ofKind(full, kind), ofKind(summary, kind)) << "seed " << seed;
    identical += full == summary;
  }
  EXPECT_GE(identical * 100, minIdenticalPercent * kSeeds)
      << identical << " of " << kSeeds << " streams gave identical keys";
}

} // namespace

// Few warps, few words, random masks, barriers, syncs and addresses: the
// shape that strains the four cells most (measured: 97-98% of streams identical).
TEST(SummaryDifferential, RandomStreamsAgreeWithTheFullLog) {
  StreamShape shape;
  shape.instructions = 4;
  expectSummaryAgrees(shape, false, 95);
}

TEST(SummaryDifferential, RandomStreamsAgreeUnderIndependentThreads) {
  StreamShape shape;
  shape.instructions = 4;
  expectSummaryAgrees(shape, true, 95);
}

// One block, one warp of two lanes, one instruction, one word: the granule
// never needs more than four witnesses (two threads x two visit orders), so
// the summary must agree exactly.
TEST(SummaryDifferential, StreamsWithinCapacityGiveIdenticalFindingKeys) {
  StreamShape shape;
  shape.addresses = 1;
  shape.affine = true;
  shape.blocks = 1;
  shape.warps = 1;
  shape.instructions = 1;
  shape.lanesPerWarp = 2;
  for (uint64_t seed = 1; seed <= 300; ++seed)
    for (bool independentThreads : {false, true})
      ASSERT_EQ(findingKeys(Representation::Full, seed, shape, independentThreads),
                findingKeys(Representation::Summary, seed, shape, independentThreads))
          << "seed " << seed;
}

TEST(SummaryDifferential, RandomStreamsFindSomething) {
  // Guards the tests above against streams too tame to exercise the rules.
  size_t races = 0;
  for (uint64_t seed = 1; seed <= 50; ++seed)
    races += ofKind(findingKeys(Representation::Full, seed, StreamShape{}, false),
                    detect::FindingKind::DataRace)
                 .size();
  EXPECT_GT(races, 50u);
}
