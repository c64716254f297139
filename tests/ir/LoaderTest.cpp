// Loading: legacy research-tool IR (thread ids in external globals, barriers
// as calls to @__syncthreads), bitcode files, kernel discovery and names.
#include "interp/Interpreter.h"
#include "ir/Loader.h"

#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/raw_ostream.h>

#include <gtest/gtest.h>

#include <cstring>

using namespace simulee;

namespace {

// out[t] = in[blockDim.x - 1 - t] through a shared buffer, x86-style IR as
// older GPU research tools produce it.
const char *kLegacyReverse = R"IR(
target triple = "x86_64-unknown-linux-gnu"
%struct.dim3 = type { i32, i32, i32 }
@threadIdx = external global %struct.dim3
@blockDim = external global %struct.dim3
@buf = internal addrspace(3) global [64 x i32] zeroinitializer

declare void @__syncthreads()

define void @reverse(ptr %in, ptr %out) {
entry:
  %tid = load i32, ptr @threadIdx
  %dim = load i32, ptr @blockDim
  %tidy = load i32, ptr getelementptr (%struct.dim3, ptr @threadIdx, i32 0, i32 1)
  %idx = zext i32 %tid to i64
  %src = getelementptr i32, ptr %in, i64 %idx
  %v = load i32, ptr %src
  %slot = getelementptr [64 x i32], ptr addrspace(3) @buf, i64 0, i64 %idx
  store i32 %v, ptr addrspace(3) %slot
  call void @__syncthreads()
  %last = sub i32 %dim, 1
  %rev = sub i32 %last, %tid
  %ridx = zext i32 %rev to i64
  %rslot = getelementptr [64 x i32], ptr addrspace(3) @buf, i64 0, i64 %ridx
  %w = load i32, ptr addrspace(3) %rslot
  %plus = add i32 %w, %tidy
  %dst = getelementptr i32, ptr %out, i64 %idx
  store i32 %plus, ptr %dst
  ret void
}
)IR";

std::vector<uint8_t> ints(const std::vector<int32_t> &values) {
  std::vector<uint8_t> bytes(values.size() * 4);
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

TEST(LegacyIr, ThreadIdGlobalsAndSyncthreadsCallRunCorrectly) {
  Result<ir::Program> program = ir::loadProgramFromIR(kLegacyReverse, "legacy.ll");
  ASSERT_TRUE(program.ok()) << program.error().message;
  ASSERT_EQ(program->kernels.size(), 1u);
  const ir::KernelInfo &kernel = program->kernels[0];
  EXPECT_EQ(kernel.sourceName, "reverse");
  EXPECT_EQ(kernel.barrierInstructions.size(), 1u);
  EXPECT_TRUE(kernel.readsBuiltin[unsigned(ir::BuiltinVariable::ThreadIdx)][0]);
  EXPECT_TRUE(kernel.readsBuiltin[unsigned(ir::BuiltinVariable::ThreadIdx)][1]);
  EXPECT_TRUE(kernel.readsBuiltin[unsigned(ir::BuiltinVariable::BlockDim)][0]);

  std::vector<int32_t> in(64);
  for (int i = 0; i < 64; ++i)
    in[i] = i * 3;
  std::vector<interp::ArgumentValue> args = {interp::ArgumentValue::buffer(ints(in)),
                                             interp::ArgumentValue::buffer(ints(std::vector<int32_t>(64)))};
  interp::LaunchConfig config;
  config.block = {64, 1, 1};
  Result<interp::RunStats> stats = interp::runKernel(*program, kernel, config, args);
  ASSERT_TRUE(stats.ok()) << stats.error().message;
  std::vector<int32_t> out(64);
  std::memcpy(out.data(), args[1].bytes.data(), 64 * 4);
  for (int t = 0; t < 64; ++t)
    EXPECT_EQ(out[t], in[63 - t]) << "thread " << t;
}

TEST(Loader, BitcodeFileLoadsLikeItsSource) {
  std::string source = std::string(SIMULEE_SOURCE_DIR) + "/tests/interp/kernels/saxpy.cu";
  Result<ir::Program> fromSource = ir::loadProgram(source);
  ASSERT_TRUE(fromSource.ok()) << fromSource.error().message;

  llvm::SmallString<128> path;
  int fd = -1;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("simulee-test", "bc", fd, path));
  {
    llvm::raw_fd_ostream out(fd, /*shouldClose=*/true);
    llvm::WriteBitcodeToFile(*fromSource->module, out);
  }
  Result<ir::Program> fromBitcode = ir::loadProgram(path.str().str());
  llvm::sys::fs::remove(path);
  ASSERT_TRUE(fromBitcode.ok()) << fromBitcode.error().message;
  ASSERT_EQ(fromBitcode->kernels.size(), fromSource->kernels.size());
  EXPECT_EQ(fromBitcode->kernels[0].name, fromSource->kernels[0].name);
  EXPECT_EQ(fromBitcode->kernels[0].params.size(), fromSource->kernels[0].params.size());
}

