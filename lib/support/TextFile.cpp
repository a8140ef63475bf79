#include "support/TextFile.hpp"
#include "support/CrashReport.hpp"

#include <cstdio>

namespace tbpeta {

PetscErrorCode WriteTextFile(MPI_Comm comm, const std::string &path, const std::string &text, const char *option) {
  PetscMPIInt rank;
  int ok = 1;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (rank == 0) {
    const std::string tmp = path + ".partial";
    RemovedOnCrash guard(tmp);
    FILE *f = std::fopen(tmp.c_str(), "w");
    ok = f != nullptr;
    if (f) {
      ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
      ok = (std::fclose(f) == 0) && ok;
      ok = ok && std::rename(tmp.c_str(), path.c_str()) == 0;
      if (!ok) std::remove(tmp.c_str());
    }
  }
  PetscCallMPI(MPI_Bcast(&ok, 1, MPI_INT, 0, comm));
  PetscCheck(ok, comm, PETSC_ERR_FILE_OPEN, "%s %s: could not write the file", option, path.c_str());
  PetscFunctionReturn(0);
}

} // namespace tbpeta
