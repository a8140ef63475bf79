#!/usr/bin/env bash
# Installs the Debian packages, checks the layout of the sources (ci/format.sh), builds, runs the whole test suite
# (ctest; MPI tests on 1, 2 and 3 ranks; the docs' option tables and examples), then the checks beyond it
# (ci/checks.sh: fuzzing, ASan+UBSan, PETSc's -malloc_dump, the 64-bit-index build).
# The machine has 2 cores and the work is CPU-bound, so the order packs it: the variants the checks need compile at
# the lowest priority while ctest runs (its many short mpiexec jobs leave a core idle much of the time), the ASan one
# (also the 64-bit-index one) first; after ctest two streams run side by side, each starting on the main build while
# the variants finish, then each check as soon as its variant is ready: -malloc_dump's tbpeta runs, then ASan on 1
# rank; and -malloc_dump's test programs, fuzzing (10 s of new inputs unless FUZZ_SECONDS says otherwise), the
# 64-bit-index refusal check, then ASan on 2 ranks (the two streams end about together). The install check
# (ci/install-check.sh) runs after the variants compiled, at the lowest priority beside ctest's last tests.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
stamp() { echo "ci/test.sh: $* ($(($(date +%s) - start)) s)"; }
bash ci/install-deps.sh
bash ci/checks.sh format
bash ci/build.sh
stamp "built"
source ci/env.sh
rm -f build-ready-*
(
  set -e
  for variant in asan fuzz; do
    nice -n 19 bash ci/checks.sh build-$variant
    touch build-ready-$variant
    echo "ci/test.sh: the $variant variant compiled ($(($(date +%s) - start)) s)"
  done
  # Then the install (ci/install-check.sh: cmake --install, the installed tbpeta on the quick start, a user's
  # find_package and pkg-config builds), in what ctest's tail leaves of the cores.
  nice -n 19 bash ci/install-check.sh >build-install-check.log 2>&1 ||
    { echo "ci/test.sh: the install check failed"; exit 1; }
  echo "ci/test.sh: the install check passed ($(($(date +%s) - start)) s)"
) >build-variants.log 2>&1 &
variants=$!
# Waits until the variant $1 is compiled; fails (with the compiler's output) when its compilation failed.
ready() {
  while [ ! -f build-ready-$1 ]; do
    if ! kill -0 $variants 2>/dev/null && [ ! -f build-ready-$1 ]; then
      tail -40 build-variants.log
      echo "ci/test.sh: compiling the $1 variant of ci/checks.sh failed" >&2
      return 1
    fi
    sleep 1
  done
}
suite=0
(cd build && ctest -j2 --output-on-failure --timeout 3600) || suite=1
stamp "ctest done"
[ $suite = 0 ] || { kill $variants 2>/dev/null || true; exit 1; }
(bash ci/checks.sh mallocdump-tests && ready fuzz && FUZZ_SECONDS=${FUZZ_SECONDS:-10} bash ci/checks.sh fuzz && ready asan && bash ci/checks.sh index64 &&
  bash ci/checks.sh asan-2) >build-checks-a.log 2>&1 &
first=$!
failed=0
bash ci/checks.sh mallocdump-runs || failed=1
stamp "mallocdump-runs done"
(ready asan && bash ci/checks.sh asan-1) || failed=1
stamp "asan-1 done"
wait $first || { failed=1; echo "ci/test.sh: the mallocdump-tests, fuzz, index64 or asan-2 check failed" >&2; }
stamp "mallocdump-tests, fuzz, index64 and asan-2 done"
wait $variants || failed=1
grep "variant compiled\|install check" build-variants.log || true
cat build-checks-a.log
[ ! -f build-install-check.log ] || cat build-install-check.log
rm -f build-checks-a.log build-variants.log build-install-check.log build-ready-*
[ $failed = 0 ] || exit 1
stamp "all passed"
