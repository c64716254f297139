// `simulee replay` and `simulee FILE --replay` end to end. Without a GPU the
// whole pipeline after the build is exercised with stand-ins on PATH: a fake
// nvcc whose "harness" copies the simulation's final buffers as the GPU's
// outputs (optionally making one vary between runs, differ from the
// simulation, or fault), a fake compute-sanitizer that prints a report in
// compute-sanitizer's format, and a fake nvidia-smi. The real nvcc is used
// for the no-GPU path; the real GPU, when there is one, for the last tests.
#include "ReplayTestSupport.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

namespace simulee::replay_test {
namespace {

// The fake harness: argument 1 the directory, 2 the runs, 3 the prefix.
constexpr const char *kFakeHarness = R"sh(#!/bin/sh
dir=$1; runs=$2; prefix=${3:-run}
if [ "$FAKE_GPU" = none ]; then
  echo "simulee-replay: no-gpu: cudaGetDeviceCount: cudaErrorNoDevice: fake"; exit 3
fi
echo "simulee-replay: device: Fake GPU (compute capability 9.0)"
if [ -n "$FAKE_KERNEL_ERROR" ]; then
  echo "simulee-replay: kernel-error: cudaDeviceSynchronize: cudaErrorIllegalAddress: fake"; exit 4
fi
bump() { # adds 1 to the first byte of $1
  v=$(od -An -tu1 -N1 "$1" | tr -d ' ')
  printf "\\$(printf '%03o' $(( (v + 1) % 256 )))" | dd of="$1" bs=1 count=1 conv=notrunc 2>/dev/null
}
run=0
while [ $run -lt "$runs" ]; do
  for sim in "$dir"/arg*.sim.bin; do
    [ -e "$sim" ] || continue
    name=$(basename "$sim" .sim.bin)
    cp "$sim" "$dir/$prefix$run.$name.bin"
    [ "$name" = "arg$FAKE_CORRUPT_PARAM" ] && bump "$dir/$prefix$run.$name.bin"
    [ $run = 1 ] && [ "$name" = "arg$FAKE_VARY_PARAM" ] && bump "$dir/$prefix$run.$name.bin"
  done
  run=$((run + 1))
done
echo "simulee-replay: done: $runs runs"
)sh";

// The fake nvcc: checks it was given a harness, then writes the fake one.
constexpr const char *kFakeNvcc = R"sh(#!/bin/sh
out=; for a in "$@"; do [ "$prev" = -o ] && out=$a; prev=$a; source=$a; done
grep -q "#define main simulee_replay_source_main" "$source" || { echo "not a harness" >&2; exit 1; }
[ -n "$FAKE_BUILD_ERROR" ] && { echo "harness.cu(3): error: fake" >&2; exit 1; }
cp "$FAKE_HARNESS" "$out" && chmod +x "$out"
)sh";

constexpr const char *kFakeSanitizer = R"sh(#!/bin/sh
tool=$2; shift 2
"$@" > /dev/null
echo "========= COMPUTE-SANITIZER"
[ "$tool" = racecheck ] && [ -n "$FAKE_RACECHECK" ] && cat "$FAKE_RACECHECK"
[ "$tool" = synccheck ] && [ -n "$FAKE_SYNCCHECK" ] && cat "$FAKE_SYNCCHECK"
[ "$tool" = memcheck ] && [ -n "$FAKE_MEMCHECK" ] && cat "$FAKE_MEMCHECK"
echo "========= ERROR SUMMARY: 0 errors"
)sh";

constexpr const char *kFakeSmi = "#!/bin/sh\necho 9.0\n";

class ReplayCli : public ::testing::Test {
protected:
  void SetUp() override {
    fs::create_directories(tools_.path() + "/bin");
    install("bin/nvcc", kFakeNvcc);
    install("bin/compute-sanitizer", kFakeSanitizer);
    install("bin/nvidia-smi", kFakeSmi);
    install("fake-harness", kFakeHarness);
  }

