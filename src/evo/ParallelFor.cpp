#include "evo/ParallelFor.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace simulee::evo {

void parallelFor(size_t count, unsigned jobs, const std::function<void(size_t)> &body) {
  if (jobs == 0)
    jobs = std::max(1u, std::thread::hardware_concurrency());
  size_t threadCount = std::min<size_t>(jobs, count);
  if (threadCount <= 1) {
    for (size_t index = 0; index < count; ++index)
      body(index);
    return;
  }
  // Work is handed out one index at a time: launches differ wildly in cost.
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t index = next++; index < count; index = next++)
      body(index);
  };
  std::vector<std::jthread> threads;
  threads.reserve(threadCount - 1);
  for (size_t i = 1; i < threadCount; ++i)
    threads.emplace_back(worker);
  worker(); // the calling thread works too
}

} // namespace simulee::evo
