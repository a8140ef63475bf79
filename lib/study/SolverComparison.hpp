#pragma once
// -solver compare: every eigen-solver of tbpeta on the same H and the same question (the states nearest the gap
// centre), one row per solver, compared on levels with their multiplicities against the run with the best
// residuals.
//
// The question: nv valence + nc conduction states (counted with multiplicity) around the gap centre E. The Lanczos
// asks for nv below and nc above E; the SLEPc and folded runs for the nv + nc states nearest their target or shift
// (the only question a target can ask). The two differ when the levels are not balanced around E (in a dot the
// valence levels are denser: the 8 states nearest the host's midgap can all be conduction states). So, by default
// (-compare_recenter), the runs after the Lanczos look around the middle of its states, where the nv + nc nearest
// states are exactly those; off the middle by 1e-6 of the half-width, since at the middle the folded spectrum sees
// the two edge levels as one. Without the recentring (or without a converged Lanczos first) the sets may differ at
// their edges; the comparison then uses the levels both found.
//
// Each run sees its own options database (PetscOptionsPush), made of the run's settings below plus the user's
// tuning options of that solver family; every other solver option (e.g. -eps_type, -st_type, -folded_nev,
// -lanczos_nev_valence) does not apply and is reported as unused at exit.
//   run             solver                                         user options that apply
//   lanczos         -solver lanczos (NEMO 3-D style)               -lanczos_tol, _check_every, _seed, _monitor,
//                                                                  _multiplicity_passes
//   ks_harmonic     SLEPc krylovschur, harmonic extraction, on H   -eps_tol, -eps_ncv, -eps_conv_*, -eps_monitor*
//   sinvert         SLEPc krylovschur + sinvert, MUMPS LU          as ks_harmonic; only up to -compare_sinvert_max_rows
//   folded_ks       folded, SLEPc krylovschur on (H - E)^2         -folded_eps_tol, _ncv, _conv_*, _monitor*
//   folded_arpack   folded, ARPACK on (H - E)^2                    as folded_ks
//   folded_lanczos  folded, tbpeta's Lanczos on (H - E)^2          as lanczos
// The product cap N (-compare_max_products) becomes each solver's iteration limit, so that no run makes more than
// about N products of H in its search: Lanczos steps N (on F: N/2, two products per step); SLEPc restarts for
// Krylov-Schur 1 + (M - ncv) / ceil(ncv/2) and for ARPACK 1 + (M - ncv - 1) / (ncv - nev), with M the operator
// applications allowed (N on H, N/2 on F) and ncv the user's or SLEPc's default made explicit. These are upper
// bounds: a capped SLEPc run stops between about 2/3 N and N products. The eigenvector pass and the multiplicity
// passes of the Lanczos runs, and the residuals, come on top. A run that stops short is kept, with converged = false
// and the note "not converged within N products". Shift-and-invert applies LU solves: no products of H.
#include <petscmat.h>

#include <limits>
#include <span>
#include <string>
#include <vector>

