// HDF5 and XDMF output (see tbpeta/ResultsWriter.hpp). Parallel HDF5 through MPI-IO, collective on the communicator.
//
// Error handling: every HDF5 call is checked, and because the HDF5 calls made here are collective, a failure on one
// rank must not leave the others waiting in the next collective call. After every HDF5 call the ranks therefore
// agree (one small allreduce) on whether any of them failed; if so, all raise the same one-line PETSc error, the
// HDF5 objects are closed on every rank (RAII, in reverse order of creation) and the temporary files are removed.
// What rank 0 does alone at the end (the comparison table, the XDMF file) raises its errors quietly on
// PETSC_COMM_SELF and then hands them to every rank the same way.
#include "io/ResultsWriter.hpp"
#include "support/InterruptSignal.hpp"

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
#include <fstream>
#include <functional>
#include <numeric>
#include <random>
#include <set>
#include <type_traits>

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

// Rank 0's named values (or key/value strings) to every rank.
template <typename T>
PetscErrorCode BcastPairs(MPI_Comm comm, std::vector<std::pair<std::string, T>> &pairs)
{
  std::vector<std::string> keys;
  std::vector<T>           values;

  PetscFunctionBeginUser;
  for (const auto &[k, v] : pairs) {
    keys.push_back(k);
    values.push_back(v);
  }
  PetscCall(BcastStrings(comm, keys));
  values.resize(keys.size());
  if constexpr (std::is_same_v<T, std::string>) PetscCall(BcastStrings(comm, values));
  else if (!values.empty()) PetscCallMPI(MPI_Bcast(values.data(), static_cast<PetscMPIInt>(values.size()), MPI_DOUBLE, 0, comm));
  pairs.clear();
  for (std::size_t i = 0; i < keys.size(); ++i) pairs.emplace_back(keys[i], values[i]);
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

// Runs f (this rank alone) with PETSc's error handler replaced by one that only returns the code, so that nothing is
// printed, and returns (code, message) for AgreeOnError.
std::pair<PetscErrorCode, std::string> Quietly(const std::function<PetscErrorCode()> &f)
{
  if (PetscPushErrorHandler(PetscReturnErrorHandler, nullptr)) return {PETSC_ERR_LIB, "cannot push an error handler"};
  const PetscErrorCode code = f();
  (void)PetscPopErrorHandler();
  const char *text     = nullptr;
  char       *specific = nullptr;
  if (!code) return {0, ""};
  if (PetscErrorMessage(0, &text, &specific) || !specific || !*specific) return {code, "error " + std::to_string(code)};
  return {code, specific};
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
  std::string                                      path;    // final name (for messages)
  std::string                                      h5_name; // its last component (the XDMF file refers to it)
  std::vector<double>                              eigenvalues, residuals; // sorted; rank 0 only
  hsize_t                                          n_eigenvalues = 0;
  hsize_t                                          total_atoms   = 0;
  std::vector<hsize_t>                             rows; // owned canonical indices, ascending
  std::vector<std::pair<hsize_t, hsize_t>>         runs; // (first row, length) of consecutive rows
  std::vector<double>                              positions; // 3 per row, in `rows` order
  std::vector<int32_t>                             species, material, index;
  std::string                                      options, species_names, material_names;
  std::vector<std::pair<std::string, std::string>> attributes;
  NamedValues                                      values; // numeric root attributes
  std::vector<Vec>                                 vectors; // in the order of the sorted eigenvalues; empty without vectors
  hsize_t                                          block_size    = 0;
  bool                                             write_vectors = false;
  bool                                             has_solver    = false;
  SolverForOutput                                  solver;
  std::vector<ComparisonRow>                       compare; // rank 0 only
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

// Variable-length UTF-8 string type.
PetscErrorCode StringType(MPI_Comm comm, const Prepared &d, H5Handle *type, const std::string &where)
{
  PetscFunctionBeginUser;
  PetscCall(CheckH5(comm, d.path, type->Reset(H5Tcopy(H5T_C_S1)), "H5Tcopy for " + where));
  PetscCall(CheckH5(comm, d.path, H5Tset_size(type->get(), H5T_VARIABLE), "H5Tset_size for " + where));
  PetscCall(CheckH5(comm, d.path, H5Tset_cset(type->get(), H5T_CSET_UTF8), "H5Tset_cset for " + where));
  PetscFunctionReturn(0);
}

// Scalar attribute `name` of `object`: a variable-length UTF-8 string (string != nullptr) or a float64.
PetscErrorCode WriteAttribute(MPI_Comm comm, const Prepared &d, hid_t object, const char *object_name, const std::string &name, const std::string *string, double number = 0)
{
  H5Handle    type(H5Tclose), space(H5Sclose), acpl(H5Pclose), attr(H5Aclose);
  const char *p     = string ? string->c_str() : nullptr;
  std::string where = "attribute '" + name + "' of " + object_name;

  PetscFunctionBeginUser;
  if (string) PetscCall(StringType(comm, d, &type, where));
  else PetscCall(CheckH5(comm, d.path, type.Reset(H5Tcopy(H5T_IEEE_F64LE)), "H5Tcopy for " + where));
  PetscCall(CheckH5(comm, d.path, space.Reset(H5Screate(H5S_SCALAR)), "H5Screate for " + where));
  PetscCall(CheckH5(comm, d.path, acpl.Reset(H5Pcreate(H5P_ATTRIBUTE_CREATE)), "H5Pcreate for " + where));
  PetscCall(CheckH5(comm, d.path, H5Pset_char_encoding(acpl.get(), H5T_CSET_UTF8), "H5Pset_char_encoding for " + where));
  PetscCall(CheckH5(comm, d.path, attr.Reset(H5Acreate2(object, name.c_str(), type.get(), space.get(), acpl.get(), H5P_DEFAULT)), "H5Acreate2 of " + where));
  if (string) PetscCall(CheckH5(comm, d.path, H5Awrite(attr.get(), type.get(), &p), "H5Awrite of " + where));
  else PetscCall(CheckH5(comm, d.path, H5Awrite(attr.get(), H5T_NATIVE_DOUBLE, &number), "H5Awrite of " + where));
  PetscCall(CheckH5(comm, d.path, attr.Close(), "H5Aclose of " + where));
  PetscFunctionReturn(0);
}

// Creates dataset `name` in `loc` with shape `dims`. Every element is written afterwards: no need for fill values
// (which HDF5 requires for variable-length strings).
PetscErrorCode CreateDataset(MPI_Comm comm, const Prepared &d, hid_t loc, const std::string &name, hid_t file_type, const std::vector<hsize_t> &dims, H5Handle *dset)
{
  H5Handle dcpl(H5Pclose), space(H5Sclose);

  PetscFunctionBeginUser;
  PetscCall(CheckH5(comm, d.path, dcpl.Reset(H5Pcreate(H5P_DATASET_CREATE)), "H5Pcreate for " + name));
  if (H5Tis_variable_str(file_type) <= 0) PetscCall(CheckH5(comm, d.path, H5Pset_fill_time(dcpl.get(), H5D_FILL_TIME_NEVER), "H5Pset_fill_time for " + name));
  PetscCall(CheckH5(comm, d.path, space.Reset(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr)), "H5Screate_simple for " + name));
  PetscCall(CheckH5(comm, d.path, dset->Reset(H5Dcreate2(loc, name.c_str(), file_type, space.get(), H5P_DEFAULT, dcpl.get(), H5P_DEFAULT)), "H5Dcreate2 of " + name));
  PetscFunctionReturn(0);
}

// Writes `count` elements of buf to the elements that `select` picks in the file space of dset. Collective: every
// rank calls it, possibly with nothing to write.
PetscErrorCode WritePart(MPI_Comm comm, const Prepared &d, hid_t dset, const std::string &name, hid_t mem_type, hsize_t count, const std::function<herr_t(hid_t)> &select, const void *buf, hid_t dxpl)
{
  H5Handle fspace(H5Sclose), mspace(H5Sclose);
  double   dummy = 0;

  PetscFunctionBeginUser;
  PetscCall(CheckH5(comm, d.path, fspace.Reset(H5Dget_space(dset)), "H5Dget_space of " + name));
  PetscCall(CheckH5(comm, d.path, select(fspace.get()), "selecting this rank's elements of " + name));
  PetscCall(CheckH5(comm, d.path, mspace.Reset(MemorySpace(count)), "H5Screate_simple (memory) for " + name));
  PetscCall(CheckH5(comm, d.path, H5Dwrite(dset, mem_type, mspace.get(), fspace.get(), dxpl, count ? buf : &dummy), "H5Dwrite of " + name));
  PetscFunctionReturn(0);
}

// Creates dataset `name` in `loc` with shape (rows) or (rows, cols) and writes this rank's part: the rows in d.rows
// (owned = true) or everything from rank 0 (owned = false: eigenvalues, residuals, the comparison table). With
// `names`, also gives the dataset a string attribute `names`.
PetscErrorCode WriteDataset(MPI_Comm comm, const Prepared &d, hid_t loc, const std::string &name, hid_t file_type, hid_t mem_type, hsize_t rows, hsize_t cols, bool owned, const void *buf, hid_t dxpl, const std::string *names = nullptr)
{
  H5Handle    dset(H5Dclose);
  PetscMPIInt rank;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(CreateDataset(comm, d, loc, name, file_type, cols ? std::vector<hsize_t>{rows, cols} : std::vector<hsize_t>{rows}, &dset));
  if (rows) {
    const hsize_t per_row = cols ? cols : 1, count = owned ? d.rows.size() * per_row : rank == 0 ? rows * per_row : 0;
    auto          select  = [&](hid_t space) { return owned ? SelectRows(space, d, cols) : count ? H5Sselect_all(space) : H5Sselect_none(space); };
    PetscCall(WritePart(comm, d, dset.get(), name, mem_type, count, select, buf, dxpl));
  }
  if (names) PetscCall(WriteAttribute(comm, d, dset.get(), name.c_str(), "names", names));
  PetscCall(CheckH5(comm, d.path, dset.Close(), "H5Dclose of " + name));
  PetscFunctionReturn(0);
}

// ---------------------------------------------------------------------------------------------------------------
// States: densities and vectors in the canonical order.
//
// The owned atoms are scattered over the canonical order (one run per line of atoms), so that writing them in place
// would need point selections of 3 coordinates per element. The states are therefore first moved, with a
// VecScatter, into Vecs in canonical order split in contiguous blocks of atoms: each rank then writes one hyperslab.

struct CanonicalStates {
  Vec        owned_density = nullptr; // |psi|^2 of each owned atom, in local order
  Vec        density       = nullptr; // the same in canonical order, this rank's block of atoms
  Vec        rows          = nullptr; // a vector's rows in canonical order, this rank's block of atoms (write_vectors)
  VecScatter to_density = nullptr, to_rows = nullptr;
  hsize_t    first_atom = 0, atoms = 0; // this rank's block of canonical atoms
};

// A Vec holding per_atom entries per atom in the canonical order, in contiguous blocks of atoms (PETSc's default split),
// and the scatter that fills it from `from`, whose local entries are the owned atoms in local order.
PetscErrorCode CanonicalScatter(MPI_Comm comm, std::span<const PetscInt> canonical_index, PetscInt total_atoms, PetscInt per_atom, Vec from, Vec *to, VecScatter *scatter)
{
  const PetscInt owned = static_cast<PetscInt>(canonical_index.size());
  PetscInt       local = PETSC_DECIDE, first;
  IS             is_from, is_to;

  PetscFunctionBeginUser;
  PetscCall(PetscSplitOwnership(comm, &local, &total_atoms));
  PetscCall(VecCreateMPI(comm, local * per_atom, total_atoms * per_atom, to));
  PetscCall(VecGetOwnershipRange(from, &first, nullptr));
  PetscCall(ISCreateStride(comm, owned * per_atom, first, 1, &is_from));
  PetscCall(ISCreateBlock(comm, per_atom, owned, canonical_index.data(), PETSC_COPY_VALUES, &is_to));
  PetscCall(VecScatterCreate(from, is_from, *to, is_to, scatter));
  PetscCall(ISDestroy(&is_from));
  PetscCall(ISDestroy(&is_to));
  PetscFunctionReturn(0);
}

PetscErrorCode CreateCanonicalStates(MPI_Comm comm, const Prepared &d, std::span<const PetscInt> canonical_index, CanonicalStates *c)
{
  const PetscInt total = static_cast<PetscInt>(d.total_atoms);
  PetscInt       lo, hi;

  PetscFunctionBeginUser;
  if (d.vectors.empty()) PetscFunctionReturn(0);
  PetscCall(VecCreateMPI(comm, static_cast<PetscInt>(canonical_index.size()), total, &c->owned_density));
  PetscCall(CanonicalScatter(comm, canonical_index, total, 1, c->owned_density, &c->density, &c->to_density));
  if (d.write_vectors) PetscCall(CanonicalScatter(comm, canonical_index, total, static_cast<PetscInt>(d.block_size), d.vectors[0], &c->rows, &c->to_rows));
  PetscCall(VecGetOwnershipRange(c->density, &lo, &hi));
  c->first_atom = static_cast<hsize_t>(lo);
  c->atoms      = static_cast<hsize_t>(hi - lo);
  PetscFunctionReturn(0);
}

PetscErrorCode DestroyCanonicalStates(CanonicalStates *c)
{
  PetscFunctionBeginUser;
  PetscCall(VecScatterDestroy(&c->to_density));
  PetscCall(VecScatterDestroy(&c->to_rows));
  PetscCall(VecDestroy(&c->owned_density));
  PetscCall(VecDestroy(&c->density));
  PetscCall(VecDestroy(&c->rows));
  PetscFunctionReturn(0);
}

// Writes this rank's block [first, first + count) of row `state` of a dataset of shape (states, rows) or
// (states, rows, cols).
PetscErrorCode WriteStateBlock(MPI_Comm comm, const Prepared &d, hid_t dset, const std::string &name, hsize_t state, hsize_t first, hsize_t count, hsize_t cols, const double *buf, hid_t dxpl)
{
  hsize_t start[3] = {state, first, 0}, size[3] = {1, count, cols};

  PetscFunctionBeginUser;
  auto select = [&](hid_t space) { return count ? H5Sselect_hyperslab(space, H5S_SELECT_SET, start, nullptr, size, nullptr) : H5Sselect_none(space); };
  PetscCall(WritePart(comm, d, dset, name, H5T_NATIVE_DOUBLE, count * (cols ? cols : 1), select, buf, dxpl));
  PetscFunctionReturn(0);
}

// Group states/: residuals (rank 0), and with vectors the density of every state and, on request, the vectors.
PetscErrorCode WriteStates(MPI_Comm comm, const Prepared &d, const CanonicalStates &c, hid_t file, hid_t dxpl)
{
  H5Handle            group(H5Gclose), density(H5Dclose), vectors(H5Dclose);
  const hsize_t       bs = d.block_size;
  std::vector<double> buf;

  PetscFunctionBeginUser;
  PetscCall(CheckH5(comm, d.path, group.Reset(H5Gcreate2(file, "states", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)), "H5Gcreate2 of states"));
  PetscCall(WriteDataset(comm, d, group.get(), "residuals", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, d.n_eigenvalues, 0, false, d.residuals.data(), dxpl));
  if (!d.vectors.empty()) {
    PetscCall(CreateDataset(comm, d, group.get(), "density", H5T_IEEE_F64LE, {d.vectors.size(), d.total_atoms}, &density));
    if (d.write_vectors) PetscCall(CreateDataset(comm, d, group.get(), "vectors", H5T_IEEE_F64LE, {d.vectors.size(), d.total_atoms * bs, 2}, &vectors));
    for (hsize_t k = 0; k < d.vectors.size(); ++k) {
      const PetscScalar *x, *y;
      PetscScalar       *rho;
      PetscInt           owned;

      // |psi|^2 summed over each owned atom's rows, then moved to the canonical blocks.
      PetscCall(VecGetLocalSize(c.owned_density, &owned));
      PetscCall(VecGetArrayRead(d.vectors[k], &x));
      PetscCall(VecGetArray(c.owned_density, &rho));
      for (PetscInt i = 0; i < owned; ++i) {
        PetscReal s = 0;
        for (hsize_t o = 0; o < bs; ++o) s += PetscRealPart(x[i * bs + o] * PetscConj(x[i * bs + o]));
        rho[i] = s;
      }
      PetscCall(VecRestoreArray(c.owned_density, &rho));
      PetscCall(VecRestoreArrayRead(d.vectors[k], &x));
      PetscCall(VecScatterBegin(c.to_density, c.owned_density, c.density, INSERT_VALUES, SCATTER_FORWARD));
      PetscCall(VecScatterEnd(c.to_density, c.owned_density, c.density, INSERT_VALUES, SCATTER_FORWARD));
      buf.resize(c.atoms);
      PetscCall(VecGetArrayRead(c.density, &y));
      for (hsize_t j = 0; j < c.atoms; ++j) buf[j] = PetscRealPart(y[j]);
      PetscCall(VecRestoreArrayRead(c.density, &y));
      PetscCall(WriteStateBlock(comm, d, density.get(), "density", k, c.first_atom, c.atoms, 0, buf.data(), dxpl));
      if (!d.write_vectors) continue;

      PetscCall(VecScatterBegin(c.to_rows, d.vectors[k], c.rows, INSERT_VALUES, SCATTER_FORWARD));
      PetscCall(VecScatterEnd(c.to_rows, d.vectors[k], c.rows, INSERT_VALUES, SCATTER_FORWARD));
      buf.resize(2 * c.atoms * bs);
      PetscCall(VecGetArrayRead(c.rows, &y));
      for (hsize_t j = 0; j < c.atoms * bs; ++j) {
        buf[2 * j]     = PetscRealPart(y[j]);
        buf[2 * j + 1] = PetscImaginaryPart(y[j]);
      }
      PetscCall(VecRestoreArrayRead(c.rows, &y));
      PetscCall(WriteStateBlock(comm, d, vectors.get(), "vectors", k, c.first_atom * bs, c.atoms * bs, 2, buf.data(), dxpl));
    }
    PetscCall(CheckH5(comm, d.path, vectors.Close(), "H5Dclose of vectors"));
    PetscCall(CheckH5(comm, d.path, density.Close(), "H5Dclose of density"));
  }
  PetscCall(CheckH5(comm, d.path, group.Close(), "H5Gclose of states"));
  PetscFunctionReturn(0);
}

// Group solver/: its name and counters as attributes.
PetscErrorCode WriteSolver(MPI_Comm comm, const Prepared &d, hid_t file)
{
  H5Handle group(H5Gclose);

  PetscFunctionBeginUser;
  PetscCall(CheckH5(comm, d.path, group.Reset(H5Gcreate2(file, "solver", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)), "H5Gcreate2 of solver"));
  PetscCall(WriteAttribute(comm, d, group.get(), "solver", "name", &d.solver.name));
  for (const auto &[name, value] : d.solver.counters) PetscCall(WriteAttribute(comm, d, group.get(), "solver", name, nullptr, value));
  PetscCall(CheckH5(comm, d.path, group.Close(), "H5Gclose of solver"));
  PetscFunctionReturn(0);
}

// Writes the whole HDF5 file (but the comparison table) under the name `tmp`. *attempted is set once the file may exist.
PetscErrorCode WriteFile(MPI_Comm comm, const std::string &tmp, const Prepared &d, const CanonicalStates &c, bool *attempted)
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
  PetscCall(WriteAttribute(comm, d, file.get(), "/", "options", &d.options));
  for (const auto &[key, value] : d.attributes) PetscCall(WriteAttribute(comm, d, file.get(), "/", key, &value));
  for (const auto &[key, value] : d.values) PetscCall(WriteAttribute(comm, d, file.get(), "/", key, nullptr, value));

  // Eigenvalues, from rank 0
  PetscCall(WriteDataset(comm, d, file.get(), "eigenvalues", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, d.n_eigenvalues, 0, false, d.eigenvalues.data(), dxpl.get()));

  // Structure, every rank its own rows
  PetscCall(CheckH5(comm, d.path, group.Reset(H5Gcreate2(file.get(), "structure", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)), "H5Gcreate2 of structure"));
  PetscCall(WriteDataset(comm, d, group.get(), "positions", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, d.total_atoms, 3, true, d.positions.data(), dxpl.get()));
  PetscCall(WriteDataset(comm, d, group.get(), "species", H5T_STD_I32LE, H5T_NATIVE_INT32, d.total_atoms, 0, true, d.species.data(), dxpl.get(), &d.species_names));
  PetscCall(WriteDataset(comm, d, group.get(), "material", H5T_STD_I32LE, H5T_NATIVE_INT32, d.total_atoms, 0, true, d.material.data(), dxpl.get(), &d.material_names));
  PetscCall(WriteDataset(comm, d, group.get(), "index", H5T_STD_I32LE, H5T_NATIVE_INT32, d.total_atoms, 0, true, d.index.data(), dxpl.get()));
  PetscCall(CheckH5(comm, d.path, group.Close(), "H5Gclose of structure"));

  PetscCall(WriteStates(comm, d, c, file.get(), dxpl.get()));
  if (d.has_solver) PetscCall(WriteSolver(comm, d, file.get()));
  PetscCall(CheckH5(comm, d.path, dxpl.Close(), "H5Pclose(dataset transfer)"));

  // Flush (MPI_File_sync on every rank) and close: the data is on disk before the file gets its final name.
  PetscCall(CheckH5(comm, d.path, H5Fflush(file.get(), H5F_SCOPE_GLOBAL), "H5Fflush"));
  PetscCall(CheckH5(comm, d.path, file.Close(), "H5Fclose"));
  PetscFunctionReturn(0);
}

