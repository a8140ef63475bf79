#pragma once
// The runs of the comparison of eigen-solvers: each is an EPS with the options prefix "<name>_", its solver given as
// options (set unless the user set them with the prefix), then asked the comparison's question and capped in products
// through the solver's own traits (solvers/SolverTraits.hpp), so that its own options (e.g. -ks_harmonic_eps_tol or
// -folded_arpack_folded_eps_ncv) tune it as they tune any EPS. A new run is one entry in ComparisonRuns(); a run of
// the user's own is any other name in -compare_runs with -<name>_eps_type given.
//   lanczos         nemo on H (NEMO 3-D-style Lanczos)
//   ks_harmonic     SLEPc Krylov-Schur with harmonic extraction on H, target E
//   sinvert         SLEPc Krylov-Schur + shift-and-invert (MUMPS LU), target E; needs H's entries
//   folded_ks       folded, SLEPc Krylov-Schur on (H - E)^2
//   folded_arpack   folded, ARPACK on (H - E)^2
//   folded_lanczos  folded, nemo on (H - E)^2
// The product cap N becomes each solver's iteration limit (TbEPSSetProductCap), so that no run makes more than about
// N products of H in its search: nemo steps N (on F: N/2, two products per step); SLEPc restarts for Krylov-Schur
// 1 + (M - ncv) / ceil(ncv/2) and for ARPACK 1 + (M - ncv - 1) / (ncv - nev), with M the operator applications
// allowed (N on H, N/2 on F) and ncv the run's or SLEPc's default made explicit. These are upper bounds: a capped
// SLEPc run stops between about 2/3 N and N products. A -<name>_eps_max_it of the user's own wins.
#include <slepceps.h>

#include <string>
#include <vector>

namespace tbpeta {

// What every run is asked: nv + nc states around `center` (eV), at most max_products products of H.
struct CompareQuestion {
  PetscInt nev_valence = 4, nev_conduction = 4;
  double center = 0;
  PetscInt max_products = 200000;
};

struct ComparisonRun {
  std::string name;           // in -compare_runs, and the options prefix without its "_"
  std::string label;          // in the table, e.g. "slepc krylovschur harmonic"
  bool needs_entries = false; // factors H: only with -hamiltonian aij|baij and up to -compare_sinvert_max_rows
  std::string options;        // the solver, as options without the prefix ("-eps_type folded -folded_eps_type arpack")
};

// Every run, in the default order.
const std::vector<ComparisonRun> &ComparisonRuns();

// The run called `name`: one of ComparisonRuns(), or the user's own when -<name>_eps_type is given (*found false
// otherwise). Not collective.
PetscErrorCode FindComparisonRun(const std::string &name, ComparisonRun *run, bool *found);

// An EPS for `run` on an operator of n rows: tbpeta's defaults, the run's options, the question, the user's options
// with the run's prefix, then the product cap where the user set no iteration limit. Collective.
PetscErrorCode CreateRunSolver(MPI_Comm comm, const ComparisonRun &run, const CompareQuestion &q, PetscInt n, EPS *eps);

} // namespace tbpeta
