// Kernel arguments from the user's words: `--arg NAME=VALUE` where VALUE is a
// scalar, `@PATH` (a buffer read from a raw binary file), `FILL:N` (N
// elements of the pointee type filled as FILL says: zeros, random, ...) or
// `same:OTHER` (a pointer into another parameter's buffer).
// Pointer parameters not given get an automatic buffer, large enough for the
// launch, with seeded contents; the search evolves how they are filled.
#pragma once

#include "detect/Finding.h"
#include "interp/Launch.h"
#include "ir/Program.h"
#include "support/Result.h"

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace simulee::session {

struct ArgumentSpec {
  std::string name; // source name, or a 0-based position ("1")
  std::string value;
  // Buffer contents given directly (the Python API's numpy arrays); `value`
  // then only describes them in reports ("array:N").
  std::optional<std::vector<uint8_t>> bytes = std::nullopt;
};

// How a buffer is filled. Index-like fills stay inside the smallest other
// buffer of the launch, so an index buffer never points outside the buffer
// it indexes.
enum class Fill : uint8_t {
  Random,      // "random": small non-negative integers (0..99) or floats in [0, 1)
  Zeros,       // "zeros"
  Small,       // "small": integers 0..7
  Binary,      // "binary": 0 or 1
  Sorted,      // "sorted": non-decreasing small steps from 0
  Indices,     // "indices": uniform in-range indices (repeats likely)
  Permutation, // "perm": a permutation of 0..N-1
  PrefixSums,  // "prefix": offsets from 0 in steps of 0..3 (CSR row offsets)
  // "keys": uniform in the values the kernel's keyed accesses of fixed-size
  // arrays stay in bounds for (ir::ParamInfo::keyRange: letters for
  // `bins[(c - 'a') / 4]`); in-range indices where it has none. A search
  // draws it, first, only for such a buffer.
  Keys,
};
inline constexpr uint32_t kFillKinds = 8; // the fills a search's gene ranges over
const char *fillName(Fill fill);
// The fill `name` names ("random", "perm", ...), if any.
std::optional<Fill> fillNamed(std::string_view name);
// Whether a buffer filled by `fill` keeps the convention for its role
// (ir::ParamInfo::contents): offsets that never decrease (zeros, sorted,
// prefix sums); indices inside the buffers they index (in-range indices,
// which stay below the smallest other buffer, and zeros; small, binary and
// random values run to 7, 1 and 99 whatever the buffers, a permutation or
// sorted values to the buffer's own length).
bool conventionalFill(Fill fill, ir::ContentRole role);
// The fill a search's fill gene value `value` (0 .. kFillKinds - 1) stands
// for, for a buffer of `param`: Fill's order, except that for a buffer of
// indices or offsets the conventional fills come first, so that the typical
// launch (value 0) fills it with in-range indices or prefix sums, and that
// a buffer of keys (ir::ParamInfo::keyRange) gets keys for value 0.
Fill fillOfGene(int64_t value, const ir::ParamInfo &param);

// A pointer parameter's value "same:NAME" or "same:NAME+K": it points into
// the buffer of pointer parameter NAME (K of its own elements in), as when
// the host passes one allocation twice (`k<<<g, b>>>(d, d, n)`).
inline constexpr char kSameBuffer[] = "same:";

// Parses "NAME=VALUE".
Result<ArgumentSpec> parseArgumentSpec(const std::string &text);

// Index of the parameter `name` names (source name or position).
Result<size_t> findParameter(const ir::KernelInfo &kernel, const std::string &name);

// Number of elements an automatic buffer gets: enough for every thread of the
// launch, for the largest integer argument, and for a matrix (the product of
// the two largest integer arguments, or the largest squared when the kernel
// is two-dimensional), with headroom; capped at 2^18 (a launch that needs
// more gets it: searched launches that overrun grow their buffers).
uint64_t automaticElements(const ir::KernelInfo &kernel, const interp::LaunchConfig &config,
                           const std::vector<uint64_t> &positiveIntArguments);

struct BuiltArguments {
  std::vector<interp::ArgumentValue> values;
  // name -> value as the user would write it, for reports and --save-launch.
  std::vector<std::pair<std::string, std::string>> record;
  // The buffers of pointer members whose size a spec gave (ir::memberBufferId):
  // not simulee's to grow.
  std::set<uint32_t> sizedMembers = {};
};

// Builds one value per parameter. `elementCounts` (optional, by parameter
// index, 0 = automatic) overrides the automatic buffer size, `fills` (by
// parameter index) how automatic buffers are filled (default random).
Result<BuiltArguments> buildArguments(const ir::KernelInfo &kernel,
                                      const interp::LaunchConfig &config,
                                      const std::vector<ArgumentSpec> &specs, uint64_t seed,
                                      const std::vector<uint64_t> &elementCounts = {},
                                      const std::vector<Fill> &fills = {});

// Gives the memory of `built`'s buffers back for this thread's next
// buildArguments (a search builds and drops hundreds of similar buffers).
void recycleArguments(BuiltArguments &&built);

// A number inside a by-value aggregate parameter, named "PARAM.MEMBER" (a
// path of ir::ParamInfo::scalarMembers: "io.n", "grid.dims.width"). As an
// ArgumentSpec it sets that member of the aggregate's bytes. A member with
// an empty path is the whole aggregate (a __half parameter): named "PARAM".
struct MemberRef {
  size_t param = 0;
  size_t member = 0;
};
std::optional<MemberRef> findScalarMember(const ir::KernelInfo &kernel, const std::string &name);
std::string scalarMemberName(const ir::ParamInfo &aggregate, const ir::ScalarMember &member);
// A scalar member as a parameter of its own type (named "PARAM.MEMBER"), for
// parseScalar.
ir::ParamInfo memberAsParameter(const ir::ParamInfo &aggregate, const ir::ScalarMember &member);

// A pointer inside a by-value aggregate parameter, or inside each struct a
// pointer parameter points to, named "PARAM.MEMBER" (a path of
// ir::ParamInfo::pointerMembers, else its byte offset: "io.in", "io.8"). As
// an ArgumentSpec its value is FILL:N: the buffer it points to has N
// elements of its pointee type (for each struct a pointer parameter points
// to), filled as FILL says, and is never grown (an access past it is out of
// bounds).
std::optional<MemberRef> findPointerMember(const ir::KernelInfo &kernel, const std::string &name);
std::string pointerMemberName(const ir::ParamInfo &aggregate, const ir::PointerMember &member);

// Parses a scalar for a parameter of the given kind and width.
Result<uint64_t> parseScalar(const ir::ParamInfo &param, const std::string &text);

} // namespace simulee::session
