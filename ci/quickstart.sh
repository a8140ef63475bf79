#!/usr/bin/env bash
# Quick start: installs the Debian packages, builds, and runs the default job (options/quickstart.opts) on 2 ranks.
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/install-deps.sh
bash ci/build.sh
source ci/env.sh
mkdir -p results
mpiexec -n 2 build/bin/tbpeta -options_file options/quickstart.opts -output results/quickstart.h5
