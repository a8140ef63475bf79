#include "solvers/RegisterSolvers.hpp"

#include <algorithm>
#include <string>

#include "solvers/folded/FoldedSpectrum.hpp"
#include "solvers/lanczos/NemoLanczos.hpp"
#include "support/Registry.hpp"

namespace tbpeta {

namespace {

Registry<EigenSolverType> &SolverTypeTable() {
  static Registry<EigenSolverType> types; // filled by RegisterEigenSolvers (EPSRegister needs SLEPc started)
  return types;
}

// -solver chose among tbpeta's solvers before they were EPS types: its successor names the types registered now.
void RegisterSolverRename() {
  std::string types;
  for (const EigenSolverType &t : SolverTypeTable().all()) types += std::string(t.name) + "|";
  const RenamedOption solver{"-solver", "-eps_type " + types +
                                            "krylovschur|... (SLEPc's EPS types and tbpeta's), or -compare for "
                                            "-solver compare"};
  RegisterRenamedOptions({&solver, 1});
}

} // namespace

PetscErrorCode RegisterEigenSolverType(const EigenSolverType &type) {
  PetscFunctionBeginUser;
  PetscCall(EPSRegister(type.name, type.create));
  RegisterRenamedOptions(type.renamed);
  SolverTypeTable().Add(type);
  PetscFunctionReturn(0);
}

PetscErrorCode RegisterEigenSolvers() {
  static bool registered = false;
  PetscFunctionBeginUser;
  if (registered) PetscFunctionReturn(0);
  // tbpeta's types, the default first: one line each.
  for (const EigenSolverType &type : {NemoSolverType(), FoldedSolverType()}) PetscCall(RegisterEigenSolverType(type));
  RegisterSolverRename();
  registered = true;
  PetscFunctionReturn(0);
}

const std::deque<EigenSolverType> &RegisteredEigenSolverTypes() { return SolverTypeTable().all(); }

const char *DefaultEigenSolverType() { return EPSNEMO; }

} // namespace tbpeta
