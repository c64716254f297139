// Issue 4's benchmark: the whole search + detect time per corpus kernel at
// the CLI's default settings (population 10, generations 10, seed 1, jobs =
// all cores), with the .cu compile excluded (it is reported as "compile").
//
//   build/bench/search_bench [JOBS]     JOBS: 0 = all cores (default), 1 = one core
#include "ir/Loader.h"
#include "session/Analysis.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>

using namespace simulee;
using Clock = std::chrono::steady_clock;

int main(int argc, char **argv) {
  unsigned jobs = argc > 1 ? unsigned(std::atoi(argv[1])) : 0;
  std::filesystem::path dir = std::filesystem::path(SIMULEE_SOURCE_DIR) / "corpus";
  std::vector<std::filesystem::path> manifests;
  for (const auto &entry : std::filesystem::directory_iterator(dir))
    if (entry.path().extension() == ".json")
      manifests.push_back(entry.path());
  std::sort(manifests.begin(), manifests.end());

  std::vector<double> searchMs, compileMs;
  std::string slowest;
  for (const auto &path : manifests) {
    std::ifstream in(path);
    nlohmann::json manifest = nlohmann::json::parse(in);
    std::string name = path.stem().string();
    std::string source = (dir / manifest.value("file", name.substr(0, name.find('.')) + ".cu")).string();
    auto t0 = Clock::now();
    Result<ir::Program> program = ir::loadProgram(source);
    auto t1 = Clock::now();
    if (!program) {
      fprintf(stderr, "%s\n", program.error().message.c_str());
      return 1;
    }
    const ir::KernelInfo *kernel = program->findKernel(manifest["kernel"].get<std::string>());
    session::SearchSettings settings;
    settings.search.seed = 1;
    settings.search.jobs = jobs;
    session::AnalysisOptions options;
    options.independentThreads = !manifest.value("lockstep", false);
    auto t2 = Clock::now();
    Result<session::KernelAnalysis> analysis =
        session::searchKernel(*program, *kernel, {}, settings, options);
    auto t3 = Clock::now();
    double ms = std::chrono::duration<double, std::milli>(t3 - t2).count();
    double cms = std::chrono::duration<double, std::milli>(t1 - t0).count();
    if (!searchMs.empty() && ms > *std::max_element(searchMs.begin(), searchMs.end()))
      slowest = name;
    if (searchMs.empty())
      slowest = name;
    searchMs.push_back(ms);
    compileMs.push_back(cms);
    printf("%-44s search+detect %8.1f ms  launches %4llu  thread-instrs %10llu  compile %6.1f ms%s\n",
           name.c_str(), ms, analysis ? (unsigned long long)analysis->counts.simulated() : 0ull,
           analysis ? (unsigned long long)analysis->threadInstrs : 0ull, cms,
           analysis ? "" : "  (error)");
  }
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
  };
  printf("\njobs %u (0 = all cores)\n", jobs);
  printf("%zu kernels: search+detect median %.1f ms, slowest %.1f ms (%s); compile median %.1f ms\n",
         searchMs.size(), median(searchMs), *std::max_element(searchMs.begin(), searchMs.end()),
         slowest.c_str(), median(compileMs));
  return 0;
}
