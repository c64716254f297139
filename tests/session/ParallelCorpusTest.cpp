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

// The manifest's labeled launch judged with `reference` and with `other`
// options: the same judgement, to the example thread, and the same memory.
void expectSameJudgement(const Manifest &m, const session::AnalysisOptions &reference,
                         const session::AnalysisOptions &other) {
  const ir::Program &program = programFor(m.source, m.links);
  const ir::KernelInfo *kernel = program.findKernel(m.json["kernel"].get<std::string>());
  ASSERT_NE(kernel, nullptr);
  session::LaunchSpec spec = labeledLaunchOf(m.json);
  Result<session::KernelAnalysis> expected =
      session::analyzeLaunch(program, *kernel, spec, reference);
  Result<session::KernelAnalysis> actual = session::analyzeLaunch(program, *kernel, spec, other);
  ASSERT_EQ(expected.ok(), actual.ok());
  if (!expected)
    return;
  EXPECT_EQ(detailed(*expected), detailed(*actual)) << m.name;
  ASSERT_EQ(expected->arguments.size(), actual->arguments.size());
  for (size_t i = 0; i < expected->arguments.size(); ++i)
    EXPECT_TRUE(expected->arguments[i].bytes == actual->arguments[i].bytes)
        << m.name << " argument " << i;
}

session::AnalysisOptions optionsFor(const Manifest &m) {
  session::AnalysisOptions options;
  options.independentThreads = !m.json.value("lockstep", false);
  return options;
}

class ParallelCorpus : public ::testing::TestWithParam<Manifest> {};

TEST_P(ParallelCorpus, BlocksOnThreeThreadsJudgeAsOnOne) {
  session::AnalysisOptions inOrder = optionsFor(GetParam()), parallel = inOrder;
  parallel.blockJobs = 3;
  expectSameJudgement(GetParam(), inOrder, parallel);
}

TEST_P(ParallelCorpus, CompiledCodeJudgesAsTheInterpreter) {
  session::AnalysisOptions interpreted = optionsFor(GetParam()), compiled = interpreted;
  interpreted.engine = interp::Engine::Interpreter;
  compiled.engine = interp::Engine::Compiled;
  expectSameJudgement(GetParam(), interpreted, compiled);
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
