// The CLI's side of call sites: reading a file's host code once for a
// command, and the notes and listings that say which launches were analysed.
#pragma once

#include "cli/Commands.h"
#include "host/CallSiteReader.h"
#include "ir/Program.h"
#include "session/Analysis.h"

#include <ostream>
#include <string>
#include <vector>

namespace simulee::cli {

// `file`'s host code: its call sites and what else it says of its kernels;
// nothing under --explore. A host side that cannot be read is a note on
// standard error (unless quiet), and the kernels are searched freely.
host::HostCode hostCodeOf(const std::string &file, const CommonOptions &common, bool explore);

// "simulee: note: 'K' searched at its call sites f.cu:40, f.cu:52" on
// standard error.
void noteSearchedSites(const std::string &kernel, const session::KernelAnalysis &analysis);

// `simulee list`: one indented line per site of `kernel`.
void listSites(std::ostream &out, const ir::Program &program, const ir::KernelInfo &kernel,
               const std::vector<host::CallSite> &sites);

} // namespace simulee::cli
