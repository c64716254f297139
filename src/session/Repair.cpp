#include "session/Repair.h"

#include "ir/ProgramEdit.h"

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace simulee::session {
namespace {

using detect::Finding;
using detect::FindingKind;
using ir::EditKind;
using ir::ProgramEdit;

const ir::SourceLocation &locationOf(const ir::Program &program, uint32_t instruction) {
  return program.instructions[instruction].location;
}

std::string lineText(const ir::SourceLocation &location) {
  return "line " + std::to_string(location.line);
}

// The read that `write` pairs with in an edit of `kind` (FuseReadModifyWrite:
// a plain load whose value it writes back combined with something, `hist[b]
// = hist[b] + 1`; CompareAndSwapLoop: a read it depends on); none when there
// is no such read.
std::optional<ProgramEdit> pairedWith(const ir::Program &program, uint32_t write, EditKind kind) {
  if (!program.instructions[write].llvm)
    return std::nullopt;
  for (uint32_t id = 0; id < program.instructions.size(); ++id) {
    const ir::InstructionInfo &info = program.instructions[id];
    if (!info.llvm || info.function != program.instructions[write].function || id == write)
      continue;
    ProgramEdit edit{kind, id, write};
    if (ir::editApplies(program, edit))
      return edit;
  }
  return std::nullopt;
}

struct Proposal {
  ProgramEdit edit;
  detect::Repair repair;
};

Proposal insertBarrier(const ir::Program &program, uint32_t before, bool warp) {
  ProgramEdit edit{warp ? EditKind::InsertWarpBarrier : EditKind::InsertBlockBarrier, before};
  ir::SourceLocation at = ir::editLocation(program, edit);
  const char *call = warp ? "__syncwarp()" : "__syncthreads()";
  detect::Repair repair{"insert-barrier", std::string("insert ") + call + " before " + lineText(at),
                        at, std::string(call) + ";", {}, {}};
  return {edit, repair};
}

// __syncthreads() (or __syncwarp()) as the last statement of the body of
// the loop holding `access`: every iteration ends with it.
std::optional<Proposal> insertBarrierInLoop(const ir::Program &program, uint32_t access, bool warp) {
  uint32_t line = ir::loopLine(program, access);
  if (line == 0)
    return std::nullopt;
  ir::SourceLocation at = locationOf(program, access);
  at.line = line;
  at.column = 0;
  const char *call = warp ? "__syncwarp()" : "__syncthreads()";
  detect::Repair repair{"insert-barrier-in-loop",
                        std::string("insert ") + call +
                            " as the last statement of the body of the loop at " + lineText(at),
                        at, std::string(call) + ";", {}, {}};
  ProgramEdit edit{warp ? EditKind::InsertWarpBarrier : EditKind::InsertBlockBarrier, access};
  edit.atLoopEnd = true;
  return Proposal{edit, repair};
}

// The source lines an edit of a read and a write rewrites: both, or one
// when they share it.
std::vector<ir::SourceLocation> pairLines(const ir::SourceLocation &read,
                                          const ir::SourceLocation &write) {
  std::vector<ir::SourceLocation> lines = {read};
  if (write.line != read.line || write.file != read.file)
    lines.push_back(write);
  return lines;
}

Proposal fuse(const ir::Program &program, const ProgramEdit &edit) {
  const ir::SourceLocation &read = locationOf(program, edit.instruction);
  const ir::SourceLocation &write = locationOf(program, edit.other);
  std::string atomic = ir::fusedAtomicName(program, edit);
  std::string description = "replace the read at " + lineText(read) + " and the write at " +
                            lineText(write) + " with one " + atomic;
  return {edit, {"fuse-read-modify-write", description, read, "", pairLines(read, write), {}}};
}

Proposal compareAndSwapLoop(const ir::Program &program, const ProgramEdit &edit) {
  const ir::SourceLocation &read = locationOf(program, edit.instruction);
  const ir::SourceLocation &write = locationOf(program, edit.other);
  std::string description = "make the read at " + lineText(read) + " and the write at " +
                            lineText(write) +
                            " a compare-and-swap loop: atomicCAS writes only if the value is "
                            "still the one read, else the code from " +
                            lineText(read) + " runs again";
  return {edit, {"compare-and-swap-loop", description, read, "", pairLines(read, write), {}}};
}

Proposal makeAtomic(const ir::Program &program, uint32_t access, bool write) {
  const ir::SourceLocation &at = locationOf(program, access);
  std::string description = std::string("make the ") + (write ? "write" : "read") + " at " +
                            lineText(at) + " atomic (" +
                            (write ? "atomicExch" : "atomicAdd(p, 0) or cuda::atomic_ref's load") +
                            ")";
  return {{EditKind::MakeAtomic, access}, {"make-atomic", description, at, "", {at}, {}}};
}

std::vector<Proposal> proposalsFor(const ir::Program &program, const Finding &finding) {
  std::vector<Proposal> proposals;
  auto keep = [&](Proposal proposal) {
    if (ir::editApplies(program, proposal.edit))
      proposals.push_back(std::move(proposal));
  };
  if (finding.sites.empty() || finding.benign != detect::Benign::No)
    return proposals;
  const detect::Site &first = finding.sites[0];
  switch (finding.kind) {
  case FindingKind::DataRace: {
    if (finding.sites.size() < 2)
      break;
    const detect::Site &second = finding.sites[1];
    if (first.block == second.block) {
      bool warp = first.thread / interp::kWarpSize == second.thread / interp::kWarpSize;
      // sites are in instruction order: the later one in the code first.
      keep(insertBarrier(program, second.instruction, warp));
      if (second.instruction != first.instruction)
        keep(insertBarrier(program, first.instruction, warp));
      // A race across iterations of a loop (a reduction step missing its
      // barrier): at the end of each iteration.
      if (std::optional<Proposal> inLoop = insertBarrierInLoop(program, second.instruction, warp))
        keep(std::move(*inLoop));
    }
    // A read and a write back racing with another thread's: one atomic
    // update, else a compare-and-swap loop.
    for (EditKind kind : {EditKind::FuseReadModifyWrite, EditKind::CompareAndSwapLoop}) {
      size_t before = proposals.size();
      for (const detect::Site *site : {&second, &first})
        if (site->action == interp::AccessKind::Write)
          if (std::optional<ProgramEdit> edit = pairedWith(program, site->instruction, kind)) {
            keep(kind == EditKind::FuseReadModifyWrite ? fuse(program, *edit)
                                                       : compareAndSwapLoop(program, *edit));
            break;
          }
      if (proposals.size() > before)
        break;
    }
    bool firstAtomic = interp::isAtomic(first.action), secondAtomic = interp::isAtomic(second.action);
    // Plain stores racing with each other are not made atomic: that only
    // hides which value wins, which the code has to decide.
    if (firstAtomic != secondAtomic) {
      const detect::Site &plain = firstAtomic ? second : first;
      keep(makeAtomic(program, plain.instruction, plain.action == interp::AccessKind::Write));
    }
    break;
  }
  case FindingKind::AtomicityViolation: {
    if (finding.sites.size() < 2)
      break;
    uint32_t read = first.instruction, write = finding.sites[1].instruction;
    bool lostUpdate =
        finding.subkind == ir::atomicityPatternName(ir::AtomicityPattern::ReadWriteWrite);
    if (lostUpdate)
      keep(fuse(program, {EditKind::FuseReadModifyWrite, read, write}));
    if (lostUpdate ||
        finding.subkind == ir::atomicityPatternName(ir::AtomicityPattern::CheckThenAct))
      keep(compareAndSwapLoop(program, {EditKind::CompareAndSwapLoop, read, write}));
    break;
  }
  case FindingKind::RedundantBarrier:
    if (finding.groupBarriers.empty()) {
      const ir::SourceLocation &at = locationOf(program, first.instruction);
      keep({{EditKind::RemoveBarrier, first.instruction},
            {"remove-barrier", "remove the barrier at " + lineText(at), at, "", {at}, {}}});
    }
    break;
  default:
    break;
  }
  return proposals;
}

} // namespace

void proveRepairs(const ir::Program &program, const ir::KernelInfo &kernel,
                  KernelAnalysis &analysis, const AnalysisOptions &options) {
  // Findings are compared by bugKey, whose source lines an edited copy
  // keeps (its instruction ids are its own).
  std::set<std::string> known;
  for (const Finding &finding : analysis.findings)
    known.insert(bugKey(program, finding));
  for (Finding &finding : analysis.findings) {
    // Launches simulee chose can be run again; a program's (exec) cannot. A
    // finding without source lines could not be told apart in the copy.
    if (finding.launch.provenance == detect::Provenance::Program ||
        !hasSourceLines(program, finding))
      continue;
    std::vector<detect::LaunchRecord> launches = {finding.launch};
    std::string own = launchToJson(kernel.name, finding.launch);
    if (analysis.bestLaunch && launchToJson(kernel.name, *analysis.bestLaunch) != own)
      launches.push_back(*analysis.bestLaunch);
    std::vector<LaunchSpec> specs;
    for (const detect::LaunchRecord &record : launches)
      if (Result<LaunchSpec> spec = launchFromJson(launchToJson(kernel.name, record), nullptr))
        specs.push_back(std::move(*spec));
    if (specs.size() != launches.size())
      continue;
    std::string target = bugKey(program, finding);
    for (Proposal &proposal : proposalsFor(program, finding)) {
      Result<ir::Program> edited = ir::applyEdit(program, proposal.edit);
      if (!edited)
        continue;
      const ir::KernelInfo *editedKernel = edited->findKernel(kernel.name);
      if (!editedKernel || !editedKernel->unsupported.empty())
        continue;
      bool proven = true;
      for (const LaunchSpec &spec : specs) {
        Result<KernelAnalysis> rerun = analyzeLaunch(*edited, *editedKernel, spec, options);
        proven = rerun && rerun->verdict != detect::Verdict::Inconclusive &&
                 rerun->verdict != detect::Verdict::Error;
        for (size_t i = 0; proven && i < rerun->findings.size(); ++i) {
          // A barrier the edited launch never reached says nothing against the
          // edit; any other finding, benign races included, does.
          const Finding &found = rerun->findings[i];
          if (found.kind == FindingKind::UnreachedBarrier)
            continue;
          std::string key = bugKey(*edited, found);
          proven = hasSourceLines(*edited, found) && key != target && known.count(key);
        }
        if (!proven)
          break;
      }
      if (!proven)
        continue;
      proposal.repair.launches = launches;
      finding.repairs.push_back(std::move(proposal.repair));
      break; // the first proven proposal is the most direct
    }
  }
}

} // namespace simulee::session
