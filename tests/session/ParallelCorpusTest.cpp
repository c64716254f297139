// Every corpus kernel's labeled launch judged with its blocks on three
// threads (AnalysisOptions::blockJobs) gives what it gives on one, and run by
// compiled code (AnalysisOptions::engine) what it gives interpreted: the
// same verdict, the same findings to the example thread, offset and launch,
// the same counts and the same memory afterwards.
#include "CorpusSupport.h"

#include <gtest/gtest.h>

using namespace simulee;
using namespace simulee::corpus_test;

namespace simulee::corpus_test {
void PrintTo(const Manifest &m, std::ostream *os) { *os << m.name; }
} // namespace simulee::corpus_test

namespace {

std::string detailed(const session::KernelAnalysis &analysis) {
  std::string text = std::string(detect::verdictName(analysis.verdict)) + " " +
                     analysis.firstLaunchError + "\nblocks " +
                     std::to_string(analysis.counts.blocks) + " modelled " +
                     std::to_string(analysis.counts.blocksModelled) + " instrs " +
                     std::to_string(analysis.threadInstrs) + "\n";
  for (const detect::Finding &f : analysis.findings) {
    text += std::string(detect::findingKindName(f.kind)) + " " + f.variable + "+" +
            std::to_string(f.exampleOffset) + " x" + std::to_string(f.occurrences) + ":";
    for (const detect::Site &site : f.sites)
      text += " " + std::to_string(site.instruction) + "@" + std::to_string(site.block) + "/" +
              std::to_string(site.thread);
    text += " " + f.detail + " " + f.subkind + " benign " + std::to_string(int(f.benign)) + "\n";
  }
  return text;
}

class ParallelCorpus : public ::testing::TestWithParam<Manifest> {};

TEST_P(ParallelCorpus, BlocksOnThreeThreadsJudgeAsOnOne) {
  const Manifest &m = GetParam();
  const ir::Program &program = programFor(m.source, m.links);
  const ir::KernelInfo *kernel = program.findKernel(m.json["kernel"].get<std::string>());
  ASSERT_NE(kernel, nullptr);
  session::LaunchSpec spec = labeledLaunchOf(m.json);
  session::AnalysisOptions options;
  options.independentThreads = !m.json.value("lockstep", false);
  Result<session::KernelAnalysis> inOrder = session::analyzeLaunch(program, *kernel, spec, options);
  options.blockJobs = 3;
  Result<session::KernelAnalysis> parallel =
      session::analyzeLaunch(program, *kernel, spec, options);
  ASSERT_EQ(inOrder.ok(), parallel.ok());
  if (!inOrder)
    return;
  EXPECT_EQ(detailed(*inOrder), detailed(*parallel)) << m.name;
  ASSERT_EQ(inOrder->arguments.size(), parallel->arguments.size());
  for (size_t i = 0; i < inOrder->arguments.size(); ++i)
    EXPECT_TRUE(inOrder->arguments[i].bytes == parallel->arguments[i].bytes)
        << m.name << " argument " << i;
}

TEST_P(ParallelCorpus, CompiledCodeJudgesAsTheInterpreter) {
  const Manifest &m = GetParam();
  const ir::Program &program = programFor(m.source, m.links);
  const ir::KernelInfo *kernel = program.findKernel(m.json["kernel"].get<std::string>());
  ASSERT_NE(kernel, nullptr);
  session::LaunchSpec spec = labeledLaunchOf(m.json);
  session::AnalysisOptions options;
  options.independentThreads = !m.json.value("lockstep", false);
  options.engine = interp::Engine::Interpreter;
  Result<session::KernelAnalysis> interpreted =
      session::analyzeLaunch(program, *kernel, spec, options);
  options.engine = interp::Engine::Compiled;
  Result<session::KernelAnalysis> compiled =
      session::analyzeLaunch(program, *kernel, spec, options);
  ASSERT_EQ(interpreted.ok(), compiled.ok());
  if (!interpreted)
    return;
  EXPECT_EQ(detailed(*interpreted), detailed(*compiled)) << m.name;
  ASSERT_EQ(interpreted->arguments.size(), compiled->arguments.size());
  for (size_t i = 0; i < interpreted->arguments.size(); ++i)
    EXPECT_TRUE(interpreted->arguments[i].bytes == compiled->arguments[i].bytes)
        << m.name << " argument " << i;
}

std::string manifestName(const ::testing::TestParamInfo<Manifest> &info) {
  std::string name = info.param.name;
  for (char &ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch)))
      ch = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Corpus, ParallelCorpus, ::testing::ValuesIn(loadManifests()),
                         manifestName);

} // namespace
