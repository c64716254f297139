// .cu files compile against the CUDA installation assembled from NVIDIA's
// wheels, and no CUDA header of another toolkit leaks in unasked.
#include "ir/CudaInstallation.h"
#include "../support/TestFiles.h"
#include "ir/Loader.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <map>

#include <unistd.h>

using namespace simulee;

namespace {

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

// `dir` made to look like another CUDA toolkit's include/: it has the
// runtime API header and a library header the wheels do not ship.
std::string fakeToolkitInclude(const simulee::testing::TempDir &dir) {
  for (const char *name : {"cuda_runtime_api.h", "fake_cufft.h"})
    dir.write(name, "#pragma once\n#define FAKE_TOOLKIT_HEADER 1\n");
  return dir.path();
}

TEST(CudaInstallation, AssembledFromTheWheelsIsFoundWithoutFlags) {
  Result<std::optional<ir::CudaInstallation>> cuda = ir::findCudaInstallation("");
  ASSERT_TRUE(cuda.ok());
  ASSERT_TRUE(cuda->has_value()) << "run scripts/cuda-headers.sh";
  EXPECT_FALSE((*cuda)->userGiven);
  EXPECT_FALSE(ir::libdevicePath(**cuda).empty());
}

TEST(CudaInstallation, RuntimeHeadersAreNvidiasCuda12p4) {
  const char *source = R"(
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuComplex.h>
#include <thrust/functional.h>
static_assert(CUDART_VERSION == 12040, "the wheels' runtime headers");
__global__ void k(float *out, cudaTextureObject_t unused) {
  cuFloatComplex z = make_cuFloatComplex(1.0f, 2.0f);
  out[threadIdx.x] = cuCabsf(z) + __half2float(__float2half(1.0f));
}
)";
  Result<ir::Program> program = ir::loadProgramFromCuda(source, "runtime.cu");
  EXPECT_TRUE(program.ok()) << program.error().message;
}

TEST(CudaInstallation, CpathDoesNotLeakHeadersIn) {
  simulee::testing::TempDir toolkit("simulee-fake-toolkit");
  std::string fake = fakeToolkitInclude(toolkit);
  setenv("CPATH", fake.c_str(), 1);
  Result<ir::Program> program =
      ir::loadProgramFromCuda("#include <fake_cufft.h>\n__global__ void k(int *p) { p[0] = 1; }\n",
                              "cpath.cu");
  unsetenv("CPATH");
  ASSERT_FALSE(program.ok());
  EXPECT_TRUE(contains(program.error().message, "fake_cufft.h")) << program.error().message;
  EXPECT_TRUE(contains(program.error().message, "not found")) << program.error().message;
}

TEST(CudaInstallation, HeaderFromAnotherToolkitIsAnErrorNamingIt) {
  simulee::testing::TempDir toolkit("simulee-fake-toolkit");
  std::string fake = fakeToolkitInclude(toolkit);
  ir::LoadOptions options;
  options.extraClangArgs = {"-idirafter", fake};
  Result<ir::Program> program = ir::loadProgramFromCuda(
      "#include <fake_cufft.h>\n__global__ void k(int *p) { p[0] = FAKE_TOOLKIT_HEADER; }\n",
      "leak.cu", options);
  ASSERT_FALSE(program.ok());
  EXPECT_TRUE(contains(program.error().message, "fake_cufft.h is not in simulee's CUDA installation"))
      << program.error().message;
  EXPECT_TRUE(contains(program.error().message, "--cuda-path")) << program.error().message;
  // A foreign header that breaks the compile (a newer toolkit's cuBLAS
  // naming types the wheels' runtime lacks) is named as the cause all the
  // same, with the compiler's first error after it.
  Result<ir::Program> broken = ir::loadProgramFromCuda(
      "#include <fake_cufft.h>\nFAKE_TOOLKIT_TYPE *x;\n__global__ void k(int *p) { p[0] = 1; }\n",
      "leak_broken.cu", options);
  ASSERT_FALSE(broken.ok());
  EXPECT_TRUE(contains(broken.error().message, "fake_cufft.h is not in simulee's CUDA installation"))
      << broken.error().message;
  EXPECT_TRUE(contains(broken.error().message, "(the compile failed: error: unknown type name "
                                               "'FAKE_TOOLKIT_TYPE')"))
      << broken.error().message;
}

TEST(CudaInstallation, UserCudaPathMustBeAnInstallation) {
  ir::LoadOptions options;
  options.cudaPath = "/nonexistent/cuda";
  Result<ir::Program> program =
      ir::loadProgramFromCuda("__global__ void k(int *p) { p[0] = 1; }\n", "bad.cu", options);
  ASSERT_FALSE(program.ok());
  EXPECT_TRUE(contains(program.error().message, "not a CUDA installation"))
      << program.error().message;
}