// ---------------------------------------------------------------------------------------------------------------
// Rank 0 alone, after the collective part: errors are raised on PETSC_COMM_SELF.

// One column of the comparison table: a field of every row, as T (strings as C strings).
template <typename T, typename Field>
std::vector<T> Column(const std::vector<ComparisonRow> &rows, Field ComparisonRow::*field)
{
  std::vector<T> v;
  for (const ComparisonRow &r : rows) {
    if constexpr (std::is_same_v<T, const char *>) v.push_back((r.*field).c_str());
    else v.push_back(static_cast<T>(r.*field));
  }
  return v;
}

// Group compare/: one entry per compared solver in every dataset (the per-state values of the rows are left out).
// Written serially into the closed file because parallel HDF5 (1.10) cannot write variable-length strings to datasets.
PetscErrorCode WriteComparison(const Prepared &d, hid_t file)
{
  const MPI_Comm self = PETSC_COMM_SELF;
  const auto    &rows = d.compare;
  H5Handle       group(H5Gclose), strings(H5Tclose);

  PetscFunctionBeginUser;
  const auto solver = Column<const char *>(rows, &ComparisonRow::solver), run = Column<const char *>(rows, &ComparisonRow::run), note = Column<const char *>(rows, &ComparisonRow::note);
  const auto states = Column<int64_t>(rows, &ComparisonRow::states), requested = Column<int64_t>(rows, &ComparisonRow::requested);
  const auto products = Column<int64_t>(rows, &ComparisonRow::products), iterations = Column<int64_t>(rows, &ComparisonRow::iterations);
  const auto held = Column<int64_t>(rows, &ComparisonRow::vectors_held), levels = Column<int64_t>(rows, &ComparisonRow::levels_compared);
  const auto deviation = Column<double>(rows, &ComparisonRow::max_deviation), residual = Column<double>(rows, &ComparisonRow::max_residual);
  const auto seconds = Column<double>(rows, &ComparisonRow::seconds), rss = Column<double>(rows, &ComparisonRow::peak_rss_mb);
  const auto solver_mb = Column<double>(rows, &ComparisonRow::solver_mb), center = Column<double>(rows, &ComparisonRow::center);
  const auto converged = Column<int8_t>(rows, &ComparisonRow::converged), reference = Column<int8_t>(rows, &ComparisonRow::reference);
  const auto skipped = Column<int8_t>(rows, &ComparisonRow::skipped);
  PetscCall(CheckH5(self, d.path, group.Reset(H5Gcreate2(file, "compare", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)), "H5Gcreate2 of compare"));
  PetscCall(StringType(self, d, &strings, "compare"));
  const struct Type {
    hid_t file, mem;
  } text{strings.get(), strings.get()}, i64{H5T_STD_I64LE, H5T_NATIVE_INT64}, f64{H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE}, i8{H5T_STD_I8LE, H5T_NATIVE_INT8};
  const struct {
    const char *name;
    Type        type;
    const void *data;
  } columns[] = {
    {"solver", text, solver.data()},       {"run", text, run.data()},
    {"states", i64, states.data()},        {"requested", i64, requested.data()},
    {"max_deviation", f64, deviation.data()}, {"max_residual", f64, residual.data()},
    {"products", i64, products.data()},    {"iterations", i64, iterations.data()},
    {"vectors_held", i64, held.data()},    {"seconds", f64, seconds.data()},
    {"peak_rss_mb", f64, rss.data()},      {"solver_mb", f64, solver_mb.data()},
    {"center", f64, center.data()},        {"levels_compared", i64, levels.data()},
    {"converged", i8, converged.data()},   {"reference", i8, reference.data()},
    {"skipped", i8, skipped.data()},       {"note", text, note.data()},
  };
  for (const auto &c : columns) PetscCall(WriteDataset(self, d, group.get(), c.name, c.type.file, c.type.mem, rows.size(), 0, false, c.data, H5P_DEFAULT));
  PetscCall(CheckH5(self, d.path, group.Close(), "H5Gclose of compare"));
  PetscFunctionReturn(0);
}

