#include "application/VersionReport.hpp"

#include <H5public.h>
#include <slepcsys.h>

#include <cstdarg>
#include <cstdlib>
#include <cstring>
#include <string>

#include "BuildInfo.hpp" // generated at build time (cmake/BuildInfo.cmake): TBPETA_VERSION, TBPETA_GIT_COMMIT
#include "support/InstallLayout.hpp"

namespace tbpeta {

namespace {

std::string held_banners;
bool holding_banners = false;

// PETSc's help printer while the banners are held: every rank keeps the text (only rank 0's is printed).
PetscErrorCode HoldHelpText(MPI_Comm, const char format[], ...) {
  char line[4096];
  va_list args;
  va_start(args, format);
  std::vsnprintf(line, sizeof line, format, args);
  va_end(args);
  held_banners += line;
  return 0;
}

bool NamesVersion(const char *word) { return word && std::strcmp(word, "-version") == 0; }

// "1.2.3", or "1.2.3 (built with 1.2.2)" when the library found at run time is not the one compiled against.
std::string BuiltAndRunning(const std::string &built, const std::string &running) {
  return running == built ? running : running + " (built with " + built + ")";
}

std::string Dotted(long major, long minor, long patch) {
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

// The MPI library tbpeta was compiled against, as its header names it.
std::string BuiltMpi() {
#if defined(OMPI_MAJOR_VERSION)
  return "Open MPI " + Dotted(OMPI_MAJOR_VERSION, OMPI_MINOR_VERSION, OMPI_RELEASE_VERSION);
#elif defined(MPICH_VERSION)
  return std::string("MPICH ") + MPICH_VERSION;
#else
  return "MPI " + std::to_string(MPI_VERSION) + "." + std::to_string(MPI_SUBVERSION);
#endif
}

// The first line of the running MPI library's own description.
std::string RunningMpi() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  if (MPI_Get_library_version(text, &length) != MPI_SUCCESS) return "unknown";
  std::string s(text, (size_t)length);
  s = s.substr(0, s.find('\n'));
  while (!s.empty() && (s.back() == ' ' || s.back() == '\0')) s.pop_back();
  return s;
}

std::string PetscLine() {
  PetscInt major = 0, minor = 0, patch = 0, release = 0;
  (void)PetscGetVersionNumber(&major, &minor, &patch, &release);
  const std::string kind = std::string(PetscDefined(USE_COMPLEX) ? "complex" : "real") + " scalars, " +
                           std::to_string(8 * sizeof(PetscInt)) + "-bit indices";
  return BuiltAndRunning(Dotted(PETSC_VERSION_MAJOR, PETSC_VERSION_MINOR, PETSC_VERSION_SUBMINOR),
                         Dotted(major, minor, patch)) +
         ", " + kind;
}

std::string SlepcLine() {
  PetscInt major = 0, minor = 0, patch = 0, release = 0;
  (void)SlepcGetVersionNumber(&major, &minor, &patch, &release);
  return BuiltAndRunning(Dotted(SLEPC_VERSION_MAJOR, SLEPC_VERSION_MINOR, SLEPC_VERSION_SUBMINOR),
                         Dotted(major, minor, patch));
}

std::string Hdf5Line() {
  unsigned major = 0, minor = 0, patch = 0;
  (void)H5get_libversion(&major, &minor, &patch);
  return BuiltAndRunning(Dotted(H5_VERS_MAJOR, H5_VERS_MINOR, H5_VERS_RELEASE), Dotted(major, minor, patch));
}

} // namespace

void HoldStartUpBanners(int argc, char **argv) {
  bool version = false, intro = false;
  for (int i = 1; i < argc; ++i) {
    version = version || NamesVersion(argv[i]);
    // -help intro makes PETSc exit inside its start-up: nothing may be held then
    intro = intro || (std::strcmp(argv[i], "-help") == 0 && i + 1 < argc && std::strcmp(argv[i + 1], "intro") == 0);
  }
  const char *env = std::getenv("PETSC_OPTIONS");
  if (env) {
    const std::string options = std::string(" ") + env + " ";
    version = version || options.find(" -version ") != std::string::npos;
  }
  if (!version || intro) return;
  holding_banners = true;
  PetscHelpPrintf = HoldHelpText;
}

PetscErrorCode ReleaseStartUpBanners(MPI_Comm comm) {
  PetscBool version = PETSC_FALSE;
  PetscFunctionBeginUser;
  if (!holding_banners) PetscFunctionReturn(0);
  PetscHelpPrintf = PetscHelpPrintfDefault;
  holding_banners = false;
  PetscCall(PetscOptionsHasName(nullptr, nullptr, "-version", &version));
  if (!version) PetscCall(PetscHelpPrintf(comm, "%s", held_banners.c_str()));
  held_banners.clear();
  held_banners.shrink_to_fit();
  PetscFunctionReturn(0);
}

PetscErrorCode VersionFromOptions(MPI_Comm comm, const char *program, bool *shown) {
  PetscBool version = PETSC_FALSE;
  PetscFunctionBeginUser;
  PetscOptionsBegin(comm, nullptr, "Version", "tbpeta");
  PetscCall(PetscOptionsBool("-version",
                             "Print tbpeta's version and git commit and the PETSc, SLEPc, MPI and HDF5 versions, then "
                             "exit",
                             "tbpeta", version, &version, nullptr));
  PetscOptionsEnd();
  *shown = version;
  if (!version) PetscFunctionReturn(0);
  const std::string name = std::strcmp(program, "tbpeta") == 0 ? "tbpeta " : std::string(program) + ": tbpeta ";
  PetscCall(PetscPrintf(comm, "%s%s, git %s\n", name.c_str(), TBPETA_VERSION, TBPETA_GIT_COMMIT));
  PetscCall(PetscPrintf(comm, "  PETSc   %s\n", PetscLine().c_str()));
  PetscCall(PetscPrintf(comm, "  SLEPc   %s\n", SlepcLine().c_str()));
  PetscCall(PetscPrintf(comm, "  MPI     %s (built with %s)\n", RunningMpi().c_str(), BuiltMpi().c_str()));
  PetscCall(PetscPrintf(comm, "  HDF5    %s\n", Hdf5Line().c_str()));
  std::string data;
  for (const std::string &dir : DataDirectories()) data += (data.empty() ? "" : ":") + dir;
  PetscCall(
      PetscPrintf(comm, "  data    %s%s\n", data.c_str(), std::getenv("TBPETA_DATA_DIR") ? " (TBPETA_DATA_DIR)" : ""));
  PetscCall(PetscPrintf(comm, "  scripts %s\n", ScriptsDirectory().c_str()));
  PetscFunctionReturn(0);
}

} // namespace tbpeta
