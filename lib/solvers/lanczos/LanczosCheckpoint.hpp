#pragma once
// The checkpoint of the first Lanczos pass: T, the last two Lanczos vectors, the seed, the rank count and the matrix
// size, written to FILE.partial and renamed to FILE when complete (a failed write leaves no .partial and the previous
// checkpoint in place). A run given an existing FILE continues from it, so its result is bit for bit that of an
// uninterrupted run; a checkpoint made on another rank count, for another matrix size or seed, or for another H (its
// first step is recomputed and must agree bit for bit) is refused in one line. `prefix`: the option prefix of the
// messages ("-" + the EPS's prefix), which name -<prefix>eps_nemo_checkpoint.
#include <petscviewer.h>

#include <string>
#include <vector>

#include "solvers/lanczos/LanczosRecurrence.hpp"

namespace tbpeta::lanczos {

// Whether FILE exists; one line when it exists but cannot be read, or its directory is not writable. Collective.
PetscErrorCode CheckCheckpointPath(MPI_Comm comm, const std::string &prefix, const std::string &path, bool *exists);

// Saves T (alpha[0..m), beta[0..m]) and r.vprev, r.v; `done`: the pass had stopped converged. Collective.
PetscErrorCode SaveCheckpoint(Recurrence &r, const std::string &prefix, const std::string &path, unsigned long long seed, const std::vector<double> &alpha, const std::vector<double> &beta, bool done);

// Loads T into alpha, beta and the last two vectors into r.vprev, r.v, after checking that the first step of this H
// from the same start vector reproduces the file's. Collective.
PetscErrorCode LoadCheckpoint(Recurrence &r, const std::string &prefix, const std::string &path, unsigned long long seed, std::vector<double> *alpha, std::vector<double> *beta, bool *done);

} // namespace tbpeta::lanczos