std::string XmlEscape(const std::string &s)
{
  std::string out;
  for (char ch : s) {
    switch (ch) {
    case '&': out += "&amp;"; break;
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '"': out += "&quot;"; break;
    case '\'': out += "&apos;"; break;
    default: out += ch;
    }
  }
  return out;
}

// The XDMF file: the atoms as a Polyvertex point cloud (Xdmf 3 needs the explicit connectivity structure/index),
// with species, material and each state's density (row i of states/density, a HyperSlab) as node attributes. The
// HDF5 file is named without its directory, so that the two files can be moved together.
PetscErrorCode WriteXdmf(const std::string &tmp, const Prepared &d)
{
  const std::string N = std::to_string(d.total_atoms), h5 = XmlEscape(d.h5_name);
  std::ofstream     out(tmp, std::ios::out | std::ios::trunc);

  PetscFunctionBeginUser;
  PetscCheck(out.is_open(), PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot write results to %s: cannot create %s (%s)", d.path.c_str(), OneLine(tmp).c_str(), std::strerror(errno));
  auto item = [&](const std::string &dims, const char *type, int precision, const std::string &dataset) {
    return "<DataItem Dimensions=\"" + dims + "\" NumberType=\"" + type + "\" Precision=\"" + std::to_string(precision) + "\" Format=\"HDF\">" + h5 + ":" + dataset + "</DataItem>";
  };
  out << "<?xml version=\"1.0\" ?>\n<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n<Xdmf Version=\"3.0\">\n  <Domain>\n    <Grid Name=\"atoms\" GridType=\"Uniform\">\n";
  out << "      <Topology TopologyType=\"Polyvertex\" NumberOfElements=\"" << N << "\" NodesPerElement=\"1\">\n        " << item(N, "Int", 4, "/structure/index") << "\n      </Topology>\n";
  out << "      <Geometry GeometryType=\"XYZ\">\n        " << item(N + " 3", "Float", 8, "/structure/positions") << "\n      </Geometry>\n";
  for (const char *name : {"species", "material"})
    out << "      <Attribute Name=\"" << name << "\" AttributeType=\"Scalar\" Center=\"Node\">\n        " << item(N, "Int", 4, std::string("/structure/") + name) << "\n      </Attribute>\n";
  const std::string all = std::to_string(d.vectors.size()) + " " + N;
  for (std::size_t i = 0; i < d.vectors.size(); ++i) {
    out << "      <Attribute Name=\"density_" << i << "\" AttributeType=\"Scalar\" Center=\"Node\">\n";
    out << "        <DataItem ItemType=\"HyperSlab\" Type=\"HyperSlab\" Dimensions=\"1 " << N << "\">\n";
    out << "          <DataItem Dimensions=\"3 2\" NumberType=\"Int\" Format=\"XML\">" << i << " 0 1 1 1 " << N << "</DataItem>\n"; // start, stride, count
    out << "          " << item(all, "Float", 8, "/states/density") << "\n        </DataItem>\n      </Attribute>\n";
  }
  out << "    </Grid>\n  </Domain>\n</Xdmf>\n";
  out.close();
  PetscCheck(!out.fail(), PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "cannot write results to %s: writing %s failed", d.path.c_str(), OneLine(tmp).c_str());
  PetscFunctionReturn(0);
}

PetscErrorCode FinishOnRankZero(const std::string &tmp, const std::string &tmp_xmf, const Prepared &d)
{
  H5Handle file(H5Fclose);

  PetscFunctionBeginUser;
  if (!d.compare.empty()) {
    PetscCall(CheckH5(PETSC_COMM_SELF, d.path, file.Reset(H5Fopen(tmp.c_str(), H5F_ACC_RDWR, H5P_DEFAULT)), "H5Fopen of temporary file " + tmp));
    PetscCall(WriteComparison(d, file.get()));
    PetscCall(CheckH5(PETSC_COMM_SELF, d.path, file.Close(), "H5Fclose"));
  }
  PetscCall(WriteXdmf(tmp_xmf, d));
  PetscFunctionReturn(0);
}

// ---------------------------------------------------------------------------------------------------------------
// Validation

// Checks this rank's atoms and puts them in file order. Returns (code, message); an empty message when all is well.
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
  d->index.resize(n);
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
    d->index[k]    = static_cast<int32_t>(idx);
    if (k && d->rows[k - 1] + 1 == d->rows[k]) d->runs.back().second++;
    else d->runs.emplace_back(d->rows[k], 1);
  }
  d->total_atoms = static_cast<hsize_t>(atoms.total_atoms);
  return {0, ""};
}

