#include "solvers/RegisterSolvers.hpp"

#include <algorithm>
#include <string>

#include "solvers/folded/FoldedSpectrum.hpp"
#include "solvers/lanczos/NemoLanczos.hpp"

namespace tbpeta {

namespace {

std::vector<EigenSolverType> &SolverTypeTable() {
  static std::vector<EigenSolverType> types;
  return types;
}

// -solver chose among tbpeta's solvers before they were EPS types: its successor names the types registered now.
void RegisterSolverRename() {
  std::string types;
  for (const EigenSolverType &t : SolverTypeTable()) types += std::string(t.name) + "|";
  const RenamedOption solver{"-solver", "-eps_type " + types +
                                            "krylovschur|... (SLEPc's EPS types and tbpeta's), or -compare for "
                                            "-solver compare"};
  RegisterRenamedOptions({&solver, 1});
}

} // namespace

PetscErrorCode RegisterEigenSolverType(const EigenSolverType &type) {
  std::vector<EigenSolverType> &table = SolverTypeTable();
  PetscFunctionBeginUser;
  PetscCall(EPSRegister(type.name, type.create));
  RegisterRenamedOptions(type.renamed);
  auto same = std::find_if(table.begin(), table.end(),
                           [&](const EigenSolverType &t) { return std::string(t.name) == type.name; });
  if (same == table.end()) table.push_back(type);
  else *same = type;
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

const std::vector<EigenSolverType> &RegisteredEigenSolverTypes() { return SolverTypeTable(); }

const char *DefaultEigenSolverType() { return EPSNEMO; }

} // namespace tbpeta
