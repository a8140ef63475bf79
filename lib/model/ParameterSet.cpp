// Reading tight-binding parameter files (params/<set>/<Material>.tbp of the data directories, or a user's
// -params_file): rank 0 reads the bytes, every rank parses them (ParameterText), so any error is raised identically on
// all ranks. A set is its folder: the sets are the folders found, each described by its own files.
#include "model/ParameterSet.hpp"
#include "model/ParameterText.hpp"
#include "support/InstallLayout.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace tbpeta {

namespace {

namespace fs = std::filesystem;

bool SetListHas(const std::vector<std::string> &v, const std::string &s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

std::string JoinSetNames(const std::vector<std::string> &v) {
  std::string s;
  for (const auto &x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

// The folder of a set: params/<set> in the first data directory that has it (empty when none has).
fs::path SetFolder(const std::string &set) {
  std::error_code ec;
  for (const std::string &dir : DataDirectories())
    if (fs::is_directory(fs::path(dir) / "params" / set, ec)) return fs::path(dir) / "params" / set;
  return {};
}

// "sp3d5s*+SO" of a parsed file.
std::string BasisName(const MaterialParameters &p) {
  return std::string(p.model == BasisModel::sp3sstar ? "sp3s*" : "sp3d5s*") + (p.has_spin_orbit ? "+SO" : "");
}

} // namespace

// Rank 0 reads the file and sends its bytes to the others, so every rank parses the same text and raises the same
// error (a file readable on one node only must not leave ranks waiting for each other).
PetscErrorCode ReadDataFileOnRankZero(MPI_Comm comm, const char *what, const std::string &path, std::string *text) {
  PetscMPIInt rank;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  long long length = -1; // -1: could not be opened; -2: read error
  if (rank == 0) {
    std::error_code ec;
    std::ifstream file(path, std::ios::binary);
    if (file.is_open() && fs::is_regular_file(path, ec)) {
      std::stringstream ss;
      ss << file.rdbuf();
      *text = ss.str();
      length = file.bad() ? -2 : (long long)text->size();
    }
  }
  PetscCallMPI(MPI_Bcast(&length, 1, MPI_LONG_LONG, 0, comm));
  PetscCheck(length != -1, comm, PETSC_ERR_FILE_OPEN,
             "%s '%s': cannot be opened (give a readable file in tbpeta's 'key = value' format)", what, path.c_str());
  PetscCheck(length != -2, comm, PETSC_ERR_FILE_READ, "%s '%s': read error", what, path.c_str());
  PetscCheck(length < (1LL << 24), comm, PETSC_ERR_USER_INPUT, "%s '%s': %lld bytes is not a %s (they are a few kB)",
             what, path.c_str(), length, what);
  text->resize((size_t)length);
  PetscCallMPI(MPI_Bcast(text->data(), (int)length, MPI_CHAR, 0, comm));
  PetscFunctionReturn(0);
}

std::string dataDirectory() { return DataDirectories().front(); }

std::vector<std::string> shippedSets() {
  std::vector<std::string> sets;
  for (const std::string &dir : DataDirectories()) {
    std::error_code ec;
    for (fs::directory_iterator it(fs::path(dir) / "params", ec), end; !ec && it != end; it.increment(ec))
      if (it->is_directory(ec) && !SetListHas(sets, it->path().filename().string()))
        sets.push_back(it->path().filename().string());
  }
  std::sort(sets.begin(), sets.end());
  return sets;
}

std::vector<std::string> materialsInSet(const std::string &set) {
  std::vector<std::string> materials;
  if (!SetListHas(shippedSets(), set)) return materials; // also keeps names like "../x" out of the file system
  std::error_code ec;
  for (fs::directory_iterator it(SetFolder(set), ec), end; !ec && it != end; it.increment(ec))
    if (it->is_regular_file(ec) && it->path().extension() == ".tbp") materials.push_back(it->path().stem().string());
  std::sort(materials.begin(), materials.end());
  return materials;
}

std::string DescribeParameterSet(const std::string &set) {
  const std::vector<std::string> materials = materialsInSet(set);
  if (materials.empty()) return set + " (no .tbp file)";
  const fs::path path = SetFolder(set) / (materials.front() + ".tbp");
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  MaterialParameters p;
  std::string error;
  if (!ParseParameterText(text.str(), path.string(), &p, &error)) return set + " (" + path.string() + " is broken)";
  return set + " (" + BasisName(p) + ": " + JoinSetNames(materials) + ")";
}

std::string DescribeParameterSets() {
  std::string text;
  for (const std::string &set : shippedSets()) text += (text.empty() ? "" : ", ") + DescribeParameterSet(set);
  return text.empty() ? "none found (point TBPETA_DATA_DIR at tbpeta's data directory)" : text;
}

PetscErrorCode LoadShippedMaterial(MPI_Comm comm, const std::string &set, const std::string &material,
                                   MaterialParameters *out) {
  PetscFunctionBeginUser;
  PetscCall(LoadShippedMaterial(comm, set, material, "-material", out));
  PetscFunctionReturn(0);
}

PetscErrorCode LoadShippedMaterial(MPI_Comm comm, const std::string &set, const std::string &material,
                                   const char *material_option, MaterialParameters *out) {
  PetscFunctionBeginUser;
  const std::vector<std::string> sets = shippedSets();
  if (sets.empty()) {
    std::vector<std::string> dirs;
    for (const std::string &d : DataDirectories()) dirs.push_back((fs::path(d) / "params").string());
    const std::string dir = JoinSetNames(dirs);
    SETERRQ(
        comm, PETSC_ERR_USER_INPUT,
        "-params: unknown parameter set '%s' (no sets found in '%s'; point TBPETA_DATA_DIR at tbpeta's data directory)",
        set.c_str(), dir.c_str());
  }
  PetscCheck(SetListHas(sets, set), comm, PETSC_ERR_USER_INPUT,
             "-params: unknown parameter set '%s' (shipped sets: %s)", set.c_str(), JoinSetNames(sets).c_str());
  const std::vector<std::string> materials = materialsInSet(set);
  PetscCheck(SetListHas(materials, material), comm, PETSC_ERR_USER_INPUT,
             "%s: '%s' is not in parameter set '%s' (available: %s)", material_option, material.c_str(), set.c_str(),
             JoinSetNames(materials).c_str());
  const std::string path = (SetFolder(set) / (material + ".tbp")).string();
  MaterialParameters p;
  PetscCall(LoadParameterFile(comm, path, &p));
  // A shipped file must describe what its location says, or the user would silently get another material.
  PetscCheck(p.set == set && p.material == material, comm, PETSC_ERR_USER_INPUT,
             "parameter file '%s': declares set '%s', material '%s' but is shipped as set '%s', material '%s'",
             path.c_str(), p.set.c_str(), p.material.c_str(), set.c_str(), material.c_str());
  *out = p;
  PetscFunctionReturn(0);
}

PetscErrorCode LoadParameterFile(MPI_Comm comm, const std::string &path, MaterialParameters *out) {
  std::string text, error;
  MaterialParameters p;
  PetscFunctionBeginUser;
  PetscCall(ReadDataFileOnRankZero(comm, "parameter file", path, &text));
  PetscCheck(ParseParameterText(text, path, &p, &error), comm, PETSC_ERR_USER_INPUT, "%s", error.c_str());
  *out = p;
  PetscFunctionReturn(0);
}

} // namespace tbpeta
