#!/usr/bin/env bash
# The sanitizer leg of CI (issue 13): builds, with clang 19 and
# ASan+UBSan (-fno-sanitize-recover), only what hostile inputs reach -- the
# libraries, the simulee binary, the ir/interp/cli test suites and the two
# libFuzzer targets -- runs those suites, then fuzzes load -> lower -> launch
# (IR text and bitcode, seeds compiled from corpus/) for FUZZ_SECONDS
# (default 60) and launch files (seeds in tests/fuzz/launch-regressions/)
# for a third of that. Fails on any sanitizer report, test failure or fuzzer
# crash; a crash input is left in $BUILD/fuzz-artifacts/ (copy it to
# tests/fuzz/regressions/ or tests/fuzz/launch-regressions/).
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD=${SANITIZE_BUILD_DIR:-build-sanitize}
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
JOBS=${JOBS:-$(nproc)}
CLANG=${CLANG:-clang-19}
start=$(date +%s)
elapsed() { echo "$(($(date +%s) - start))s"; }

flags="-O1 -g1 -fno-omit-frame-pointer -fsanitize=address,undefined,fuzzer-no-link"
flags+=" -fno-sanitize-recover=all -fno-sanitize=vptr" # LLVM is built without RTTI
flags+=" -Wno-deprecated-declarations"             # libstdc++ 12 internals under clang
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# The CUDA installation a build finds without flags sits in its own build
# directory (from the wheels scripts/setup.sh downloaded; cached).
scripts/cuda-headers.sh "$BUILD/cuda"
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=None \
  -DCMAKE_CXX_COMPILER=clang++-19 "${launcher[@]}" \
  -DCMAKE_CXX_FLAGS="$flags" -DSIMULEE_BUILD_BENCH=OFF -DSIMULEE_BUILD_FUZZER=ON >/dev/null
cmake --build "$BUILD" -j "$JOBS" --target simulee simulee_ir_tests simulee_interp_tests \
  simulee_cli_tests simulee_fuzz simulee_fuzz_launch
echo "sanitize: built in $(elapsed)"

# A sanitizer report exits 86, so no test can mistake it for a finding (1).
export ASAN_OPTIONS=detect_leaks=0:exitcode=86:abort_on_error=0
export UBSAN_OPTIONS=halt_on_error=1:exitcode=86:print_stacktrace=1
# Each suite in $JOBS shards at once (its tests already run side by side
# under ctest); the first failing shard's status is the leg's.
for suite in ir interp cli; do
  pids=()
  for ((shard = 0; shard < JOBS; ++shard)); do
    GTEST_TOTAL_SHARDS=$JOBS GTEST_SHARD_INDEX=$shard "$BUILD/simulee_${suite}_tests" --gtest_brief=1 &
    pids+=($!)
  done
  failed=0
  for pid in "${pids[@]}"; do
    wait "$pid" || { status=$?; ((failed)) || failed=$status; }
  done
  ((failed == 0)) || { echo "sanitize: $suite suite failed (exit $failed)"; exit "$failed"; }
done
echo "sanitize: test suites passed in $(elapsed)"

# Seeds: every corpus kernel as IR, and the IR files the tests use.
seeds="$BUILD/fuzz-seeds"
rm -rf "$seeds"
mkdir -p "$seeds" "$BUILD/fuzz-corpus" "$BUILD/fuzz-artifacts"
for cu in corpus/*.cu; do
  "$CLANG" -x cuda --cuda-device-only -nocudainc -nocudalib --cuda-path=/nonexistent \
    -Wno-unknown-cuda-version --cuda-gpu-arch=sm_70 -isystem src/ir/device \
    -include simulee_cuda.h -emit-llvm -S -O0 -Xclang -disable-O0-optnone \
    "$cu" -o "$seeds/$(basename "$cu" .cu).ll" 2>/dev/null || true
done
# Bitcode as well: the reader of untrusted .bc runs in a child process.
for ll in "$seeds"/*.ll; do
  llvm-as-19 "$ll" -o "${ll%.ll}.bc" 2>/dev/null || true
done
find tests -name '*.ll' -exec cp {} "$seeds/" \;
cp tests/fuzz/regressions/* "$seeds/" 2>/dev/null || true
echo "sanitize: $(ls "$seeds" | wc -l) seeds"

"$BUILD/simulee_fuzz" "$BUILD/fuzz-corpus" "$seeds" -max_total_time="$FUZZ_SECONDS" \
  -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
  -artifact_prefix="$BUILD/fuzz-artifacts/" 2>&1 | tee "$BUILD/fuzz.log" | grep -v '^#'
status=${PIPESTATUS[0]}
grep -E 'stat::number_of_executed_units|stat::new_units_added' "$BUILD/fuzz.log" || true
echo "sanitize: IR fuzzing done in $(elapsed) (fuzzer exit $status)"
((status == 0)) || exit "$status"

mkdir -p "$BUILD/fuzz-launch-corpus"
"$BUILD/simulee_fuzz_launch" "$BUILD/fuzz-launch-corpus" tests/fuzz/launch-regressions \
  -max_total_time="$(((FUZZ_SECONDS + 2) / 3))" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
  -print_final_stats=1 -artifact_prefix="$BUILD/fuzz-artifacts/" 2>&1 |
  tee "$BUILD/fuzz-launch.log" | grep -v '^#'
status=${PIPESTATUS[0]}
grep -E 'stat::number_of_executed_units|stat::new_units_added' "$BUILD/fuzz-launch.log" || true
echo "sanitize: done in $(elapsed) (launch-file fuzzer exit $status)"
exit "$status"
