// HDF5 output (see tbpeta/ResultsWriter.hpp). Parallel HDF5 through MPI-IO, collective on the communicator.
//
// Error handling: every HDF5 call is checked, and because the HDF5 calls made here are collective, a failure on one
// rank must not leave the others waiting in the next collective call. After every HDF5 call the ranks therefore
// agree (one small allreduce) on whether any of them failed; if so, all raise the same one-line PETSc error, the
// HDF5 objects are closed on every rank (RAII, in reverse order of creation) and the temporary file is removed.
#include "tbpeta/ResultsWriter.hpp"

#include <hdf5.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <numeric>
#include <random>
#include <set>

namespace tbpeta {
namespace {

// Selections with at most this many runs of consecutive rows are built as a union of hyperslabs (cheap to transfer);
// more fragmented ones as point selections, because a union of n hyperslabs costs O(n^2) to build in HDF5 1.10.
constexpr std::size_t kMaxHyperslabRuns = 256;

// ---------------------------------------------------------------------------------------------------------------
// Collective helpers

// Error messages are one line.
std::string OneLine(std::string s)
{
  std::replace(s.begin(), s.end(), '\n', ' ');
  std::replace(s.begin(), s.end(), '\r', ' ');
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

PetscErrorCode BcastString(MPI_Comm comm, std::string &s) // rank 0's value to every rank
{
  unsigned long long n = s.size();

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Bcast(&n, 1, MPI_UNSIGNED_LONG_LONG, 0, comm));
  PetscCheck(n <= static_cast<unsigned long long>(PETSC_MPI_INT_MAX), comm, PETSC_ERR_ARG_SIZ, "String of %llu characters is too long to broadcast", n);
  s.resize(n);
  if (n) PetscCallMPI(MPI_Bcast(s.data(), static_cast<PetscMPIInt>(n), MPI_CHAR, 0, comm));
  PetscFunctionReturn(0);
}

PetscErrorCode BcastStrings(MPI_Comm comm, std::vector<std::string> &v)
{
  unsigned long long n = v.size();

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Bcast(&n, 1, MPI_UNSIGNED_LONG_LONG, 0, comm));
  v.resize(n);
  for (auto &s : v) PetscCall(BcastString(comm, s));
  PetscFunctionReturn(0);
}

// Every rank passes its own (code, message); an empty message means "no problem here". If any rank has a problem,
// every rank raises the error of the lowest such rank, so the failure is collective and identical everywhere.
PetscErrorCode AgreeOnError(MPI_Comm comm, PetscErrorCode code, std::string message)
{
  PetscMPIInt rank, size, mine, first;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  message = OneLine(message);
  mine    = message.empty() ? size : rank;
  PetscCallMPI(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm));
  if (first == size) PetscFunctionReturn(0);
  int c = static_cast<int>(code);
  PetscCallMPI(MPI_Bcast(&c, 1, MPI_INT, first, comm));
  unsigned long long n = message.size();
  PetscCallMPI(MPI_Bcast(&n, 1, MPI_UNSIGNED_LONG_LONG, first, comm));
  message.resize(n);
  PetscCallMPI(MPI_Bcast(message.data(), static_cast<PetscMPIInt>(n), MPI_CHAR, first, comm));
  SETERRQ(comm, static_cast<PetscErrorCode>(c), "%s", message.c_str());
}

// ---------------------------------------------------------------------------------------------------------------
// HDF5 helpers

herr_t InnermostErrorCallback(unsigned, const H5E_error2_t *err, void *data)
{
  auto *s = static_cast<std::string *>(data);
  if (s->empty() && err && err->desc && *err->desc) *s = err->desc;
  return 0;
}

// Description of the innermost entry of HDF5's error stack (where the error was detected), or "".
std::string InnermostH5Error()
{
  std::string s;
  if (H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, InnermostErrorCallback, &s) < 0) return "";
  return OneLine(s);
}

