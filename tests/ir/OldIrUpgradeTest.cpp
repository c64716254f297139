// Old LLVM IR (clang 3.x dialect) rewritten into what LLVM 19 reads: each
// rewrite on its own, whole old files loaded and run, and the errors of what
// cannot be upgraded.
#include "ir/OldIrUpgrade.h"
#include "interp/Interpreter.h"
#include "ir/Loader.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <sstream>

using namespace simulee;

namespace {

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

std::string rewritten(const std::string &text) { return ir::rewriteOldIr(text).text; }

std::string corpusFile(const std::string &name) {
  std::ifstream in(std::string(SIMULEE_SOURCE_DIR) + "/corpus/" + name);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(OldIrRewrite, LoadAndGetElementPtrGainTheirExplicitType) {
  EXPECT_EQ(rewritten("  %1 = load i32* %p, align 4\n"), "  %1 = load i32, i32* %p, align 4\n");
  EXPECT_EQ(rewritten("  %1 = load volatile float addrspace(3)* %p\n"),
            "  %1 = load volatile float, float addrspace(3)* %p\n");
  EXPECT_EQ(rewritten("  %2 = load i32** %a\n"), "  %2 = load i32*, i32** %a\n");
  EXPECT_EQ(
      rewritten("  %3 = getelementptr inbounds [64 x i32] addrspace(3)* @s, i32 0, i64 %i\n"),
      "  %3 = getelementptr inbounds [64 x i32], [64 x i32] addrspace(3)* @s, i32 0, i64 %i\n");
  // A constant expression inside a load: both rewritten.
  EXPECT_EQ(rewritten("  %0 = load i32* getelementptr inbounds (%struct.dim3* @threadIdx, i64 0, "
                      "i32 0), align 4\n"),
            "  %0 = load i32, i32* getelementptr inbounds (%struct.dim3, %struct.dim3* "
            "@threadIdx, i64 0, i32 0), align 4\n");
  // Today's syntax is left alone.
  EXPECT_EQ(rewritten("  %1 = load i32, ptr %p\n"), "  %1 = load i32, ptr %p\n");
  EXPECT_EQ(rewritten("  %1 = getelementptr i8, ptr %p, i64 1\n"),
            "  %1 = getelementptr i8, ptr %p, i64 1\n");
}

TEST(OldIrRewrite, CallsNameTheFunctionTypeNotAPointerToIt) {
  EXPECT_EQ(rewritten("  %1 = call i32 (i8*, ...)* @printf(i8* %f)\n"),
            "  %1 = call i32 (i8*, ...) @printf(i8* %f)\n");
  EXPECT_EQ(rewritten("  call void @f(i32 1)\n"), "  call void @f(i32 1)\n");
}

TEST(OldIrRewrite, MetadataKeywordDebugCallsAndAttachments) {
  std::string text = rewritten("  call void @llvm.dbg.declare(metadata !{i32* %x}, metadata !7), "
                               "!dbg !8\n"
                               "  store i32 0, i32* %x, align 4, !dbg !8, !tbaa !3\n"
                               "!8 = metadata !{i32 5, i32 3, metadata !9, null}\n"
                               "!llvm.dbg.cu = !{!0}\n"
                               "!nvvm.annotations = !{!1}\n");
  EXPECT_FALSE(contains(text, "llvm.dbg.declare")) << text;
  EXPECT_FALSE(contains(text, "!tbaa")) << text;
  EXPECT_FALSE(contains(text, "llvm.dbg.cu")) << text;
  EXPECT_TRUE(contains(text, "store i32 0, i32* %x, align 4, !simulee.oldloc !8\n")) << text;
  EXPECT_TRUE(contains(text, "!8 = !{i32 5, i32 3, !9, null}\n")) << text;
  EXPECT_TRUE(contains(text, "!nvvm.annotations = !{!1}\n")) << text;
}

TEST(OldIrRewrite, SingleOrderingCmpXchgBecomesPairAndValue) {
  EXPECT_EQ(rewritten("  %old = cmpxchg i32* %p, i32 0, i32 1 seq_cst\n"),
            "  %old.pair = cmpxchg i32* %p, i32 0, i32 1 seq_cst seq_cst\n"
            "  %old = extractvalue { i32, i1 } %old.pair, 0\n");
  EXPECT_EQ(rewritten("  %o = cmpxchg i64* %p, i64 %a, i64 %b acq_rel\n"),
            "  %o.pair = cmpxchg i64* %p, i64 %a, i64 %b acq_rel acquire\n"
            "  %o = extractvalue { i64, i1 } %o.pair, 0\n");
}

TEST(OldIrRewrite, StringsAreNeverRewritten) {
  std::string line = "@s = constant [20 x i8] c\"load i32* %p metadata !x\"\n";
  EXPECT_EQ(rewritten(line), line);
}

TEST(OldIrRewrite, UndefinedAttributeGroupsAreDropped) {
  EXPECT_EQ(rewritten("declare void @f() #1\n"), "declare void @f()\n");
  std::string defined = "declare void @f() #1\nattributes #1 = { nounwind }\n";
  EXPECT_EQ(rewritten(defined), defined);
}

TEST(OldIr, LooksOldOnlyWithOldSyntax) {
  EXPECT_TRUE(ir::looksLikeOldIr("!0 = metadata !{i32 1}"));
  EXPECT_TRUE(ir::looksLikeOldIr("  %1 = load i32* %p"));
  EXPECT_TRUE(ir::looksLikeOldIr("  %1 = getelementptr inbounds i32* %p, i64 1"));
  EXPECT_FALSE(ir::looksLikeOldIr("  %1 = load i32, ptr %p"));
  EXPECT_FALSE(ir::looksLikeOldIr("define void @f() {\n  ret void\n}"));
}

// The clang 3.2 NVPTX-dialect reduction of the corpus: it loads, keeps its
// source lines, and runs to the host's answer.
TEST(OldIr, Clang32ReductionLoadsWithSourceLinesAndSums) {
  Result<ir::Program> program =
      ir::loadProgramFromIR(corpusFile("old_reduce_nvptx.ll"), "old_reduce_nvptx.ll");
  ASSERT_TRUE(program.ok()) << program.error().message;
  const ir::KernelInfo *kernel = program->findKernel("reduceSynced");
  ASSERT_NE(kernel, nullptr);
  EXPECT_TRUE(kernel->unsupported.empty()) << kernel->unsupported;
  EXPECT_TRUE(kernel->notes.empty());
  EXPECT_EQ(kernel->barrierInstructions.size(), 2u);
  bool line21 = false;
  for (const ir::InstructionInfo &info : program->instructions)
    line21 = line21 || (info.location.line == 21 && info.location.file == "old_reduce.cu");
  EXPECT_TRUE(line21);

  std::vector<int32_t> in(256), out(2, 0);
  for (int i = 0; i < 256; ++i)
    in[i] = i % 17 - 5;
  std::vector<interp::ArgumentValue> args(2);
  args[0] = interp::ArgumentValue::buffer(std::vector<uint8_t>(
      reinterpret_cast<uint8_t *>(in.data()), reinterpret_cast<uint8_t *>(in.data() + 256)));
  args[1] = interp::ArgumentValue::buffer(std::vector<uint8_t>(8, 0));
  interp::LaunchConfig config;
  config.grid = {2, 1, 1};
  config.block = {128, 1, 1};
  Result<interp::RunStats> stats = interp::runKernel(*program, *kernel, config, args);
  ASSERT_TRUE(stats.ok()) << stats.error().message;
  std::memcpy(out.data(), args[1].bytes.data(), 8);
  for (int b = 0; b < 2; ++b) {
    int32_t want = 0;
    for (int i = 0; i < 128; ++i)
      want += in[b * 128 + i];
    EXPECT_EQ(out[b], want) << "block " << b;
  }
}

TEST(OldIr, GkleeStyleSharedSectionMovesToSharedMemory) {
  Result<ir::Program> program =
      ir::loadProgramFromIR(corpusFile("old_reduce_gklee.ll"), "old_reduce_gklee.ll");
  ASSERT_TRUE(program.ok()) << program.error().message;
  ASSERT_EQ(program->sharedVariables.size(), 2u);
  EXPECT_TRUE(program->globalVariables.empty());
  EXPECT_NE(program->findKernel("sumRacy"), nullptr);
}

TEST(OldIr, DebugInfoWithoutSourceFileIsDroppedWithANote) {
  const char *text = R"IR(
target triple = "nvptx64-nvidia-cuda"
define void @k(i32* %p) nounwind {
  %1 = load i32* %p, align 4, !dbg !1
  store i32 %1, i32* %p, align 4, !dbg !1
  ret void
}
!nvvm.annotations = !{!0}
!0 = metadata !{void (i32*)* @k, metadata !"kernel", i32 1}
!1 = metadata !{i32 4, i32 2, metadata !2, null}
!2 = metadata !{i32 786478}
)IR";
  Result<ir::Program> program = ir::loadProgramFromIR(text, "k.ll");
  ASSERT_TRUE(program.ok()) << program.error().message;
  const ir::KernelInfo *kernel = program->findKernel("k");
  ASSERT_NE(kernel, nullptr);
  ASSERT_EQ(kernel->notes.size(), 1u);
  EXPECT_TRUE(
      contains(kernel->notes[0], "debug information could not be upgraded and was dropped"));
}

TEST(OldIr, OldIntrinsicsBecomeNvvmOnes) {
  const char *text = R"IR(
target triple = "nvptx64-nvidia-cuda"
@s = internal addrspace(3) global [32 x i32] zeroinitializer
define void @k(i32* %out) nounwind {
  %t = call i32 @llvm.ptx.read.tid.x()
  %i = zext i32 %t to i64
  %slot = getelementptr inbounds [32 x i32] addrspace(3)* @s, i32 0, i64 %i
  store i32 %t, i32 addrspace(3)* %slot
  call void @llvm.ptx.bar.sync(i32 0)
  %o = getelementptr inbounds i32* %out, i64 %i
  store i32 %t, i32* %o
  ret void
}
declare i32 @llvm.ptx.read.tid.x()
declare void @llvm.ptx.bar.sync(i32)
!nvvm.annotations = !{!0}
!0 = metadata !{void (i32*)* @k, metadata !"kernel", i32 1}
)IR";
  Result<ir::Program> program = ir::loadProgramFromIR(text, "k.ll");
  ASSERT_TRUE(program.ok()) << program.error().message;
  const ir::KernelInfo *kernel = program->findKernel("k");
  ASSERT_NE(kernel, nullptr);
  EXPECT_TRUE(kernel->unsupported.empty()) << kernel->unsupported;
  EXPECT_EQ(kernel->barrierInstructions.size(), 1u);
  std::vector<interp::ArgumentValue> args = {
      interp::ArgumentValue::buffer(std::vector<uint8_t>(32 * 4, 0))};
  interp::LaunchConfig config;
  config.block = {32, 1, 1};
  ASSERT_TRUE(interp::runKernel(*program, *kernel, config, args).ok());
  int32_t last = 0;
  std::memcpy(&last, args[0].bytes.data() + 31 * 4, 4);
  EXPECT_EQ(last, 31);
}

