#include "evo/Selection.h"

#include <algorithm>

namespace simulee::evo {

std::vector<size_t> selectSurvivors(std::vector<size_t> pool,
                                    const std::function<const Fitness &(size_t)> &fitnessOf,
                                    size_t count) {
  std::stable_sort(pool.begin(), pool.end(),
                   [&](size_t a, size_t b) { return isBetter(fitnessOf(a), fitnessOf(b)); });
  // A child equal to a parent (or to a sibling) is one launch: repeats would
  // crowd out distinct ones and the search would stop exploring.
  std::vector<size_t> survivors;
  for (size_t id : pool) {
    if (survivors.size() == count)
      break;
    if (std::find(survivors.begin(), survivors.end(), id) == survivors.end())
      survivors.push_back(id);
  }
  return survivors;
}

} // namespace simulee::evo