// HDF5 prints its error stack on every failing call by default; the library must not print, so this is switched
// off while the writer runs (and restored afterwards). Failures are reported through PETSc instead.
class QuietHDF5 {
public:
  QuietHDF5() { saved_ = H5Eget_auto2(H5E_DEFAULT, &func_, &data_) >= 0 && H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr) >= 0; }
  ~QuietHDF5()
  {
    if (saved_) H5Eset_auto2(H5E_DEFAULT, func_, data_);
  }
  QuietHDF5(const QuietHDF5 &)            = delete;
  QuietHDF5 &operator=(const QuietHDF5 &) = delete;

private:
  H5E_auto2_t func_ = nullptr;
  void       *data_ = nullptr;
  bool        saved_ = false;
};

// An HDF5 identifier that is closed when it goes out of scope.
class H5Handle {
public:
  using Closer = herr_t (*)(hid_t);
  H5Handle(Closer close) : close_(close) {}
  ~H5Handle() { (void)Close(); }
  H5Handle(const H5Handle &)            = delete;
  H5Handle &operator=(const H5Handle &) = delete;
  // Takes ownership of id (which may be negative: a failed call); returns id so that the caller can check it.
  hid_t Reset(hid_t id)
  {
    (void)Close();
    id_ = id;
    return id;
  }
  herr_t Close()
  {
    herr_t r = 0;
    if (id_ >= 0) r = close_(id_);
    id_ = H5I_INVALID_HID;
    return r;
  }
  hid_t get() const { return id_; }

private:
  hid_t  id_ = H5I_INVALID_HID;
  Closer close_;
};

// Collective check of one HDF5 call's result (hid_t or herr_t): when it is negative on any rank, every rank fails with
// "cannot write results to PATH: WHAT failed (innermost HDF5 error)".
PetscErrorCode CheckH5(MPI_Comm comm, const std::string &path, long long result, const std::string &what, PetscErrorCode code = PETSC_ERR_FILE_WRITE)
{
  std::string message;

  PetscFunctionBeginUser;
  if (result < 0) {
    std::string detail = InnermostH5Error();
    message            = "cannot write results to " + path + ": " + what + " failed" + (detail.empty() ? "" : " (" + detail + ")");
  }
  PetscCall(AgreeOnError(comm, code, message));
  PetscFunctionReturn(0);
}

// ---------------------------------------------------------------------------------------------------------------
// The data to write, validated and in file order.

struct Prepared {
  std::string                                      path; // final name (for messages)
  std::vector<double>                              eigenvalues; // sorted; rank 0 only
  hsize_t                                          n_eigenvalues = 0;
  hsize_t                                          total_atoms   = 0;
  std::vector<hsize_t>                             rows; // owned canonical indices, ascending
  std::vector<std::pair<hsize_t, hsize_t>>         runs; // (first row, length) of consecutive rows
  std::vector<double>                              positions; // 3 per row, in `rows` order
  std::vector<int32_t>                             species, material;
  std::string                                      options, species_names, material_names;
  std::vector<std::pair<std::string, std::string>> attributes;
};

std::string Join(const std::vector<std::string> &names)
{
  std::string s;
  for (std::size_t i = 0; i < names.size(); ++i) s += (i ? "," : "") + names[i];
  return s;
}

// Selects the given rows (all `cols` columns of each) of a 1-D (cols == 0) or 2-D (N, cols) file dataspace.
herr_t SelectRows(hid_t space, const Prepared &d, hsize_t cols)
{
  if (d.rows.empty()) return H5Sselect_none(space);
  if (d.runs.size() <= kMaxHyperslabRuns) {
    bool first = true;
    for (const auto &[start_row, length] : d.runs) {
      hsize_t start[2] = {start_row, 0}, count[2] = {length, cols};
      if (H5Sselect_hyperslab(space, first ? H5S_SELECT_SET : H5S_SELECT_OR, start, nullptr, count, nullptr) < 0) return -1;
      first = false;
    }
    return 0;
  }
  // Points in file order (ascending), so that the memory buffer, which is in `rows` order, matches element by element.
  const hsize_t        rank = cols ? 2 : 1, per_row = cols ? cols : 1;
  std::vector<hsize_t> coords;
  coords.reserve(d.rows.size() * per_row * rank);
  for (hsize_t r : d.rows)
    for (hsize_t c = 0; c < per_row; ++c) {
      coords.push_back(r);
      if (cols) coords.push_back(c);
    }
  return H5Sselect_elements(space, H5S_SELECT_SET, d.rows.size() * per_row, coords.data());
}

