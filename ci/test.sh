#!/usr/bin/env bash
# Installs the Debian packages, builds, runs the whole test suite (ctest; MPI tests on 1, 2 and 3 ranks; the docs'
# option tables and examples), then the checks beyond it (ci/checks.sh: fuzzing, ASan+UBSan, PETSc's -malloc_dump,
# the 64-bit-index build). The variants those checks need are compiled at the lowest priority while ctest runs: its
# many short mpiexec jobs leave a core idle much of the time.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
stamp() { echo "ci/test.sh: $* ($(($(date +%s) - start)) s)"; }
bash ci/install-deps.sh
bash ci/build.sh
stamp "built"
source ci/env.sh
nice -n 19 bash ci/checks.sh build >build-variants.log 2>&1 &
variants=$!
suite=0
(cd build && ctest -j2 --output-on-failure --timeout 600) || suite=1
stamp "ctest done"
built=0
wait $variants || built=1
[ $built = 0 ] || { tail -40 build-variants.log; echo "ci/test.sh: compiling the variants of ci/checks.sh failed" >&2; }
rm -f build-variants.log
[ $suite = 0 ] && [ $built = 0 ] || exit 1
# The checks are independent and made of many short runs that leave the cores idle while MPI starts: two at a time.
bash ci/checks.sh fuzz index64 >build-checks-a.log 2>&1 &
first=$!
failed=0
bash ci/checks.sh asan mallocdump || failed=1
wait $first || { failed=1; echo "ci/test.sh: the fuzz or index64 check failed" >&2; }
cat build-checks-a.log; rm -f build-checks-a.log
[ $failed = 0 ] || exit 1
stamp "all passed"
