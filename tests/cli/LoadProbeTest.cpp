// scan's crash isolation (src/cli/LoadProbe.h): a child that dies by a
// signal or ends in an error costs one file, with the cause as its error.
// A stand-in shell script plays the child.
#include "cli/LoadProbe.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

namespace simulee::cli_test {
namespace {

class ScriptChild {
public:
  explicit ScriptChild(const std::string &body) {
    char pattern[] = "/tmp/simulee-probe-XXXXXX";
    int fd = mkstemp(pattern);
    path_ = pattern;
    std::ofstream(path_) << "#!/bin/sh\n" << body << "\n";
    if (fd >= 0)
      close(fd);
    chmod(path_.c_str(), 0700);
  }
  ~ScriptChild() { unlink(path_.c_str()); }
  const std::string &path() const { return path_; }

private:
  std::string path_;
};

TEST(LoadProbe, ChildKilledByASignalIsThatFilesError) {
  ScriptChild child("kill -SEGV $$");
  std::optional<std::string> error = cli::probeLoad(child.path(), "k.ll");
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->find("k.ll: crashed while loading (signal 11"), std::string::npos) << *error;
}

TEST(LoadProbe, ChildErrorLineIsThatFilesError) {
  ScriptChild child("echo 'simulee: error: k.ll: LLVM: out of memory' >&2; exit 2");
  EXPECT_EQ(cli::probeLoad(child.path(), "k.ll"),
            std::optional<std::string>("k.ll: LLVM: out of memory"));
}

TEST(LoadProbe, ChildThatLoadsCleanlyLetsTheScanLoadInProcess) {
  ScriptChild child("test \"$1\" = list && test \"$2\" = k.ll && test \"$3\" = --max-memory");
  EXPECT_EQ(cli::probeLoad(child.path(), "k.ll"), std::nullopt);
}

} // namespace
} // namespace simulee::cli_test