// Memory dataspace for `count` contiguous elements; an empty selection when count is 0.
hid_t MemorySpace(hsize_t count)
{
  hsize_t dims = count ? count : 1;
  hid_t   space = H5Screate_simple(1, &dims, nullptr);
  if (space >= 0 && !count && H5Sselect_none(space) < 0) {
    H5Sclose(space);
    return -1;
  }
  return space;
}

PetscErrorCode WriteStringAttribute(MPI_Comm comm, const Prepared &d, hid_t object, const char *object_name, const std::string &name, const std::string &value)
{
  H5Handle    type(H5Tclose), space(H5Sclose), acpl(H5Pclose), attr(H5Aclose);
  const char *p     = value.c_str();
  std::string where = "attribute '" + name + "' of " + object_name;

  PetscFunctionBeginUser;
  PetscCall(CheckH5(comm, d.path, type.Reset(H5Tcopy(H5T_C_S1)), "H5Tcopy for " + where));
  PetscCall(CheckH5(comm, d.path, H5Tset_size(type.get(), H5T_VARIABLE), "H5Tset_size for " + where));
  PetscCall(CheckH5(comm, d.path, H5Tset_cset(type.get(), H5T_CSET_UTF8), "H5Tset_cset for " + where));
  PetscCall(CheckH5(comm, d.path, space.Reset(H5Screate(H5S_SCALAR)), "H5Screate for " + where));
  PetscCall(CheckH5(comm, d.path, acpl.Reset(H5Pcreate(H5P_ATTRIBUTE_CREATE)), "H5Pcreate for " + where));
  PetscCall(CheckH5(comm, d.path, H5Pset_char_encoding(acpl.get(), H5T_CSET_UTF8), "H5Pset_char_encoding for " + where));
  PetscCall(CheckH5(comm, d.path, attr.Reset(H5Acreate2(object, name.c_str(), type.get(), space.get(), acpl.get(), H5P_DEFAULT)), "H5Acreate2 of " + where));
  PetscCall(CheckH5(comm, d.path, H5Awrite(attr.get(), type.get(), &p), "H5Awrite of " + where));
  PetscCall(CheckH5(comm, d.path, attr.Close(), "H5Aclose of " + where));
  PetscFunctionReturn(0);
}

