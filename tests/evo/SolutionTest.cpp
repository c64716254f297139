#include "evo/Solution.h"

#include "Spaces.h"

#include <gtest/gtest.h>

namespace simulee::evo {
namespace {

TEST(Solution, IntegersRoundAndClampToTheirType) {
  Limits limits;
  Gene int8 = Gene::integer("c", 8, true);
  EXPECT_EQ(canonicalGeneValue(int8, limits, 300.0), 127);
  EXPECT_EQ(canonicalGeneValue(int8, limits, -1e12), -128);
  EXPECT_EQ(canonicalGeneValue(int8, limits, 2.6), 3);
  EXPECT_EQ(canonicalGeneValue(int8, limits, -2.6), -3);
  Gene uint32 = Gene::integer("u", 32, false);
  EXPECT_EQ(canonicalGeneValue(uint32, limits, -5.0), 0);
  EXPECT_TRUE(std::signbit(canonicalGeneValue(uint32, limits, -0.2)) == false);
  Gene flag = Gene::integer("flag", 1, false);
  EXPECT_EQ(canonicalGeneValue(flag, limits, 7.0), 1);
}

TEST(Solution, IntegersClampToUserBounds) {
  Gene n = Gene::integer("n", 32, true);
  n.lower = 16;
  n.upper = 64;
  EXPECT_EQ(canonicalGeneValue(n, Limits{}, 3.0), 16);
  EXPECT_EQ(canonicalGeneValue(n, Limits{}, 1000.0), 64);
}

TEST(Solution, FloatsKeepTheirValueAtTheirWidth) {
  Limits limits;
  Gene f32 = Gene::floating("x", 32);
  EXPECT_EQ(canonicalGeneValue(f32, limits, 0.1), double(0.1f));
  Gene f64 = Gene::floating("y", 64);
  EXPECT_EQ(canonicalGeneValue(f64, limits, 0.1), 0.1);
  EXPECT_EQ(canonicalGeneValue(f32, limits, 1e300), double(std::numeric_limits<float>::max()));
}

TEST(Solution, TypedValueBitsMatchTheParameterType) {
  Limits limits;
  Gene int16 = Gene::integer("s", 16, true);
  TypedValue minusOne = typedValue(int16, canonicalGeneValue(int16, limits, -1));
  EXPECT_EQ(minusOne.integer, -1);
  EXPECT_EQ(minusOne.bits, 0xffffu);
  Gene f32 = Gene::floating("x", 32);
  EXPECT_EQ(typedValue(f32, 1.0).bits, 0x3f800000u);
  Gene f64 = Gene::floating("y", 64);
  EXPECT_EQ(typedValue(f64, -2.0).bits, 0xc000000000000000u);
  Gene f16 = Gene::floating("h", 16);
  EXPECT_EQ(typedValue(f16, 1.5).bits, 0x3e00u);
}

TEST(Solution, GeneValuesOfRawBitsInvertTypedValues) {
  // exec --search reads a program's argument bits back into genes.
  Gene signedByte = Gene::integer("c", 8, true);
  EXPECT_EQ(geneValueOfBits(signedByte, 0xFD), -3);
  EXPECT_EQ(typedValue(signedByte, -3).bits, 0xFDu);
  Gene unsignedInt = Gene::integer("u", 32, false);
  EXPECT_EQ(geneValueOfBits(unsignedInt, 4000000000u), 4000000000.0);
  Gene signedLong = Gene::integer("l", 64, true);
  EXPECT_EQ(geneValueOfBits(signedLong, uint64_t(-7)), -7);
  Gene single = Gene::floating("f", 32);
  EXPECT_EQ(geneValueOfBits(single, typedValue(single, 2.5).bits), 2.5);
  Gene half = Gene::floating("h", 16);
  EXPECT_EQ(geneValueOfBits(half, typedValue(half, -0.75).bits), -0.75);
  Gene twice = Gene::floating("d", 64);
  EXPECT_EQ(geneValueOfBits(twice, typedValue(twice, 1e-300).bits), 1e-300);
}

TEST(Solution, DescribeNamesEverySetting) {
  SearchSpace space = testing::oneDimSpace();
  Solution solution;
  solution.grid = {2, 1, 1};
  solution.block = {64, 1, 1};
  solution.genes = Eigen::Vector3d(128, 0.5, 256);
  std::vector<std::string> expected = {"grid=2,1,1", "block=64,1,1", "n=128", "scale=0.5",
                                       "data=buffer(256)"};
  EXPECT_EQ(describe(space, solution), expected);
}

TEST(Solution, EqualityComparesDimsAndGenes) {
  Solution a;
  a.genes = Eigen::Vector2d(1, 2);
  Solution b = a;
  EXPECT_EQ(a, b);
  b.genes[1] = 3;
  EXPECT_FALSE(a == b);
  b = a;
  b.block.x = 2;
  EXPECT_FALSE(a == b);
}

} // namespace
} // namespace simulee::evo
