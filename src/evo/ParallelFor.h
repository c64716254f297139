// Runs `body(i)` for every i in [0, count) on up to `jobs` threads. Callers
// write results by index, so the outcome never depends on `jobs`.
#pragma once

#include <cstddef>
#include <functional>

namespace simulee::evo {

// jobs == 0 means one per hardware thread. Returns when every call is done.
void parallelFor(size_t count, unsigned jobs, const std::function<void(size_t)> &body);

} // namespace simulee::evo