TEST(Loader, KernelIsFoundBySourceAndMangledName) {
  Result<ir::Program> program =
      ir::loadProgram(std::string(SIMULEE_SOURCE_DIR) + "/tests/interp/kernels/saxpy.cu");
  ASSERT_TRUE(program.ok()) << program.error().message;
  const ir::KernelInfo &kernel = program->kernels[0];
  EXPECT_NE(kernel.name, kernel.sourceName); // C++ mangling
  EXPECT_EQ(program->findKernel(kernel.name), &kernel);
  EXPECT_EQ(program->findKernel(kernel.sourceName), &kernel);
  EXPECT_EQ(program->findKernel("noSuchKernel"), nullptr);
}

TEST(Loader, ParameterNamesAndElementTypesComeFromDebugInfo) {
  Result<ir::Program> program = ir::loadProgramFromCuda(
      "__global__ void k(const double *values, unsigned count, float *out) {}\n", "k.cu");
  ASSERT_TRUE(program.ok()) << program.error().message;
  const ir::KernelInfo &kernel = program->kernels[0];
  ASSERT_EQ(kernel.params.size(), 3u);
  EXPECT_EQ(kernel.params[0].name, "values");
  EXPECT_EQ(kernel.params[0].kind, ir::ValueKind::Pointer);
  EXPECT_EQ(kernel.params[0].elementKind, ir::ValueKind::Float);
  EXPECT_EQ(kernel.params[0].elementBytes, 8u);
  EXPECT_TRUE(kernel.params[0].isConst);
  EXPECT_EQ(kernel.params[1].name, "count");
  EXPECT_EQ(kernel.params[1].kind, ir::ValueKind::Int);
  EXPECT_FALSE(kernel.params[1].isSigned);
  EXPECT_EQ(kernel.params[2].elementBytes, 4u);
}

TEST(Loader, PointersInsideAByValueStructAreFoundWithNamesAndPointeeTypes) {
  Result<ir::Program> program = ir::loadProgramFromCuda(
      "struct Base { const double *weights; };\n"
      "struct Grid : Base { int rows; float *cells[2]; struct { int *ids; } index; };\n"
      "__global__ void k(Grid g, int n) { g.cells[1][n] = g.index.ids[n]; }\n",
      "members.cu");
  ASSERT_TRUE(program.ok()) << program.error().message;
  const ir::ParamInfo &grid = program->kernels[0].params[0];
  EXPECT_EQ(grid.kind, ir::ValueKind::Aggregate);
  ASSERT_EQ(grid.pointerMembers.size(), 4u);
  EXPECT_EQ(grid.pointerMembers[0].offset, 0u);
  EXPECT_EQ(grid.pointerMembers[0].name, "weights"); // from the base class
  EXPECT_EQ(grid.pointerMembers[0].elementKind, ir::ValueKind::Float);
  EXPECT_EQ(grid.pointerMembers[0].elementBytes, 8u);
  EXPECT_TRUE(grid.pointerMembers[0].isConst);
  EXPECT_EQ(grid.pointerMembers[1].offset, 16u); // after rows and padding
  EXPECT_EQ(grid.pointerMembers[2].offset, 24u); // array elements: their offsets
  EXPECT_EQ(grid.pointerMembers[2].name, "cells[1]");
  EXPECT_EQ(grid.pointerMembers[2].elementBytes, 4u);
  EXPECT_EQ(grid.pointerMembers[3].name, "index.ids");
  EXPECT_EQ(grid.pointerMembers[3].elementKind, ir::ValueKind::Int);
  EXPECT_TRUE(program->kernels[0].params[1].pointerMembers.empty());
  EXPECT_FALSE(program->kernels[0].library);
  // The named numbers beside them: rows (int), searched like scalars.
  ASSERT_EQ(grid.scalarMembers.size(), 1u);
  EXPECT_EQ(grid.scalarMembers[0].name, "rows");
  EXPECT_EQ(grid.scalarMembers[0].offset, 8u);
  EXPECT_EQ(grid.scalarMembers[0].kind, ir::ValueKind::Int);
  EXPECT_EQ(grid.scalarMembers[0].bits, 32u);
}

