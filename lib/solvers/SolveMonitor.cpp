#include "solvers/SolveMonitor.hpp"

#include <cstdio>
#include <string>

#include "solvers/SolverTraits.hpp"
#include "support/InterruptSignal.hpp"
#include "support/Progress.hpp"

namespace tbpeta {

namespace {

struct Watch {
  std::string what;
  Progress progress;
  bool own_progress = false; // the solver prints its own
};

PetscErrorCode DestroyWatch(void **ctx) {
  delete static_cast<Watch *>(*ctx);
  *ctx = nullptr;
  return 0;
}

PetscErrorCode Monitor(EPS eps, PetscInt its, PetscInt nconv, PetscScalar *, PetscScalar *, PetscReal *, PetscInt nest,
                       void *ctx) {
  auto *watch = static_cast<Watch *>(ctx);
  char what[256];
  PetscInt nev;
  PetscFunctionBeginUser;
  std::snprintf(what, sizeof what, "%s (iteration %" PetscInt_FMT ")", watch->what.c_str(), its);
  PetscCall(CheckInterrupted(PetscObjectComm((PetscObject)eps), what));
  if (its <= 1) watch->progress = Progress(watch->what); // a new solve
  if (watch->own_progress || !watch->progress.Due()) PetscFunctionReturn(0);
  PetscCall(EPSGetDimensions(eps, &nev, nullptr, nullptr));
  PetscCall(watch->progress.Report("iteration %" PetscInt_FMT ", %" PetscInt_FMT " of %" PetscInt_FMT
                                   " wanted states converged (%" PetscInt_FMT " values estimated)",
                                   its, nconv, nev, nest));
  PetscFunctionReturn(0);
}

} // namespace

PetscErrorCode InstallSolveMonitor(EPS eps, const char *what) {
  TbEPSTraits traits;
  PetscFunctionBeginUser;
  PetscCall(TbEPSGetTraits(eps, &traits));
  auto *watch = new Watch{what, Progress(what)};
  watch->own_progress = traits.reports_progress;
  PetscCall(EPSMonitorSet(eps, Monitor, watch, DestroyWatch));
  PetscFunctionReturn(0);
}

} // namespace tbpeta
