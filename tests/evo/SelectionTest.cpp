#include "evo/Selection.h"

#include <gtest/gtest.h>

namespace simulee::evo {
namespace {

struct Pool {
  std::vector<Fitness> fitness;
  std::vector<size_t> select(std::vector<size_t> ids, size_t count) const {
    return selectSurvivors(
        std::move(ids), [&](size_t id) -> const Fitness & { return fitness[id]; }, count);
  }
};

TEST(Selection, BestFirstInvalidLast) {
  Pool pool{
      {Fitness{true, 0.9, 0}, Fitness::invalid(), Fitness{true, 0.2, 0}, Fitness{true, 1.0, 50}}};
  EXPECT_EQ(pool.select({0, 1, 2, 3}, 4), (std::vector<size_t>{2, 0, 3, 1}));
  EXPECT_EQ(pool.select({0, 1, 2, 3}, 2), (std::vector<size_t>{2, 0}));
}

TEST(Selection, RepeatedLaunchSurvivesOnce) {
  Pool pool{{Fitness{true, 0.1, 0}, Fitness{true, 0.5, 0}, Fitness{true, 0.7, 0}}};
  EXPECT_EQ(pool.select({0, 0, 1, 0, 2}, 3), (std::vector<size_t>{0, 1, 2}));
  EXPECT_EQ(pool.select({0, 0, 0}, 3), (std::vector<size_t>{0}));
}

TEST(Selection, TiesKeepPoolOrder) {
  Pool pool{{Fitness{true, 1.0, 8}, Fitness{true, 1.0, 8}, Fitness{true, 1.0, 8}}};
  EXPECT_EQ(pool.select({2, 0, 1}, 2), (std::vector<size_t>{2, 0}));
}

} // namespace
} // namespace simulee::evo
