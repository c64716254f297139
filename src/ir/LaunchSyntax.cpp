#include "ir/LaunchSyntax.h"

#include "ir/CodeCursor.h"
#include "support/FileText.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <utility>

namespace simulee::ir {
namespace {

// At `at`, `<<` or `>>` (`doubled`), whitespace, then the same character
// once more: the position of that third character, else npos.
size_t spacedTriple(std::string_view text, size_t at, char doubled) {
  if (at + 1 >= text.size() || text[at] != doubled || text[at + 1] != doubled)
    return std::string_view::npos;
  size_t third = at + 2;
  while (third < text.size() && std::isspace(static_cast<unsigned char>(text[third])))
    ++third;
  if (third == at + 2 || third >= text.size() || text[third] != doubled)
    return std::string_view::npos;
  // `<< <<` or `>> >>` is not a launch's chevron.
  if (third + 1 < text.size() && text[third + 1] == doubled)
    return std::string_view::npos;
  return third;
}

// Moves the lone third chevron at `third` next to the pair at `at`.
void join(std::string &text, size_t at, size_t third) {
  char chevron = text[third];
  text.erase(third, 1);
  text.insert(at + 2, 1, chevron);
}

} // namespace

std::optional<std::string> joinedLaunchChevrons(std::string_view source) {
  // The cheap test first: most files have no `<<` followed by a space.
  bool spaced = false;
  for (size_t at = source.find("<<"); at != std::string_view::npos && !spaced;
       at = source.find("<<", at + 2))
    spaced = spacedTriple(source, at, '<') != std::string_view::npos;
  if (!spaced)
    return std::nullopt;

  std::string text(source);
  bool changed = false;
  CodeCursor cursor(text, 0);
  for (size_t at = cursor.next(); at != std::string_view::npos; at = cursor.next()) {
    size_t open = spacedTriple(text, at, '<');
    if (open == std::string_view::npos)
      continue;
    // The configuration's end at bracket depth 0: `>> >` (joined with it)
    // or `>>>`; a `;` or unbalanced bracket first means no launch.
    CodeCursor inside(text, open + 1);
    int depth = 0;
    std::optional<size_t> close, closeThird;
    for (size_t c = inside.next(); c != std::string_view::npos; c = inside.next()) {
      char ch = text[c];
      if (ch == '(' || ch == '[' || ch == '{') {
        ++depth;
      } else if (ch == ')' || ch == ']' || ch == '}') {
        if (--depth < 0)
          break;
      } else if (ch == ';') {
        break;
      } else if (depth == 0 && ch == '>') {
        if (size_t third = spacedTriple(text, c, '>'); third != std::string_view::npos) {
          close = c, closeThird = third;
          break;
        }
        if (c + 2 < text.size() && text[c + 1] == '>' && text[c + 2] == '>') {
          close = c;
          break;
        }
      }
    }
    if (!close)
      continue;
    if (closeThird)
      join(text, *close, *closeThird);
    join(text, at, open);
    changed = true;
    cursor.moveTo(*close + 3);
  }
  if (!changed)
    return std::nullopt;
  return text;
}

namespace {

bool isIdentifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
    text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
    text.remove_suffix(1);
  return text;
}

// The declaration at `name` (a byte offset into `line`), `__shared__ TYPE
// NAME[dims];`, as shared bytes and a reference to them; else nothing.
std::optional<std::string> unconstructedDeclaration(std::string_view line, size_t name) {
  constexpr std::string_view kShared = "__shared__";
  size_t shared = line.rfind(kShared, name);
  if (shared == std::string_view::npos || name >= line.size() || !isIdentifierChar(line[name]))
    return std::nullopt;
  size_t nameEnd = name;
  while (nameEnd < line.size() && isIdentifierChar(line[nameEnd]))
    ++nameEnd;
  std::string type(trimmed(line.substr(shared + kShared.size(), name - shared - kShared.size())));
  if (type.empty() || type.find_first_of(";{}()=") != std::string::npos)
    return std::nullopt;
  // Array dimensions, then the end of the declaration.
  size_t at = nameEnd;
  while (at < line.size() && line[at] == ' ')
    ++at;
  size_t dimsBegin = at;
  while (at < line.size() && line[at] == '[') {
    size_t close = line.find(']', at);
    if (close == std::string_view::npos)
      return std::nullopt;
    at = close + 1;
    while (at < line.size() && line[at] == ' ')
      ++at;
  }
  std::string dims(trimmed(line.substr(dimsBegin, at - dimsBegin)));
  if (at >= line.size() || line[at] != ';')
    return std::nullopt;
  std::string object = type + dims; // the declared object's type
  std::string variable(line.substr(name, nameEnd - name));
  std::string storage = variable + kUnconstructedSharedSuffix;
  return std::string(line.substr(0, shared)) + "__shared__ unsigned char " + storage + " alignas(" +
         object + ") [sizeof(" + object + ")]; " + type + " (&" + variable + ")" + dims +
         " = reinterpret_cast<" + type + " (&)" + dims + ">(" + storage + ");" +
         std::string(line.substr(at + 1));
}

// The declaration whose `alignas(...)` at `at` follows `__shared__`, with
// the `alignas` first; else nothing.
std::optional<std::string> alignedBeforeShared(std::string_view line, size_t at) {
  constexpr std::string_view kAlignas = "alignas", kShared = "__shared__";
  if (line.substr(at, kAlignas.size()) != kAlignas)
    return std::nullopt;
  std::string_view before = trimmed(line.substr(0, at));
  if (before.size() < kShared.size() || before.substr(before.size() - kShared.size()) != kShared)
    return std::nullopt;
  size_t open = at + kAlignas.size();
  while (open < line.size() && line[open] == ' ')
    ++open;
  if (open >= line.size() || line[open] != '(')
    return std::nullopt;
  size_t close = open;
  for (int depth = 0; close < line.size(); ++close) {
    depth += line[close] == '(' ? 1 : line[close] == ')' ? -1 : 0;
    if (depth == 0)
      break;
  }
  if (close >= line.size())
    return std::nullopt;
  // Before `__shared__`, only the indentation and storage words.
  size_t start = line.find_first_not_of(" \t");
  size_t shared = line.rfind(kShared, at);
  for (std::string_view words = trimmed(line.substr(start, shared - start)); !words.empty();
       words = trimmed(words)) {
    size_t end = 0;
    while (end < words.size() && isIdentifierChar(words[end]))
      ++end;
    std::string_view word = words.substr(0, end);
    if (word != "static" && word != "extern" && word != "volatile" && word != "const")
      return std::nullopt;
    words.remove_prefix(end);
  }
  size_t after = close + 1;
  while (after < line.size() && line[after] == ' ')
    ++after;
  return std::string(line.substr(0, start)) + std::string(line.substr(at, close + 1 - at)) + " " +
         std::string(line.substr(start, at - start)) + std::string(line.substr(after));
}

// The file, line and column of a diagnostic's location `where`
// ("FILE:LINE:COLUMN").
std::optional<std::pair<std::string, SourcePosition>> locationOf(std::string_view where) {
  size_t columnColon = where.rfind(':');
  if (columnColon == std::string_view::npos || columnColon == 0)
    return std::nullopt;
  size_t lineColon = where.rfind(':', columnColon - 1);
  if (lineColon == std::string_view::npos || lineColon == 0)
    return std::nullopt;
  SourcePosition position;
  std::string_view line = where.substr(lineColon + 1, columnColon - lineColon - 1);
  std::string_view column = where.substr(columnColon + 1);
  if (std::from_chars(line.data(), line.data() + line.size(), position.line).ec != std::errc() ||
      std::from_chars(column.data(), column.data() + column.size(), position.column).ec !=
          std::errc())
    return std::nullopt;
  return std::pair(std::string(where.substr(0, lineColon)), position);
}

// `text` as a double-quoted string of C, YAML and JSON.
std::string quoted(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '\\' || c == '"')
      out += '\\';
    out += c;
  }
  return out + '"';
}