// The structs a pointer (or a reference) points to, and the pointers a
// pointer to pointers points to, hold the host's pointers: each is a member
// with its offset in one element, so that a launch backs it with memory.
TEST(Loader, PointersInsideTheStructsAPointerParameterPointsToAreFound) {
  Result<ir::Program> program = ir::loadProgramFromCuda(
      "struct Node { int count; const float *weights; struct { int *ids[2]; } index; };\n"
      "struct Virtual { __device__ virtual void f() {} float *data; };\n"
      "__device__ void use(Virtual *v) { Virtual made; *v = made; }\n"
      "__global__ void k(Node *nodes, Node &one, float **rows, Virtual *v, int *plain) {\n"
      "  rows[0][0] = nodes[1].weights[0] + one.index.ids[1][0] + v->data[0] + plain[0];\n"
      "}\n",
      "pointee.cu");
  ASSERT_TRUE(program.ok()) << program.error().message;
  const std::vector<ir::ParamInfo> &params = program->kernels[0].params;
  for (const ir::ParamInfo *node : {&params[0], &params[1]}) {
    EXPECT_EQ(node->kind, ir::ValueKind::Pointer);
    EXPECT_EQ(node->elementKind, ir::ValueKind::Aggregate);
    EXPECT_EQ(node->elementBytes, 32u);
    ASSERT_EQ(node->pointerMembers.size(), 3u);
    EXPECT_EQ(node->pointerMembers[0].offset, 8u);
    EXPECT_EQ(node->pointerMembers[0].name, "weights");
    EXPECT_EQ(node->pointerMembers[0].elementKind, ir::ValueKind::Float);
    EXPECT_TRUE(node->pointerMembers[0].isConst);
    EXPECT_EQ(node->pointerMembers[2].offset, 24u);
    EXPECT_EQ(node->pointerMembers[2].name, "index.ids[1]");
    EXPECT_EQ(node->pointerMembers[2].elementBytes, 4u);
    EXPECT_TRUE(node->scalarMembers.empty()); // its numbers are buffer contents
  }
  ASSERT_EQ(params[2].pointerMembers.size(), 1u);
  EXPECT_EQ(params[2].elementKind, ir::ValueKind::Pointer);
  EXPECT_EQ(params[2].pointerMembers[0].offset, 0u);
  EXPECT_EQ(params[2].pointerMembers[0].name, "[]");
  EXPECT_EQ(params[2].pointerMembers[0].elementKind, ir::ValueKind::Float);
  // The virtual table pointer is the compiler's: only `data` is a member.
  ASSERT_EQ(params[3].pointerMembers.size(), 1u);
  EXPECT_EQ(params[3].pointerMembers[0].name, "data");
  EXPECT_EQ(params[3].pointerMembers[0].offset, 8u);
  EXPECT_TRUE(params[4].pointerMembers.empty());
}

// A class is described in clang's debug info only where its constructor is
// compiled unless simulee asks for every layout: a parameter struct built on
// the host (its constructor never in device code) kept no member names.
TEST(Loader, MembersOfAStructWithAHostConstructorAreNamed) {
  Result<ir::Program> program = ir::loadProgramFromCuda(
      "template <typename T> struct Store {\n"
      "  Store(T *out, long long rowSize) : out(out), rowSize(rowSize) {}\n"
      "  __device__ void put(long long row, long long col, T v) { out[row * rowSize + col] = v; }\n"
      "  T *out;\n"
      "  long long rowSize;\n"
      "};\n"
      "template <typename S> __global__ void k(S store, int cols) {\n"
      "  store.put(threadIdx.y, threadIdx.x % cols, 1.0f);\n"
      "}\n"
      "template __global__ void k<Store<float>>(Store<float>, int);\n",
      "homing.cu");
  ASSERT_TRUE(program.ok()) << program.error().message;
  const ir::ParamInfo &store = program->kernels[0].params[0];
  ASSERT_EQ(store.pointerMembers.size(), 1u);
  EXPECT_EQ(store.pointerMembers[0].name, "out");
  EXPECT_EQ(store.pointerMembers[0].elementKind, ir::ValueKind::Float);
  ASSERT_EQ(store.scalarMembers.size(), 1u);
  EXPECT_EQ(store.scalarMembers[0].name, "rowSize");
  EXPECT_EQ(store.scalarMembers[0].bits, 64u);
}

