#pragma once
// Collective HDF5 writing (MPI-IO) in which no rank is left waiting: every call's result is agreed on by all ranks
// (CollectiveError), so a failure on one rank raises the same one-line error "cannot write results to PATH: WHAT
// failed (innermost HDF5 error)" on every rank; objects close in reverse order of creation (H5Handle) on any early
// return; HDF5's own error printing is off while the writing runs (QuietHDF5): the library does not print.
#include <hdf5.h>
#include <petscsys.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace tbpeta {

// Switches HDF5's automatic error printing off while it lives.
class QuietHDF5 {
public:
  QuietHDF5();
  ~QuietHDF5();
  QuietHDF5(const QuietHDF5 &) = delete;
  QuietHDF5 &operator=(const QuietHDF5 &) = delete;

private:
  H5E_auto2_t func_ = nullptr;
  void *data_ = nullptr;
  bool saved_ = false;
};

// An HDF5 identifier closed when it goes out of scope.
class H5Handle {
public:
  using Closer = herr_t (*)(hid_t);
  explicit H5Handle(Closer close) : close_(close) {}
  ~H5Handle() { (void)Close(); }
  H5Handle(const H5Handle &) = delete;
  H5Handle &operator=(const H5Handle &) = delete;
  // Takes ownership of id (which may be negative: a failed call); returns id so that the caller can check it.
  hid_t Reset(hid_t id) {
    (void)Close();
    id_ = id;
    return id;
  }
  herr_t Close() {
    herr_t r = 0;
    if (id_ >= 0) r = close_(id_);
    id_ = H5I_INVALID_HID;
    return r;
  }
  hid_t get() const { return id_; }

private:
  hid_t id_ = H5I_INVALID_HID;
  Closer close_;
};

// This rank's rows of a dataset of per-atom rows: ascending indices, and the runs of consecutive ones.
struct RowSelection {
  std::vector<hsize_t> rows;
  std::vector<std::pair<hsize_t, hsize_t>> runs; // (first row, length)
};

// The writing of one file on a communicator (`path` names it in messages).
class Hdf5Writing {
public:
  Hdf5Writing(MPI_Comm comm, std::string path) : comm_(comm), path_(std::move(path)) {}
  MPI_Comm comm() const { return comm_; }
  const std::string &path() const { return path_; }
  // Collective check of one HDF5 call's result (hid_t or herr_t).
  PetscErrorCode Check(long long result, const std::string &what, PetscErrorCode code = PETSC_ERR_FILE_WRITE) const;
  // A variable-length UTF-8 string type.
  PetscErrorCode StringType(H5Handle *type, const std::string &where) const;
  // Scalar attribute `name` of `object`: a variable-length UTF-8 string (string != nullptr) or a float64.
  PetscErrorCode Attribute(hid_t object, const char *object_name, const std::string &name, const std::string *string,
                           double number = 0) const;
  // Dataset `name` in `loc` of shape `dims`, every element written afterwards (no fill values).
  PetscErrorCode CreateDataset(hid_t loc, const std::string &name, hid_t file_type, const std::vector<hsize_t> &dims,
                               H5Handle *dset) const;
  // Writes `count` elements of buf to the elements `select` picks in the file space of dset. Collective: every rank
  // calls it, possibly with nothing to write.
  PetscErrorCode WritePart(hid_t dset, const std::string &name, hid_t mem_type, hsize_t count,
                           const std::function<herr_t(hid_t)> &select, const void *buf, hid_t dxpl) const;
  // Dataset `name` of shape (rows) or (rows, cols): this rank's `owned` rows, or (owned == nullptr) everything from
  // rank 0; with `names`, a string attribute `names`. Collective.
  PetscErrorCode Dataset(hid_t loc, const std::string &name, hid_t file_type, hid_t mem_type, hsize_t rows,
                         hsize_t cols, const RowSelection *owned, const void *buf, hid_t dxpl,
                         const std::string *names = nullptr) const;

private:
  MPI_Comm comm_;
  std::string path_;
};

} // namespace tbpeta