// `text` written to a new temporary file (`prefix`-XXXXXX.`suffix`): its
// path, or an error that begins with `failure` ("f.cu: cannot write a
// rewritten copy to compile").
Result<std::string> temporaryFileWith(const char *prefix, const char *suffix, std::string_view text,
                                      const std::string &failure) {
  llvm::SmallString<128> path;
  int fd = -1;
  if (std::error_code error = llvm::sys::fs::createTemporaryFile(prefix, suffix, fd, path))
    return makeError(failure + ": " + error.message());
  llvm::raw_fd_ostream out(fd, /*shouldClose=*/true);
  out << text;
  out.close();
  if (out.has_error()) {
    llvm::sys::fs::remove(path);
    return makeError(failure);
  }
  return path.str().str();
}

} // namespace

RefusedSharedDeclarationsByFile refusedSharedDeclarations(std::string_view clangOutput) {
  RefusedSharedDeclarationsByFile refused;
  for (auto [error, unconstructed] :
       {std::pair(kUnconstructedSharedError, true), std::pair(kMisplacedAttributeError, false)}) {
    const std::string marker = std::string(": error: ") + error;
    for (size_t at = clangOutput.find(marker); at != std::string_view::npos;
         at = clangOutput.find(marker, at + 1)) {
      size_t lineStart = clangOutput.rfind('\n', at);
      lineStart = lineStart == std::string_view::npos ? 0 : lineStart + 1;
      if (auto location = locationOf(clangOutput.substr(lineStart, at - lineStart))) {
        RefusedSharedDeclarations &inFile = refused[location->first];
        (unconstructed ? inFile.unconstructed : inFile.alignedAfterShared)
            .push_back(location->second);
      }
    }
  }
  return refused;
}