TEST(Loader, InlinedFunctionParametersDoNotRenameKernelParameters) {
  Result<ir::Program> program = ir::loadProgramFromCuda(
      "__device__ __forceinline__ int twice(int value) { return 2 * value; }\n"
      "__global__ void k(const int *in, int *out) { out[0] = twice(in[0]); }\n",
      "inl.cu");
  ASSERT_TRUE(program.ok()) << program.error().message;
  ASSERT_EQ(program->kernels[0].params.size(), 2u);
  EXPECT_EQ(program->kernels[0].params[0].name, "in");
  EXPECT_EQ(program->kernels[0].params[1].name, "out");
}

TEST(Loader, RegisterVariablesCompileAsNvccCompilesThem) {
  // `register` is gone from C++17, which clang then refuses; nvcc accepts
  // it, and course code (its host helpers above all) still writes it.
  Result<ir::Program> program = ir::loadProgramFromCuda(
      "float sumOnHost(const float *v, int n) {\n"
      "  register float sum = 0;\n"
      "  for (register int i = 0; i < n; ++i) sum += v[i];\n"
      "  return sum;\n"
      "}\n"
      "__global__ void k(int *out) { register int i = threadIdx.x; out[i] = i; }\n",
      "register.cu");
  ASSERT_TRUE(program.ok()) << program.error().message;
  EXPECT_EQ(program->kernels.size(), 1u);
}

TEST(Loader, CompileErrorCarriesClangDiagnosticsWithTheGivenName) {
  Result<ir::Program> program =
      ir::loadProgramFromCuda("__global__ void k(int *p) { p[0] = undeclared; }\n", "broken.cu");
  ASSERT_FALSE(program.ok());
  EXPECT_NE(program.error().message.find("broken.cu"), std::string::npos);
  EXPECT_NE(program.error().message.find("undeclared"), std::string::npos);
}

TEST(Loader, AKernelWhoseBodyIsLeftOutForItsArchitectureCannotBeAnalysed) {
  // Device code is compiled for sm_80: a body only newer GPUs run compiles
  // to nothing, and a launch of it would look clean.
  Result<ir::Program> program = ir::loadProgramFromCuda("__global__ void newer(int *out) {\n"
                                                        "  // { a brace in a comment\n"
                                                        "#if __CUDA_ARCH__ >= 900\n"
                                                        "  out[threadIdx.x] = 1;\n"
                                                        "#endif\n"
                                                        "}\n"
                                                        "__global__ void either(int *out) {\n"
                                                        "#if __CUDA_ARCH__ >= 900\n"
                                                        "  out[threadIdx.x] = 1;\n"
                                                        "#else\n"
                                                        "  out[threadIdx.x] = 2;\n"
                                                        "#endif\n"
                                                        "}\n"
                                                        "__global__ void ampere(int *out) {\n"
                                                        "#if __CUDA_ARCH__ >= 800\n"
                                                        "  out[threadIdx.x] = 1;\n"
                                                        "#endif\n"
                                                        "}\n"
                                                        "__global__ void nothing(int *) {}\n",
                                                        "arch.cu");
  ASSERT_TRUE(program.ok()) << program.error().message;
  const ir::KernelInfo *newer = program->findKernel("_Z5newerPi");
  ASSERT_NE(newer, nullptr);
  EXPECT_NE(newer->unsupported.find("compiles to nothing for sm_80"), std::string::npos)
      << newer->unsupported;
  EXPECT_NE(newer->unsupported.find(":3 "), std::string::npos) << newer->unsupported;
  // A body with code for sm_80 (the architecture exec's device reports),
  // and one empty as written, are the kernels' own.
  for (const char *name : {"_Z6eitherPi", "_Z6amperePi", "_Z7nothingPi"}) {
    const ir::KernelInfo *kernel = program->findKernel(name);
    ASSERT_NE(kernel, nullptr) << name;
    EXPECT_EQ(kernel->unsupported, "") << name;
  }
}

} // namespace
