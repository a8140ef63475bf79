#include "io/Hdf5File.hpp"

#include "support/CollectiveError.hpp"

namespace tbpeta {

namespace {

// Selections with at most this many runs of consecutive rows are built as a union of hyperslabs (cheap to transfer);
// more fragmented ones as point selections, because a union of n hyperslabs costs O(n^2) to build in HDF5 1.10.
constexpr std::size_t kMaxHyperslabRuns = 256;

herr_t InnermostErrorCallback(unsigned, const H5E_error2_t *err, void *data) {
  auto *s = static_cast<std::string *>(data);
  if (s->empty() && err && err->desc && *err->desc) *s = err->desc;
  return 0;
}

// Description of the innermost entry of HDF5's error stack (where the error was detected), or "".
std::string InnermostH5Error() {
  std::string s;
  if (H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, InnermostErrorCallback, &s) < 0) return "";
  return OneLine(s);
}

// Selects the given rows (all `cols` columns of each) of a 1-D (cols == 0) or 2-D (N, cols) file dataspace.
herr_t SelectRows(hid_t space, const RowSelection &d, hsize_t cols) {
  if (d.rows.empty()) return H5Sselect_none(space);
  if (d.runs.size() <= kMaxHyperslabRuns) {
    bool first = true;
    for (const auto &[start_row, length] : d.runs) {
      hsize_t start[2] = {start_row, 0}, count[2] = {length, cols};
      if (H5Sselect_hyperslab(space, first ? H5S_SELECT_SET : H5S_SELECT_OR, start, nullptr, count, nullptr) < 0)
        return -1;
      first = false;
    }
    return 0;
  }
  // Points in file order (ascending), so that the memory buffer, which is in `rows` order, matches element by element.
  const hsize_t rank = cols ? 2 : 1, per_row = cols ? cols : 1;
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
hid_t MemorySpace(hsize_t count) {
  hsize_t dims = count ? count : 1;
  hid_t space = H5Screate_simple(1, &dims, nullptr);
  if (space >= 0 && !count && H5Sselect_none(space) < 0) {
    H5Sclose(space);
    return -1;
  }
  return space;
}

} // namespace

QuietHDF5::QuietHDF5() {
  saved_ = H5Eget_auto2(H5E_DEFAULT, &func_, &data_) >= 0 && H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr) >= 0;
}

QuietHDF5::~QuietHDF5() {
  if (saved_) H5Eset_auto2(H5E_DEFAULT, func_, data_);
}

PetscErrorCode Hdf5Writing::Check(long long result, const std::string &what, PetscErrorCode code) const {
  std::string message;
  PetscFunctionBeginUser;
  if (result < 0) {
    const std::string detail = InnermostH5Error();
    message =
        "cannot write results to " + path_ + ": " + what + " failed" + (detail.empty() ? "" : " (" + detail + ")");
  }
  PetscCall(AgreeOnError(comm_, code, message));
  PetscFunctionReturn(0);
}

PetscErrorCode Hdf5Writing::StringType(H5Handle *type, const std::string &where) const {
  PetscFunctionBeginUser;
  PetscCall(Check(type->Reset(H5Tcopy(H5T_C_S1)), "H5Tcopy for " + where));
  PetscCall(Check(H5Tset_size(type->get(), H5T_VARIABLE), "H5Tset_size for " + where));
  PetscCall(Check(H5Tset_cset(type->get(), H5T_CSET_UTF8), "H5Tset_cset for " + where));
  PetscFunctionReturn(0);
}