// Creates dataset `name` in `loc` with shape (rows) or (rows, cols) and writes this rank's part: the rows in d.rows
// (owned = true) or, for the eigenvalues, everything from rank 0 (owned = false). With `names`, also gives the
// dataset a string attribute `names`.
PetscErrorCode WriteDataset(MPI_Comm comm, const Prepared &d, hid_t loc, const std::string &name, hid_t file_type, hid_t mem_type, hsize_t rows, hsize_t cols, bool owned, const void *buf, hid_t dxpl, const std::string *names = nullptr)
{
  H5Handle    dcpl(H5Pclose), fspace(H5Sclose), mspace(H5Sclose), dset(H5Dclose);
  hsize_t     dims[2] = {rows, cols};
  PetscMPIInt rank;
  double      dummy = 0;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(CheckH5(comm, d.path, dcpl.Reset(H5Pcreate(H5P_DATASET_CREATE)), "H5Pcreate for " + name));
  // Every element is written below: no need to write fill values first.
  PetscCall(CheckH5(comm, d.path, H5Pset_fill_time(dcpl.get(), H5D_FILL_TIME_NEVER), "H5Pset_fill_time for " + name));
  PetscCall(CheckH5(comm, d.path, fspace.Reset(H5Screate_simple(cols ? 2 : 1, dims, nullptr)), "H5Screate_simple for " + name));
  PetscCall(CheckH5(comm, d.path, dset.Reset(H5Dcreate2(loc, name.c_str(), file_type, fspace.get(), H5P_DEFAULT, dcpl.get(), H5P_DEFAULT)), "H5Dcreate2 of " + name));
  if (rows) { // collective: every rank calls H5Dwrite, possibly with an empty selection
    hsize_t count = 0;
    herr_t  sel;
    if (owned) {
      count = d.rows.size() * (cols ? cols : 1);
      sel   = SelectRows(fspace.get(), d, cols);
    } else {
      count = rank == 0 ? rows * (cols ? cols : 1) : 0;
      sel   = count ? H5Sselect_all(fspace.get()) : H5Sselect_none(fspace.get());
    }
    PetscCall(CheckH5(comm, d.path, sel, "selecting this rank's elements of " + name));
    PetscCall(CheckH5(comm, d.path, mspace.Reset(MemorySpace(count)), "H5Screate_simple (memory) for " + name));
    PetscCall(CheckH5(comm, d.path, H5Dwrite(dset.get(), mem_type, mspace.get(), fspace.get(), dxpl, count ? buf : &dummy), "H5Dwrite of " + name));
  }
  if (names) PetscCall(WriteStringAttribute(comm, d, dset.get(), name.c_str(), "names", *names));
  PetscCall(CheckH5(comm, d.path, dset.Close(), "H5Dclose of " + name));
  PetscFunctionReturn(0);
}

// Writes the whole file under the name `tmp`. *attempted is set once the file may exist.
PetscErrorCode WriteFile(MPI_Comm comm, const std::string &tmp, const Prepared &d, bool *attempted)
{
  // Declared in order of creation so that they are closed in reverse order (the file last) on an early return.
  H5Handle fapl(H5Pclose), file(H5Fclose), dxpl(H5Pclose), group(H5Gclose);

  PetscFunctionBeginUser;
  PetscCall(CheckH5(comm, d.path, fapl.Reset(H5Pcreate(H5P_FILE_ACCESS)), "H5Pcreate(file access)"));
  PetscCall(CheckH5(comm, d.path, H5Pset_fapl_mpio(fapl.get(), comm, MPI_INFO_NULL), "H5Pset_fapl_mpio"));
  *attempted = true;
  PetscCall(CheckH5(comm, d.path, file.Reset(H5Fcreate(tmp.c_str(), H5F_ACC_EXCL, H5P_DEFAULT, fapl.get())), "H5Fcreate of temporary file " + tmp, PETSC_ERR_FILE_OPEN));
  PetscCall(CheckH5(comm, d.path, fapl.Close(), "H5Pclose(file access)"));
  PetscCall(CheckH5(comm, d.path, dxpl.Reset(H5Pcreate(H5P_DATASET_XFER)), "H5Pcreate(dataset transfer)"));
  PetscCall(CheckH5(comm, d.path, H5Pset_dxpl_mpio(dxpl.get(), H5FD_MPIO_COLLECTIVE), "H5Pset_dxpl_mpio"));

  // Root attributes
  PetscCall(WriteStringAttribute(comm, d, file.get(), "/", "options", d.options));
  for (const auto &[key, value] : d.attributes) PetscCall(WriteStringAttribute(comm, d, file.get(), "/", key, value));

  // Eigenvalues, from rank 0
  PetscCall(WriteDataset(comm, d, file.get(), "eigenvalues", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, d.n_eigenvalues, 0, false, d.eigenvalues.data(), dxpl.get()));

  // Structure, every rank its own rows
  PetscCall(CheckH5(comm, d.path, group.Reset(H5Gcreate2(file.get(), "structure", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)), "H5Gcreate2 of structure"));
  PetscCall(WriteDataset(comm, d, group.get(), "positions", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, d.total_atoms, 3, true, d.positions.data(), dxpl.get()));
  PetscCall(WriteDataset(comm, d, group.get(), "species", H5T_STD_I32LE, H5T_NATIVE_INT32, d.total_atoms, 0, true, d.species.data(), dxpl.get(), &d.species_names));
  PetscCall(WriteDataset(comm, d, group.get(), "material", H5T_STD_I32LE, H5T_NATIVE_INT32, d.total_atoms, 0, true, d.material.data(), dxpl.get(), &d.material_names));
  PetscCall(CheckH5(comm, d.path, group.Close(), "H5Gclose of structure"));
  PetscCall(CheckH5(comm, d.path, dxpl.Close(), "H5Pclose(dataset transfer)"));

  // Flush (MPI_File_sync on every rank) and close: the data is on disk before the file gets its final name.
  PetscCall(CheckH5(comm, d.path, H5Fflush(file.get(), H5F_SCOPE_GLOBAL), "H5Fflush"));
  PetscCall(CheckH5(comm, d.path, file.Close(), "H5Fclose"));
  PetscFunctionReturn(0);
}

