#pragma once
// Reading published parameter sets from tbpeta's data files (data/params/<set>/<Material>.tbp), or a user's own
// file in the same format. This is the only place (with Output) that reads files.
#include <petscsys.h>

#include <string>
#include <vector>

#include "model/MaterialParameters.hpp"

namespace tbpeta {

// Directory holding params/<set>/<Material>.tbp: $TBPETA_DATA_DIR if set, else the configured data directory.
std::string dataDirectory();

// Rank 0 reads a small data file and sends its bytes to every rank, so all parse the same text and raise the same
// error; `what` names the kind of file in the one-line errors ("parameter file"). Collective.
PetscErrorCode ReadDataFileOnRankZero(MPI_Comm comm, const char *what, const std::string &path, std::string *text);

// Names of the shipped sets (the sub-directories of params/), sorted.
std::vector<std::string> shippedSets();
// Materials available in a shipped set, sorted; empty if the set does not exist.
std::vector<std::string> materialsInSet(const std::string &set);

// Load `material` from shipped set `set`. Errors (PETSC_ERR_USER_INPUT, collective on comm, one line that names the
// option and lists what is allowed): unknown set (-params), material missing from the set (-material / -dot_material).
PetscErrorCode LoadShippedMaterial(MPI_Comm comm, const std::string &set, const std::string &material,
                                   MaterialParameters *out);
// Same, naming `material_option` (e.g. "-dot_material") instead of "-material" in the missing-material error.
PetscErrorCode LoadShippedMaterial(MPI_Comm comm, const std::string &set, const std::string &material,
                                   const char *material_option, MaterialParameters *out);

// Load a parameter file in the project's format (see README "Parameter file format"). Errors name the file, the line
// and the key: unreadable file, malformed line, unknown key, missing key, non-numeric value.
PetscErrorCode LoadParameterFile(MPI_Comm comm, const std::string &path, MaterialParameters *out);

} // namespace tbpeta
