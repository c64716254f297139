// The search's starting point: the "typical" launch a developer would try
// first, plus random launches spread over sensible ranges.
#pragma once

#include "evo/Random.h"
#include "evo/SearchSpace.h"
#include "evo/Solution.h"

#include <optional>
#include <vector>

namespace simulee::evo {

// Block 64 (1-D), 8x8 (2-D) or 4x4x4 (3-D); grid 2 along each free axis (one
// block hides inter-block bugs); every integer argument and buffer size equal
// to the launch's thread count (the usual `n`), floats 1.0.
Solution typicalSolution(const SearchSpace &space);

// Random ranges, chosen to be cheap to simulate yet varied:
//  - block: 1-D x is a warp multiple 32..256 half the time, else any of
//    1..256; 2-D/3-D axes up to 32x16 / 16x8x4, a power of two half the time
//    (so the block tends to fill whole warps), else any value;
//  - grid: 1..4 along each free axis;
//  - integer and float arguments: [0, 2 * threads per block], moved inside the
//    user's bounds when they exclude it (so `n` lands around the block size,
//    where bounds checks like `tid < n` change behaviour);
//  - buffer sizes: [threads, 2 * threads] of the whole launch;
//  - an integer the code masks with (Gene::powerOfTwoFrom): the least power
//    of two at or above the value drawn (typicalSolution's too).
// Mutants leave these conventions freely.
Solution randomSolution(const SearchSpace &space, Random &random);

// typicalSolution first, then `size - 1` random ones; or, given `start`,
// `start` (repaired) first, then its mutants, normal and Cauchy in turn.
std::vector<Solution> initialPopulation(const SearchSpace &space, size_t size, Random &random,
                                        const std::optional<Solution> &start = std::nullopt);

} // namespace simulee::evo
