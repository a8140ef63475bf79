#!/usr/bin/env bash
# Configures and builds tbpeta (Release, Ninja) into build/; executables land in build/bin/. Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."
# A build/ configured with another generator (an older checkout used make) is configured afresh.
if [ -f build/CMakeCache.txt ] && ! grep -q "^CMAKE_GENERATOR:INTERNAL=Ninja$" build/CMakeCache.txt; then rm -rf build; fi
cmake -G Ninja -S . -B build -DCMAKE_BUILD_TYPE=Release >build-configure.log 2>&1 || { cat build-configure.log; exit 1; }
rm -f build-configure.log
cmake --build build -j"$(getconf _NPROCESSORS_ONLN)"
