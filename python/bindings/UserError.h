// Bad input, raised in Python as simulee.Error with the message the CLI
// prints after "simulee: error: " (registered by Module.cpp).
#pragma once

#include <stdexcept>

namespace simulee::python {

struct UserError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

} // namespace simulee::python
