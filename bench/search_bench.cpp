// Issue 4's benchmark: the whole search + detect time per corpus kernel at
// the CLI's default settings (population 10, generations 10, seed 1, jobs =
// all cores, searched at the file's call sites as `simulee FILE` does), with
// the .cu compile and the host-code reading excluded (reported as "compile").
//
//   build/bench/search_bench [JOBS] [sites|explore] [NAME...]
//     JOBS: 0 = all cores (default), 1 = one core
//     explore: ignore the call sites, as `simulee --explore FILE`
//     NAME: only the corpus manifests with these names (for profiling)
#include "ir/Loader.h"
#include "session/Analysis.h"
#include "session/SiteSearch.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <set>

using namespace simulee;
using Clock = std::chrono::steady_clock;

int main(int argc, char **argv) {
  unsigned jobs = argc > 1 ? unsigned(std::atoi(argv[1])) : 0;
  bool explore = argc > 2 && std::string(argv[2]) == "explore";
  std::set<std::string> only(argv + std::min(argc, 3), argv + argc);
  std::filesystem::path dir = std::filesystem::path(SIMULEE_SOURCE_DIR) / "corpus";
  std::vector<std::filesystem::path> manifests;
  for (const auto &entry : std::filesystem::directory_iterator(dir))
    if (entry.path().extension() == ".json" &&
        (only.empty() || only.count(entry.path().stem().string())))
      manifests.push_back(entry.path());
  std::sort(manifests.begin(), manifests.end());

  // Wall time is what a user waits; CPU time (all threads) is the steadier
  // figure on a loaded machine.
  std::vector<double> searchMs, cpuMsAll, compileMs;
  std::string slowest;
  for (const auto &path : manifests) {
    std::ifstream in(path);
    nlohmann::json manifest = nlohmann::json::parse(in);
    std::string name = path.stem().string();
    std::string source = (dir / manifest.value("file", name.substr(0, name.find('.')) + ".cu")).string();
    auto t0 = Clock::now();
    Result<ir::Program> program = ir::loadProgram(source);
    if (!program) {
      fprintf(stderr, "%s\n", program.error().message.c_str());
      return 1;
    }
    std::vector<host::CallSite> sites;
    if (!explore) {
      Result<host::HostCode> host = session::readHostCode(source, {});
      if (host)
        sites = host->sites;
    }
    auto t1 = Clock::now();
    const ir::KernelInfo *kernel = program->findKernel(manifest["kernel"].get<std::string>());
    session::SearchSettings settings;
    settings.search.seed = 1;
    settings.search.jobs = jobs;
    session::AnalysisOptions options;
    options.independentThreads = !manifest.value("lockstep", false);
    auto t2 = Clock::now();
    std::clock_t c2 = std::clock();
    Result<session::KernelAnalysis> analysis =
        session::searchAtSites(*program, *kernel, session::sitesOf(*program, *kernel, sites), {},
                               settings, options);
    auto t3 = Clock::now();
    double cpuMs = 1000.0 * double(std::clock() - c2) / CLOCKS_PER_SEC;
    double ms = std::chrono::duration<double, std::milli>(t3 - t2).count();
    double cms = std::chrono::duration<double, std::milli>(t1 - t0).count();
    if (!searchMs.empty() && ms > *std::max_element(searchMs.begin(), searchMs.end()))
      slowest = name;
    if (searchMs.empty())
      slowest = name;
    searchMs.push_back(ms);
    cpuMsAll.push_back(cpuMs);
    compileMs.push_back(cms);
    printf("%-44s search+detect %8.1f ms  cpu %8.1f ms  launches %4llu  thread-instrs %10llu  compile %6.1f ms%s\n",
           name.c_str(), ms, cpuMs, analysis ? (unsigned long long)analysis->counts.simulated() : 0ull,
           analysis ? (unsigned long long)analysis->threadInstrs : 0ull, cms,
           analysis ? "" : "  (error)");
  }
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
  };
  printf("\njobs %u (0 = all cores), %s\n", jobs, explore ? "explore (no call sites)" : "at call sites");
  printf("%zu kernels: search+detect median %.1f ms (cpu %.1f ms), slowest %.1f ms (%s); compile median %.1f ms\n",
         searchMs.size(), median(searchMs), median(cpuMsAll), *std::max_element(searchMs.begin(), searchMs.end()),
         slowest.c_str(), median(compileMs));
  return 0;
}
