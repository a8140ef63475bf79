#pragma once
// Helpers shared by tbpeta's tests: the rank count ctest launched the test with, so that every MPI test can
// assert that it really runs on that many ranks; a clean environment for child jobs; edited parameter files; a
// test vector that is the same on any number of ranks.
#include <gtest/gtest.h>
#include <petscmat.h>

#include <functional>
#include <string>

namespace tbpeta::test {
int expectedRanks(); // from --expected-ranks=N (ctest); -1 when run by hand
int commSize();      // size of PETSC_COMM_WORLD
int commRank();
// "env -u ..." that removes the MPI launcher's and this process's MPI variables (keeping OpenMPI's run-as-root
// permission), so that a command started from a test (a child mpiexec or a program of its own) starts cleanly; a
// job whose rank fails is ended without OpenMPI's one-second grace.
std::string CleanMpiEnvironment();
// The text of the parameter file at `path` with its line of `key` (at the start of a line) replaced by `line`.
std::string EditedParameterText(const std::string &path, const std::string &key, const std::string &line);
// *x: a vector of H's layout with entries from a hash of the global row, the same on any number of ranks.
PetscErrorCode HashedVector(Mat H, Vec *x);
// A 160-row open box of GaAs in the sp3s*+SO set: the system of the families' recipe tests (test_register_*.cpp).
inline constexpr const char *kTinyBox = "-params klimeck2000 -cells 2,1,1 -periodic 0,0,0";
// What PETSc prints to stdout (PetscPrintf, on rank 0) and what -help lists (on every rank) while f runs, kept off the
// terminal (other streams pass through). PETSc lists each options section once per run: its record of the sections
// listed is fresh for f and restored after. *ierr: f's error code (else a non-zero one fails the test).
std::string CapturePrinted(const std::function<PetscErrorCode()> &f, PetscErrorCode *ierr = nullptr);
} // namespace tbpeta::test

// Every MPI test starts with this: it fails when the test runs on another rank count than ctest registered.
#define TBPETA_ASSERT_RANKS()                                                                                          \
  do {                                                                                                                 \
    if (::tbpeta::test::expectedRanks() > 0) {                                                                         \
      ASSERT_EQ(::tbpeta::test::commSize(), ::tbpeta::test::expectedRanks());                                          \
    }                                                                                                                  \
  } while (0)
