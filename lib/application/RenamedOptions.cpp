#include "application/RenamedOptions.hpp"

#include <cstring>

namespace tbpeta {

namespace {

struct Renamed {
  const char *option;
  const char *successor;
};

// The table of docs/solvers.md ("Renamed options").
constexpr Renamed kRenamed[] = {
    {"-solver",
     "-eps_type nemo|folded|krylovschur|... (SLEPc's EPS types and tbpeta's), or -compare for -solver compare"},
    {"-lanczos_nev_valence", "-eps_nev (all states) with -eps_nemo_valence (those below the target)"},
    {"-lanczos_nev_conduction", "-eps_nev (all states) with -eps_nemo_valence (those below the target)"},
    {"-lanczos_gap_center", "-eps_target"},
    {"-lanczos_window", "-eps_interval"},
    {"-lanczos_check_every", "-eps_nemo_check_every"},
    {"-lanczos_max_steps", "-eps_max_it"},
    {"-lanczos_seed", "-eps_nemo_seed"},
    {"-lanczos_tol", "-eps_tol"},
    {"-lanczos_monitor", "-eps_monitor"},
    {"-lanczos_multiplicity_passes", "-eps_nemo_multiplicity_passes"},
    {"-lanczos_vectors", "-eps_nemo_vectors"},
    {"-lanczos_checkpoint", "-eps_nemo_checkpoint"},
    {"-lanczos_checkpoint_every", "-eps_nemo_checkpoint_every"},
    {"-folded_shift", "-eps_target (with -eps_type folded)"},
    {"-folded_nev", "-eps_nev (with -eps_type folded)"},
    {"-folded_solver", "-folded_eps_type (krylovschur, arpack, nemo, ...)"},
    {"-mat_type", "-hamiltonian aij|baij (tbpeta does not read -mat_type)"},
};

} // namespace

PetscErrorCode RefuseRenamedOptions(MPI_Comm comm) {
  PetscBool set;
  char value[64] = "";
  PetscFunctionBeginUser;
  for (const Renamed &r : kRenamed) {
    PetscCall(PetscOptionsHasName(nullptr, nullptr, r.option, &set));
    PetscCheck(!set, comm, PETSC_ERR_USER_INPUT, "%s was renamed: use %s", r.option, r.successor);
  }
  PetscCall(PetscOptionsGetString(nullptr, nullptr, "-hamiltonian", value, sizeof value, &set));
  PetscCheck(!set || std::strcmp(value, "stored") != 0, comm, PETSC_ERR_USER_INPUT,
             "-hamiltonian stored was renamed: use -hamiltonian aij (or baij)");
  PetscFunctionReturn(0);
}

} // namespace tbpeta
