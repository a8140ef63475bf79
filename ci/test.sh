#!/usr/bin/env bash
# Installs the Debian packages, builds, runs the whole test suite (ctest; MPI tests on 1, 2 and 3 ranks), then the
# checks beyond it (ci/checks.sh: fuzzing, ASan+UBSan, PETSc's -malloc_dump, the 64-bit-index build, 8 ranks).
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/install-deps.sh
bash ci/build.sh
source ci/env.sh
(cd build && ctest --output-on-failure --timeout 600)
bash ci/checks.sh
