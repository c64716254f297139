// Kernel launches written with spaces inside their chevrons, as Visual
// Studio's formatter leaves them: `k << <grid, block >> > (args)`. nvcc
// accepts them; clang lexes `<<` and `<` apart and rejects the file. Such a
// file is compiled and read from a copy whose launch chevrons are joined.
#pragma once

#include "support/Result.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace simulee::ir {

// `source` with the chevrons of each spaced launch joined (`k <<< grid,
// block >>>  (args)`: same length and lines, each lone chevron moved next to
// its pair), or nothing when it has none. Comments and literals are left
// alone; a `>> >` that closes templates (`map<int, vector<vector<int>> >`)
// is one only after a `<< <`.
std::optional<std::string> joinedLaunchChevrons(std::string_view source);

// The file clang is given for `path`: `path` itself, or, where it has
// spaced launches, a temporary copy with them joined, whose first line
// (`#line 1 "path"`) keeps diagnostics and debug info naming `path` and its
// lines. The copy lives as long as this object.
class CompileInput {
public:
  static Result<CompileInput> of(const std::string &path);
  CompileInput(CompileInput &&other) noexcept;
  CompileInput &operator=(CompileInput &&) = delete;
  CompileInput(const CompileInput &) = delete;
  ~CompileInput();

  // What names it on clang's command line: `path`; or `-iquote` and
  // `path`'s directory (its quoted includes are still found beside it),
  // then the copy.
  std::vector<std::string> arguments() const;

private:
  explicit CompileInput(std::string path) : path_(std::move(path)) {}
  std::string path_;
  std::string copy_; // empty: none
};

} // namespace simulee::ir