  void install(const std::string &name, const char *text) {
    writeFile(tools_.file(name), text);
    fs::permissions(tools_.file(name), fs::perms::owner_all);
  }

  // The environment of a run with the fakes (and no real CUDA) on PATH.
  std::string fakeEnvironment(const std::string &extra = "") const {
    return "env PATH=" + quote(tools_.path() + "/bin:/usr/bin:/bin") +
           " CUDA_HOME=/nonexistent FAKE_HARNESS=" + quote(tools_.file("fake-harness")) + " " +
           extra;
  }

  std::string launchFile(const std::string &json) {
    writeFile(work_.file("launch.json"), json);
    return work_.file("launch.json");
  }

  Outcome replay(const std::string &source, const std::string &launch,
                 std::vector<std::string> extra = {}, const std::string &environment = "") {
    std::vector<std::string> args = {"replay", sourcePath(source), "--launch", launch,
                                     "--dir",  work_.file("out"),  "--runs",   "3"};
    args.insert(args.end(), extra.begin(), extra.end());
    return simulee(args, fakeEnvironment(environment));
  }

  TempDir tools_, work_;
};

std::string raceLaunch() {
  return launchJson("shared_rw_two_warps", "[1,1,1]", "[64,1,1]",
                    "\"in\": \"random:64\", \"out\": \"zeros:64\"");
}

std::string cleanLaunch() {
  return launchJson("reduce_interleaved", "[2,1,1]", "[256,1,1]",
                    "\"in\": \"random:512\", \"out\": \"zeros:2\", \"n\": \"512\"");
}

TEST_F(ReplayCli, WithoutNvccTheHarnessIsWrittenAndTheReasonGiven) {
  Outcome o = simulee({"replay", sourcePath("corpus/shared_rw_two_warps.cu"), "--launch",
                       launchFile(raceLaunch()), "--dir", work_.file("out")},
                      "env PATH=/nonexistent CUDA_HOME=/nonexistent");
  EXPECT_EQ(o.status, 3) << o;
  EXPECT_TRUE(contains(o.out, "not run (no compiler): nvcc not found")) << o;
  EXPECT_TRUE(contains(o.out, "shared_rw_two_warps.cu:7:18: data-race: no GPU")) << o;
  for (const char *file : {"harness.cu", "build.sh", "launch.json", "arg0.bin", "arg0.sim.bin",
                           "arg1.bin", "arg1.sim.bin"})
    EXPECT_TRUE(fs::exists(work_.file("out/") + file)) << file;
  // The buffers are the exact bytes the simulation started from and ended with.
  EXPECT_EQ(fs::file_size(work_.file("out/arg0.bin")), 64u * 4);
  std::string initialOut = readFile(work_.file("out/arg1.bin"));
  EXPECT_EQ(initialOut, std::string(64 * 4, '\0'));
  EXPECT_NE(readFile(work_.file("out/arg1.sim.bin")), initialOut);
  EXPECT_EQ(readFile(work_.file("out/arg1.sim.bin")).substr(0, 4),
            readFile(work_.file("out/arg0.bin")).substr(4, 4)); // out[0] = in[1]
}

