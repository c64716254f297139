#include "report/FindingText.h"

namespace simulee::report {

using detect::Finding;
using detect::FindingKind;
using detect::Site;

interp::Dim3 coordinatesOf(uint64_t linear, const interp::Dim3 &shape) {
  uint64_t sizeX = shape.x ? shape.x : 1;
  uint64_t sizeY = shape.y ? shape.y : 1;
  interp::Dim3 coordinates;
  coordinates.x = uint32_t(linear % sizeX);
  coordinates.y = uint32_t(linear / sizeX % sizeY);
  coordinates.z = uint32_t(linear / (sizeX * sizeY));
  return coordinates;
}

std::string formatCoordinates(const interp::Dim3 &coordinates) {
  std::string text = "(";
  text += std::to_string(coordinates.x);
  text += ',';
  text += std::to_string(coordinates.y);
  text += ',';
  text += std::to_string(coordinates.z);
  text += ')';
  return text;
}

interp::Dim3 threadCoordinates(const Finding &finding, const Site &site) {
  return coordinatesOf(site.thread, finding.launch.block);
}

interp::Dim3 blockCoordinates(const Finding &finding, const Site &site) {
  return coordinatesOf(site.block, finding.launch.grid);
}

std::string threadAndBlockText(const Finding &finding, const Site &site) {
  return "thread " + formatCoordinates(threadCoordinates(finding, site)) + " block " +
         formatCoordinates(blockCoordinates(finding, site));
}

namespace {

const ir::SourceLocation *debugLocation(const ir::Program &program, uint32_t instruction) {
  if (instruction >= program.instructions.size())
    return nullptr;
  const ir::SourceLocation &location = program.instructions[instruction].location;
  return location.known() ? &location : nullptr;
}

const ir::Instr *loweredInstr(const ir::Program &program, uint32_t instruction) {
  if (instruction >= program.instructions.size())
    return nullptr;
  uint32_t function = program.instructions[instruction].function;
  if (function >= program.functions.size())
    return nullptr;
  for (const ir::Instr &instr : program.functions[function].code)
    if (instr.id == instruction && instr.op != ir::Op::Nop)
      return &instr;
  return nullptr;
}

bool isExitOp(ir::Op op) {
  return op == ir::Op::Exit || op == ir::Op::Ret || op == ir::Op::Trap || op == ir::Op::Unreachable;
}

std::string variableText(const Finding &finding) {
  std::string space = interp::memSpaceName(finding.space);
  if (finding.variable.empty())
    return space + " memory";
  return space + " '" + finding.variable + "'";
}

const Site *siteAt(const Finding &finding, size_t index) {
  return index < finding.sites.size() ? &finding.sites[index] : nullptr;
}

std::string accessText(const ir::Program &program, const Finding &finding, const Site &site) {
  return siteAction(program, site) + " at " + locationText(program, site.instruction) + " (" +
         threadAndBlockText(finding, site) + ")";
}

std::string raceMessage(const ir::Program &program, const Finding &finding) {
  std::string message = "data race on " + variableText(finding);
  const Site *first = siteAt(finding, 0);
  const Site *second = siteAt(finding, 1);
  if (first)
    message += " between " + accessText(program, finding, *first);
  if (second)
    message += " and " + accessText(program, finding, *second);
  return message;
}

std::string atomicityMessage(const ir::Program &program, const Finding &finding) {
  std::string message = "atomicity violation";
  if (!finding.subkind.empty())
    message += " (" + finding.subkind + ")";
  message += " on " + variableText(finding);
  const Site *first = siteAt(finding, 0);
  const Site *second = siteAt(finding, 1);
  const Site *between = siteAt(finding, 2);
  if (!first || !second)
    return message;
  message += ": " + accessText(program, finding, *first) + " then " + siteAction(program, *second) +
             " at " + locationText(program, second->instruction) + ", meant as one step";
  if (between)
    message += "; " + accessText(program, finding, *between) + " can run between them";
  return message;
}

// What the thread that is not waiting at the barrier does.
std::string otherThreadText(const ir::Program &program, const Site &other) {
  std::string where = locationText(program, other.instruction);
  std::string action = siteAction(program, other);
  if (action == "exit")
    return "has exited at " + where;
  if (action == "barrier")
    return "waits at the barrier at " + where;
  return "is at " + where;
}

std::string divergenceMessage(const ir::Program &program, const Finding &finding) {
  const Site *waiting = siteAt(finding, 0);
  if (!waiting)
    return "barrier divergence";
  std::string message =
      "barrier divergence at " + locationText(program, waiting->instruction) + ": ";
  if (finding.launch.grid.count() > 1)
    message += "in block " + formatCoordinates(blockCoordinates(finding, *waiting)) + ", ";
  message += "thread " + formatCoordinates(threadCoordinates(finding, *waiting)) + " waits here";
  const Site *other = siteAt(finding, 1);
  if (!other)
    return message;
  return message + " while thread " + formatCoordinates(threadCoordinates(finding, *other)) + " " +
         otherThreadText(program, *other);
}

std::string outOfBoundsMessage(const ir::Program &program, const Finding &finding) {
  const Site *access = siteAt(finding, 0);
  std::string action = access ? siteAction(program, *access) : "access";
  std::string message = "out-of-bounds " + action + " of " + variableText(finding);
  if (finding.detail.empty())
    message += " (offset " + std::to_string(finding.exampleOffset) + ")";
  if (access)
    message += " by " + threadAndBlockText(finding, *access);
  // The detector's detail names the offset, access size and buffer size.
  return finding.detail.empty() ? message : message + ": " + finding.detail;
}

std::string undefinedBehaviorMessage(const Finding &finding) {
  const Site *site = siteAt(finding, 0);
  std::string message = "undefined behavior: " + finding.detail;
  return site ? message + " by " + threadAndBlockText(finding, *site) : message;
}

} // namespace

std::string locationText(const ir::Program &program, uint32_t instruction) {
  if (const ir::SourceLocation *location = debugLocation(program, instruction)) {
    std::string text = location->file + ":" + std::to_string(location->line);
    if (location->column) {
      text += ':';
      text += std::to_string(location->column);
    }
    return text;
  }
  return "function '" + program.functionName(instruction) +
         "': " + program.instructionText(instruction);
}

std::string diagnosticPrefix(const ir::Program &program, uint32_t instruction) {
  std::string location = locationText(program, instruction);
  if (debugLocation(program, instruction) || program.path.empty())
    return location;
  return program.path + ": " + location;
}

std::string siteAction(const ir::Program &program, const Site &site) {
  if (site.isAccess)
    return interp::accessKindName(site.action);
  const ir::Instr *instr = loweredInstr(program, site.instruction);
  return instr && isExitOp(instr->op) ? "exit" : "barrier";
}

bool needsDetailNote(const Finding &finding) {
  if (finding.detail.empty())
    return false;
  return finding.kind == FindingKind::DataRace || finding.kind == FindingKind::BarrierDivergence ||
         finding.kind == FindingKind::AtomicityViolation;
}

bool hasLaunchNote(const Finding &finding) { return finding.kind != FindingKind::UnreachedBarrier; }

std::string findingMessage(const ir::Program &program, const Finding &finding) {
  switch (finding.kind) {
  case FindingKind::DataRace:
    return raceMessage(program, finding);
  case FindingKind::RedundantBarrier:
    if (!finding.groupBarriers.empty()) {
      std::string others;
      for (uint32_t barrier : finding.groupBarriers)
        others += (others.empty() ? "" : ", ") + locationText(program, barrier);
      return "redundant barrier, but only one of this and the barrier(s) at " + others +
             " can go (each alone is removable; removed together they let accesses race): " +
             finding.detail;
    }
    if (!finding.detail.empty())
      return "redundant barrier: " + finding.detail;
    return "redundant barrier: removing it creates no race in any judged launch";
  case FindingKind::BarrierDivergence:
    return divergenceMessage(program, finding);
  case FindingKind::OutOfBounds:
    return outOfBoundsMessage(program, finding);
  case FindingKind::UnreachedBarrier:
    return "barrier never reached in any judged launch";
  case FindingKind::UninitializedRead: {
    const Site *read = siteAt(finding, 0);
    std::string message = "read of uninitialized " + variableText(finding) + " (offset " +
                          std::to_string(finding.exampleOffset) + ")";
    return read ? message + " by " + threadAndBlockText(finding, *read) : message;
  }
  case FindingKind::UndefinedBehavior:
    return undefinedBehaviorMessage(finding);
  case FindingKind::AssertionFailed: {
    const Site *site = siteAt(finding, 0);
    std::string message = "assertion" + (finding.detail.empty() ? "" : " `" + finding.detail + "`") +
                          " failed";
    return site ? message + " in " + threadAndBlockText(finding, *site) : message;
  }
  case FindingKind::AtomicityViolation:
    return atomicityMessage(program, finding);
  }
  return "unknown finding";
}

std::string ordinalText(uint32_t n) {
  const char *suffix = "th";
  if (n % 100 < 11 || n % 100 > 13)
    suffix = n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
  return std::to_string(n) + suffix;
}

std::string launchText(const detect::LaunchRecord &launch) {
  std::string text =
      "grid " + formatCoordinates(launch.grid) + " block " + formatCoordinates(launch.block);
  if (launch.dynamicSharedBytes)
    text += " shared=" + std::to_string(launch.dynamicSharedBytes);
  for (const auto &[name, value] : launch.args)
    text += " " + name + "=" + value;
  if (launch.seed)
    text += " seed=" + std::to_string(launch.seed);
  return text;
}

bool isAboutMemory(FindingKind kind) {
  return kind == FindingKind::DataRace || kind == FindingKind::OutOfBounds ||
         kind == FindingKind::UninitializedRead || kind == FindingKind::AtomicityViolation;
}

std::string exampleAddressText(const Finding &finding) {
  if (!isAboutMemory(finding.kind) || finding.variable.empty())
    return "";
  // Below the variable's start: "'s' - 92 bytes".
  std::string offset = detect::byteOffsetText(finding.exampleOffset);
  return "'" + finding.variable +
         (offset.front() == '-' ? "' - " + offset.substr(1) : "' + " + offset) + " bytes";
}

std::string launchNoteText(const Finding &finding) {
  bool isRedundant = finding.kind == FindingKind::RedundantBarrier;
  std::string note = isRedundant ? "example launch " : "exposed by launch ";
  if (finding.launch.ordinal)
    note = (isRedundant ? "example: the " : "exposed by the ") + ordinalText(finding.launch.ordinal) +
           " launch, ";
  note += launchText(finding.launch);
  note += std::string(" [") + detect::provenanceName(finding.launch.provenance) + "]";
  if (finding.launch.origin)
    note += ", launched at " + finding.launch.origin->file + ":" +
            std::to_string(finding.launch.origin->line);
  std::string address = exampleAddressText(finding);
  if (!address.empty())
    note += "; example address: " + address;
  if (finding.occurrences > 1 && finding.kind != FindingKind::RedundantBarrier)
    note += "; seen " + std::to_string(finding.occurrences) + " times";
  return note;
}

std::string repairText(const detect::Repair &repair) {
  size_t launches = repair.launches.size();
  return repair.description + " (re-simulated on " + std::to_string(launches) + " launch" +
         (launches == 1 ? "" : "es") + ": the finding is gone and nothing new appears)";
}

} // namespace simulee::report