// Checks this rank's vectors against its atoms (n: the number of eigenvalues). *problem is empty when all is well.
PetscErrorCode CheckVectors(const StatesForOutput &states, const AtomsForOutput &atoms, hsize_t n, std::string *problem)
{
  const PetscInt owned = static_cast<PetscInt>(atoms.canonical_index.size()), bs = states.block_size;

  PetscFunctionBeginUser;
  if (states.vectors.empty()) PetscFunctionReturn(0);
  if (states.vectors.size() != n) {
    *problem = "WriteResults: " + std::to_string(states.vectors.size()) + " vectors for " + std::to_string(n) + " eigenvalues";
    PetscFunctionReturn(0);
  }
  if (bs < 1) {
    *problem = "WriteResults: block_size " + std::to_string(bs) + " is not positive";
    PetscFunctionReturn(0);
  }
  for (std::size_t k = 0; k < states.vectors.size(); ++k) {
    PetscInt local, global;
    PetscCall(VecGetLocalSize(states.vectors[k], &local));
    PetscCall(VecGetSize(states.vectors[k], &global));
    if (local != owned * bs || global != atoms.total_atoms * bs) {
      *problem = "WriteResults: vector " + std::to_string(k) + " has " + std::to_string(local) + " local and " + std::to_string(global) + " rows, expected " + std::to_string(owned * bs) + " and " +
                 std::to_string(atoms.total_atoms * bs) + " (" + std::to_string(bs) + " per atom)";
      PetscFunctionReturn(0);
    }
  }
  PetscFunctionReturn(0);
}

