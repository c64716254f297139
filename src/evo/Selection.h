// Survivor selection (the paper's Algorithm 1): parents and children are
// ranked together and the best `count` distinct launches go on.
#pragma once

#include "evo/Fitness.h"

#include <cstddef>
#include <functional>
#include <vector>

namespace simulee::evo {

// `pool` holds ids of evaluated launches (equal launches share an id);
// `fitnessOf` maps an id to its fitness. Returns the best `count` distinct
// ids, best first (by isBetter); equals keep their order in `pool`, so
// listing parents before children makes an incumbent win ties.
std::vector<size_t> selectSurvivors(std::vector<size_t> pool,
                                    const std::function<const Fitness &(size_t)> &fitnessOf,
                                    size_t count);

} // namespace simulee::evo
