#include "io/OutputPath.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <random>

#include "io/XdmfFile.hpp"
#include "support/CollectiveError.hpp"

namespace tbpeta {

namespace {

// What is wrong with an output path, or "" (rank 0 only: it looks at the file system).
std::string PathProblem(const std::string &path, const std::string &extension, bool xdmf) {
  struct stat st;
  if (path.empty()) return "no file name given";
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) return "is a directory";
  if (!path.ends_with(extension)) return "does not end in " + extension;
  const std::size_t slash = path.rfind('/');
  // The temporary name adds 21 characters, and MPI-IO's shared-file-pointer lock files add more.
  if (path.size() - (slash == std::string::npos ? 0 : slash + 1) > 200)
    return "the file name is longer than 200 characters";
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  if (::stat(dir.c_str(), &st) != 0) return "directory " + dir + " does not exist (" + std::strerror(errno) + ")";
  if (!S_ISDIR(st.st_mode)) return dir + " is not a directory";
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    return "directory " + dir + " is not writable (" + std::strerror(errno) + ")";
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) return "exists and is not a regular file";
  if (!xdmf) return "";
  const std::string xmf = XdmfPath(path);
  if (::stat(xmf.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    return "the XDMF file beside it, " + xmf + ", exists and is not a regular file";
  return "";
}

} // namespace

std::string TemporarySuffix() {
  unsigned long long r;
  try {
    std::random_device rd;
    r = (static_cast<unsigned long long>(rd()) << 32) ^ rd();
  } catch (...) { // no entropy source: time and process id
    r = (static_cast<unsigned long long>(std::time(nullptr)) << 20) ^ static_cast<unsigned long long>(::getpid());
  }
  char suffix[32];
  std::snprintf(suffix, sizeof suffix, ".tmp-%016llx", r);
  return suffix;
}

namespace {

PetscErrorCode CheckFile(MPI_Comm comm, const std::string &path, const char *option, const char *extension, bool xdmf) {
  PetscMPIInt rank;
  std::string problem;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (rank == 0) problem = PathProblem(path, extension, xdmf);
  PetscCall(BcastString(comm, problem));
  PetscCheck(problem.empty(), comm, PETSC_ERR_USER_INPUT, "%s %s: %s", option, OneLine(path).c_str(), problem.c_str());
  PetscFunctionReturn(0);
}

} // namespace

PetscErrorCode CheckOutputFile(MPI_Comm comm, const std::string &path, const char *option, const char *extension) {
  return CheckFile(comm, path, option, extension, false);
}

PetscErrorCode CheckOutputPath(MPI_Comm comm, const std::string &path) {
  return CheckFile(comm, path, "-output", ".h5", true);
}

} // namespace tbpeta
