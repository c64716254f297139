// Launches written with spaced chevrons (`k << <g, b >> > (args)`, Visual
// Studio's formatting) are joined; everything else is left as it is. Shared
// declarations nvcc accepts and clang refuses are rewritten where clang's
// errors point.
#include "ir/LaunchSyntax.h"

#include <gtest/gtest.h>

using namespace simulee::ir;

TEST(LaunchSyntax, SpacedChevronsAreJoinedKeepingLengthAndLines) {
  std::string source = "  k << <grid, block >> > (out, n);\n  next();\n";
  std::optional<std::string> joined = joinedLaunchChevrons(source);
  ASSERT_TRUE(joined);
  EXPECT_EQ(*joined, "  k <<< grid, block >>>  (out, n);\n  next();\n");
  EXPECT_EQ(joined->size(), source.size());
}

TEST(LaunchSyntax, ExpressionsInsideTheConfigurationKeepTheirOperators) {
  std::optional<std::string> joined =
      joinedLaunchChevrons("k << <(n >> 2) + 1, dim3(a, b), s >> 1 >> > (p);");
  ASSERT_TRUE(joined);
  EXPECT_EQ(*joined, "k <<< (n >> 2) + 1, dim3(a, b), s >> 1 >>>  (p);");
  // Opened spaced, closed joined.
  EXPECT_EQ(joinedLaunchChevrons("k << <g, b>>>(p);"), std::optional<std::string>("k <<< g, b>>>(p);"));
}

TEST(LaunchSyntax, CodeWithoutSpacedLaunchesIsLeftAlone) {
  EXPECT_FALSE(joinedLaunchChevrons("k<<<g, b>>>(p); x = y << 2;"));
  // `>> >` closing nested templates is C++, not a launch.
  EXPECT_FALSE(joinedLaunchChevrons("std::map<int, std::vector<std::vector<int>> > m;"));
  // In comments and strings.
  EXPECT_FALSE(joinedLaunchChevrons("// k << <g, b >> > (p);\nputs(\"<< <g >> >\");\n"));
  EXPECT_FALSE(joinedLaunchChevrons("/* k << <g, b >> > (p); */ int x;"));
  // A statement ending before any closing chevrons is no launch.
  EXPECT_FALSE(joinedLaunchChevrons("out << <unfinished; int y = a >> > b;"));
}

TEST(LaunchSyntax, ClangsRefusalsOfSharedDeclarationsAreFoundByFileAndLine) {
  std::string output =
      "k.cu:4:54: error: initialization is not supported for __shared__ variables\n"
      "    4 |   __shared__ cuda::barrier<cuda::thread_scope_block> bar;\n"
      "k.cu:7:14: error: an attribute list cannot appear here\n"
      "other.h:2:3: error: initialization is not supported for __shared__ variables\n"
      "k.cu:9:1: error: unknown type name 'foo'\n";
  RefusedSharedDeclarationsByFile byFile = refusedSharedDeclarations(output);
  ASSERT_EQ(byFile.size(), 2u);
  const RefusedSharedDeclarations &refused = byFile["k.cu"];
  ASSERT_EQ(refused.unconstructed.size(), 1u);
  EXPECT_EQ(refused.unconstructed[0].line, 4u);
  EXPECT_EQ(refused.unconstructed[0].column, 54u);
  ASSERT_EQ(refused.alignedAfterShared.size(), 1u);
  EXPECT_EQ(refused.alignedAfterShared[0].line, 7u);
  EXPECT_EQ(refused.alignedAfterShared[0].column, 14u);
  // A header's are its own.
  ASSERT_EQ(byFile["other.h"].unconstructed.size(), 1u);
  EXPECT_EQ(byFile["other.h"].unconstructed[0].line, 2u);
  EXPECT_TRUE(byFile["other.h"].alignedAfterShared.empty());
  EXPECT_TRUE(refusedSharedDeclarations("k.cu:1:1: error: expected ';'\n").empty());
}

TEST(LaunchSyntax, AnUnconstructedSharedVariableBecomesBytesAndAReferenceOnItsLine) {
  std::string source = "__global__ void k() {\n"
                       "  __shared__ Barrier<4> bar;\n"
                       "  __shared__ Slot slots[2][8];\n"
                       "}\n";
  RefusedSharedDeclarations refused;
  refused.unconstructed = {{2, 25}, {3, 19}};
  std::optional<std::string> accepted = acceptedByClang(source, refused);
  ASSERT_TRUE(accepted);
  EXPECT_EQ(*accepted,
            "__global__ void k() {\n"
            "  __shared__ unsigned char bar__simulee_unconstructed alignas(Barrier<4>) "
            "[sizeof(Barrier<4>)]; Barrier<4> (&bar) = reinterpret_cast<Barrier<4> "
            "(&)>(bar__simulee_unconstructed);\n"
            "  __shared__ unsigned char slots__simulee_unconstructed alignas(Slot[2][8]) "
            "[sizeof(Slot[2][8])]; Slot (&slots)[2][8] = reinterpret_cast<Slot "
            "(&)[2][8]>(slots__simulee_unconstructed);\n"
            "}\n");
}

TEST(LaunchSyntax, AnAlignasAfterSharedMovesToTheDeclarationsStart) {
  RefusedSharedDeclarations refused;
  refused.alignedAfterShared = {{1, 16}, {2, 23}};
  std::optional<std::string> accepted =
      acceptedByClang("    __shared__ alignas(alignof(float4)) float a[16][16];\n"
                      "    extern __shared__ alignas(16) char dynamic[];\n",
                      refused);
  ASSERT_TRUE(accepted);
  EXPECT_EQ(*accepted, "    alignas(alignof(float4)) __shared__ float a[16][16];\n"
                       "    alignas(16) extern __shared__ char dynamic[];\n");
}

TEST(LaunchSyntax, DeclarationsItCannotReadAreLeftAsTheyAre) {
  RefusedSharedDeclarations refused;
  // Two declarators, an initializer, an attribute not after __shared__, a
  // line that is not there.
  refused.unconstructed = {{1, 21}, {2, 21}, {9, 1}};
  refused.alignedAfterShared = {{3, 12}};
  EXPECT_FALSE(acceptedByClang("  __shared__ Barrier a, b;\n"
                               "  __shared__ Barrier c = make();\n"
                               "  int f() [[nodiscard]];\n",
                               refused));
}
