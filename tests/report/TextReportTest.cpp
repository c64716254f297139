#include "ReportFixture.h"

#include "report/FindingText.h"
#include "report/SourceFile.h"
#include "report/TextReport.h"

#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/SourceMgr.h>

#include <sstream>

namespace simulee::report::testing {
namespace {

std::string textOf(const ReportInput &input, const ReportOptions &options = {}) {
  std::ostringstream out;
  writeReport(out, Format::Text, input, options);
  return out.str();
}

using TextReport = ReportFixture;

TEST_F(TextReport, RaceReadsLikeACompilerDiagnosticWithCaretAndLaunch) {
  std::string expected =
      "kernel.cu:14:23: warning: data race on shared 'partial' between write at kernel.cu:14:23 "
      "(thread (5,0,0) block (0,0,0)) and read at kernel.cu:14:20 (thread (69,0,0) block "
      "(0,0,0)) [data-race]\n"
      "   14 |       partial[tid] += partial[tid + stride];\n"
      "      |                       ^\n"
      "note: exposed by launch grid (1,1,1) block (256,1,1) n=1000 in=random:1000 [free]; example "
      "address: 'partial' + 20 bytes\n" +
      program.path + ": kernel 'reduce': findings\n"
      "1 warning (1 data-race)\n";
  EXPECT_EQ(textOf(input({race()})), expected);
}

TEST_F(TextReport, ThreadAndBlockIdsAreShownInThreeDimensionsXFastest) {
  detect::Finding finding = race();
  finding.launch.block = {16, 16, 1};
  finding.launch.grid = {2, 3, 2};
  finding.sites[0].thread = 17;          // x=1, y=1
  finding.sites[1].thread = 16 * 16 + 2; // z=1, x=2
  finding.sites[1].block = 2 * 3 + 5;    // z=1, y=2, x=1
  std::string text = textOf(input({finding}));
  EXPECT_NE(text.find("(thread (1,1,0) block (0,0,0))"), std::string::npos) << text;
  EXPECT_NE(text.find("(thread (2,0,1) block (1,2,1))"), std::string::npos) << text;
}

TEST_F(TextReport, UnreadableSourceFileLeavesOutTheSnippet) {
  std::filesystem::remove(directory / "kernel.cu");
  std::string text = textOf(input({race()}));
  EXPECT_EQ(text.find(" | "), std::string::npos) << text;
  EXPECT_NE(text.find("kernel.cu:14:23: warning: data race"), std::string::npos) << text;
}

TEST_F(TextReport, UnknownColumnShowsTheLineWithoutCaret) {
  program.instructions[kStore].location.column = 0;
  std::string text = textOf(input({race()}));
  EXPECT_NE(text.find("kernel.cu:14: warning:"), std::string::npos) << text;
  EXPECT_NE(text.find("   14 |       partial[tid]"), std::string::npos) << text;
  EXPECT_EQ(text.find("^"), std::string::npos) << text;
}

TEST_F(TextReport, CaretKeepsTabsOfTheSourceLine) {
  std::ofstream(directory / "kernel.cu") << "\tx = 1;\n";
  program.instructions[kBarrier].location = at(1, 2);
  std::string text = textOf(input({barrierFinding(detect::FindingKind::RedundantBarrier)}));
  EXPECT_NE(text.find("    1 | \tx = 1;\n      | \t^\n"), std::string::npos) << text;
}

TEST_F(TextReport, BarrierDivergenceNamesTheWaitingAndTheExitedThread) {
  std::string text = textOf(input({divergence()}));
  EXPECT_NE(text.find("kernel.cu:16:5: warning: barrier divergence at kernel.cu:16:5: thread "
                      "(0,0,0) waits here while thread (40,0,0) has exited at kernel.cu:18:1 "
                      "[barrier-divergence]"),
            std::string::npos)
      << text;
}

TEST_F(TextReport, BarrierDivergenceDetailBecomesANote) {
  detect::Finding finding = divergence();
  finding.detail = "threads of the block exited while others wait at the barrier";
  std::string text = textOf(input({finding}));
  EXPECT_NE(text.find("has exited at kernel.cu:18:1 [barrier-divergence]\n"
                      "   16 |     __syncthreads();\n"
                      "      |     ^\n"
                      "note: threads of the block exited while others wait at the barrier\n"
                      "note: exposed by launch"),
            std::string::npos)
      << text;
}

TEST_F(TextReport, BarrierDivergenceNamesTheBlockWhenThereAreSeveral) {
  detect::Finding finding = divergence();
  finding.launch.grid = {4, 1, 1};
  finding.sites[0].block = finding.sites[1].block = 3;
  std::string text = textOf(input({finding}));
  EXPECT_NE(text.find("at kernel.cu:16:5: in block (3,0,0), thread (0,0,0) waits here"),
            std::string::npos)
      << text;
}

TEST_F(TextReport, BarrierDivergenceWithAnotherBarrierSaysWhereTheOtherThreadWaits) {
  detect::Finding finding = divergence();
  finding.sites[1].instruction = kBarrier;
  program.instructions.push_back(program.instructions[kBarrier]);
  std::string text = textOf(input({finding}));
  EXPECT_NE(text.find("while thread (40,0,0) waits at the barrier at kernel.cu:16:5"),
            std::string::npos)
      << text;
}

TEST_F(TextReport, RedundantAndUnreachedBarriersHaveTheirOwnWording) {
  std::string text = textOf(input({barrierFinding(detect::FindingKind::RedundantBarrier),
                                   barrierFinding(detect::FindingKind::UnreachedBarrier)}));
  EXPECT_NE(text.find("kernel.cu:16:5: warning: redundant barrier: removing it creates no race in "
                      "any judged launch [redundant-barrier]\n"
                      "   16 |     __syncthreads();\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("kernel.cu:16:5: note: barrier never reached in any judged launch "
                      "[unreached-barrier]"),
            std::string::npos)
      << text;
}

TEST_F(TextReport, OutOfBoundsNamesVariableOffsetAndThread) {
  std::string text = textOf(input({outOfBounds()}));
  EXPECT_NE(text.find("kernel.cu:12:9: warning: out-of-bounds read of global 'in' by thread "
                      "(3,0,0) block (4,0,0): 4-byte read at byte offset 4096 of a 4096-byte "
                      "buffer [out-of-bounds]\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("note: 4-byte"), std::string::npos) << text;
}

TEST_F(TextReport, OutOfBoundsWithoutDetailShowsTheOffset) {
  detect::Finding finding = outOfBounds();
  finding.detail.clear();
  std::string text = textOf(input({finding}));
  EXPECT_NE(text.find("out-of-bounds read of global 'in' (offset 4096) by thread (3,0,0) block "
                      "(4,0,0) [out-of-bounds]"),
            std::string::npos)
      << text;
}

TEST_F(TextReport, RedundantBarrierStatesTheDetectorsEvidence) {
  detect::Finding finding = barrierFinding(detect::FindingKind::RedundantBarrier);
  finding.detail = "removing it creates no race in any of its 8 executed instances (2 launches)";
  std::string text = textOf(input({finding}));
  EXPECT_NE(text.find("warning: redundant barrier: removing it creates no race in any of its 8 "
                      "executed instances (2 launches) [redundant-barrier]\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("note: example launch grid (1,1,1) block (256,1,1)"), std::string::npos)
      << text;
}

TEST_F(TextReport, UnreachedBarrierHasNoLaunchNote) {
  detect::Finding finding = barrierFinding(detect::FindingKind::UnreachedBarrier);
  finding.detail = "no simulated launch executed this barrier";
  finding.launch = {};
  std::string text = textOf(input({finding}));
  EXPECT_EQ(text.find("note: exposed"), std::string::npos) << text;
  EXPECT_EQ(text.find("note: no simulated"), std::string::npos) << text;
}

TEST_F(TextReport, RaceDetailBecomesANote) {
  detect::Finding finding = race();
  finding.detail = "both writes by one instruction in one lockstep step";
  std::string text = textOf(input({finding}));
  EXPECT_NE(text.find("\nnote: both writes by one instruction in one lockstep step\nnote: exposed"),
            std::string::npos)
      << text;
}

TEST_F(TextReport, NoFindingsSaysSo) {
  EXPECT_EQ(textOf(input({})), program.path + ": kernel 'reduce': clean\nno findings\n");
}

// Every kernel's verdict is printed, so nothing unanalysed passes for clean.
TEST_F(TextReport, EveryKernelHasAVerdictLine) {
  ReportInput all = input({});
  all.kernels[0].verdict = detect::Verdict::Clean;
  all.kernels[0].launches.judged = 12;
  all.kernels[0].launches.outOfBounds = 3;
  KernelFindings unjudged(&program, "scan");
  unjudged.verdict = detect::Verdict::Inconclusive;
  unjudged.launches.tooCostly = 5;
  unjudged.launches.nonTerminating = 2;
  unjudged.cause = "kernel 'scan' does not terminate under this launch";
  all.kernels.push_back(unjudged);
  KernelFindings broken;
  broken.file = "broken.cu";
  broken.verdict = detect::Verdict::Error;
  broken.cause = "broken.cu:3:1: error: expected expression";
  all.kernels.push_back(broken);
  std::string text = textOf(all);
  EXPECT_NE(text.find(program.path +
                      ": kernel 'reduce': clean (12 launches judged; 3 skipped: 3 out of bounds)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find(program.path +
                      ": kernel 'scan': inconclusive: no launch could be judged (5 too costly, 2 "
                      "non-terminating); first failure: kernel 'scan' does not terminate"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("broken.cu: error: broken.cu:3:1: error: expected expression\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(overallVerdict(all), detect::Verdict::Inconclusive);
}

TEST_F(TextReport, OverallVerdictFollowsTheExitStatusRule) {
  auto kernel = [&](detect::Verdict verdict) {
    KernelFindings k(&program, "k");
    k.verdict = verdict;
    return k;
  };
  using detect::Verdict;
  auto overall = [&](std::vector<Verdict> verdicts) {
    ReportInput in;
    for (Verdict v : verdicts)
      in.kernels.push_back(kernel(v));
    return overallVerdict(in);
  };
  EXPECT_EQ(overall({Verdict::Clean, Verdict::Clean}), Verdict::Clean);
  EXPECT_EQ(overall({Verdict::Clean, Verdict::Findings, Verdict::Error}), Verdict::Findings);
  EXPECT_EQ(overall({Verdict::Error, Verdict::Error}), Verdict::Error);
  EXPECT_EQ(overall({Verdict::Clean, Verdict::Error}), Verdict::Inconclusive);
  EXPECT_EQ(overall({Verdict::Clean, Verdict::Inconclusive}), Verdict::Inconclusive);
}

TEST_F(TextReport, SummaryCountsWarningsNotesAndKinds) {
  std::string text =
      textOf(input({race(), race(), barrierFinding(detect::FindingKind::RedundantBarrier),
                    barrierFinding(detect::FindingKind::UnreachedBarrier)}));
  std::string last = text.substr(text.rfind('\n', text.size() - 2) + 1);
  EXPECT_EQ(last, "3 warnings, 1 note (2 data-race, 1 redundant-barrier, 1 unreached-barrier)\n");
}

TEST_F(TextReport, ColourOnlyWhenAsked) {
  EXPECT_EQ(textOf(input({race()})).find('\033'), std::string::npos);
  ReportOptions options;
  options.color = true;
  std::string text = textOf(input({race()}), options);
  EXPECT_NE(text.find("\033[1;35mwarning:\033[0m"), std::string::npos) << text;
  EXPECT_NE(text.find("\033[1mkernel.cu:14:23:\033[0m"), std::string::npos) << text;
}

TEST_F(TextReport, SeveralKernelsNameTheirKernelInTheLaunchNote) {
  ReportInput both = input({race()});
  both.kernels.push_back(KernelFindings{&program, "scan", {outOfBounds()}});
  std::string text = textOf(both);
  EXPECT_NE(text.find("note: in kernel 'reduce', exposed by launch"), std::string::npos) << text;
  EXPECT_NE(text.find("note: in kernel 'scan', exposed by launch"), std::string::npos) << text;
}

// Without debug info a site is named by its function and LLVM text.
TEST_F(TextReport, WithoutDebugInfoFallsBackToFunctionAndInstructionText) {
  program.context = std::make_unique<llvm::LLVMContext>();
  llvm::SMDiagnostic diagnostic;
  program.module =
      llvm::parseAssemblyString("define void @_Z6reducePfi(ptr addrspace(3) %p, float %v) {\n"
                                "  store float %v, ptr addrspace(3) %p, align 4\n"
                                "  %x = load float, ptr addrspace(3) %p, align 4\n"
                                "  ret void\n"
                                "}\n",
                                diagnostic, *program.context);
  ASSERT_TRUE(program.module);
  llvm::BasicBlock &entry = program.module->getFunction("_Z6reducePfi")->getEntryBlock();
  auto it = entry.begin();
  program.instructions[kStore] = ir::InstructionInfo{{}, 0, &*it++};
  program.instructions[kLoad] = ir::InstructionInfo{{}, 0, &*it};
  program.path = "kernel.ll";

  std::string text = textOf(input({race()}));
  EXPECT_NE(
      text.find("kernel.ll: function 'reduce': store float %v, ptr addrspace(3) %p, align 4: "
                "warning: data race on shared 'partial' between write at function 'reduce': "
                "store float %v, ptr addrspace(3) %p, align 4 (thread (5,0,0) block (0,0,0)) "
                "and read at function 'reduce': %x = load float, ptr addrspace(3) %p, align 4"),
      std::string::npos)
      << text;
  EXPECT_EQ(text.find(" | "), std::string::npos) << text;
}

using SourceFiles = ReportFixture;

TEST_F(SourceFiles, RelativeFileResolvesAgainstItsDirectory) {
  EXPECT_EQ(findSourceFile(at(1, 1)), directory / "kernel.cu");
}

TEST_F(SourceFiles, RelativeFileFallsBackToTheCurrentDirectory) {
  std::filesystem::path relative =
      std::filesystem::relative(directory / "kernel.cu", std::filesystem::current_path());
  ir::SourceLocation location{relative.string(), "/nonexistent/dir", 1, 1};
  EXPECT_EQ(findSourceFile(location), relative);
}

TEST_F(SourceFiles, AbsoluteFileIgnoresTheDirectory) {
  ir::SourceLocation location{(directory / "kernel.cu").string(), "/nonexistent/dir", 1, 1};
  EXPECT_EQ(findSourceFile(location), directory / "kernel.cu");
  location.file = "/nonexistent/kernel.cu";
  EXPECT_TRUE(findSourceFile(location).empty());
}

TEST_F(SourceFiles, CacheReturnsTheRequestedLineOrNothing) {
  SourceCache cache;
  EXPECT_EQ(cache.line(at(16, 1)), "    __syncthreads();");
  EXPECT_EQ(cache.line(at(21, 1)), std::nullopt);
  EXPECT_EQ(cache.line(at(0, 0)), std::nullopt);
}

TEST(FindingText, CoordinatesAreXFastest) {
  interp::Dim3 shape{4, 3, 2};
  EXPECT_EQ(formatCoordinates(coordinatesOf(0, shape)), "(0,0,0)");
  EXPECT_EQ(formatCoordinates(coordinatesOf(5, shape)), "(1,1,0)");
  EXPECT_EQ(formatCoordinates(coordinatesOf(23, shape)), "(3,2,1)");
}

} // namespace
} // namespace simulee::report::testing
