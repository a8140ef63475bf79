#pragma once
// Options that tbpeta had under another name. Each owner registers its own renames (an EPS type with its registration,
// RegisterSolvers; the application its own) before the options are checked, and every one given is then refused in
// one line that names its successor (application/RenamedOptions), so that a script of an earlier version fails
// clearly instead of being half-understood. docs/solvers.md lists them all.
#include <petscsys.h>

#include <span>
#include <string>
#include <vector>

namespace tbpeta {

struct RenamedOption {
  std::string option;    // "-lanczos_seed"
  std::string successor; // "-eps_nemo_seed": what the message says to use instead
};

// Adds renames to the registry (an option registered again takes its new successor). Not collective.
void RegisterRenamedOptions(std::span<const RenamedOption> renamed);

// Every registered rename, in the order registered. Not collective.
const std::vector<RenamedOption> &RegisteredRenamedOptions();

// PETSC_ERR_USER_INPUT "OPTION was renamed: use SUCCESSOR" for the first registered rename present in the options
// database. Collective.
PetscErrorCode RefuseRegisteredRenamedOptions(MPI_Comm comm);

} // namespace tbpeta