TEST(OldIr, WhatStillDoesNotParseIsAClearError) {
  Result<ir::Program> program = ir::loadProgramFromIR(
      "define void @k(i32* %p) {\n  %1 = load i32* %p\n  %2 = bogus\n}\n", "bad.ll");
  ASSERT_FALSE(program.ok());
  EXPECT_TRUE(contains(program.error().message,
                       "bad.ll: cannot parse LLVM IR of an old release (after upgrading its "
                       "syntax)"))
      << program.error().message;
  // New IR that is merely broken says nothing of old releases.
  Result<ir::Program> modern = ir::loadProgramFromIR("define void @k() {\n  bogus\n}\n", "new.ll");
  ASSERT_FALSE(modern.ok());
  EXPECT_TRUE(contains(modern.error().message, "new.ll: cannot parse LLVM IR:"))
      << modern.error().message;
}

// Bitcode written by LLVM 14 with typed pointers (tests/ir/inputs/
// typed_pointers_llvm14.ll, assembled by llvm-as-14) goes through LLVM 19's
// own bitcode upgrader.
TEST(OldIr, TypedPointerBitcodeOfAnOlderLlvmLoadsAndRuns) {
  Result<ir::Program> program = ir::loadProgram(std::string(SIMULEE_SOURCE_DIR) +
                                                "/tests/ir/inputs/typed_pointers_llvm14.bc");
  ASSERT_TRUE(program.ok()) << program.error().message;
  const ir::KernelInfo *kernel = program->findKernel("shiftLeft");
  ASSERT_NE(kernel, nullptr);
  ASSERT_EQ(program->sharedVariables.size(), 1u);
  std::vector<int32_t> in(64);
  for (int i = 0; i < 64; ++i)
    in[i] = 100 + i;
  std::vector<interp::ArgumentValue> args(2);
  args[0] = interp::ArgumentValue::buffer(std::vector<uint8_t>(
      reinterpret_cast<uint8_t *>(in.data()), reinterpret_cast<uint8_t *>(in.data() + 64)));
  args[1] = interp::ArgumentValue::buffer(std::vector<uint8_t>(64 * 4, 0));
  interp::LaunchConfig config;
  config.block = {64, 1, 1};
  ASSERT_TRUE(interp::runKernel(*program, *kernel, config, args).ok());
  std::vector<int32_t> out(64);
  std::memcpy(out.data(), args[1].bytes.data(), 64 * 4);
  // Inside a warp the store precedes the load; across warps it races.
  for (int t = 0; t < 31; ++t)
    EXPECT_EQ(out[t], in[t + 1]) << t;
}

TEST(OldIr, DamagedBitcodeIsAClearError) {
  std::string bitcode = "BC\xC0\xDE";
  bitcode += std::string(64, '\x01');
  Result<ir::Program> program = ir::loadProgramFromIR(bitcode, "old.bc");
  ASSERT_FALSE(program.ok());
  EXPECT_TRUE(contains(program.error().message, "old.bc: cannot read LLVM bitcode"))
      << program.error().message;
}

} // namespace