PetscErrorCode Hdf5Writing::Attribute(hid_t object, const char *object_name, const std::string &name,
                                      const std::string *string, double number) const {
  H5Handle type(H5Tclose), space(H5Sclose), acpl(H5Pclose), attr(H5Aclose);
  const char *p = string ? string->c_str() : nullptr;
  const std::string where = "attribute '" + name + "' of " + object_name;
  PetscFunctionBeginUser;
  if (string) PetscCall(StringType(&type, where));
  else PetscCall(Check(type.Reset(H5Tcopy(H5T_IEEE_F64LE)), "H5Tcopy for " + where));
  PetscCall(Check(space.Reset(H5Screate(H5S_SCALAR)), "H5Screate for " + where));
  PetscCall(Check(acpl.Reset(H5Pcreate(H5P_ATTRIBUTE_CREATE)), "H5Pcreate for " + where));
  PetscCall(Check(H5Pset_char_encoding(acpl.get(), H5T_CSET_UTF8), "H5Pset_char_encoding for " + where));
  PetscCall(Check(attr.Reset(H5Acreate2(object, name.c_str(), type.get(), space.get(), acpl.get(), H5P_DEFAULT)),
                  "H5Acreate2 of " + where));
  if (string) PetscCall(Check(H5Awrite(attr.get(), type.get(), &p), "H5Awrite of " + where));
  else PetscCall(Check(H5Awrite(attr.get(), H5T_NATIVE_DOUBLE, &number), "H5Awrite of " + where));
  PetscCall(Check(attr.Close(), "H5Aclose of " + where));
  PetscFunctionReturn(0);
}

PetscErrorCode Hdf5Writing::CreateDataset(hid_t loc, const std::string &name, hid_t file_type,
                                          const std::vector<hsize_t> &dims, H5Handle *dset) const {
  H5Handle dcpl(H5Pclose), space(H5Sclose);
  PetscFunctionBeginUser;
  PetscCall(Check(dcpl.Reset(H5Pcreate(H5P_DATASET_CREATE)), "H5Pcreate for " + name));
  if (H5Tis_variable_str(file_type) <= 0)
    PetscCall(Check(H5Pset_fill_time(dcpl.get(), H5D_FILL_TIME_NEVER), "H5Pset_fill_time for " + name));
  PetscCall(Check(space.Reset(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr)),
                  "H5Screate_simple for " + name));
  PetscCall(
      Check(dset->Reset(H5Dcreate2(loc, name.c_str(), file_type, space.get(), H5P_DEFAULT, dcpl.get(), H5P_DEFAULT)),
            "H5Dcreate2 of " + name));
  PetscFunctionReturn(0);
}

PetscErrorCode Hdf5Writing::WritePart(hid_t dset, const std::string &name, hid_t mem_type, hsize_t count,
                                      const std::function<herr_t(hid_t)> &select, const void *buf, hid_t dxpl) const {
  H5Handle fspace(H5Sclose), mspace(H5Sclose);
  double dummy = 0;
  PetscFunctionBeginUser;
  PetscCall(Check(fspace.Reset(H5Dget_space(dset)), "H5Dget_space of " + name));
  PetscCall(Check(select(fspace.get()), "selecting this rank's elements of " + name));
  PetscCall(Check(mspace.Reset(MemorySpace(count)), "H5Screate_simple (memory) for " + name));
  PetscCall(
      Check(H5Dwrite(dset, mem_type, mspace.get(), fspace.get(), dxpl, count ? buf : &dummy), "H5Dwrite of " + name));
  PetscFunctionReturn(0);
}

PetscErrorCode Hdf5Writing::Dataset(hid_t loc, const std::string &name, hid_t file_type, hid_t mem_type, hsize_t rows,
                                    hsize_t cols, const RowSelection *owned, const void *buf, hid_t dxpl,
                                    const std::string *names) const {
  H5Handle dset(H5Dclose);
  PetscMPIInt rank;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm_, &rank));
  PetscCall(
      CreateDataset(loc, name, file_type, cols ? std::vector<hsize_t>{rows, cols} : std::vector<hsize_t>{rows}, &dset));
  if (rows) {
    const hsize_t per_row = cols ? cols : 1, count = owned       ? owned->rows.size() * per_row
                                                     : rank == 0 ? rows * per_row
                                                                 : 0;
    auto select = [&](hid_t space) {
      return owned ? SelectRows(space, *owned, cols) : count ? H5Sselect_all(space) : H5Sselect_none(space);
    };
    PetscCall(WritePart(dset.get(), name, mem_type, count, select, buf, dxpl));
  }
  if (names) PetscCall(Attribute(dset.get(), name.c_str(), "names", names));
  PetscCall(Check(dset.Close(), "H5Dclose of " + name));
  PetscFunctionReturn(0);
}

} // namespace tbpeta
