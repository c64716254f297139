#!/usr/bin/env bash
# Installs every Debian package simulee needs to build and test, then
# configures and builds it into build/. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  build-essential cmake ninja-build git python3 python3-pip python3-dev python3-venv libomp-19-dev
  llvm-19-dev clang-19 libclang-19-dev libclang-rt-19-dev
  libcli11-dev libgtest-dev libgmock-dev libbenchmark-dev
  libeigen3-dev nlohmann-json3-dev pybind11-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# NVIDIA's CUDA headers (runtime, CCCL, cuRAND) and libdevice from PyPI.
scripts/cuda-headers.sh build/cuda

# The Python package's build and test dependencies, in .venv (PyPI).
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -r python/requirements-dev.txt

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build -j "$(nproc)"
