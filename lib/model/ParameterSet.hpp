#pragma once
// Reading parameter sets from tbpeta's data files (params/<set>/<Material>.tbp of the data directories,
// support/InstallLayout.hpp), or a user's own file in the same format. A set is registered by its folder alone: the
// sets are the folders found at run time, and each file says what it is (set, basis, spin-orbit, citation).
#include <petscsys.h>

#include <string>
#include <vector>

#include "model/MaterialParameters.hpp"

namespace tbpeta {

// The first data directory (DataDirectories(): $TBPETA_DATA_DIR's first entry if set, else the built-in one).
std::string dataDirectory();

// Rank 0 reads a small data file and sends its bytes to every rank, so all parse the same text and raise the same
// error; `what` names the kind of file in the one-line errors ("parameter file"). Collective.
PetscErrorCode ReadDataFileOnRankZero(MPI_Comm comm, const char *what, const std::string &path, std::string *text);

// Names of the sets (the sub-directories of params/ of every data directory), sorted; a set of an earlier data
// directory hides one of the same name in a later one.
std::vector<std::string> shippedSets();
// Materials available in a set, sorted; empty if the set does not exist.
std::vector<std::string> materialsInSet(const std::string &set);
// What a set is, from its own files, for -help: "vogl1983 (sp3s*: AlAs, GaAs, InAs, Si)" (the basis of its first
// file; a file that does not parse is named). Reads files; not collective.
std::string DescribeParameterSet(const std::string &set);
// Every set described, comma-separated.
std::string DescribeParameterSets();

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