// Checks this rank's input and puts it in file order. Returns (code, message); an empty message when all is well.
std::pair<PetscErrorCode, std::string> Prepare(const AtomsForOutput &atoms, const std::vector<std::string> &species_names, const std::vector<std::string> &material_names, Prepared *d)
{
  const std::size_t n = atoms.canonical_index.size();
  if (atoms.total_atoms < 0) return {PETSC_ERR_ARG_OUTOFRANGE, "WriteResults: total_atoms is negative (" + std::to_string(atoms.total_atoms) + ")"};
  if (atoms.positions_nm.size() != 3 * n)
    return {PETSC_ERR_ARG_SIZ, "WriteResults: " + std::to_string(n) + " owned atoms but " + std::to_string(atoms.positions_nm.size()) + " position values (3 per atom expected)"};
  if (atoms.species.size() != n) return {PETSC_ERR_ARG_SIZ, "WriteResults: " + std::to_string(n) + " owned atoms but " + std::to_string(atoms.species.size()) + " species values"};
  if (atoms.material.size() != n) return {PETSC_ERR_ARG_SIZ, "WriteResults: " + std::to_string(n) + " owned atoms but " + std::to_string(atoms.material.size()) + " material values"};

  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return atoms.canonical_index[a] < atoms.canonical_index[b]; });
  d->rows.resize(n);
  d->positions.resize(3 * n);
  d->species.resize(n);
  d->material.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i   = order[k];
    const PetscInt    idx = atoms.canonical_index[i];
    if (idx < 0 || idx >= atoms.total_atoms)
      return {PETSC_ERR_ARG_OUTOFRANGE, "WriteResults: canonical index " + std::to_string(idx) + " is outside 0.." + std::to_string(atoms.total_atoms - 1)};
    if (k && d->rows[k - 1] == static_cast<hsize_t>(idx)) return {PETSC_ERR_ARG_WRONG, "WriteResults: canonical index " + std::to_string(idx) + " is given twice"};
    if (atoms.species[i] < 0 || static_cast<std::size_t>(atoms.species[i]) >= species_names.size())
      return {PETSC_ERR_ARG_OUTOFRANGE, "WriteResults: species " + std::to_string(atoms.species[i]) + " of atom " + std::to_string(idx) + " is not an index into the " + std::to_string(species_names.size()) + " species names"};
    if (atoms.material[i] < 0 || static_cast<std::size_t>(atoms.material[i]) >= material_names.size())
      return {PETSC_ERR_ARG_OUTOFRANGE, "WriteResults: material " + std::to_string(atoms.material[i]) + " of atom " + std::to_string(idx) + " is not an index into the " + std::to_string(material_names.size()) + " material names"};
    d->rows[k] = static_cast<hsize_t>(idx);
    for (int c = 0; c < 3; ++c) d->positions[3 * k + c] = atoms.positions_nm[3 * i + c];
    d->species[k]  = static_cast<int32_t>(atoms.species[i]);
    d->material[k] = static_cast<int32_t>(atoms.material[i]);
    if (k && d->rows[k - 1] + 1 == d->rows[k]) d->runs.back().second++;
    else d->runs.emplace_back(d->rows[k], 1);
  }
  d->total_atoms = static_cast<hsize_t>(atoms.total_atoms);
  return {0, ""};
}

