// A walk over C++ source text that steps over comments and string and
// character literals: the launch-chevron rewrite (LaunchSyntax.h) and the
// search for an architecture conditional in a kernel's body use it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string_view>

namespace simulee::ir {

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

} // namespace simulee::ir
