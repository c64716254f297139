#include "evo/ParallelFor.h"

#include <gtest/gtest.h>

#include <atomic>
#include <vector>

namespace simulee::evo {
namespace {

TEST(ParallelFor, CallsEveryIndexExactlyOnce) {
  for (unsigned jobs : {0u, 1u, 3u, 16u}) {
    std::vector<std::atomic<int>> calls(100);
    parallelFor(calls.size(), jobs, [&](size_t index) { ++calls[index]; });
    for (size_t index = 0; index < calls.size(); ++index)
      EXPECT_EQ(calls[index].load(), 1) << "jobs " << jobs << " index " << index;
  }
}

TEST(ParallelFor, NothingToDoCallsNothing) {
  int calls = 0;
  parallelFor(0, 4, [&](size_t) { ++calls; });
  EXPECT_EQ(calls, 0);
}

} // namespace
} // namespace simulee::evo
