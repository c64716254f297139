#include "ir/LaunchSyntax.h"

#include "support/FileText.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

#include <cctype>
#include <utility>

namespace simulee::ir {
namespace {

// Walks C++ source text, stepping over comments and string and character
// literals: `next()` gives the position of each character of code.
class CodeCursor {
public:
  CodeCursor(std::string_view text, size_t at) : text_(text), at_(at) {}

  // The next character of code at or after the cursor, or npos at the end.
  size_t next() {
    while (at_ < text_.size()) {
      char c = text_[at_];
      if (c == '/' && at_ + 1 < text_.size() && text_[at_ + 1] == '/') {
        size_t end = text_.find('\n', at_);
        at_ = end == std::string_view::npos ? text_.size() : end;
      } else if (c == '/' && at_ + 1 < text_.size() && text_[at_ + 1] == '*') {
        size_t end = text_.find("*/", at_ + 2);
        at_ = end == std::string_view::npos ? text_.size() : end + 2;
      } else if (c == '"' || c == '\'') {
        size_t end = at_ + 1;
        while (end < text_.size() && text_[end] != c && text_[end] != '\n')
          end += text_[end] == '\\' ? 2 : 1;
        at_ = std::min(end + 1, text_.size());
      } else {
        return at_++;
      }
    }
    return std::string_view::npos;
  }

  size_t position() const { return at_; }
  void moveTo(size_t at) { at_ = at; }

private:
  std::string_view text_;
  size_t at_;
};

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

Result<CompileInput> CompileInput::of(const std::string &path) {
  CompileInput input(path);
  Result<std::string> source = readRegularFile(path, kLargestTextFile);
  std::optional<std::string> joined =
      source ? joinedLaunchChevrons(*source) : std::optional<std::string>();
  if (!joined)
    return input;
  llvm::SmallString<128> copy;
  int fd = -1;
  if (std::error_code error = llvm::sys::fs::createTemporaryFile("simulee-joined", "cu", fd, copy))
    return makeError(path + ": cannot write a copy with its launches' chevrons joined: " +
                     error.message());
  input.copy_ = copy.str().str();
  llvm::raw_fd_ostream out(fd, /*shouldClose=*/true);
  std::string escaped;
  for (char c : path) {
    if (c == '\\' || c == '"')
      escaped += '\\';
    escaped += c;
  }
  out << "#line 1 \"" << escaped << "\"\n" << *joined;
  out.close();
  if (out.has_error())
    return makeError(path + ": cannot write a copy with its launches' chevrons joined");
  return input;
}

CompileInput::CompileInput(CompileInput &&other) noexcept
    : path_(std::move(other.path_)), copy_(std::exchange(other.copy_, std::string())) {}

CompileInput::~CompileInput() {
  if (!copy_.empty())
    llvm::sys::fs::remove(copy_);
}

std::vector<std::string> CompileInput::arguments() const {
  if (copy_.empty())
    return {path_};
  std::string directory = llvm::sys::path::parent_path(path_).str();
  return {"-iquote", directory.empty() ? "." : directory, copy_};
}

} // namespace simulee::ir
