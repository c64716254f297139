// Errors as values: Result<T> carries either a T or an Error whose message is
// one complete line for the user ("file: kernel 'k': what is wrong").
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace simulee {

struct Error {
  std::string message;
};

template <class T> class [[nodiscard]] Result {
public:
  Result(T value) : storage_(std::move(value)) {}
  Result(Error error) : storage_(std::move(error)) {}

  bool ok() const { return std::holds_alternative<T>(storage_); }
  explicit operator bool() const { return ok(); }

  T &value() { return std::get<T>(storage_); }
  const T &value() const { return std::get<T>(storage_); }
  T &operator*() { return value(); }
  T *operator->() { return &value(); }
  const Error &error() const { return std::get<Error>(storage_); }

private:
  std::variant<T, Error> storage_;
};

// Result for operations that return nothing on success.
struct Ok {};
using Status = Result<Ok>;

inline Error makeError(std::string message) { return Error{std::move(message)}; }

} // namespace simulee
