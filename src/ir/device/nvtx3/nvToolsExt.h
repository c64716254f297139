// Resolves #include <nvtx3/nvToolsExt.h>, NVTX's header-only spelling: the
// same no-op calls as <nvToolsExt.h> (see there).
#pragma once

#include "../nvToolsExt.h"
