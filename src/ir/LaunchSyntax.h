// Kernel launches written with spaces inside their chevrons, as Visual
// Studio's formatter leaves them: `k << <grid, block >> > (args)`. nvcc
// accepts them; clang lexes `<<` and `<` apart and rejects the file. Such a
// file is compiled and read from a copy whose launch chevrons are joined.
#pragma once

#include "support/Result.h"

#include <optional>
#include <string>
#include <string_view>

namespace simulee::ir {

// `source` with the chevrons of each spaced launch joined (`k <<< grid,
// block >>>  (args)`: same length and lines, each lone chevron moved next to
// its pair), or nothing when it has none. Comments and literals are left
// alone; a `>> >` that closes templates (`map<int, vector<vector<int>> >`)
// is one only after a `<< <`.
std::optional<std::string> joinedLaunchChevrons(std::string_view source);

// Where `path` has spaced launches: a temporary copy with them joined, whose
// first line (`#line 1 "path"`) keeps diagnostics and debug info naming
// `path` and its lines. The caller compiles the copy with `-iquote` of
// `path`'s directory (quotedIncludeDirectory), and removes it. Nothing when
// `path` needs no copy.
Result<std::optional<std::string>> joinedLaunchCopy(const std::string &path);

// The directory `#include "..."` in `path` searches first.
std::string quotedIncludeDirectory(const std::string &path);

} // namespace simulee::ir