// The same on every rank (all strings come from rank 0).
std::pair<PetscErrorCode, std::string> CheckNames(const std::vector<std::string> &species_names, const std::vector<std::string> &material_names, const std::vector<std::pair<std::string, std::string>> &attributes)
{
  for (const auto *names : {&species_names, &material_names})
    for (const auto &name : *names)
      if (name.empty() || name.find(',') != std::string::npos)
        return {PETSC_ERR_ARG_WRONG, "WriteResults: " + std::string(names == &species_names ? "species" : "material") + " name '" + name + "' is empty or contains a comma"};
  std::set<std::string> keys{"options"};
  for (const auto &[key, value] : attributes) {
    if (key.empty()) return {PETSC_ERR_ARG_WRONG, "WriteResults: a root attribute has an empty name"};
    if (!keys.insert(key).second) return {PETSC_ERR_ARG_WRONG, "WriteResults: root attribute '" + key + "' is given twice or is reserved"};
  }
  return {0, ""};
}

bool EndsWith(const std::string &s, const std::string &suffix) { return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0; }

// What is wrong with an output path, or "" (rank 0 only: it looks at the file system).
std::string PathProblem(const std::string &path)
{
  struct stat st;
  if (path.empty()) return "no file name given";
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) return "is a directory";
  if (!EndsWith(path, ".h5")) return "does not end in .h5";
  const std::size_t slash = path.rfind('/');
  // The temporary name adds 21 characters, and MPI-IO's shared-file-pointer lock files add more.
  if (path.size() - (slash == std::string::npos ? 0 : slash + 1) > 200) return "the file name is longer than 200 characters";
  const std::string dir   = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  if (::stat(dir.c_str(), &st) != 0) return "directory " + dir + " does not exist (" + std::strerror(errno) + ")";
  if (!S_ISDIR(st.st_mode)) return dir + " is not a directory";
  if (::access(dir.c_str(), W_OK | X_OK) != 0) return "directory " + dir + " is not writable (" + std::strerror(errno) + ")";
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) return "exists and is not a regular file";
  return "";
}

} // namespace

PetscErrorCode CheckOutputPath(MPI_Comm comm, const std::string &path)
{
  PetscMPIInt rank;
  std::string problem;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (rank == 0) problem = PathProblem(path);
  PetscCall(BcastString(comm, problem));
  PetscCheck(problem.empty(), comm, PETSC_ERR_USER_INPUT, "-output %s: %s", OneLine(path).c_str(), problem.c_str());
  PetscFunctionReturn(0);
}

