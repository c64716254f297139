// SIMULEE_ASSERT stays on in Release builds: an internal invariant broken is a
// bug we want reported with its location, never silent memory corruption.
#pragma once

#include <cstdio>
#include <cstdlib>

#define SIMULEE_ASSERT(cond, msg)                                                                  \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      std::fprintf(stderr, "simulee: internal error at %s:%d: %s (%s)\n", __FILE__, __LINE__,      \
                   msg, #cond);                                                                    \
      std::abort();                                                                                \
    }                                                                                              \
  } while (0)