std::optional<std::string> acceptedByClang(std::string_view source,
                                           const RefusedSharedDeclarations &refused) {
  std::vector<std::string> lines;
  for (size_t begin = 0; begin <= source.size();) {
    size_t end = source.find('\n', begin);
    if (end == std::string_view::npos) {
      lines.emplace_back(source.substr(begin));
      break;
    }
    lines.emplace_back(source.substr(begin, end - begin));
    begin = end + 1;
  }
  // Each line's refusals right to left: an earlier column stays where it was.
  struct Refusal {
    SourcePosition at;
    bool unconstructed;
  };
  std::vector<Refusal> order;
  for (const SourcePosition &at : refused.unconstructed)
    order.push_back({at, true});
  for (const SourcePosition &at : refused.alignedAfterShared)
    order.push_back({at, false});
  std::sort(order.begin(), order.end(), [](const Refusal &a, const Refusal &b) {
    return a.at.line != b.at.line ? a.at.line < b.at.line : a.at.column > b.at.column;
  });
  bool changed = false;
  for (const Refusal &refusal : order) {
    if (refusal.at.line == 0 || refusal.at.line > lines.size() || refusal.at.column == 0)
      continue;
    std::string &line = lines[refusal.at.line - 1];
    std::optional<std::string> rewritten =
        refusal.unconstructed ? unconstructedDeclaration(line, refusal.at.column - 1)
                              : alignedBeforeShared(line, refusal.at.column - 1);
    if (rewritten) {
      line = std::move(*rewritten);
      changed = true;
    }
  }
  if (!changed)
    return std::nullopt;
  std::string text;
  for (size_t i = 0; i < lines.size(); ++i)
    text += (i ? "\n" : "") + lines[i];
  return text;
}

Status CompileInput::overlayHeaders(const RefusedSharedDeclarationsByFile &refused) {
  std::string roots;
  for (const auto &[file, declarations] : refused) {
    if (file == path_)
      continue;
    Result<std::string> text = readRegularFile(file, kLargestTextFile);
    if (!text)
      continue;
    std::optional<std::string> accepted = acceptedByClang(*text, declarations);
    if (!accepted)
      continue;
    llvm::SmallString<256> name(file);
    llvm::sys::fs::make_absolute(name); // against the directory clang runs in: this one
    llvm::sys::path::remove_dots(name, /*remove_dot_dot=*/true);
    Result<std::string> copy = temporaryFileWith(
        "simulee-header", "h", *accepted, file + ": cannot write a rewritten copy to compile");
    if (!copy)
      return copy.error();
    headerCopies_.push_back(*copy);
    roots += std::string(roots.empty() ? "" : ",\n") +
             "  {\"type\": \"file\", \"name\": " + quoted(name.str()) +
             ", \"external-contents\": " + quoted(*copy) + "}";
  }
  if (roots.empty())
    return Ok{};
  // Names stay the headers' own in diagnostics and debug info.
  Result<std::string> overlay = temporaryFileWith(
      "simulee-overlay", "yaml",
      "{\"version\": 0, \"use-external-names\": false, \"roots\": [\n" + roots + "\n]}\n",
      path_ + ": cannot write a header overlay to compile");
  if (!overlay)
    return overlay.error();
  overlay_ = *overlay;
  return Ok{};
}

Result<CompileInput> CompileInput::of(const std::string &path,
                                      const RefusedSharedDeclarationsByFile &refused) {
  CompileInput input(path);
  if (Status overlaid = input.overlayHeaders(refused); !overlaid)
    return overlaid.error();
  Result<std::string> source = readRegularFile(path, kLargestTextFile);
  if (!source)
    return input;
  std::optional<std::string> joined = joinedLaunchChevrons(*source);
  if (auto inPath = refused.find(path); inPath != refused.end())
    if (std::optional<std::string> accepted =
            acceptedByClang(joined ? *joined : *source, inPath->second))
      joined = std::move(accepted);
  if (!joined)
    return input;
  // A UTF-8 byte order mark (files saved by Visual Studio) is skipped only
  // at the start of a file: after the #line below it is a stray character.
  if (joined->starts_with("\xEF\xBB\xBF"))
    joined->erase(0, 3);
  Result<std::string> copy =
      temporaryFileWith("simulee-joined", "cu", "#line 1 " + quoted(path) + "\n" + *joined,
                        path + ": cannot write a rewritten copy to compile");
  if (!copy)
    return copy.error();
  input.copy_ = *copy;
  return input;
}

CompileInput::CompileInput(CompileInput &&other) noexcept
    : path_(std::move(other.path_)), copy_(std::exchange(other.copy_, std::string())),
      headerCopies_(std::exchange(other.headerCopies_, {})),
      overlay_(std::exchange(other.overlay_, std::string())) {}

CompileInput::~CompileInput() {
  if (!copy_.empty())
    llvm::sys::fs::remove(copy_);
  for (const std::string &header : headerCopies_)
    llvm::sys::fs::remove(header);
  if (!overlay_.empty())
    llvm::sys::fs::remove(overlay_);
}

std::vector<std::string> CompileInput::arguments() const {
  std::vector<std::string> args;
  if (!overlay_.empty())
    args = {"-ivfsoverlay", overlay_};
  if (copy_.empty()) {
    args.push_back(path_);
    return args;
  }
  std::string directory = llvm::sys::path::parent_path(path_).str();
  args.insert(args.end(), {"-iquote", directory.empty() ? "." : directory, copy_});
  return args;
}

} // namespace simulee::ir
