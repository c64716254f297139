// The device header's math library end to end: each function of
// kernels/math_library.cu against the host C library, at -O0 and -O3; and the
// header's compile-check programs load (host code, every intrinsic family).
#include "TestSupport.h"

#include <cmath>
#include <random>

namespace simulee::interp_test {
namespace {

using interp::ArgumentValue;

class MathLibrary : public ::testing::TestWithParam<int> {};

std::vector<float> hostFloatMath(float x) {
  std::vector<float> o(32);
  o[0] = std::sin(x);
  o[1] = std::cos(x);
  o[2] = std::tan(x);
  o[3] = std::asin(x);
  o[4] = std::acos(x);
  o[5] = std::atan(x);
  o[6] = std::atan2(x, 0.5f);
  o[7] = std::sinh(x) + std::cosh(x) + std::tanh(x);
  o[8] = std::exp(x);
  o[9] = std::exp2(x);
  o[10] = std::expm1(x);
  o[11] = std::log(x);
  o[12] = std::log2(x);
  o[13] = std::log10(x);
  o[14] = std::log1p(x);
  o[15] = std::pow(x, 1.5f);
  o[16] = std::sqrt(x);
  o[17] = 1.0f / std::sqrt(x);
  o[18] = std::cbrt(x);
  o[19] =
      std::floor(x * 10.0f) + std::ceil(x * 10.0f) + std::trunc(-x * 10.0f) + std::round(x * 10.0f);
  o[20] = std::fmin(x, 0.5f) + std::fmax(x, 0.5f) + std::fabs(-x);
  o[21] = std::fmod(x * 10.0f, 3.0f);
  o[22] = std::hypot(x, 1.0f);
  o[23] = std::fma(x, 2.0f, 1.0f);
  o[24] = std::erf(x) + std::erfc(x) * 2.0f;
  int exponent;
  float mantissa = std::frexp(x * 100.0f, &exponent);
  o[25] = mantissa + (float)exponent;
  float whole;
  o[26] = std::modf(x * 10.0f, &whole) + whole * 100.0f;
  o[27] = std::sin(x) * 10.0f + std::cos(x);
  o[28] = std::exp(x) + std::log(x);
  o[29] = std::fmin(std::fmax(x * 2.0f - 0.5f, 0.0f), 1.0f) + (float)std::lrint(x * 10.0f);
  o[30] = x + std::ldexp(x, 3);
  o[31] = std::sqrt(x) + x + 1.0f;
  return o;
}

TEST_P(MathLibrary, FloatFunctionsMatchHostLibrary) {
  const int n = 64;
  std::mt19937 engine(21);
  std::uniform_real_distribution<float> distribution(0.1f, 0.9f);
  std::vector<float> in(n);
  for (float &x : in)
    x = distribution(engine);
  std::vector<ArgumentValue> args = {bufferArg(in), bufferArg(std::vector<float>(n * 32, 0.0f)),
                                     scalarArg(n)};
  ASSERT_TRUE(launch("math_library.cu", GetParam(), "floatMath", {2, 1, 1}, {32, 1, 1}, args));
  std::vector<float> actual = valuesOf<float>(args[1].bytes);
  ASSERT_EQ(actual.size(), size_t(n * 32));
  for (int i = 0; i < n; ++i) {
    std::vector<float> expected = hostFloatMath(in[i]);
    for (int f = 0; f < 32; ++f)
      EXPECT_NEAR(actual[i * 32 + f], expected[f], 1e-4 * std::max(1.0f, std::fabs(expected[f])))
          << "input " << in[i] << ", output " << f;
  }
}

TEST_P(MathLibrary, SingleNanResultsAreTheGpusCanonicalNan) {
  std::vector<ArgumentValue> args = {bufferArg(std::vector<uint32_t>(9, 0)), scalarArg(0.0f)};
  ASSERT_TRUE(launch("nan_results.cu", GetParam(), "nanResults", {1, 1, 1}, {1, 1, 1}, args));
  std::vector<uint32_t> expected(8, 0x7fffffffu);
  expected.push_back(0xffc00011u);
  EXPECT_EQ(valuesOf<uint32_t>(args[0].bytes), expected);
}

TEST_P(MathLibrary, IntegerToFloatConversionsRoundInTheirDirection) {
  const long long p24 = 1ll << 24, p53 = 1ll << 53;
  std::vector<long long> in = {p24 + 1, -(p53 + 1), p53 + 1};
  std::vector<ArgumentValue> args = {bufferArg(in), bufferArg(std::vector<float>(12, 0)),
                                     bufferArg(std::vector<double>(5, 0))};
  ASSERT_TRUE(
      launch("int_to_float_rounding.cu", GetParam(), "intToFloatRounding", {1, 1, 1}, {1, 1, 1}, args));
  const float f24 = float(p24), next24 = float(p24 + 2);
  EXPECT_EQ(valuesOf<float>(args[1].bytes),
            (std::vector<float>{f24, next24, f24, f24, -f24, -f24, -next24, next24,
                                -float(p53 + (1ll << 30)), float(p53 + (1ll << 30)), next24,
                                -next24}));
  const double d53 = double(p53), next53 = double(p53 + 2);
  EXPECT_EQ(valuesOf<double>(args[2].bytes),
            (std::vector<double>{-d53, -d53, -next53, d53, next53}));
}

TEST_P(MathLibrary, ArithmeticRoundsInItsDirection) {
  const double tiny = std::ldexp(1.0, -60);
  const float ftiny = std::ldexp(1.0f, -30);
  std::vector<ArgumentValue> args = {
      bufferArg(std::vector<double>{1.0, tiny, 3.0}), bufferArg(std::vector<float>{1, ftiny, 3}),
      bufferArg(std::vector<double>(12, 0)), bufferArg(std::vector<float>(10, 0))};
  ASSERT_TRUE(
      launch("directed_rounding.cu", GetParam(), "directedRounding", {1, 1, 1}, {1, 1, 1}, args));
  const double up = std::nextafter(1.0, 2.0), third = 1.0 / 3.0; // third < 1/3
  // sqrt(2) to nearest rounds up for doubles, down for floats.
  const double root = std::sqrt(2.0);
  EXPECT_EQ(valuesOf<double>(args[2].bytes),
            (std::vector<double>{1.0, up, -1.0, third, std::nextafter(third, 1.0),
                                 -(1.0 + std::ldexp(1.0, -28)), 1.0, up, std::nextafter(root, 0.0),
                                 root, third, std::nextafter(third, 1.0)}));
  const float fup = std::nextafter(1.0f, 2.0f), fthird = 1.0f / 3.0f; // fthird > 1/3
  const float froot = std::sqrt(2.0f);
  // -3 * fthird = -(1 + 2^-24) exactly, toward zero -1.
  EXPECT_EQ(valuesOf<float>(args[3].bytes),
            (std::vector<float>{1.0f, fup, std::nextafter(fthird, 0.0f), fthird, -1.0f, fup, 1.0f,
                                froot, std::nextafter(froot, 2.0f), std::nextafter(fthird, 0.0f)}));
}

TEST_P(MathLibrary, DoubleFunctionsMatchHostLibrary) {
  const int n = 32;
  std::vector<double> in(n);
  for (int i = 0; i < n; ++i)
    in[i] = 0.1 + 0.025 * i;
  std::vector<ArgumentValue> args = {bufferArg(in), bufferArg(std::vector<double>(n * 8, 0.0)),
                                     scalarArg(n)};
  ASSERT_TRUE(launch("math_library.cu", GetParam(), "doubleMath", {1, 1, 1}, {32, 1, 1}, args));
  std::vector<double> actual = valuesOf<double>(args[1].bytes);
  for (int i = 0; i < n; ++i) {
    double x = in[i];
    double expected[8] = {std::sin(x) + std::cos(x),
                          std::exp(x) + std::log(x),
                          std::pow(x, 2.5),
                          std::sqrt(x) + std::cbrt(x),
                          std::atan2(x, 0.25) + std::tanh(x),
                          std::fma(x, x, 1.0) + std::floor(x * 7.0) + x,
                          std::fmin(x, 0.5) + std::fmax(x, 0.5) + std::fmod(x * 10.0, 3.0),
                          x + (double)std::lrint(x * 10.0)};
    for (int f = 0; f < 8; ++f)
      EXPECT_NEAR(actual[i * 8 + f], expected[f], 1e-12 * std::max(1.0, std::fabs(expected[f])))
          << "input " << x << ", output " << f;
  }
}

TEST_P(MathLibrary, ProgramWithHostCodeAndRuntimeApiLoads) {
  const ir::Program *program = loadTestProgram("header_host_code.cu", GetParam());
  ASSERT_NE(program, nullptr);
  EXPECT_NE(program->findKernel("addOne"), nullptr);
}

TEST_P(MathLibrary, KernelUsingEveryIntrinsicFamilyLoads) {
  const ir::Program *program = loadTestProgram("header_intrinsics.cu", GetParam());
  ASSERT_NE(program, nullptr);
  EXPECT_NE(program->findKernel("everything"), nullptr);
}

INSTANTIATE_TEST_SUITE_P(OptLevels, MathLibrary, ::testing::Values(0, 3),
                         [](const ::testing::TestParamInfo<int> &info) {
                           std::string name(1, 'O');
                           name += std::to_string(info.param);
                           return name;
                         });

} // namespace
} // namespace simulee::interp_test
