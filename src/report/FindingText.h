// The words every report format shares: where a site is, which thread ran it,
// what it did, and the one-line message that states a finding.
#pragma once

#include "detect/Finding.h"
#include "ir/Program.h"

#include <string>

namespace simulee::report {

// A linear thread (block) id as 3-D coordinates in a block (grid) of `shape`,
// x fastest: linear = x + y*shape.x + z*shape.x*shape.y.
interp::Dim3 coordinatesOf(uint64_t linear, const interp::Dim3 &shape);
std::string formatCoordinates(const interp::Dim3 &coordinates); // "(5,0,0)"

interp::Dim3 threadCoordinates(const detect::Finding &finding, const detect::Site &site);
interp::Dim3 blockCoordinates(const detect::Finding &finding, const detect::Site &site);
std::string threadAndBlockText(const detect::Finding &finding,
                               const detect::Site &site); // "thread (5,0,0) block (0,0,0)"

// "kernel.cu:14:23" from debug info; without it "function 'reduce': <text>".
std::string locationText(const ir::Program &program, uint32_t instruction);
// The primary location of a diagnostic: locationText, prefixed with the
// program's path when there is no debug info to name a file.
std::string diagnosticPrefix(const ir::Program &program, uint32_t instruction);

// "read", "write", "atomic" for accesses; "barrier" or "exit" for the other
// sites, decided by the lowered instruction.
std::string siteAction(const ir::Program &program, const detect::Site &site);

// The finding stated in one line, without location prefix or kind tag:
// "data race on shared 'partial' between write at kernel.cu:14:23 (...) and ...".
std::string findingMessage(const ir::Program &program, const detect::Finding &finding);
// Whether `finding.detail` adds to findingMessage, which states it itself
// for out-of-bounds and redundant barriers.
bool needsDetailNote(const detect::Finding &finding);
// Whether the finding has a launch to show: an unreached barrier has none.
bool hasLaunchNote(const detect::Finding &finding);

// "1st", "2nd", "3rd", "11th".
std::string ordinalText(uint32_t n);
// "grid (1,1,1) block (256,1,1) n=1000 in=random:1000".
std::string launchText(const detect::LaunchRecord &launch);
// "'partial' + 20 bytes", or empty when the finding is not about a variable.
std::string exampleAddressText(const detect::Finding &finding);
bool isAboutMemory(detect::FindingKind kind);
// "exposed by launch <launchText>; example address: <exampleAddressText>".
std::string launchNoteText(const detect::Finding &finding);

// A proven repair in one line: what to change and how it was proven.
std::string repairText(const detect::Repair &repair);

} // namespace simulee::report
