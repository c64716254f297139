// Random event streams through the full tuple log and the shadow summary must
// give the same finding keys: the summary is only a smaller memory, never a
// different verdict.
#include "DetectTestSupport.h"

#include <gtest/gtest.h>

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
};

// A plausible execution: each step one warp runs one instruction (fixed
// action and space) for a random subset of its active lanes; masks change,
// barriers release and __syncwarp runs now and then.
void randomLaunch(interp::ExecutionListener &listener, uint64_t seed, const StreamShape &shape) {
  std::mt19937_64 random(seed);
  auto chance = [&](unsigned percent) { return random() % 100 < percent; };
  std::vector<AccessKind> actionOf(shape.instructions);
  std::vector<MemSpace> spaceOf(shape.instructions);
  for (unsigned i = 0; i < shape.instructions; ++i) {
    actionOf[i] = AccessKind(random() % 3);
    spaceOf[i] = chance(50) ? MemSpace::Global : MemSpace::Shared;
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
        uint64_t offset = 4 * (random() % shape.addresses);
        uint32_t size = chance(85) ? 4 : 1;
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

void expectSameKeys(const StreamShape &shape, bool independentThreads) {
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    auto full = findingKeys(Representation::Full, seed, shape, independentThreads);
    auto summary = findingKeys(Representation::Summary, seed, shape, independentThreads);
    ASSERT_EQ(full, summary) << "seed " << seed;
  }
}

} // namespace

TEST(SummaryDifferential, RandomStreamsGiveIdenticalFindingKeys) {
  expectSameKeys(StreamShape{}, false);
}

TEST(SummaryDifferential, RandomStreamsGiveIdenticalFindingKeysUnderIndependentThreads) {
  expectSameKeys(StreamShape{}, true);
}

TEST(SummaryDifferential, RandomStreamsFindSomething) {
  // Guards the test above against streams too tame to exercise the rules.
  size_t races = 0;
  for (uint64_t seed = 1; seed <= 50; ++seed)
    races += findingKeys(Representation::Full, seed, StreamShape{}, false).size();
  EXPECT_GT(races, 50u);
}
