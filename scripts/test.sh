#!/usr/bin/env bash
# Sets up (scripts/setup.sh), builds, and runs every test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
if ! ctest --test-dir build --output-on-failure -j "$(nproc)"; then
  # A log is often read from its end: repeat the first failure's output last.
  ctest --test-dir build --rerun-failed --output-on-failure --stop-on-failure 2>&1 | tail -n 80
  exit 1
fi

# The Python package: pip compiles the module only, linked against the
# libraries just built in build/ (python/build/ is kept, so a second run only
# relinks); then its tests run against the installed package, its simulee
# command and build/simulee.
if command -v ccache >/dev/null; then export CMAKE_CXX_COMPILER_LAUNCHER=ccache; fi
CMAKE_BUILD_PARALLEL_LEVEL="$(nproc)" .venv/bin/python -m pip install -q --disable-pip-version-check \
  --no-build-isolation ./python
.venv/bin/python -m pytest -q python/tests
