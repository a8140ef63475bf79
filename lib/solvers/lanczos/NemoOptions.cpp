#include "solvers/lanczos/NemoOptions.hpp"

#include <cstdio>

namespace tbpeta::lanczos {

const char *const kNemoOptionsTitle = "EPS nemo: Lanczos in the style of NEMO 3-D (tbpeta)";

namespace {

// Each value as allowed, in one line that names its option.
PetscErrorCode CheckNemoSettings(MPI_Comm comm, const std::string &p, const LanczosOptions &o, PetscInt valence,
                                 bool valence_set, PetscInt seed, bool checkpoint_set) {
  const char *q = p.c_str();
  PetscFunctionBeginUser;
  PetscCheck(!valence_set || valence >= 0, comm, PETSC_ERR_USER_INPUT,
             "%seps_nemo_valence must be >= 0, got %" PetscInt_FMT, q, valence);
  PetscCheck(o.check_every >= 1, comm, PETSC_ERR_USER_INPUT, "%seps_nemo_check_every must be >= 1, got %" PetscInt_FMT,
             q, o.check_every);
  PetscCheck(seed >= 0, comm, PETSC_ERR_USER_INPUT, "%seps_nemo_seed must be >= 0, got %" PetscInt_FMT, q, seed);
  PetscCheck(o.multiplicity_passes >= 0, comm, PETSC_ERR_USER_INPUT,
             "%seps_nemo_multiplicity_passes must be >= 0, got %" PetscInt_FMT, q, o.multiplicity_passes);
  PetscCheck(o.checkpoint_every >= 1, comm, PETSC_ERR_USER_INPUT,
             "%seps_nemo_checkpoint_every must be >= 1, got %" PetscInt_FMT, q, o.checkpoint_every);
  PetscCheck(o.ritz_batch >= 1 && o.ritz_batch <= 64, comm, PETSC_ERR_USER_INPUT,
             "%seps_nemo_ritz_batch must be between 1 and 64, got %" PetscInt_FMT, q, o.ritz_batch);
  PetscCheck(!checkpoint_set || !o.checkpoint.empty(), comm, PETSC_ERR_USER_INPUT,
             "%seps_nemo_checkpoint needs a file name", q);
  PetscCheck(o.stop_after >= 0, comm, PETSC_ERR_USER_INPUT, "%seps_nemo_stop_after must be >= 0, got %" PetscInt_FMT, q,
             o.stop_after);
  PetscCheck(o.stop_after == 0 || !o.checkpoint.empty(), comm, PETSC_ERR_USER_INPUT,
             "%seps_nemo_stop_after needs %seps_nemo_checkpoint FILE: the run continues from there", q, q);
  PetscFunctionReturn(0);
}

} // namespace

PetscErrorCode ReadNemoOptions(PetscOptionItems *PetscOptionsObject, MPI_Comm comm, const std::string &p, PetscInt nev,
                               NemoSettings *s) {
  LanczosOptions &o = s->opts;
  PetscInt seed = (PetscInt)o.seed, valence = s->valence == PETSC_DEFAULT ? nev / 2 : s->valence;
  PetscBool vectors = o.vectors ? PETSC_TRUE : PETSC_FALSE, bound = o.multiplicity_bound ? PETSC_TRUE : PETSC_FALSE,
            ck_set = PETSC_FALSE, valence_set = PETSC_FALSE;
  char ck[PETSC_MAX_PATH_LEN];
  PetscFunctionBeginUser;
  std::snprintf(ck, sizeof ck, "%s", o.checkpoint.c_str());
  PetscCall(PetscOptionsInt(
      "-eps_nemo_valence", "States (with multiplicity) below the target; the rest of -eps_nev above it (default: half)",
      "EPSNemoSetValence", valence, &valence, &valence_set));
  PetscCall(PetscOptionsInt("-eps_nemo_check_every", "Steps between convergence checks of the tridiagonal", "EPSNEMO",
                            o.check_every, &o.check_every, nullptr));
  PetscCall(PetscOptionsInt("-eps_nemo_seed", "Seed of the start vector (>= 0): the same vector on any number of ranks",
                            "EPSNEMO", seed, &seed, nullptr));
  PetscCall(PetscOptionsInt("-eps_nemo_multiplicity_passes",
                            "Restarted passes for degeneracy beyond Kramers pairs (0: Kramers pairs only)", "EPSNEMO",
                            o.multiplicity_passes, &o.multiplicity_passes, nullptr));
  PetscCall(PetscOptionsBool("-eps_nemo_multiplicity_bound",
                             "A restarted pass stops once the Christoffel function of its tridiagonal bounds the start "
                             "vector's weight at every level below the floor (false: it runs its fixed length)",
                             "EPSNEMO", bound, &bound, nullptr));
  PetscCall(PetscOptionsBool("-eps_nemo_vectors",
                             "Eigenvectors by a second pass (false: eigenvalues only, no restarted passes)", "EPSNEMO",
                             vectors, &vectors, nullptr));
  PetscCall(PetscOptionsString("-eps_nemo_checkpoint",
                               "File: save every pass there, and continue from it when it exists (none by default)",
                               "EPSNEMO", ck, ck, sizeof ck, &ck_set));
  PetscCall(PetscOptionsInt("-eps_nemo_checkpoint_every",
                            "Steps of the first and the second pass between checkpoint "
                            "writes",
                            "EPSNEMO", o.checkpoint_every, &o.checkpoint_every, nullptr));
  PetscCall(PetscOptionsInt("-eps_nemo_stop_after",
                            "End the run at the first checkpoint written after this many products of H, to continue "
                            "later with the same command (0: never; needs -eps_nemo_checkpoint)",
                            "EPSNEMO", o.stop_after, &o.stop_after, nullptr));
  PetscCall(PetscOptionsInt("-eps_nemo_ritz_batch",
                            "Lanczos vectors the second pass adds to the eigenvectors in one sweep over them (each "
                            "beyond 2 held as one more vector during that pass)",
                            "EPSNEMO", o.ritz_batch, &o.ritz_batch, nullptr));
  o.checkpoint = ck;
  PetscCall(CheckNemoSettings(comm, p, o, valence, valence_set, seed, ck_set));
  if (valence_set) s->valence = valence;
  o.seed = (unsigned long long)seed;
  o.vectors = vectors;
  o.multiplicity_bound = bound;
  PetscFunctionReturn(0);
}

PetscErrorCode ListNemoOptions(MPI_Comm comm, double) {
  NemoSettings defaults;
  PetscFunctionBeginUser;
  PetscOptionsBegin(comm, nullptr, kNemoOptionsTitle, "EPS");
  PetscCall(ReadNemoOptions(PetscOptionsObject, comm, "-", 8, &defaults));
  PetscOptionsEnd();
  PetscFunctionReturn(0);
}

std::vector<RenamedOption> NemoRenamedOptions() {
  return {{"-lanczos_nev_valence", "-eps_nev (all states) with -eps_nemo_valence (those below the target)"},
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
          {"-lanczos_checkpoint_every", "-eps_nemo_checkpoint_every"}};
}

} // namespace tbpeta::lanczos
