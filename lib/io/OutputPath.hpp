#pragma once
// The -output path, checked before any work, and the temporary names a results file is written under before it is
// renamed into place (so that a failed run leaves nothing half-written).
#include <petscsys.h>

#include <string>

namespace tbpeta {

// PETSC_ERR_USER_INPUT and one line "OPTION PATH: ..." when the path's directory does not exist or is not writable,
// PATH is a directory or not a regular file, its name is longer than 200 characters, or PATH does not end in
// `extension`: every file a program writes is checked here, before any work. Collective (rank 0 looks, the result is
// broadcast).
PetscErrorCode CheckOutputFile(MPI_Comm comm, const std::string &path, const char *option, const char *extension);

// -output PATH: CheckOutputFile for .h5, and the XDMF file beside it must not be a directory or special file either.
PetscErrorCode CheckOutputPath(MPI_Comm comm, const std::string &path);

// A random suffix ".tmp-<16 hex digits>" for temporary names (call on rank 0, broadcast).
std::string TemporarySuffix();

} // namespace tbpeta