namespace tbpeta {

struct ComparisonRow {
  std::string solver;              // e.g. "lanczos", "slepc krylovschur harmonic", "folded arpack"
  PetscInt states = 0;             // states found, with multiplicity
  PetscInt requested = 0;          // states asked for
  double max_deviation = std::numeric_limits<double>::quiet_NaN(); // max |lambda - lambda_ref| (eV) over the levels both found
  double max_residual = std::numeric_limits<double>::quiet_NaN();  // max ||Hx - lambda x|| of its states
  PetscInt products = 0;           // products y = Hx
  PetscInt iterations = 0;
  PetscInt vectors_held = 0;       // vectors of matrix size, measured from the allocations during the solve
  double seconds = 0;
  double peak_rss_mb = 0;          // VmHWM during the solve, max over ranks
  bool converged = true;           // false: stopped by the product cap ("not converged within N products")
  std::string note;                // the run's own note (run_note), then the comparison's
  std::string run_note;            // what the run itself noted (cap, skipped, uncounted vectors); kept when compared again
  // Added by the comparison:
  std::string run;                 // its name in -compare_runs, e.g. "folded_arpack"
  double center = std::numeric_limits<double>::quiet_NaN(); // eV: its gap centre (Lanczos), target (SLEPc) or shift (folded)
  double solver_mb = 0;            // peak during the solve minus the resident size just before it, max over ranks
  bool reference = false;          // the run the others are compared with (CompareWithReference)
  bool skipped = false;            // not run (the note says why)
  PetscInt levels_compared = 0;    // levels with equal multiplicity in this run and the reference
  std::vector<double> values, residuals; // the states counted (eV), ascending
};

enum class CompareRun { lanczos, ks_harmonic, sinvert, folded_ks, folded_arpack, folded_lanczos };
const char *CompareRunName(CompareRun run);  // as in -compare_runs
const char *CompareRunLabel(CompareRun run); // as in the table, e.g. "slepc krylovschur harmonic"

struct CompareOptions {
  PetscInt nev_valence = 4, nev_conduction = 4; // states below / above the gap centre, with multiplicity
  double gap_center = 0;                        // eV
  PetscInt max_products = 200000;               // cap per run
  PetscInt sinvert_max_rows = 30000;            // larger H: the sinvert run is skipped (MUMPS needed 350 s and 2.8 GB at 34,560 rows)
  PetscBool recenter = PETSC_TRUE;              // the runs after the Lanczos look around the middle of its states
  double level_tol = 1e-6;                      // eV: states closer than this are one level
  std::vector<CompareRun> runs;                 // in this order
};

// Reads -compare_nev_valence, -compare_nev_conduction (default 4, 4), -compare_gap_center (default
// default_gap_center), -compare_max_products (200000), -compare_sinvert_max_rows (30000), -compare_recenter (1),
// -compare_level_tol (1e-6 eV) and -compare_runs a,b,... (default all, in the order of CompareRun). Bad values give a one-line
// PETSC_ERR_USER_INPUT naming the option. Collective.
PetscErrorCode CompareOptionsFromOptions(MPI_Comm comm, double default_gap_center, CompareOptions *opts);

// Runs opts.runs on H through SolveFromOptions (with eigenvectors, for the residuals; freed at once), one row each,
// and compares them (CompareWithReference). canonical_rows and kramers_block as for SolveFromOptions. Prints one
// progress line per run, the recentring, and a note when the runs found different sets because they were not
// recentred. A state whose residual exceeds kFoldedResidualLimit * (||H||_inf + |E|) is no eigenvector
// of H (a folded run's mix of E - d and E + d) and is not counted (note). Rows are identical on every rank.
// PETSC_ERR_USER_INPUT when more states are wanted than H has rows. Collective.
// earlier: rows of the same question measured before (e.g. another job of bench_solvers, -bench_rows), put first in
// *rows and compared with the new ones; a converged Lanczos among them sets the centre of the new runs (recentring).
PetscErrorCode CompareSolvers(Mat H, std::span<const PetscInt> canonical_rows, int kramers_block, const CompareOptions &opts, std::vector<ComparisonRow> *rows,
                              std::span<const ComparisonRow> earlier = {});

// Picks the reference and sets every row's max_deviation, levels_compared and note (its run_note, then the
// comparison's notes; so rows can be compared again). Levels: runs of
// ascending values closer than level_tol, with their multiplicity. multiplicity: states per level the symmetry
// guarantees (2: Kramers pairs, spin-orbit at k = 0); a level with another count is INCOMPLETE (a Krylov solver
// from one start vector sees the second state of a degenerate level only through rounding, and may stop with one
// state of a pair and a farther state instead). The reference: the converged row without incomplete levels with
// the smallest max residual (else the converged row, else any row with states, with the smallest max residual).
// A level of a row matches the nearest reference level closer than kCompareMatchTolerance and than half the
// distance to that level's neighbours. Equal multiplicities: compared state by state. Otherwise, when the level is
// at the window's edge of the run with fewer states of it, that window cut the level (noted, not compared); else
// flagged. The window's edge: for a run asked for the states nearest its center, the levels about as far from it as
// the farthest; for the Lanczos (or a row without center), its lowest and highest level.
// Reference levels inside the row's range that the row lacks, and levels of the row inside the reference's range
// that the reference lacks, are flagged. Flags are in capitals.
inline constexpr double kCompareMatchTolerance = 1e-3; // eV
void CompareWithReference(std::vector<ComparisonRow> &rows, double level_tol, int multiplicity = 1);

// A ratio of one run to the NEMO 3-D-style Lanczos (NaN where not measurable).
struct ComparisonRatio {
  std::string solver;
  double products, seconds, solver_mb, vectors;
  bool lower_bound; // the run did not converge: its true ratio is larger
};
// The ratios of every other run that ran to the converged lanczos row (empty without one); products NaN for a run
// without products of H (shift-and-invert applies LU solves).
std::vector<ComparisonRatio> RatiosToLanczos(std::span<const ComparisonRow> rows);

// Prints the table (aligned columns, every field), each run's levels with their multiplicities (states closer than
// level_tol, eV, form one level) and the ratios to the Lanczos. Collective (rank 0 prints).
PetscErrorCode PrintComparison(MPI_Comm comm, std::span<const ComparisonRow> rows, double level_tol = 1e-6);

} // namespace tbpeta