// What nvcc gives and clang does not: assert without <cassert>, the C
// library's stdio, stdlib, string, time and math functions without their
// headers (isfinite(float) in host code), host min/max, the cache-hinted
// loads and stores, and __managed__ variables, which are device variables
// marked as managed.
TEST(CudaInstallation, NvccConveniencesCompile) {
  const char *source = R"(
__managed__ int hits;
__managed__ float weights[4] = {1, 2, 3, 4};
__device__ int plain;
__global__ void k(int *out, int n) {
  assert(n > 0);
  atomicAdd(&hits, 1);
  out[threadIdx.x] = plain + int(weights[threadIdx.x % 4]);
}
int blocksFor(int n) { return max(1, min(n / 256, 64)); }
__global__ void copy4(const int4 *in, int4 *out) { __stcs(out + threadIdx.x, __ldcs(in + threadIdx.x)); }
bool valid(float x, double y) { return isfinite(x) && !isnan(y) && !isinf(x) && fabsf(x) < 1; }
void report(FILE *log, const char *what, int *copy) {
  fprintf(stderr, "%s\n", what);
  memcpy(copy, malloc(4), 4);
  fprintf(log, "%ld\n", (long)clock());
}
)";
  Result<ir::Program> program = ir::loadProgramFromCuda(source, "nvcc.cu");
  ASSERT_TRUE(program.ok()) << program.error().message;
  std::map<std::string, bool> managed;
  for (const ir::VariableInfo &variable : program->globalVariables)
    if (!variable.name.starts_with(".") && !variable.name.starts_with("__"))
      managed[variable.name] = variable.managed;
  EXPECT_EQ(managed,
            (std::map<std::string, bool>{{"hits", true}, {"weights", true}, {"plain", false}}));
}

// The precompiled wrapper header is shared by every simulee process through
// ~/.cache/simulee/pch. A racer re-creating or touching a file it was built
// from must not make it stale, and a stale or broken one costs a slower
// compile, never a failed one.
TEST(CudaInstallation, SharedPrecompiledHeaderSurvivesTouchesAndRecoversWhenBroken) {
  llvm::SmallString<128> cache;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("simulee-pch-cache", cache));
  const char *previous = std::getenv("XDG_CACHE_HOME");
  std::string saved = previous ? previous : "";
  setenv("XDG_CACHE_HOME", cache.c_str(), 1);
  const char *source = "__global__ void k(int *p) { p[threadIdx.x] = 1; }\n";
  auto load = [&] { return ir::loadProgramFromCuda(source, "pch.cu"); };
  auto pchFiles = [&] {
    std::vector<std::string> found;
    llvm::SmallString<128> dir(cache);
    llvm::sys::path::append(dir, "simulee", "pch");
    std::error_code error;
    for (llvm::sys::fs::directory_iterator it(dir, error), end; !error && it != end;
         it.increment(error))
      if (llvm::StringRef(it->path()).ends_with(".pch"))
        found.push_back(it->path());
    return found;
  };
  auto setAllTimes = [&](llvm::sys::TimePoint<> when) {
    std::error_code error;
    for (llvm::sys::fs::recursive_directory_iterator it(cache, error), end; !error && it != end;
         it.increment(error)) {
      int fd = -1;
      if (!llvm::sys::fs::openFileForWrite(it->path(), fd, llvm::sys::fs::CD_OpenExisting,
                                           llvm::sys::fs::OF_Append)) {
        llvm::sys::fs::setLastAccessAndModificationTime(fd, when);
        ::close(fd);
      }
    }
  };

  Result<ir::Program> first = load();
  ASSERT_TRUE(first.ok()) << first.error().message;
  std::vector<std::string> built = pchFiles();
  ASSERT_EQ(built.size(), 1u);

  setAllTimes(std::chrono::system_clock::now() + std::chrono::hours(1));
  Result<ir::Program> touched = load();
  EXPECT_TRUE(touched.ok()) << touched.error().message;
  EXPECT_EQ(pchFiles(), built) << "a touched input must not make the PCH stale";

  {
    std::error_code error;
    llvm::raw_fd_ostream garbage(built[0], error);
    garbage << "not a precompiled header";
  }
  Result<ir::Program> broken = load();
  EXPECT_TRUE(broken.ok()) << broken.error().message;
  Result<ir::Program> rebuilt = load();
  EXPECT_TRUE(rebuilt.ok()) << rebuilt.error().message;
  EXPECT_EQ(pchFiles(), built);
  uint64_t size = 0;
  EXPECT_FALSE(llvm::sys::fs::file_size(built[0], size));
  EXPECT_GT(size, 1000u) << "the broken PCH is built again";

  if (previous)
    setenv("XDG_CACHE_HOME", saved.c_str(), 1);
  else
    unsetenv("XDG_CACHE_HOME");
  llvm::sys::fs::remove_directories(cache);
}

} // namespace
