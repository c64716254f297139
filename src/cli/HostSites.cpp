#include "cli/HostSites.h"

#include "session/SiteSearch.h"

#include <algorithm>
#include <iostream>

namespace simulee::cli {

host::HostCode hostCodeOf(const std::string &file, const CommonOptions &common, bool explore) {
  if (explore)
    return {};
  // The device compile's options: its -D, -I, CUDA headers and the files
  // linked in (the program's other files, whose calls count).
  Result<host::HostCode> host = session::readHostCode(file, loadOptionsOf(common));
  if (!host) {
    if (!common.quiet)
      std::cerr << "simulee: note: " << host.error().message
                << "; kernels are searched without call sites\n";
    return {};
  }
  if (!host->firstError.empty() && !common.quiet)
    std::cerr << "simulee: note: " << file
              << ": the host code does not compile, so call sites may be missing: "
              << host->firstError << "\n";
  if (!host->neighboursRead.empty() && !common.quiet) {
    std::cerr << "simulee: note: " << file
              << " has no main: the calls of its functions and launches of its kernels in ";
    for (size_t i = 0; i < host->neighboursRead.size(); ++i)
      std::cerr << (i ? ", " : "") << host->neighboursRead[i];
    std::cerr << " are read as the program's\n";
  }
  return std::move(*host);
}

void noteSearchedSites(const std::string &kernel, const session::KernelAnalysis &analysis) {
  if (analysis.sites.empty())
    return;
  std::cerr << "simulee: note: '" << kernel << "' searched at its call site"
            << (analysis.sites.size() > 1 ? "s " : " ");
  for (size_t i = 0; i < analysis.sites.size(); ++i)
    std::cerr << (i ? ", " : "") << analysis.sites[i].file << ":" << analysis.sites[i].line;
  std::cerr << " (--explore searches every launch shape)\n";
}

void listSites(std::ostream &out, const ir::Program &program, const ir::KernelInfo &kernel,
               const std::vector<host::CallSite> &sites) {
  for (const host::CallSite *site : session::sitesOf(program, kernel, sites)) {
    out << "  launched at " << host::locationText(*site) << ": ";
    if (!site->templateArguments.empty()) {
      out << "<";
      for (size_t i = 0; i < site->templateArguments.size(); ++i)
        out << (i ? ", " : "") << site->templateArguments[i];
      out << "> ";
    }
    if (!site->lastIteration.empty())
      out << "(its loop's last iteration, " << site->lastIteration << ") ";
    if (!site->iteration.empty())
      out << "(in its loop, at " << site->iteration << ") ";
    out << "grid (" << host::describeDims(site->grid) << ") block ("
        << host::describeDims(site->block) << ")";
    if (!site->sharedBytes.isConstant() || site->sharedBytes.integer != 0)
      out << " shared " << host::describe(site->sharedBytes);
    for (size_t i = 0; i < site->arguments.size() && i < kernel.params.size(); ++i) {
      const host::SiteValue &value = site->arguments[i];
      bool zeroed = i < site->zeroed.size() && site->zeroed[i];
      std::string filled;
      if (i < site->contents.size() && site->contents[i].count > 0)
        filled = ", elements 0.." + std::to_string(site->contents[i].count - 1) +
                 " copied from the host as " + site->contents[i].text;
      if (i < site->allocationBytes.size() && !site->allocationBytes[i].isUnknown()) {
        bool into = i < site->allocationAliasOf.size() && site->allocationAliasOf[i] >= 0 &&
                    size_t(site->allocationAliasOf[i]) < kernel.params.size();
        out << " " << kernel.params[i].name << "=[" << host::describe(site->allocationBytes[i])
            << " bytes, " << site->allocations[i]
            << (into ? ", as " + kernel.params[site->allocationAliasOf[i]].name : "")
            << (zeroed ? ", zeroed" : "") << filled;
        if (i < site->allocationOffsets.size() && (!site->allocationOffsets[i].isConstant() ||
                                                   site->allocationOffsets[i].integer != 0))
          out << "; the pointer " << host::describe(site->allocationOffsets[i]) << " bytes in";
        out << "]";
        continue;
      }
      if (zeroed) {
        out << " " << kernel.params[i].name << "=[zeroed]";
        continue;
      }
      bool members = std::any_of(site->members.begin(), site->members.end(),
                                 [&](const host::CallSite::Member &m) { return m.param == i; });
      if (value.isUnknown() && (kernel.params[i].kind == ir::ValueKind::Pointer || members))
        continue; // buffers are simulee's to make; a struct's members follow
      out << " " << kernel.params[i].name << "=" << host::describe(value);
    }
    for (const host::CallSite::Member &member : site->members) {
      if (member.param >= kernel.params.size())
        continue;
      out << " " << kernel.params[member.param].name << "." << member.path << "=";
      if (member.leaf)
        out << (member.value.text.empty() ? "?" : member.value.text) << " (searched)";
      else if (member.allocationBytes.isUnknown())
        out << host::describe(member.value);
      else
        out << "[" << host::describe(member.allocationBytes) << " bytes, " << member.allocation
            << "]";
    }
    for (const host::CallSite::Variable &variable : site->variables)
      out << " " << variable.name << "=? (searched)";
    out << "\n";
    if (!site->constraints.empty()) {
      out << "    when";
      for (size_t i = 0; i < site->constraints.size(); ++i)
        out << (i ? "; " : " ") << site->constraints[i].text;
      out << "\n";
    }
  }
}

} // namespace simulee::cli
