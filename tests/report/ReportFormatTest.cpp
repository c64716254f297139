#include "report/Report.h"

#include <gtest/gtest.h>

namespace simulee::report {
namespace {

TEST(ReportFormat, ParsesTheThreeFormatNames) {
  EXPECT_EQ(parseFormat("text"), Format::Text);
  EXPECT_EQ(parseFormat("json"), Format::Json);
  EXPECT_EQ(parseFormat("sarif"), Format::Sarif);
}

TEST(ReportFormat, RejectsUnknownNames) {
  EXPECT_FALSE(parseFormat("xml"));
  EXPECT_FALSE(parseFormat(""));
  EXPECT_FALSE(parseFormat("JSON"));
}

} // namespace
} // namespace simulee::report
