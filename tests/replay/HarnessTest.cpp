// The generated harness: how it names the kernel (plain, mangled, template
// instance, overload), what it embeds (launch, scalar bits, buffers, resets
// of __device__ variables), and that nvcc builds it with no GPU present.
#include "ReplayTestSupport.h"

#include "replay/Harness.h"
#include "session/Arguments.h"

#include <gtest/gtest.h>

namespace simulee::replay_test {
namespace {

using replay::harnessSource;
using replay::kernelExpression;

const ir::KernelInfo &kernelOf(const ir::Program &program, const std::string &name) {
  const ir::KernelInfo *kernel = program.findKernel(name);
  EXPECT_NE(kernel, nullptr) << name;
  static ir::KernelInfo none;
  return kernel ? *kernel : none;
}

TEST(KernelExpression, ExternCKernelIsNamedByItsSymbol) {
  ir::KernelInfo kernel;
  kernel.name = kernel.sourceName = "count_launch";
  EXPECT_EQ(*kernelExpression(kernel), "count_launch");
}

TEST(KernelExpression, CppKernelIsCastToItsDemangledSignature) {
  ir::KernelInfo kernel;
  kernel.name = "_Z18reduce_interleavedPKfPfi";
  EXPECT_EQ(*kernelExpression(kernel),
            "static_cast<void (*)(float const*, float*, int)>(&reduce_interleaved)");
}

TEST(KernelExpression, TemplateInstanceNamesItsArguments) {
  ir::KernelInfo kernel;
  kernel.name = "_Z5scaleIjLi2EEvPT_i";
  EXPECT_EQ(*kernelExpression(kernel),
            "static_cast<void (*)(unsigned int*, int)>(&scale<unsigned int, 2>)");
}

TEST(KernelExpression, NamespacesStayAndAnonymousOnesGo) {
  ir::KernelInfo kernel;
  kernel.name = "_ZN2ns1kEP8Particled";
  EXPECT_EQ(*kernelExpression(kernel), "static_cast<void (*)(Particle*, double)>(&ns::k)");
  kernel.name = "_ZN12_GLOBAL__N_16kernelEPi";
  EXPECT_EQ(*kernelExpression(kernel), "static_cast<void (*)(int*)>(&kernel)");
}

TEST(KernelExpression, UndemangleableSymbolIsAnError) {
  ir::KernelInfo kernel;
  kernel.name = "_Zgarbage";
  Result<std::string> expression = kernelExpression(kernel);
  ASSERT_FALSE(expression.ok());
  EXPECT_TRUE(contains(expression.error().message, "_Zgarbage"));
}

replay::HarnessInput inputFor(const ir::Program &program, const ir::KernelInfo &kernel,
                              interp::Dim3 grid, interp::Dim3 block,
                              const std::vector<session::ArgumentSpec> &args) {
  replay::HarnessInput input;
  input.sourcePath = program.path;
  input.kernel = &kernel;
  input.config.grid = grid;
  input.config.block = block;
  Result<session::BuiltArguments> built =
      session::buildArguments(kernel, input.config, args, /*seed=*/1);
  EXPECT_TRUE(built.ok());
  if (built)
    input.arguments = built->values;
  return input;
}

TEST(HarnessSource, EmbedsTheLaunchTheScalarsAndTheSource) {
  const ir::Program &program = programFor("tests/replay/kernels/extern_c.cu");
  const ir::KernelInfo &kernel = kernelOf(program, "count_launch");
  replay::HarnessInput input = inputFor(program, kernel, {3, 1, 1}, {64, 2, 1},
                                        {{"seen", "zeros:2"}, {"scale", "1.5"}, {"offset", "-3"}});
  input.config.dynamicSharedBytes = 256;
  input.deviceVariables.push_back({"launches", {5, 0, 0, 0}});
  Result<std::string> source = harnessSource(input);
  ASSERT_TRUE(source.ok()) << source.error().message;
  EXPECT_TRUE(contains(*source, "#define main simulee_replay_source_main\n#include \"" +
                                    program.path + "\"\n#undef main"));
  EXPECT_TRUE(contains(*source, "const dim3 kGrid = dim3(3, 1, 1);"));
  EXPECT_TRUE(contains(*source, "const dim3 kBlock = dim3(64, 2, 1);"));
  EXPECT_TRUE(contains(*source, "const size_t kSharedBytes = 256;"));
  EXPECT_TRUE(contains(*source, "#define kKernel (count_launch)"));
  EXPECT_TRUE(contains(*source, "{\"seen\", kBuffer, 8, 0x0ull, 0}"));
  EXPECT_TRUE(contains(*source, "{\"scale\", kScalar, 8, 0x3ff8000000000000ull, 0}"));  // 1.5
  EXPECT_TRUE(contains(*source, "{\"offset\", kScalar, 8, 0xfffffffffffffffdull, 0}")); // -3
  EXPECT_TRUE(contains(*source, "cudaMemcpyToSymbol(::launches, initial, sizeof initial)"));
  EXPECT_TRUE(contains(*source, "static const unsigned char initial[] = {5,0,0,0};"));
}

TEST(HarnessSource, ScalarWidthsComeFromTheKernel) {
  const ir::Program &program = programFor("tests/replay/kernels/templated.cu");
  const ir::KernelInfo &kernel = kernelOf(program, "_Z5tallyP4Pairhi");
  replay::HarnessInput input =
      inputFor(program, kernel, {1, 1, 1}, {32, 1, 1}, {{"flag", "200"}, {"n", "-1"}});
  Result<std::string> source = harnessSource(input);
  ASSERT_TRUE(source.ok()) << source.error().message;
  EXPECT_TRUE(contains(*source, "{\"flag\", kScalar, 1, 0xc8ull, 0}"));
  EXPECT_TRUE(contains(*source, "{\"n\", kScalar, 4, 0xffffffffull, 0}"));
  EXPECT_TRUE(contains(*source, "static_cast<void (*)(Pair*, unsigned char, int)>(&tally)"));
}

TEST(HarnessSource, APointerIntoAnotherParametersBufferIsPassedAsSuch) {
  const ir::Program &program = programFor("tests/replay/kernels/in_place.cu");
  const ir::KernelInfo &kernel = kernelOf(program, "_Z9shiftLeftPiPKii");
  replay::HarnessInput input = inputFor(program, kernel, {1, 1, 1}, {32, 1, 1},
                                        {{"out", "zeros:33"}, {"in", "same:out+1"}, {"n", "32"}});
  Result<std::string> source = harnessSource(input);
  ASSERT_TRUE(source.ok()) << source.error().message;
  EXPECT_TRUE(contains(*source, "{\"out\", kBuffer, 8, 0x0ull, 0}"));
  // 4 bytes into parameter 0's buffer.
  EXPECT_TRUE(contains(*source, "{\"in\", kPointerInto, 8, 0x4ull, 0}"));
}

TEST(HarnessSource, StructByValueIsReadFromItsFile) {
  const ir::Program &program = programFor("tests/replay/kernels/templated.cu");
  const ir::KernelInfo &kernel = kernelOf(program, "_Z5apply4PairPi");
  replay::HarnessInput input = inputFor(program, kernel, {1, 1, 1}, {32, 1, 1}, {});
  Result<std::string> source = harnessSource(input);
  ASSERT_TRUE(source.ok()) << source.error().message;
  EXPECT_TRUE(contains(*source, "{\"pair\", kByValue, 8, 0x0ull, 0}"));
  EXPECT_TRUE(contains(*source, "static_cast<void (*)(Pair, int*)>(&apply)"));
  ASSERT_EQ(input.arguments[0].kind, interp::ArgumentValue::Kind::Buffer);
  EXPECT_EQ(input.arguments[0].bytes.size(), 8u); // what arg0.bin will hold
}

TEST(HarnessSource, ArgumentCountMustMatchTheKernel) {
  const ir::Program &program = programFor("tests/replay/kernels/extern_c.cu");
  replay::HarnessInput input;
  input.sourcePath = program.path;
  input.kernel = &kernelOf(program, "count_launch");
  Result<std::string> source = harnessSource(input);
  ASSERT_FALSE(source.ok());
  EXPECT_TRUE(contains(source.error().message, "3 parameters"));
}

// Builds the harness with the real nvcc into `directory`; the build log on failure.
::testing::AssertionResult buildsWithNvcc(const std::string &source, const TempDir &directory) {
  writeFile(directory.file("harness.cu"), source);
  std::vector<std::string> command =
      replay::nvccCommand(*replay::findCudaTool("nvcc"), directory.file("harness.cu"),
                          directory.file("harness"), SIMULEE_SOURCE_DIR, std::nullopt);
  replay::CommandResult built = replay::runCommand(command, 600);
  if (built.exitCode != 0)
    return ::testing::AssertionFailure() << replay::shellLine(command) << "\n" << built.output;
  return ::testing::AssertionSuccess();
}

// With no GPU the built harness says so and exits 3; with one it runs.
void expectHarnessRunsOrReportsNoGpu(const TempDir &directory, const replay::HarnessInput &input) {
  for (size_t i = 0; i < input.arguments.size(); ++i)
    if (input.arguments[i].kind == interp::ArgumentValue::Kind::Buffer)
      writeFile(directory.file(replay::initialBufferFile(i)),
                std::string(input.arguments[i].bytes.begin(), input.arguments[i].bytes.end()));
  replay::CommandResult ran =
      replay::runCommand({directory.file("harness"), directory.path(), "2"}, 120);
  if (haveGpu()) {
    EXPECT_EQ(ran.exitCode, 0) << ran.output;
    EXPECT_TRUE(contains(ran.output, "simulee-replay: done: 2 runs")) << ran.output;
  } else {
    EXPECT_EQ(ran.exitCode, replay::kHarnessNoGpu) << ran.output;
    EXPECT_TRUE(contains(ran.output, "simulee-replay: no-gpu: ")) << ran.output;
  }
}

class HarnessBuild : public ::testing::Test {
protected:
  void SetUp() override {
    if (!haveNvcc())
      GTEST_SKIP() << "nvcc not found (PATH, CUDA_HOME, /usr/local/cuda): harness builds not "
                      "tested";
  }
};

TEST_F(HarnessBuild, CorpusKernelBuildsAndRunsOrReportsNoGpu) {
  const ir::Program &program = programFor("corpus/reduce_interleaved.cu");
  replay::HarnessInput input =
      inputFor(program, kernelOf(program, "reduce_interleaved"), {2, 1, 1}, {256, 1, 1},
               {{"in", "random:512"}, {"out", "zeros:2"}, {"n", "512"}});
  Result<std::string> source = harnessSource(input);
  ASSERT_TRUE(source.ok());
  TempDir directory;
  ASSERT_TRUE(buildsWithNvcc(*source, directory));
  expectHarnessRunsOrReportsNoGpu(directory, input);
}

TEST_F(HarnessBuild, TemplateInstancesAndOverloadsBuildDespiteTheSourcesOwnMain) {
  const ir::Program &program = programFor("tests/replay/kernels/templated.cu");
  // One harness per instance (a template, an overload, a struct by value):
  // each names exactly its own symbol.
  for (const char *symbol : {"_Z5scaleIfLi3EEvPT_i", "_Z5tallyP4Pairhi", "_Z5apply4PairPi"}) {
    SCOPED_TRACE(symbol);
    replay::HarnessInput input =
        inputFor(program, kernelOf(program, symbol), {1, 1, 1}, {32, 1, 1}, {});
    Result<std::string> source = harnessSource(input);
    ASSERT_TRUE(source.ok());
    TempDir directory;
    ASSERT_TRUE(buildsWithNvcc(*source, directory));
  }
}

TEST_F(HarnessBuild, DeviceVariableResetAndWideScalarsBuild) {
  const ir::Program &program = programFor("tests/replay/kernels/extern_c.cu");
  replay::HarnessInput input =
      inputFor(program, kernelOf(program, "count_launch"), {1, 1, 1}, {32, 1, 1},
               {{"seen", "zeros:2"}, {"scale", "2.5"}, {"offset", "7"}});
  input.deviceVariables.push_back({"launches", {5, 0, 0, 0}});
  Result<std::string> source = harnessSource(input);
  ASSERT_TRUE(source.ok());
  TempDir directory;
  ASSERT_TRUE(buildsWithNvcc(*source, directory));
  expectHarnessRunsOrReportsNoGpu(directory, input);
}

TEST_F(HarnessBuild, WrongSimuleeViewOfAParameterFailsTheBuildOrTheSignatureCheck) {
  // simulee's table says 'n' is 8 bytes; the kernel says int. The harness
  // must refuse to launch rather than pass garbage.
  const ir::Program &program = programFor("corpus/reduce_interleaved.cu");
  ir::KernelInfo kernel = kernelOf(program, "reduce_interleaved");
  kernel.params[2].bits = 64;
  replay::HarnessInput input = inputFor(program, kernel, {1, 1, 1}, {32, 1, 1},
                                        {{"in", "random:32"}, {"out", "zeros:1"}, {"n", "32"}});
  Result<std::string> source = harnessSource(input);
  ASSERT_TRUE(source.ok());
  EXPECT_TRUE(contains(*source, "{\"n\", kScalar, 8,"));
  if (!haveGpu())
    GTEST_SKIP() << "no GPU: the signature check runs after the device check";
  TempDir directory;
  ASSERT_TRUE(buildsWithNvcc(*source, directory));
  for (size_t i = 0; i < 2; ++i)
    writeFile(directory.file(replay::initialBufferFile(i)),
              std::string(input.arguments[i].bytes.begin(), input.arguments[i].bytes.end()));
  replay::CommandResult ran =
      replay::runCommand({directory.file("harness"), directory.path(), "1"}, 120);
  EXPECT_EQ(ran.exitCode, replay::kHarnessSetupFailed) << ran.output;
  EXPECT_TRUE(contains(ran.output, "parameter 'n' is 4 bytes, simulee saw 8")) << ran.output;
}

} // namespace
} // namespace simulee::replay_test
