#include "application/RenamedOptions.hpp"

#include <cstring>

#include "support/OptionRenames.hpp"

namespace tbpeta {

PetscErrorCode RefuseRenamedOptions(MPI_Comm comm) {
  PetscBool set;
  char value[64] = "";
  // The application's own; the EPS types registered theirs with themselves (RegisterEigenSolvers, called before).
  static const RenamedOption kApplicationRenamed[] = {
      {"-mat_type", "-hamiltonian aij|baij (tbpeta does not read -mat_type)"},
  };
  PetscFunctionBeginUser;
  RegisterRenamedOptions(kApplicationRenamed);
  PetscCall(RefuseRegisteredRenamedOptions(comm));
  PetscCall(PetscOptionsGetString(nullptr, nullptr, "-hamiltonian", value, sizeof value, &set));
  PetscCheck(!set || std::strcmp(value, "stored") != 0, comm, PETSC_ERR_USER_INPUT,
             "-hamiltonian stored was renamed: use -hamiltonian aij (or baij)");
  PetscFunctionReturn(0);
}

} // namespace tbpeta
