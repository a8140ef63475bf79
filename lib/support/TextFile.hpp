#pragma once
// A small text output (a CSV table) written whole or not at all: rank 0 writes it under a temporary name and
// renames it into place, and every rank learns whether that worked, so a failure is one collective line and never
// leaves a half-written file.
#include <petscsys.h>

#include <string>

namespace tbpeta {

// Writes `text` to `path`; on failure PETSC_ERR_FILE_OPEN "<option> <path>: could not write the file" on every rank
// of comm and no file (the temporary is removed). Collective.
PetscErrorCode WriteTextFile(MPI_Comm comm, const std::string &path, const std::string &text, const char *option);

} // namespace tbpeta
