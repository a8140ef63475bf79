#include "geometry/SupercellSpec.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace tbpeta {

// PETSc silently keeps the first nmax entries of a longer list, so read into a larger buffer to see the real length.
PetscErrorCode OptionsGetRealTuple(MPI_Comm comm, const char *name, const char *help, int n, double *values, PetscBool *set) {
  PetscReal buf[64];
  PetscInt count = 64;
  PetscFunctionBeginUser;
  for (int i = 0; i < n; ++i) buf[i] = values[i];
  // PETSc prints -help once per options-block title, so each list option gets its own block.
  PetscOptionsBegin(comm, nullptr, name, "tbpeta");
  PetscCall(PetscOptionsRealArray(name, help, "tbpeta", buf, &count, set));
  PetscOptionsEnd();
  if (*set) {
    PetscCheck(count == n, comm, PETSC_ERR_USER_INPUT, "%s: expected %d comma-separated numbers, got %" PetscInt_FMT, name, n, count);
    for (int i = 0; i < n; ++i) values[i] = buf[i];
  }
  PetscFunctionReturn(0);
}

// Read as text and parsed here: PETSc's integer parsing keeps the low 32 bits of a larger number (so 4294967296
// would become 0) and does not name the option in its error.
PetscErrorCode OptionsGetIntTuple(MPI_Comm comm, const char *name, const char *help, int n, PetscInt *values, PetscBool *set) {
  std::string defaults;
  for (int i = 0; i < n; ++i) defaults += (i ? "," : "") + std::to_string(values[i]);
  char text[1024];
  PetscFunctionBeginUser;
  std::snprintf(text, sizeof(text), "%s", defaults.c_str());
  PetscOptionsBegin(comm, nullptr, name, "tbpeta");
  PetscCall(PetscOptionsString(name, help, "tbpeta", text, text, sizeof(text), set));
  PetscOptionsEnd();
  if (!*set) PetscFunctionReturn(0);
  std::vector<PetscInt> parsed;
  const std::string all = text;
  size_t start = 0;
  while (start <= all.size() && !all.empty()) {
    const size_t comma = all.find(',', start);
    const std::string item = all.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    char *end = nullptr;
    errno = 0;
    const long long v = std::strtoll(item.c_str(), &end, 10);
    PetscCheck(!item.empty() && end && *end == '\0', comm, PETSC_ERR_USER_INPUT, "%s: '%s' is not an integer (expected %d comma-separated integers)", name, item.c_str(), n);
    PetscCheck(errno == 0 && v >= -(long long)PETSC_MAX_INT && v <= (long long)PETSC_MAX_INT, comm, PETSC_ERR_USER_INPUT, "%s: %s is out of range", name, item.c_str());
    parsed.push_back((PetscInt)v);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  PetscCheck((int)parsed.size() == n, comm, PETSC_ERR_USER_INPUT, "%s: expected %d comma-separated integers, got %zu", name, n, parsed.size());
  for (int i = 0; i < n; ++i) values[i] = parsed[i];
  PetscFunctionReturn(0);
}

PetscErrorCode SupercellSpecFromOptions(MPI_Comm comm, SupercellSpec *spec) {
  PetscInt cells[3] = {4, 4, 4}, periodic[3] = {1, 1, 1};
  double k[3] = {0, 0, 0};
  PetscBool set;
  PetscFunctionBeginUser;
  PetscCall(OptionsGetIntTuple(comm, "-cells", "Supercell size in conventional cubic cells (8 atoms each): nx,ny,nz (default 4,4,4)", 3, cells, &set));
  for (int a = 0; a < 3; ++a) PetscCheck(cells[a] >= 1, comm, PETSC_ERR_USER_INPUT, "-cells: %" PetscInt_FMT " cells along %c; every axis needs at least 1 cell", cells[a], "xyz"[a]);
  PetscCheck((double)cells[0] * cells[1] * cells[2] * 8 < 2.0e9, comm, PETSC_ERR_USER_INPUT, "-cells: %" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT " cells is beyond the 32-bit atom count of this build", cells[0], cells[1], cells[2]);
  PetscCall(OptionsGetIntTuple(comm, "-periodic", "Periodic boundary per axis, 0 (open, passivated) or 1: px,py,pz (default 1,1,1)", 3, periodic, &set));
  for (int a = 0; a < 3; ++a) PetscCheck(periodic[a] == 0 || periodic[a] == 1, comm, PETSC_ERR_USER_INPUT, "-periodic: %" PetscInt_FMT " along %c; each entry must be 0 (open) or 1 (periodic)", periodic[a], "xyz"[a]);
  PetscCall(OptionsGetRealTuple(comm, "-k", "Bloch wave vector kx,ky,kz in units of 2pi/a, used on periodic axes (default 0,0,0)", 3, k, &set));
  for (int a = 0; a < 3; ++a) PetscCheck(std::isfinite(k[a]) && std::fabs(k[a]) < 1e6, comm, PETSC_ERR_USER_INPUT, "-k: %g along %c is not a usable wave-vector component (2pi/a units)", k[a], "xyz"[a]);
  for (int a = 0; a < 3; ++a) {
    spec->cells[a] = (int)cells[a];
    spec->periodic[a] = periodic[a] == 1;
    spec->k[a] = k[a];
  }
  PetscFunctionReturn(0);
}

} // namespace tbpeta
