// The host source line a return address belongs to ("main.cu:88"), read
// from the program's debug info with LLVM's symbolizer; empty when unknown.
#pragma once

#include <string>

namespace simulee::runtime {

// `returnAddress` as __builtin_return_address(0) gives it inside an API
// function: the instruction after the call.
std::string callSiteOf(const void *returnAddress);

} // namespace simulee::runtime