// The same on every rank (all strings come from rank 0).
std::pair<PetscErrorCode, std::string> CheckNames(const std::vector<std::string> &species_names, const std::vector<std::string> &material_names, const Prepared &d)
{
  for (const auto *names : {&species_names, &material_names})
    for (const auto &name : *names)
      if (name.empty() || name.find(',') != std::string::npos)
        return {PETSC_ERR_ARG_WRONG, "WriteResults: " + std::string(names == &species_names ? "species" : "material") + " name '" + name + "' is empty or contains a comma"};
  std::set<std::string> keys{"options"};
  std::vector<std::string> all;
  for (const auto &[key, value] : d.attributes) all.push_back(key);
  for (const auto &[key, value] : d.values) all.push_back(key);
  for (const auto &key : all) {
    if (key.empty()) return {PETSC_ERR_ARG_WRONG, "WriteResults: a root attribute has an empty name"};
    if (!keys.insert(key).second) return {PETSC_ERR_ARG_WRONG, "WriteResults: root attribute '" + key + "' is given twice or is reserved"};
  }
  std::set<std::string> counters{"name"};
  for (const auto &[key, value] : d.solver.counters) {
    if (key.empty()) return {PETSC_ERR_ARG_WRONG, "WriteResults: a solver counter has an empty name"};
    if (!counters.insert(key).second) return {PETSC_ERR_ARG_WRONG, "WriteResults: solver counter '" + key + "' is given twice or is reserved"};
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
  const std::string xmf = XdmfPath(path);
  if (::stat(xmf.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) return "the XDMF file beside it, " + xmf + ", exists and is not a regular file";
  return "";
}

// A random suffix for temporary names (rank 0).
std::string RandomSuffix()
{
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

} // namespace

std::string XdmfPath(const std::string &h5_path) { return (EndsWith(h5_path, ".h5") ? h5_path.substr(0, h5_path.size() - 3) : h5_path) + ".xmf"; }

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

PetscErrorCode WriteResults(MPI_Comm comm, const std::string &path, const StatesForOutput &states, const AtomsForOutput &atoms, const std::string &options,
                            const std::vector<std::pair<std::string, std::string>> &root_attributes, const NamedValues &root_values, const SolverForOutput &solver,
                            std::span<const ComparisonRow> compare)
{
  PetscMPIInt                     rank, size;
  Prepared                        d;
  CanonicalStates                 canonical;
  std::vector<std::string>        species_names = atoms.species_names, material_names = atoms.material_names;
  std::vector<unsigned long long> order; // file position -> caller's index of each state
  std::string                     tmp, tmp_xmf, problem;
  const std::string               xmf = XdmfPath(path);
  unsigned long long              counts[3], n_eigenvalues;
  bool                            attempted = false;
  PetscErrorCode                  write_error;
  QuietHDF5                       quiet;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  d.path    = OneLine(path);
  d.h5_name = path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);

  // Strings, numbers and eigenvalues are rank 0's, so that every rank writes identical metadata.
  d.options = options;
  PetscCall(BcastString(comm, d.options));
  PetscCall(BcastStrings(comm, species_names));
  PetscCall(BcastStrings(comm, material_names));
  d.attributes = root_attributes;
  PetscCall(BcastPairs(comm, d.attributes));
  d.values = root_values;
  PetscCall(BcastPairs(comm, d.values));
  d.solver = solver;
  PetscCall(BcastString(comm, d.solver.name));
  PetscCall(BcastPairs(comm, d.solver.counters));
  d.has_solver  = !d.solver.name.empty() || !d.solver.counters.empty();
  n_eigenvalues = states.eigenvalues.size();
  PetscCallMPI(MPI_Bcast(&n_eigenvalues, 1, MPI_UNSIGNED_LONG_LONG, 0, comm));
  d.n_eigenvalues = n_eigenvalues;
  order.resize(n_eigenvalues);
  if (rank == 0) {
    if (states.residuals.size() != states.eigenvalues.size())
      problem = "WriteResults: " + std::to_string(states.residuals.size()) + " residuals for " + std::to_string(states.eigenvalues.size()) + " eigenvalues";
    else {
      // Ascending, NaNs (which should not occur) last, so that the ordering is strict-weak; the other per-state data follow.
      std::iota(order.begin(), order.end(), 0ULL);
      std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return std::isnan(states.eigenvalues[b]) ? !std::isnan(states.eigenvalues[a]) : states.eigenvalues[a] < states.eigenvalues[b]; });
      for (auto k : order) {
        d.eigenvalues.push_back(states.eigenvalues[k]);
        d.residuals.push_back(states.residuals[k]);
      }
    }
    d.compare.assign(compare.begin(), compare.end());
  }
  PetscCall(AgreeOnError(comm, PETSC_ERR_ARG_SIZ, problem));
  if (n_eigenvalues) PetscCallMPI(MPI_Bcast(order.data(), static_cast<PetscMPIInt>(n_eigenvalues), MPI_UNSIGNED_LONG_LONG, 0, comm));

  // Validate everything before creating anything.
  {
    auto [code, message] = CheckNames(species_names, material_names, d);
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
  counts[2] = states.vectors.empty() ? 0 : 1;
  unsigned long long sum[3], max[3];
  PetscCallMPI(MPI_Allreduce(counts, sum, 3, MPI_UNSIGNED_LONG_LONG, MPI_SUM, comm));
  PetscCallMPI(MPI_Allreduce(counts, max, 3, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm));
  PetscCheck(max[1] * static_cast<unsigned long long>(size) == sum[1], comm, PETSC_ERR_ARG_WRONG, "WriteResults: total_atoms differs between ranks");
  PetscCheck(sum[0] == max[1], comm, PETSC_ERR_ARG_WRONG, "WriteResults: the ranks own %llu atoms in all but total_atoms is %llu", sum[0], max[1]);
  PetscCheck(sum[2] == 0 || sum[2] == static_cast<unsigned long long>(size), comm, PETSC_ERR_ARG_WRONG, "WriteResults: vectors are given on %llu of %d ranks", sum[2], size);
  PetscCall(CheckVectors(states, atoms, n_eigenvalues, &problem));
  PetscCall(AgreeOnError(comm, PETSC_ERR_ARG_SIZ, problem));
  if (!states.vectors.empty()) {
    for (auto k : order) d.vectors.push_back(states.vectors[k]);
    d.block_size    = static_cast<hsize_t>(states.block_size);
    d.write_vectors = states.write_vectors;
  }

  // Temporary names in the same directory (so that the renames are atomic), chosen by rank 0.
  if (rank == 0) tmp = RandomSuffix();
  PetscCall(BcastString(comm, tmp));
  tmp_xmf = xmf + tmp;
  tmp     = path + tmp;

  PetscCall(CreateCanonicalStates(comm, d, atoms.canonical_index, &canonical));
  write_error = WriteFile(comm, tmp, d, canonical, &attempted);
  PetscCall(DestroyCanonicalStates(&canonical));
  if (!write_error) {
    std::pair<PetscErrorCode, std::string> finish{0, ""};
    if (rank == 0) finish = Quietly([&] { return FinishOnRankZero(tmp, tmp_xmf, d); });
    write_error = AgreeOnError(comm, finish.first, finish.second);
  }

  // Rank 0 renames (or, after a failure, removes) the temporaries once every rank has closed them: the HDF5 file
  // first, since the XDMF file refers to it; if the second rename fails, the first is undone.
  // The reduction is also the barrier after which every rank has closed the files; a SIGINT/SIGTERM that arrived
  // while writing removes them instead of renaming.
  int sig = InterruptSignal();
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &sig, 1, MPI_INT, MPI_MAX, comm));
  const bool  interrupted  = sig != 0 && !write_error;
  int         rename_errno = 0;
  std::string renamed;
  if (rank == 0) {
    if (!write_error && !interrupted) {
      if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        rename_errno = errno;
        renamed      = tmp;
      } else if (std::rename(tmp_xmf.c_str(), xmf.c_str()) != 0) {
        rename_errno = errno;
        renamed      = tmp_xmf;
        (void)std::remove(path.c_str());
      }
    }
    if (write_error || interrupted || rename_errno) {
      if (attempted) (void)std::remove(tmp.c_str());
      (void)std::remove(tmp_xmf.c_str());
    }
  }
  PetscCall(write_error);
  PetscCheck(!interrupted, comm, PETSC_ERR_SIG, "interrupted by %s while writing %s; no output written", SignalName(sig), d.path.c_str());
  PetscCallMPI(MPI_Bcast(&rename_errno, 1, MPI_INT, 0, comm));
  PetscCall(BcastString(comm, renamed));
  PetscCheck(rename_errno == 0, comm, PETSC_ERR_FILE_WRITE, "cannot write results to %s: renaming %s failed (%s)", d.path.c_str(), OneLine(renamed).c_str(), std::strerror(rename_errno));
  PetscFunctionReturn(0);
}

} // namespace tbpeta
