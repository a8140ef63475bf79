#include "study/ComparisonRuns.hpp"

#include <sstream>

#include "solvers/EigenSolve.hpp"
#include "solvers/SolveMonitor.hpp"
#include "solvers/SolverTraits.hpp"

namespace tbpeta {

namespace {

// The run's options under its prefix, each unless the user gave it, until the scope ends (they are read by the EPS's
// EPSSetFromOptions while they are there, then removed, so that none is left unused).
class RunDefaults {
public:
  RunDefaults(const std::string &prefix, const std::string &options) : prefix_(prefix), options_(options) {}
  ~RunDefaults() {
    for (const std::string &name : inserted_) (void)PetscOptionsClearValue(nullptr, name.c_str());
  }
  RunDefaults(const RunDefaults &) = delete;
  RunDefaults &operator=(const RunDefaults &) = delete;
  PetscErrorCode Insert() {
    std::istringstream in(options_);
    std::vector<std::string> words;
    for (std::string w; in >> w;) words.push_back(w);
    PetscFunctionBeginUser;
    for (size_t i = 0; i < words.size(); ++i) {
      if (words[i].size() < 2 || words[i][0] != '-') continue;
      const bool valued = i + 1 < words.size() && words[i + 1][0] != '-';
      const std::string name = "-" + prefix_ + words[i].substr(1), value = valued ? words[i + 1] : "";
      PetscBool given;
      PetscCall(PetscOptionsHasName(nullptr, nullptr, name.c_str(), &given));
      if (given) continue;
      PetscCall(PetscOptionsSetValue(nullptr, name.c_str(), valued ? value.c_str() : nullptr));
      inserted_.push_back(name);
    }
    PetscFunctionReturn(0);
  }

private:
  std::string prefix_, options_;
  std::vector<std::string> inserted_;
};

} // namespace

const std::vector<ComparisonRun> &ComparisonRuns() {
  static const std::vector<ComparisonRun> runs = {
      {"lanczos", "lanczos (NEMO 3-D style)", false, "-eps_type nemo"},
      {"ks_harmonic", "slepc krylovschur harmonic", false, "-eps_type krylovschur -eps_harmonic -st_type shift"},
      {"sinvert", "slepc krylovschur sinvert", true,
       "-eps_type krylovschur -st_type sinvert -st_ksp_type preonly -st_pc_type lu -st_pc_factor_mat_solver_type "
       "mumps"},
      {"folded_ks", "folded krylovschur", false, "-eps_type folded -folded_eps_type krylovschur"},
      {"folded_arpack", "folded arpack", false, "-eps_type folded -folded_eps_type arpack"},
      {"folded_lanczos", "folded lanczos", false, "-eps_type folded -folded_eps_type nemo"},
  };
  return runs;
}

PetscErrorCode FindComparisonRun(const std::string &name, ComparisonRun *run, bool *found) {
  PetscBool own;
  PetscFunctionBeginUser;
  *found = false;
  for (const ComparisonRun &r : ComparisonRuns())
    if (r.name == name) *run = r, *found = true;
  if (*found) PetscFunctionReturn(0);
  PetscCall(PetscOptionsHasName(nullptr, nullptr, ("-" + name + "_eps_type").c_str(), &own));
  if (own) *run = ComparisonRun{name, "", false, ""}, *found = true; // labelled by its description
  PetscFunctionReturn(0);
}

PetscErrorCode CreateRunSolver(MPI_Comm comm, const ComparisonRun &run, const CompareQuestion &q, PetscInt n,
                               EPS *eps) {
  RunDefaults defaults(run.name + "_", run.options);
  PetscFunctionBeginUser;
  PetscCall(EPSCreate(comm, eps));
  PetscCall(EPSSetOptionsPrefix(*eps, (run.name + "_").c_str()));
  PetscCall(SetEigenSolverDefaults(*eps, q.center));
  PetscCall(defaults.Insert());
  PetscCall(EPSSetFromOptions(*eps)); // the run's solver type, then its question in its own terms
  PetscCall(TbEPSSetQuestion(*eps, q.nev_valence, q.nev_conduction, q.center));
  PetscCall(EPSSetFromOptions(*eps)); // the user's options win
  PetscCall(TbEPSSetProductCap(*eps, n, q.max_products));
  PetscCall(InstallSolveMonitor(*eps, ("the comparison's run " + run.name).c_str()));
  PetscFunctionReturn(0);
}

} // namespace tbpeta
