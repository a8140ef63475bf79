#!/usr/bin/env bash
# The checks beyond the test suite (called by ci/test.sh; format before the build, the others after ctest; each part
# also runs alone):
#   format     the layout: C++ by clang-format (.clang-format), Python by black (pyproject.toml); a file that either
#              would change fails (bash ci/format.sh rewrites them)
#   fuzz       the parameter-file reader under libFuzzer with ASan+UBSan (ci/fuzz.sh)
#   asan       the fast tests and tbpeta built with AddressSanitizer + UndefinedBehaviorSanitizer against the
#              64-bit-index PETSc/SLEPc (build-asan/, -O1 with line tables), 1 and 2 ranks (test_lanczos on 2)
#   mallocdump PETSc's -malloc_dump on MPI tests and -malloc_debug -malloc_dump on tbpeta runs of every solver (2 ranks): PETSc
#              exits 0 even when it reports unfreed memory, so its output is read here and any report fails the job
#   index64    a system beyond 32-bit indices: refused by the main build, accepted by build-asan/ (64-bit indices)
#   mallocdump-tests, mallocdump-runs   the two halves of mallocdump (the test programs; the tbpeta runs)
#   asan-1, asan-2                      the two halves of asan (the tests on 1 rank and the tbpeta runs; on 2 ranks)
#   bash ci/checks.sh [format fuzz asan mallocdump index64]   (default: all; after ci/install-deps.sh and ci/build.sh)
#   bash ci/checks.sh build                            only compiles the variants of fuzz, asan and index64; a later
#                                                      run finds them up to date (build-asan and build-fuzz compile
#                                                      one: ci/test.sh runs them beside ctest)
# One variant serves both asan and index64: the same sources compiled twice more (sanitised, and with 64-bit PetscInt)
# cost 74 s of CPU for the second; the sanitised tests then run with 64-bit indices, which is what index64 tested.
# (8 oversubscribed ranks, with uneven and one-plane domains, are part of ctest: test_many_ranks_np8.)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
source ci/env.sh
parts=${*:-format fuzz asan mallocdump index64}
jobs=$(getconf _NPROCESSORS_ONLN)  # not nproc: ci/env.sh sets OMP_NUM_THREADS=1, which nproc honours
mpi="mpiexec --oversubscribe --bind-to none -q"
note() { echo "ci/checks.sh: $*"; }
# (the parameter reader runs under ASan+UBSan in the fuzz part; the Slater-Koster blocks in test_hamiltonian's)
asan_tests="test_structure test_hamiltonian test_block_hamiltonian test_lanczos test_halo test_strain"

# Configures and compiles a variant in DIR with the given CMake options and targets (Ninja: a second call is a no-op).
variant() {
  local dir=$1 targets=$2; shift 2
  cmake -G Ninja -S . -B "$dir" "$@" >"$dir.log" 2>&1 || { cat "$dir.log"; return 1; }
  cmake --build "$dir" -j"$jobs" --target $targets >>"$dir.log" 2>&1 || { tail -40 "$dir.log"; return 1; }
  rm -f "$dir.log"
}
build_asan() { variant build-asan "$asan_tests tbpeta" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-O1 -DTBPETA_SANITIZE=ON -DTBPETA_INDEX64=ON; }
# The sanitisers' settings: leak detection is off (below), OpenMPI's memory hooks and OpenBLAS's AVX2 kernels kept out.
asan_env() {
  # Leak detection is off here: OpenMPI loads its components with dlopen and unloads them at MPI_Finalize, so
  # LeakSanitizer sees the runtime's own one-time allocations from "unknown modules" that no suppression can
  # name. Leaks are checked where they can be told apart: PETSc memory by -malloc_dump (mallocdump below), the
  # parameter reader under LeakSanitizer in the fuzz part; tbpeta's own C++ holds memory in RAII containers.
  export ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:halt_on_error=1:exitcode=99:detect_odr_violation=0
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  # OpenMPI's memory hooks and ASan's allocator do not mix; OpenBLAS's AVX2 zgemv kernels (zgemv_n_HASWELL, _ZEN)
  # fault on buffers from ASan's allocator inside zheev (LAPACK is not instrumented), its SSE3 kernels do not.
  export OMPI_MCA_memory=^patcher OPENBLAS_CORETYPE=Prescott
}

