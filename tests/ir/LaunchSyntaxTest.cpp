// Launches written with spaced chevrons (`k << <g, b >> > (args)`, Visual
// Studio's formatting) are joined; everything else is left as it is.
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
