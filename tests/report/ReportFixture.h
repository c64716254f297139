// A hand-built program with debug locations pointing into a temporary
// kernel.cu, and findings on it, shared by the report tests.
#pragma once

#include "detect/Finding.h"
#include "ir/Program.h"
#include "report/Report.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace simulee::report::testing {

// Instruction ids of the fixture program.
enum FixtureInstr : uint32_t { kStore, kLoad, kBarrier, kExit, kGlobalLoad, kCount };

class ReportFixture : public ::testing::Test {
protected:
  void SetUp() override {
    const ::testing::TestInfo *test = ::testing::UnitTest::GetInstance()->current_test_info();
    directory = std::filesystem::temp_directory_path() /
                (std::string("simulee_report_") + test->test_suite_name() + "_" + test->name());
    std::filesystem::create_directories(directory);
    writeSource();
    buildProgram();
  }

  void TearDown() override { std::filesystem::remove_all(directory); }

  void writeSource() {
    std::ofstream out(directory / "kernel.cu");
    for (int line = 1; line <= 20; ++line) {
      if (line == 14)
        out << "      partial[tid] += partial[tid + stride];\n";
      else if (line == 16)
        out << "    __syncthreads();\n";
      else
        out << "// line " << line << "\n";
    }
  }

  ir::SourceLocation at(uint32_t line, uint32_t column) const {
    return ir::SourceLocation{"kernel.cu", directory.string(), line, column};
  }

  void buildProgram() {
    program.path = (directory / "kernel.cu").string();
    ir::Function function;
    function.name = "_Z6reducePfi";
    const ir::Op ops[kCount] = {ir::Op::Store, ir::Op::Load, ir::Op::Barrier, ir::Op::Exit,
                                ir::Op::Load};
    for (uint32_t id = 0; id < kCount; ++id) {
      ir::Instr instr;
      instr.op = ops[id];
      instr.id = id;
      function.code.push_back(instr);
    }
    program.functions.push_back(std::move(function));
    ir::KernelInfo kernel;
    kernel.name = "_Z6reducePfi";
    kernel.sourceName = "reduce";
    program.kernels.push_back(kernel);
    program.instructions.resize(kCount);
    program.instructions[kStore].location = at(14, 23);
    program.instructions[kLoad].location = at(14, 20);
    program.instructions[kBarrier].location = at(16, 5);
    program.instructions[kExit].location = at(18, 1);
    program.instructions[kGlobalLoad].location = at(12, 9);
  }

  static detect::LaunchRecord launch() {
    detect::LaunchRecord record;
    record.grid = {1, 1, 1};
    record.block = {256, 1, 1};
    record.args = {{"n", "1000"}, {"in", "random:1000"}};
    return record;
  }

  static detect::Site access(uint32_t instruction, interp::AccessKind action, uint32_t thread,
                             uint32_t block = 0) {
    return detect::Site{instruction, action, true, thread, block};
  }

  static detect::Site nonAccess(uint32_t instruction, uint32_t thread, uint32_t block = 0) {
    return detect::Site{instruction, interp::AccessKind::Read, false, thread, block};
  }

  static detect::Finding race() {
    detect::Finding finding;
    finding.kind = detect::FindingKind::DataRace;
    finding.space = interp::MemSpace::Shared;
    finding.variable = "partial";
    finding.exampleOffset = 20;
    finding.sites = {access(kStore, interp::AccessKind::Write, 5),
                     access(kLoad, interp::AccessKind::Read, 69)};
    finding.launch = launch();
    return finding;
  }

  static detect::Finding barrierFinding(detect::FindingKind kind) {
    detect::Finding finding;
    finding.kind = kind;
    finding.space = interp::MemSpace::Shared;
    finding.sites = {nonAccess(kBarrier, 0)};
    finding.launch = launch();
    return finding;
  }

  static detect::Finding divergence() {
    detect::Finding finding = barrierFinding(detect::FindingKind::BarrierDivergence);
    finding.sites.push_back(nonAccess(kExit, 40));
    return finding;
  }

  static detect::Finding outOfBounds() {
    detect::Finding finding;
    finding.kind = detect::FindingKind::OutOfBounds;
    finding.space = interp::MemSpace::Global;
    finding.variable = "in";
    finding.exampleOffset = 4096;
    finding.detail = "4-byte read at byte offset 4096 of a 4096-byte buffer";
    finding.sites = {access(kGlobalLoad, interp::AccessKind::Read, 3, 4)};
    finding.launch = launch();
    finding.launch.grid = {8, 1, 1};
    return finding;
  }

  ReportInput input(std::vector<detect::Finding> findings) const {
    ReportInput result;
    result.kernels.push_back(KernelFindings{&program, "reduce", std::move(findings)});
    return result;
  }

  std::filesystem::path directory;
  ir::Program program;
};

} // namespace simulee::report::testing
