#!/usr/bin/env bash
# The 2M-thread shared-memory reduction under simulee (race detection on,
# as `simulee run` always is) and under Debian's Oclgrind on its OpenCL twin
# (bench/oclgrind/reduce_shared.cl), with and without Oclgrind's race
# detection, one thread each (and simulee with its blocks on two threads,
# --jobs 2); wall time and peak memory from /usr/bin/time. Last, the same
# reduction's thread loops compiled natively (interp_bench's
# ReduceSharedNative, beside the build's simulee), the floor to compare with.
#
#   bash bench/oclgrind_compare.sh [SIMULEE]     # default build/simulee
#
# Needs `apt-get install oclgrind`. Run on an idle machine.
set -euo pipefail
cd "$(dirname "$0")/.."
simulee=${1:-build/simulee}
n=2097152
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp bench/oclgrind/reduce_shared.cl "$work/"
cat > "$work/reduce.sim" <<SIM
reduce_shared.cl
reduceSum
$n 1 1
256 1 1

<size=$((n * 4)) int fill=1>

<size=$((n / 256 * 4)) int fill=0>

<size=4 int>
$n
SIM
measure() { /usr/bin/time -f "$1: %e s wall, %M KB peak" "${@:2}" > /dev/null; }
for jobs in 1 2; do
  measure "simulee run --jobs $jobs (races checked)" "$simulee" run tests/interp/kernels/reduce_shared.cu \
    --grid $((n / 256)) --block 256 --arg n=$n --arg in=random:$n --arg blockSums=zeros:$((n / 256)) \
    --jobs $jobs -q
done
(cd "$work" && measure "oclgrind --data-races" oclgrind-kernel --num-threads 1 --data-races reduce.sim)
(cd "$work" && measure "oclgrind" oclgrind-kernel --num-threads 1 reduce.sim)
bench=$(dirname "$simulee")/bench/interp_bench
if [ -x "$bench" ]; then
  "$bench" --benchmark_filter='ReduceSharedNative' 2>/dev/null |
    awk '/ReduceSharedNative/ { print "native thread loops (no checks), " $1 ": " $2 / 1000 " s wall" }'
fi