TEST_F(ReplayCli, WithNvccButNoGpuTheBuiltHarnessSaysSo) {
  if (!haveNvcc())
    GTEST_SKIP() << "nvcc not found: the real build is not tested";
  if (haveGpu())
    GTEST_SKIP() << "a GPU is present: the no-GPU path cannot be shown";
  Outcome o = simulee({"replay", sourcePath("corpus/shared_rw_two_warps.cu"), "--launch",
                       launchFile(raceLaunch()), "--dir", work_.file("out"), "--format", "json"});
  EXPECT_EQ(o.status, 3) << o;
  nlohmann::json doc = nlohmann::json::parse(o.out, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << o;
  const nlohmann::json &result = doc["replays"][0];
  EXPECT_EQ(result["state"], "no GPU") << o;
  EXPECT_FALSE(result["reason"].get<std::string>().empty());
  EXPECT_EQ(result["findings"][0]["verdict"], "no GPU");
  EXPECT_EQ(result["findings"][0]["kind"], "data-race");
  EXPECT_TRUE(fs::exists(work_.file("out/harness"))); // nvcc built it
}

TEST_F(ReplayCli, RaceFreeLaunchMatchingTheSimulationExitsZero) {
  Outcome o = replay("corpus/reduce_interleaved.cu", launchFile(cleanLaunch()),
                     {"-D", "REPLAY_TEST_DEFINE=1"});
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_TRUE(contains(o.out, "ran 3 times on Fake GPU (compute capability 9.0) (sm_90)")) << o;
  EXPECT_TRUE(contains(o.out, "the GPU computes what the simulator computes")) << o;
  EXPECT_TRUE(contains(o.out, "buffer 'out' (8 bytes): the same in every run; matches the "
                              "simulation exactly"))
      << o;
  std::string build = readFile(work_.file("out/build.sh"));
  EXPECT_TRUE(contains(build, "-arch=sm_90")) << build;
  EXPECT_TRUE(contains(build, "-DREPLAY_TEST_DEFINE=1")) << build; // as analysed
  EXPECT_TRUE(fs::exists(work_.file("out/run2.arg1.bin")));
}

TEST_F(ReplayCli, RaceFreeLaunchDifferingFromTheSimulationIsReported) {
  Outcome o = replay("corpus/reduce_interleaved.cu", launchFile(cleanLaunch()),
                     {"--format", "json", "--ulp", "0"}, "FAKE_CORRUPT_PARAM=1");
  EXPECT_EQ(o.status, 1) << o;
  nlohmann::json result = nlohmann::json::parse(o.out)["replays"][0];
  EXPECT_EQ(result["state"], "ran");
  EXPECT_TRUE(result["raceFree"].get<bool>());
  EXPECT_FALSE(result["matchesSimulation"].get<bool>());
  const nlohmann::json &out = result["buffers"][1];
  EXPECT_EQ(out["name"], "out");
  EXPECT_TRUE(out["floating"].get<bool>());
  EXPECT_EQ(out["elementsDifferingFromSimulation"], 1);
  EXPECT_EQ(out["firstDifference"]["offset"], 0);

  // The fake's change is one ulp of out[0]: within the default bound of 4.
  Outcome within = replay("corpus/reduce_interleaved.cu", launchFile(cleanLaunch()),
                          {"--format", "json"}, "FAKE_CORRUPT_PARAM=1");
  EXPECT_EQ(within.status, 0) << within;
  nlohmann::json withinResult = nlohmann::json::parse(within.out)["replays"][0];
  EXPECT_TRUE(withinResult["matchesSimulation"].get<bool>());
  EXPECT_EQ(withinResult["buffers"][1]["maxUlp"], 1);
}

TEST_F(ReplayCli, RacyGlobalBufferThatVariesConfirmsTheRace) {
  std::string launch = launchFile(
      launchJson("flag_waw", "[1,1,1]", "[64,1,1]", "\"flag\": \"zeros:1\", \"n\": \"64\""));
  Outcome varies = replay("corpus/flag_waw.cu", launch, {}, "FAKE_VARY_PARAM=0");
  EXPECT_EQ(varies.status, 1) << varies;
  EXPECT_TRUE(contains(varies.out, "flag_waw.cu:5:")) << varies;
  EXPECT_TRUE(contains(varies.out, "data-race: confirmed ('flag' varies across runs)")) << varies;
  EXPECT_TRUE(contains(varies.out, "varies across runs (1 of 2 later runs differ")) << varies;

  Outcome steady = replay("corpus/flag_waw.cu", launch);
  EXPECT_EQ(steady.status, 0) << steady;
  EXPECT_TRUE(contains(steady.out, "data-race: not reproduced (3 runs with identical outputs)"))
      << steady;
}

TEST_F(ReplayCli, SharedMemoryRaceIsConfirmedByAnyOutputThatVaries) {
  Outcome o =
      replay("corpus/shared_rw_two_warps.cu", launchFile(raceLaunch()), {}, "FAKE_VARY_PARAM=1");
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_TRUE(contains(o.out, "data-race: confirmed (outputs vary across runs (out))")) << o;
  // A parameter that does not exist varies nothing: not reproduced.
  Outcome inputOnly =
      replay("corpus/shared_rw_two_warps.cu", launchFile(raceLaunch()), {}, "FAKE_VARY_PARAM=7");
  EXPECT_EQ(inputOnly.status, 0) << inputOnly;
  EXPECT_TRUE(contains(inputOnly.out, "data-race: not reproduced")) << inputOnly;
}

TEST_F(ReplayCli, RacecheckHazardOnTheFindingsLinesConfirmsIt) {
  std::string source = sourcePath("corpus/shared_rw_two_warps.cu");
  writeFile(work_.file("racecheck.txt"),
            "========= Error: Race reported between Write access at 0x4f0 in " + source +
                ":7:shared_rw_two_warps(float const*, float*)\n"
                "=========     and Read access at 0x560 in " +
                source +
                ":8:shared_rw_two_warps(float const*, float*) [62 hazards]\n"
                "=========     and Read access at 0x5a0 in " +
                source + ":3:shared_rw_two_warps(float const*, float*) [1 hazards]\n");
  Outcome o = replay("corpus/shared_rw_two_warps.cu", launchFile(raceLaunch()),
                     {"--sanitizer", "--format", "json"},
                     "FAKE_RACECHECK=" + quote(work_.file("racecheck.txt")));
  EXPECT_EQ(o.status, 1) << o;
  nlohmann::json result = nlohmann::json::parse(o.out)["replays"][0];
  EXPECT_TRUE(result["sanitizer"]["ran"].get<bool>()) << o.out;
  ASSERT_EQ(result["sanitizer"]["hazards"].size(), 2u);
  EXPECT_TRUE(result["sanitizer"]["hazards"][0]["matched"].get<bool>());
  EXPECT_FALSE(result["sanitizer"]["hazards"][1]["matched"].get<bool>());
  EXPECT_EQ(result["findings"][0]["verdict"], "confirmed");
  EXPECT_TRUE(contains(result["findings"][0]["evidence"], "racecheck: Error: Race reported"));
  EXPECT_TRUE(fs::exists(work_.file("out/racecheck.log")));
  EXPECT_TRUE(fs::exists(work_.file("out/racecheck0.arg1.bin"))); // its own outputs
}

TEST_F(ReplayCli, SanitizerWithoutMatchingHazardLeavesTheRaceNotReproduced) {
  Outcome o = replay("corpus/shared_rw_two_warps.cu", launchFile(raceLaunch()), {"--sanitizer"});
  EXPECT_EQ(o.status, 0) << o;
  EXPECT_TRUE(contains(o.out, "data-race: not reproduced (3 runs with identical outputs, no "
                              "matching sanitizer hazard)"))
      << o;
}

TEST_F(ReplayCli, SynccheckOnTheBarrierConfirmsTheDivergence) {
  std::string source = sourcePath("corpus/barrier_in_branch.cu");
  writeFile(work_.file("synccheck.txt"),
            "========= Barrier error detected. Divergent thread(s) in warp\n"
            "=========     at 0x2d0 in " +
                source +
                ":8:barrier_in_branch(float const*, float*)\n"
                "=========     by thread (16,0,0) in block (0,0,0)\n");
  Outcome o = replay("corpus/barrier_in_branch.cu",
                     launchFile(launchJson("barrier_in_branch", "[1,1,1]", "[64,1,1]",
                                           "\"in\": \"random:64\", \"out\": \"zeros:64\"")),
                     {"--sanitizer"}, "FAKE_SYNCCHECK=" + quote(work_.file("synccheck.txt")));
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_TRUE(contains(o.out, "barrier-divergence: confirmed (synccheck: Barrier error detected. "
                              "Divergent thread(s) in warp)"))
      << o;
}

TEST_F(ReplayCli, KernelFaultConfirmsAnOutOfBoundsFinding) {
  Outcome o = replay("corpus/oob_tile_load.cu",
                     launchFile(launchJson("oob_tile_load", "[2,1,1]", "[64,1,1]",
                                           "\"in\": \"random:100\", \"out\": \"zeros:100\", "
                                           "\"n\": \"100\"")),
                     {}, "FAKE_KERNEL_ERROR=1");
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_TRUE(contains(o.out, "out-of-bounds: confirmed (the kernel failed on the GPU: "
                              "cudaDeviceSynchronize: cudaErrorIllegalAddress"))
      << o;
}

TEST_F(ReplayCli, MemcheckOnTheAccessLineConfirmsAnOutOfBoundsFinding) {
  std::string source = sourcePath("corpus/oob_tile_load.cu");
  writeFile(work_.file("memcheck.txt"), "========= Invalid __global__ read of size 4 bytes\n"
                                        "=========     at 0x70 in " +
                                            source +
                                            ":6:oob_tile_load(float const*, float*, int)\n"
                                            "=========     by thread (36,0,0) in block (1,0,0)\n");
  std::string launch =
      launchFile(launchJson("oob_tile_load", "[2,1,1]", "[64,1,1]",
                            "\"in\": \"random:100\", \"out\": \"zeros:100\", \"n\": \"100\""));
  Outcome o = replay("corpus/oob_tile_load.cu", launch, {"--sanitizer"},
                     "FAKE_MEMCHECK=" + quote(work_.file("memcheck.txt")));
  EXPECT_EQ(o.status, 1) << o;
  EXPECT_TRUE(contains(o.out, "out-of-bounds: confirmed (memcheck: Invalid __global__ read of "
                              "size 4 bytes)"))
      << o;
  EXPECT_TRUE(fs::exists(work_.file("out/memcheck.log")));
  // Without the report, the runs alone show nothing.
  Outcome quiet = replay("corpus/oob_tile_load.cu", launch, {"--sanitizer"});
  EXPECT_EQ(quiet.status, 0) << quiet;
  EXPECT_TRUE(contains(quiet.out, "out-of-bounds: not reproduced")) << quiet;
}

TEST_F(ReplayCli, NoGpuAndBuildFailureExitThree) {
  Outcome noGpu =
      replay("corpus/reduce_interleaved.cu", launchFile(cleanLaunch()), {}, "FAKE_GPU=none");
  EXPECT_EQ(noGpu.status, 3) << noGpu;
  EXPECT_TRUE(contains(noGpu.out, "not run (no GPU): cudaGetDeviceCount: cudaErrorNoDevice"))
      << noGpu;
  Outcome broken =
      replay("corpus/reduce_interleaved.cu", launchFile(cleanLaunch()), {}, "FAKE_BUILD_ERROR=1");
  EXPECT_EQ(broken.status, 3) << broken;
  EXPECT_TRUE(contains(broken.out, "not run (build failed): nvcc could not build the harness"))
      << broken;
  EXPECT_TRUE(contains(broken.out, "error: fake")) << broken;
}

TEST_F(ReplayCli, BadInputIsOneErrorLine) {
  Outcome ir = replay("tests/cli/inputs/wide_multiply.ll",
                      launchFile(launchJson("wideSquare", "[1,1,1]", "[32,1,1]", "")));
  EXPECT_EQ(ir.status, 2) << ir;
  EXPECT_TRUE(contains(ir.err, "simulee: error: ")) << ir;
  EXPECT_TRUE(contains(ir.err, "replay needs the kernel's CUDA source (.cu)")) << ir;

  Outcome sarif =
      replay("corpus/reduce_interleaved.cu", launchFile(cleanLaunch()), {"--format", "sarif"});
  EXPECT_EQ(sarif.status, 2) << sarif;
  EXPECT_TRUE(contains(sarif.err, "text or json, not sarif")) << sarif;

  Outcome missing = replay("corpus/reduce_interleaved.cu", work_.file("no-such-launch.json"));
  EXPECT_EQ(missing.status, 2) << missing;
  EXPECT_TRUE(contains(missing.err, "cannot read the launch file")) << missing;

  Outcome badKernel = replay("corpus/reduce_interleaved.cu",
                             launchFile(launchJson("nope", "[1,1,1]", "[32,1,1]", "")));
  EXPECT_EQ(badKernel.status, 2) << badKernel;
  EXPECT_TRUE(contains(badKernel.err, "no kernel named 'nope'")) << badKernel;
}

TEST_F(ReplayCli, SearchModeReplaysEveryFindingsLaunch) {
  std::string directory = work_.file("replays");
  Outcome text =
      simulee({sourcePath("corpus/flag_waw.cu"), "--quiet", "--replay", "--replay-dir", directory},
              fakeEnvironment("FAKE_VARY_PARAM=0"));
  EXPECT_EQ(text.status, 1) << text;
  EXPECT_TRUE(contains(text.out, "[data-race]")) << text; // the report
  EXPECT_TRUE(contains(text.out, "replay: kernel 'flag_waw'")) << text;
  EXPECT_TRUE(contains(text.out, "data-race: confirmed")) << text;
  EXPECT_TRUE(fs::exists(directory + "/flag_waw-1/harness.cu"));

  Outcome json = simulee({sourcePath("corpus/flag_waw.cu"), "--quiet", "--replay", "--replay-dir",
                          directory, "--format", "json"},
                         fakeEnvironment());
  EXPECT_EQ(json.status, 1) << json;
  EXPECT_FALSE(nlohmann::json::parse(json.out, nullptr, false).is_discarded()) << json;
  nlohmann::json replays = nlohmann::json::parse(readFile(directory + "/replay.json"));
  ASSERT_FALSE(replays["replays"].empty());
  EXPECT_EQ(replays["replays"][0]["kernel"], "flag_waw");
  EXPECT_TRUE(contains(json.err, "replay results in " + directory + "/replay.json")) << json;
}

// --- On a real GPU ------------------------------------------------------

class ReplayOnGpu : public ::testing::Test {
protected:
  void SetUp() override {
    if (!haveNvcc())
      GTEST_SKIP() << "nvcc not found";
    if (!haveGpu())
      GTEST_SKIP() << "no GPU (nvidia-smi -L lists none): GPU replay not tested";
  }
  TempDir work_;
};

TEST_F(ReplayOnGpu, RaceFreeCorpusKernelMatchesTheSimulation) {
  writeFile(work_.file("launch.json"), cleanLaunch());
  Outcome o = simulee({"replay", sourcePath("corpus/reduce_interleaved.cu"), "--launch",
                       work_.file("launch.json"), "--dir", work_.file("out"), "--format", "json"});
  ASSERT_EQ(o.status, 0) << o;
  nlohmann::json result = nlohmann::json::parse(o.out)["replays"][0];
  EXPECT_EQ(result["state"], "ran");
  EXPECT_TRUE(result["matchesSimulation"].get<bool>()) << o.out;
  EXPECT_FALSE(result["variesAcrossRuns"].get<bool>()) << o.out;
}

TEST_F(ReplayOnGpu, DeviceVariableIsResetBetweenRuns) {
  writeFile(work_.file("launch.json"),
            launchJson("count_launch", "[1,1,1]", "[32,1,1]",
                       "\"seen\": \"zeros:2\", \"scale\": \"1.5\", \"offset\": \"-3\""));
  Outcome o = simulee({"replay", sourcePath("tests/replay/kernels/extern_c.cu"), "--launch",
                       work_.file("launch.json"), "--dir", work_.file("out"), "--format", "json"});
  ASSERT_EQ(o.status, 0) << o;
  nlohmann::json result = nlohmann::json::parse(o.out)["replays"][0];
  EXPECT_TRUE(result["matchesSimulation"].get<bool>()) << o.out;
  EXPECT_FALSE(result["variesAcrossRuns"].get<bool>()) << o.out;
}

} // namespace
} // namespace simulee::replay_test