for part in $parts; do
  case $part in
  build)
    build_asan
    FUZZ_BUILD_ONLY=1 bash ci/fuzz.sh
    note "build: the variants of asan, index64 and fuzz are compiled"
    ;;
  format)
    bash ci/format.sh --check
    ;;
  build-asan) build_asan ;;
  build-fuzz) FUZZ_BUILD_ONLY=1 bash ci/fuzz.sh ;;
  fuzz)
    bash ci/fuzz.sh # FUZZ_SECONDS of new inputs, 20 by default (README)
    ;;
  asan | asan-1 | asan-2)
    # asan-1 (the tests on 1 rank, then the tbpeta runs) and asan-2 (the tests on 2 ranks) are its two halves, which
    # ci/test.sh runs in its two streams.
    tests=$asan_tests
    ranks="1 2"
    [ $part = asan-1 ] && ranks=1
    [ $part = asan-2 ] && ranks=2
    # The halves run side by side (ci/test.sh) on the variant compiled before them: configuring it twice at once
    # would clash, so only the whole part (re)builds it.
    if [ $part = asan ]; then
      build_asan
    elif [ ! -x build-asan/bin/tbpeta ]; then
      note "$part: compile the ASan variant first (bash ci/checks.sh build-asan)"; exit 1
    fi
    asan_env
    for t in $tests; do
      for np in $ranks; do
        log=build-asan/$t-np$np.log
        # test_lanczos on 2 ranks only: the same recurrence, passes, vectors and checkpoints as on 1 rank, with the
        # halo and the reductions (18 s of CPU on 1 rank, which CI's last phase, bound by its CPU, waited for).
        [ $np = 1 ] && [ $t = test_lanczos ] && continue
        # On 2 ranks without the test that compares whole solves (its memory is touched on 1 rank, its halo
        # exchanges by the others): 12 s of CPU on 1 rank, 20 on 2.
        filter=""
        [ $np = 2 ] && [ $t = test_block_hamiltonian ] && filter="--gtest_filter=-*SolversGiveTheSameStates"
        if ! $mpi -n $np build-asan/bin/$t --expected-ranks=$np $filter >"$log" 2>&1; then
          tail -40 "$log"; note "asan: $t on $np ranks failed"; exit 1
        fi
        if grep -qE "ERROR: (Address|Leak)Sanitizer|runtime error:" "$log"; then
          grep -E -A20 "ERROR: (Address|Leak)Sanitizer|runtime error:" "$log" | head -60; note "asan: $t on $np ranks: sanitizer report"; exit 1
        fi
      done
      note "asan: $t clean"
    done
    if [ $part = asan-2 ]; then
      note "asan: no sanitizer report on 2 ranks"
      unset ASAN_OPTIONS UBSAN_OPTIONS OMPI_MCA_memory OPENBLAS_CORETYPE
      continue
    fi
    # The executable on a small solve of each solver (exit 0) and on bad input (exit 1, one error line): a run that ends
    # otherwise (an abort, a PETSc error on good input) fails here even without a sanitizer report.
    for run in "0|-cells 2,2,2 -dot_material InAs -dot_radius 0.4 -eps_type nemo" "0|-cells 2,2,2 -eps_type folded -hamiltonian shell" \
               "0|-cells 2,2,2 -eps_type krylovschur -eps_nev 4" "1|-cells 2,2,2 -params_file /nonexistent.tbp"; do
      expected=${run%%|*} args=${run#*|}
      log=build-asan/tbpeta.log
      set +e
      $mpi -n 2 build-asan/bin/tbpeta $args >"$log" 2>&1
      rc=$?
      set -e
      if grep -qE "ERROR: (Address|Leak)Sanitizer|runtime error:" "$log"; then
        grep -E -A20 "ERROR: (Address|Leak)Sanitizer|runtime error:" "$log" | head -60; note "asan: tbpeta $args: sanitizer report"; exit 1
      fi
      [ $rc = "$expected" ] || { tail -20 "$log"; note "asan: tbpeta $args: exit $rc, $expected expected"; exit 1; }
      [ $expected = 0 ] || [ "$(grep -c "tbpeta: error:" "$log")" = 1 ] || { cat "$log"; note "asan: tbpeta $args: one error line expected"; exit 1; }
    done
    unset ASAN_OPTIONS UBSAN_OPTIONS OMPI_MCA_memory OPENBLAS_CORETYPE
    note "asan: no sanitizer report"
    ;;
  mallocdump | mallocdump-tests | mallocdump-runs)
    # At PetscFinalize PETSc prints one line per unfreed block, "[ 0] 112 bytes main() at leak.c:5" (checked with a
    # deliberate leak), and "Corrupted memory" for a damaged one; the tracker of vectors held (-compare) steps aside.
    # mallocdump-tests and mallocdump-runs are its two halves (ci/test.sh runs them in its two streams).
    dump() {
      local log=$1; shift
      PETSC_OPTIONS="${PETSC_DUMP:--malloc_debug -malloc_dump}" "$@" >"$log" 2>&1 || { tail -30 "$log"; note "mallocdump: $* failed"; exit 1; }
      if grep -qE "^\[ *[0-9]+\] *[0-9]+ bytes |Corrupted memory|Total space allocated" "$log"; then
        grep -E -A10 "^\[ *[0-9]+\] *[0-9]+ bytes |Corrupted memory|Total space allocated" "$log" | head -40; note "mallocdump: $* left PETSc memory unfreed"; exit 1
      fi
    }
    mkdir -p build/mallocdump
    if [ "$part" != mallocdump-runs ]; then
      # The test programs with -malloc_dump alone: PETSc's allocator then tracks every block and checks each one's
      # guards when it is freed, without -malloc_debug's check of the whole heap at every call (5 to 12 times slower
      # on test_block_hamiltonian and test_strain); the same programs run under ASan, which finds corrupted memory.
      for t in test_structure test_hamiltonian test_block_hamiltonian test_halo test_parameters test_strain; do
        PETSC_DUMP="-malloc_dump" dump build/mallocdump/$t.log $mpi -n 2 build/bin/$t --expected-ranks=2
      done
      PETSC_DUMP="-malloc_dump" dump build/mallocdump/lanczos.log $mpi -n 2 build/bin/test_lanczos --expected-ranks=2 --gtest_filter=-*Checkpoint*
      note "mallocdump: no unfreed PETSc memory in 7 test programs"
    fi
    if [ "$part" != mallocdump-tests ]; then
      i=0
      for args in "-eps_type nemo" "-eps_type nemo -hamiltonian shell" "-eps_type folded" "-eps_type folded -folded_eps_type nemo" "-eps_type krylovschur -eps_nev 4" \
                  "-eps_type krylovschur -st_type sinvert -eps_nev 4" "-compare -compare_max_products 4000" "-hamiltonian stored_blocks" "-strain keating -strain_pad_cells 1,1,1"; do
        i=$((i + 1))
        dump build/mallocdump/tbpeta-$i.log $mpi -n 2 build/bin/tbpeta -cells 2,2,2 -periodic 0,0,0 -dot_material InAs -dot_radius 0.4 -output build/mallocdump/run-$part.h5 $args
      done
      # Runs that fail after the structure, H and the solver exist: an option read late (the checkpoint's directory),
      # a solver that stops before anything converged, an output that cannot be created (/sys/fs: writable for root by
      # its mode, refused by the kernel; for other users refused earlier). Each must fail (exit 1, one line) and free
      # everything on its way out.
      for args in "-eps_nemo_checkpoint /nonexistent-dir/ck.bin" "-eps_max_it 3" "-output /sys/fs/tbpeta-mallocdump.h5"; do
        i=$((i + 1))
        log=build/mallocdump/tbpeta-$i.log
        set +e
        PETSC_OPTIONS="-malloc_debug -malloc_dump" $mpi -n 2 build/bin/tbpeta -cells 2,2,2 -periodic 0,0,0 -dot_material InAs -dot_radius 0.4 $args >"$log" 2>"$log.err"
        rc=$?
        set -e
        [ $rc = 1 ] && [ "$(grep -c "tbpeta: error:" "$log.err")" = 1 ] || { cat "$log.err"; tail -20 "$log"; note "mallocdump: tbpeta $args: exit $rc (1 and one error line expected)"; exit 1; }
        if grep -qE "^\[ *[0-9]+\] *[0-9]+ bytes |Corrupted memory|Total space allocated" "$log" "$log.err"; then
          grep -hE -A10 "^\[ *[0-9]+\] *[0-9]+ bytes |Corrupted memory" "$log" "$log.err" | head -40; note "mallocdump: tbpeta $args left PETSc memory unfreed"; exit 1
        fi
      done
      note "mallocdump: no unfreed PETSc memory in $i tbpeta runs (3 of them failing late)"
    fi
    ;;
  index64)
    # The 64-bit-index variant is build-asan/ (compiled by the asan part or ci/checks.sh build-asan; its tests ran
    # there). 108 million atoms x 20 rows: beyond 32-bit indices. The 32-bit build refuses it naming the 64-bit build;
    # the 64-bit build accepts the indices and stops at the memory preflight instead.
    [ -x build-asan/bin/tbpeta ] || { note "index64: compile the ASan variant first (bash ci/checks.sh build-asan)"; exit 1; }
    grep -q "define PETSC_USE_64BIT_INDICES 1" "$(pkg-config --variable=includedir PETSc64)/petscconf.h"
    grep -q "^TBPETA_INDEX64:BOOL=ON" build-asan/CMakeCache.txt || { note "index64: build-asan/ is not the 64-bit-index build"; exit 1; }
    set +e
    build/bin/tbpeta -cells 300,300,150 -params nemo3d -memory_limit 4000 >build-asan/rows32.log 2>&1; rc32=$?
    (asan_env && build-asan/bin/tbpeta -cells 300,300,150 -params nemo3d -memory_limit 4000) >build-asan/rows64.log 2>&1; rc64=$?
    set -e
    [ $rc32 -ne 0 ] && grep -q "beyond the 32-bit indices of this PETSc build.*64-bit-index build" build-asan/rows32.log || { cat build-asan/rows32.log; note "index64: the 32-bit build did not refuse"; exit 1; }
    [ $rc64 -ne 0 ] && grep -q "\-memory_limit: this run needs about" build-asan/rows64.log || { cat build-asan/rows64.log; note "index64: the 64-bit build did not reach the preflight"; exit 1; }
    note "index64: 2.16e9 rows refused by the 32-bit build, accepted by the 64-bit one (whose tests ran in the asan part)"
    ;;
  *) echo "ci/checks.sh: error: unknown part '$part' (allowed: fuzz asan asan-1 asan-2 mallocdump mallocdump-tests mallocdump-runs index64, or build build-asan build-fuzz)" >&2; exit 1 ;;
  esac
done
