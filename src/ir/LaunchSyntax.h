// Source nvcc accepts and clang refuses, compiled from a rewritten copy:
// kernel launches written with spaces inside their chevrons, as Visual
// Studio's formatter leaves them (`k << <grid, block >> > (args)`: clang
// lexes `<<` and `<` apart), and `__shared__` declarations clang refuses.
#pragma once

#include "support/Result.h"

#include <cstdint>
#include <map>
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

// Shared-memory declarations nvcc accepts and clang refuses, by where
// clang's error points (1-based line and byte column):
//  - `unconstructed`: a `__shared__` variable whose class has a constructor
//    or destructor that does something (`__shared__ cuda::barrier<
//    cuda::thread_scope_block> bar;`). nvcc runs neither (shared memory is
//    never constructed) and warns, which programs silence; clang refuses it
//    ("initialization is not supported for __shared__ variables"). The
//    error points at the name.
//  - `alignedAfterShared`: `__shared__ alignas(16) float tile[...]`. clang's
//    `__shared__` is a GNU attribute, after which a C++11 attribute may not
//    come ("an attribute list cannot appear here"). The error points at
//    `alignas`.
struct SourcePosition {
  uint32_t line = 0;
  uint32_t column = 0;
};
struct RefusedSharedDeclarations {
  std::vector<SourcePosition> unconstructed;
  std::vector<SourcePosition> alignedAfterShared;
  bool empty() const { return unconstructed.empty() && alignedAfterShared.empty(); }
};
inline constexpr const char *kUnconstructedSharedError =
    "initialization is not supported for __shared__ variables";
inline constexpr const char *kMisplacedAttributeError = "an attribute list cannot appear here";

// The refusals clang's output (`clangOutput`) gives, by the file they are in
// as clang names it: the file compiled, or a header it includes (a kernel
// library's .cuh).
using RefusedSharedDeclarationsByFile = std::map<std::string, RefusedSharedDeclarations>;
RefusedSharedDeclarationsByFile refusedSharedDeclarations(std::string_view clangOutput);

// `source` with each refused declaration written as clang accepts it, on
// its own line: an unconstructed variable becomes shared bytes of its
// class's size and alignment, named NAME + kUnconstructedSharedSuffix, and
// NAME a reference to them as the class (what nvcc's code does); an
// `alignas` after `__shared__` moves to the declaration's start. Nothing
// when none is such a plain declaration (`__shared__ TYPE NAME[dims];`,
// `[static|extern] __shared__ alignas(X) ...`).
inline constexpr const char *kUnconstructedSharedSuffix = "__simulee_unconstructed";
std::optional<std::string> acceptedByClang(std::string_view source,
                                           const RefusedSharedDeclarations &refused);

// The file clang is given for `path`: `path` itself, or, where it has
// spaced launches or `refused` declarations, a temporary copy with them
// joined or rewritten, whose first line (`#line 1 "path"`) keeps
// diagnostics and debug info naming `path` and its lines. A header with
// refused declarations is read from a rewritten copy too, through a
// virtual file system overlay that keeps its name (clang's -ivfsoverlay).
// The copies live as long as this object.
class CompileInput {
public:
  static Result<CompileInput> of(const std::string &path,
                                 const RefusedSharedDeclarationsByFile &refused = {});
  CompileInput(CompileInput &&other) noexcept;
  CompileInput &operator=(CompileInput &&) = delete;
  CompileInput(const CompileInput &) = delete;
  ~CompileInput();

  // What names it on clang's command line: the overlay of rewritten
  // headers, if any; then `path`, or `-iquote` and `path`'s directory (its
  // quoted includes are still found beside it) and the copy.
  std::vector<std::string> arguments() const;

private:
  explicit CompileInput(std::string path) : path_(std::move(path)) {}
  // Writes the rewritten headers and the overlay naming them.
  Status overlayHeaders(const RefusedSharedDeclarationsByFile &refused);
  std::string path_;
  std::string copy_;                      // empty: none
  std::vector<std::string> headerCopies_; // rewritten headers
  std::string overlay_;                   // empty: none
};

} // namespace simulee::ir