PetscErrorCode WriteResults(MPI_Comm comm, const std::string &path, std::span<const double> eigenvalues, const AtomsForOutput &atoms, const std::string &options,
                            const std::vector<std::pair<std::string, std::string>> &root_attributes)
{
  PetscMPIInt                                      rank;
  Prepared                                         d;
  std::vector<std::string>                         species_names = atoms.species_names, material_names = atoms.material_names;
  std::vector<std::string>                         keys, values;
  std::string                                      tmp;
  unsigned long long                               counts[2], n_eigenvalues;
  bool                                             attempted = false;
  PetscErrorCode                                   write_error;
  QuietHDF5                                        quiet;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  d.path = OneLine(path);

  // Strings and eigenvalues are rank 0's, so that every rank writes identical metadata.
  d.options = options;
  PetscCall(BcastString(comm, d.options));
  PetscCall(BcastStrings(comm, species_names));
  PetscCall(BcastStrings(comm, material_names));
  for (const auto &[k, v] : root_attributes) {
    keys.push_back(k);
    values.push_back(v);
  }
  PetscCall(BcastStrings(comm, keys));
  PetscCall(BcastStrings(comm, values));
  for (std::size_t i = 0; i < keys.size(); ++i) d.attributes.emplace_back(keys[i], values[i]);
  n_eigenvalues = eigenvalues.size();
  PetscCallMPI(MPI_Bcast(&n_eigenvalues, 1, MPI_UNSIGNED_LONG_LONG, 0, comm));
  d.n_eigenvalues = n_eigenvalues;
  if (rank == 0) {
    d.eigenvalues.assign(eigenvalues.begin(), eigenvalues.end());
    // Ascending, NaNs (which should not occur) last, so that the ordering is strict-weak.
    std::sort(d.eigenvalues.begin(), d.eigenvalues.end(), [](double a, double b) { return std::isnan(b) ? !std::isnan(a) : a < b; });
  }

  // Validate everything before creating anything.
  {
    auto [code, message] = CheckNames(species_names, material_names, d.attributes);
    PetscCheck(message.empty(), comm, code, "%s", OneLine(message).c_str());
  }
  d.species_names  = Join(species_names);
  d.material_names = Join(material_names);
  {
    auto [code, message] = Prepare(atoms, species_names, material_names, &d);
    PetscCall(AgreeOnError(comm, code, message));
  }
  counts[0] = d.rows.size();
  counts[1] = static_cast<unsigned long long>(atoms.total_atoms);
  unsigned long long sum[2], max[2];
  PetscCallMPI(MPI_Allreduce(counts, sum, 2, MPI_UNSIGNED_LONG_LONG, MPI_SUM, comm));
  PetscCallMPI(MPI_Allreduce(counts, max, 2, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm));
  {
    PetscMPIInt size;
    PetscCallMPI(MPI_Comm_size(comm, &size));
    PetscCheck(max[1] * static_cast<unsigned long long>(size) == sum[1], comm, PETSC_ERR_ARG_WRONG, "WriteResults: total_atoms differs between ranks");
    PetscCheck(sum[0] == max[1], comm, PETSC_ERR_ARG_WRONG, "WriteResults: the ranks own %llu atoms in all but total_atoms is %llu", sum[0], max[1]);
  }

  // Temporary name in the same directory (so that the rename is atomic), chosen by rank 0.
  if (rank == 0) {
    unsigned long long r;
    try {
      std::random_device rd;
      r = (static_cast<unsigned long long>(rd()) << 32) ^ rd();
    } catch (...) { // no entropy source: time and process id
      r = (static_cast<unsigned long long>(std::time(nullptr)) << 20) ^ static_cast<unsigned long long>(::getpid());
    }
    char suffix[32];
    std::snprintf(suffix, sizeof suffix, "%016llx", r);
    tmp = path + ".tmp-" + suffix;
  }
  PetscCall(BcastString(comm, tmp));

  write_error = WriteFile(comm, tmp, d, &attempted);

  // Rank 0 renames (or, after a failure, removes) the temporary once every rank has closed it.
  PetscCallMPI(MPI_Barrier(comm));
  int rename_errno = 0;
  if (rank == 0) {
    if (write_error) {
      if (attempted) (void)std::remove(tmp.c_str());
    } else if (std::rename(tmp.c_str(), path.c_str()) != 0) {
      rename_errno = errno;
      (void)std::remove(tmp.c_str());
    }
  }
  PetscCall(write_error);
  PetscCallMPI(MPI_Bcast(&rename_errno, 1, MPI_INT, 0, comm));
  PetscCheck(rename_errno == 0, comm, PETSC_ERR_FILE_WRITE, "cannot write results to %s: renaming %s failed (%s)", d.path.c_str(), OneLine(tmp).c_str(), std::strerror(rename_errno));
  PetscFunctionReturn(0);
}

} // namespace tbpeta
