// HDF5 and XDMF output (ResultsFile.hpp). Every HDF5 call made here is collective, so a failure on one rank must not
// leave the others waiting in the next collective call: after every call the ranks agree on whether any of them
// failed (Hdf5Writing), and all raise the same one-line error; the HDF5 objects close on every rank (RAII, in reverse
// order of creation) and the temporary files are removed. What rank 0 does alone at the end (the tables, the XDMF
// file) raises its errors quietly on PETSC_COMM_SELF and hands them to every rank the same way.
#include "io/ResultsFile.hpp"

#include <petscviewerhdf5.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <set>

#include "io/CanonicalOrder.hpp"
#include "io/Hdf5File.hpp"
#include "io/OutputPath.hpp"
#include "io/ResultsContents.hpp"
#include "io/XdmfFile.hpp"
#include "support/CollectiveError.hpp"
#include "support/InterruptSignal.hpp"
#include "support/PetscHandle.hpp"
#include "support/CrashReport.hpp"
#include "io/Hdf5Viewer.hpp"

namespace tbpeta {
namespace {

// Group structure/: every rank its own rows.
PetscErrorCode WriteStructure(const Hdf5Writing &w, const ResultsContents &d, hid_t file, hid_t dxpl) {
  H5Handle group(H5Gclose);
  PetscFunctionBeginUser;
  PetscCall(w.Check(group.Reset(H5Gcreate2(file, "structure", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)),
                    "H5Gcreate2 of structure"));
  PetscCall(w.Dataset(group.get(), "positions", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, d.total_atoms, 3, &d.sel,
                      d.positions.data(), dxpl));
  PetscCall(w.Dataset(group.get(), "species", H5T_STD_I32LE, H5T_NATIVE_INT32, d.total_atoms, 0, &d.sel,
                      d.species.data(), dxpl, &d.species_names));
  PetscCall(w.Dataset(group.get(), "material", H5T_STD_I32LE, H5T_NATIVE_INT32, d.total_atoms, 0, &d.sel,
                      d.material.data(), dxpl, &d.material_names));
  PetscCall(
      w.Dataset(group.get(), "index", H5T_STD_I32LE, H5T_NATIVE_INT32, d.total_atoms, 0, &d.sel, d.index.data(), dxpl));
  PetscCall(w.Check(group.Close(), "H5Gclose of structure"));
  PetscFunctionReturn(0);
}

PetscErrorCode WriteAtomGroups(const Hdf5Writing &w, const ResultsContents &d, hid_t file, hid_t dxpl) {
  PetscFunctionBeginUser;
  for (const ResultsContents::Group &g : d.groups) {
    H5Handle group(H5Gclose);
    const std::string &name = g.meta.name;
    PetscCall(w.Check(group.Reset(H5Gcreate2(file, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)),
                      "H5Gcreate2 of " + name));
    for (size_t f = 0; f < g.data.size(); ++f) {
      const int c = g.meta.fields[f].components;
      PetscCall(w.Dataset(group.get(), g.meta.fields[f].name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, d.total_atoms,
                          c > 1 ? c : 0, &d.sel, g.data[f].data(), dxpl));
    }
    for (const auto &[key, value] : g.meta.text) PetscCall(w.Attribute(group.get(), name.c_str(), key, &value));
    for (const auto &[key, value] : g.meta.values)
      PetscCall(w.Attribute(group.get(), name.c_str(), key, nullptr, value));
    PetscCall(w.Check(group.Close(), "H5Gclose of " + name));
  }
  PetscFunctionReturn(0);
}

// Row k of states/density: |psi|^2 summed over each owned atom's rows of x, moved to this rank's canonical block.
PetscErrorCode WriteDensity(const Hdf5Writing &w, const ResultsContents &d, Vec x, CanonicalOrder &atoms_order,
                            Vec owned_density, hid_t dset, hsize_t k, hid_t dxpl) {
  const PetscScalar *px, *py;
  PetscScalar *rho;
  PetscInt owned;
  const PetscInt bs = d.block_size;
  std::vector<double> buf;
  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(owned_density, &owned));
  PetscCall(VecGetArrayRead(x, &px));
  PetscCall(VecGetArray(owned_density, &rho));
  for (PetscInt i = 0; i < owned; ++i) {
    PetscReal s = 0;
    for (PetscInt o = 0; o < bs; ++o) s += PetscRealPart(px[i * bs + o] * PetscConj(px[i * bs + o]));
    rho[i] = s;
  }
  PetscCall(VecRestoreArray(owned_density, &rho));
  PetscCall(VecRestoreArrayRead(x, &px));
  PetscCall(atoms_order.Forward(owned_density));
  buf.resize(atoms_order.atoms());
  PetscCall(VecGetArrayRead(atoms_order.canonical(), &py));
  for (PetscInt j = 0; j < atoms_order.atoms(); ++j) buf[j] = PetscRealPart(py[j]);
  PetscCall(VecRestoreArrayRead(atoms_order.canonical(), &py));
  const hsize_t first = atoms_order.firstAtom(), count = atoms_order.atoms(), start[2] = {k, first},
                size[2] = {1, count};
  auto select = [&](hid_t space) {
    return count ? H5Sselect_hyperslab(space, H5S_SELECT_SET, start, nullptr, size, nullptr) : H5Sselect_none(space);
  };
  PetscCall(w.WritePart(dset, "density", H5T_NATIVE_DOUBLE, count, select, buf.data(), dxpl));
  PetscFunctionReturn(0);
}

// Group states/: residuals (rank 0) and, with vectors, the density of every state and, on request, the vectors
// themselves in canonical row order (PETSc's VecView, one time step per state).
PetscErrorCode WriteStates(const Hdf5Writing &w, const ResultsContents &d, const StatesForOutput &states,
                           std::span<const PetscInt> canonical_index, PetscViewer viewer, hid_t file, hid_t dxpl) {
  H5Handle group(H5Gclose), density(H5Dclose);
  PetscFunctionBeginUser;
  PetscCall(
      w.Check(group.Reset(H5Gcreate2(file, "states", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)), "H5Gcreate2 of states"));
  PetscCall(w.Dataset(group.get(), "residuals", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, d.n_eigenvalues, 0, nullptr,
                      d.residuals.data(), dxpl));
  if (d.has_dot_fraction)
    PetscCall(w.Dataset(group.get(), "dot_fraction", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, d.n_eigenvalues, 0, nullptr,
                        d.dot_fraction.data(), dxpl));
  if (d.has_bound)
    PetscCall(w.Dataset(group.get(), "bound", H5T_STD_I8LE, H5T_NATIVE_SCHAR, d.n_eigenvalues, 0, nullptr,
                        d.bound.data(), dxpl));
  if (d.has_vectors) {
    const PetscInt owned = (PetscInt)canonical_index.size(), total = (PetscInt)d.total_atoms;
    OwnedVec x, owned_density;
    CanonicalOrder atoms_order, rows_order;
    PetscCall(VecCreateMPI(w.comm(), owned * d.block_size, total * d.block_size, x.out()));
    PetscCall(VecCreateMPI(w.comm(), owned, total, owned_density.out()));
    PetscCall(CanonicalOrder::Create(owned_density, canonical_index, total, 1, &atoms_order));
    if (d.write_vectors) {
      PetscCall(CanonicalOrder::Create(x, canonical_index, total, d.block_size, &rows_order));
      PetscCall(PetscObjectSetName((PetscObject)rows_order.canonical(), "vectors"));
      PetscCall(PetscViewerHDF5PushGroup(viewer, "/states"));
      PetscCall(PetscViewerHDF5PushTimestepping(viewer));
    }
    PetscCall(w.CreateDataset(group.get(), "density", H5T_IEEE_F64LE, {d.n_eigenvalues, d.total_atoms}, &density));
    for (hsize_t k = 0; k < d.n_eigenvalues; ++k) {
      PetscCall(states.vector(d.order[k], x));
      PetscCall(WriteDensity(w, d, x, atoms_order, owned_density, density.get(), k, dxpl));
      if (!d.write_vectors) continue;
      PetscCall(rows_order.Forward(x));
      PetscCall(PetscViewerHDF5SetTimestep(viewer, (PetscInt)k));
      PetscCall(VecView(rows_order.canonical(), viewer));
    }
    if (d.write_vectors) {
      PetscCall(PetscViewerHDF5PopTimestepping(viewer));
      PetscCall(PetscViewerHDF5PopGroup(viewer));
    }
    PetscCall(w.Check(density.Close(), "H5Dclose of density"));
  }
  PetscCall(w.Check(group.Close(), "H5Gclose of states"));
  PetscFunctionReturn(0);
}

// Group solver/: its name and counters as attributes.
PetscErrorCode WriteSolver(const Hdf5Writing &w, const ResultsContents &d, hid_t file) {
  H5Handle group(H5Gclose);
  PetscFunctionBeginUser;
  PetscCall(
      w.Check(group.Reset(H5Gcreate2(file, "solver", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)), "H5Gcreate2 of solver"));
  PetscCall(w.Attribute(group.get(), "solver", "name", &d.solver.name));
  for (const auto &[name, value] : d.solver.counters)
    PetscCall(w.Attribute(group.get(), "solver", name, nullptr, value));
  PetscCall(w.Check(group.Close(), "H5Gclose of solver"));
  PetscFunctionReturn(0);
}

// Root attributes, eigenvalues, structure, states and solver, through PETSc's HDF5 viewer on `tmp` (MPI-IO).
PetscErrorCode WriteFileContents(const Hdf5Writing &w, const ResultsContents &d, const StatesForOutput &states,
                                 std::span<const PetscInt> canonical_index, PetscViewer viewer) {
  hid_t file;
  H5Handle dxpl(H5Pclose);
  PetscFunctionBeginUser;
  PetscCall(PetscViewerHDF5GetFileId(viewer, &file));
  PetscCall(w.Check(dxpl.Reset(H5Pcreate(H5P_DATASET_XFER)), "H5Pcreate(dataset transfer)"));
  PetscCall(w.Check(H5Pset_dxpl_mpio(dxpl.get(), H5FD_MPIO_COLLECTIVE), "H5Pset_dxpl_mpio"));
  PetscCall(w.Attribute(file, "/", "options", &d.options));
  for (const auto &[key, value] : d.attributes) PetscCall(w.Attribute(file, "/", key, &value));
  for (const auto &[key, value] : d.values) PetscCall(w.Attribute(file, "/", key, nullptr, value));
  PetscCall(w.Dataset(file, "eigenvalues", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, d.n_eigenvalues, 0, nullptr,
                      d.eigenvalues.data(), dxpl.get()));
  PetscCall(WriteStructure(w, d, file, dxpl.get()));
  PetscCall(WriteAtomGroups(w, d, file, dxpl.get()));
  PetscCall(WriteStates(w, d, states, canonical_index, viewer, file, dxpl.get()));
  if (d.has_solver) PetscCall(WriteSolver(w, d, file));
  PetscCall(w.Check(dxpl.Close(), "H5Pclose(dataset transfer)"));
  // Flush (MPI_File_sync on every rank): the data is on disk before the file gets its final name.
  PetscCall(w.Check(H5Fflush(file, H5F_SCOPE_GLOBAL), "H5Fflush"));
  PetscFunctionReturn(0);
}

// The whole parallel part under the name `tmp`. *attempted is set once the file may exist.
PetscErrorCode WriteFile(MPI_Comm comm, const std::string &tmp, const ResultsContents &d, const StatesForOutput &states,
                         std::span<const PetscInt> canonical_index, bool *attempted) {
  const Hdf5Writing w(comm, d.path);
  OwnedViewer viewer;
  PetscFunctionBeginUser;
  *attempted = true;
  std::string problem;
  PetscCall(OpenHdf5ForWriting(comm, tmp, viewer.out(), &problem));
  PetscCall(AgreeOnError(
      comm, viewer ? 0 : PETSC_ERR_FILE_OPEN,
      viewer ? "" : "cannot write results to " + d.path + ": creating " + tmp + " failed (" + problem + ")"));
  PetscCall(WriteFileContents(w, d, states, canonical_index, viewer));
  auto [ccode, cmessage] = Quietly([&] { return PetscViewerDestroy(viewer.out()); });
  PetscCall(AgreeOnError(comm, ccode ? PETSC_ERR_FILE_WRITE : 0,
                         ccode ? "cannot write results to " + d.path + ": closing " + tmp + " failed (" + cmessage + ")"
                               : ""));
  PetscFunctionReturn(0);
}

// One table: a group with one dataset per column. Written serially into the closed file, because parallel HDF5 (1.10)
// cannot write variable-length strings to datasets.
PetscErrorCode WriteTable(const Hdf5Writing &w, const TableForOutput &table, hid_t file) {
  H5Handle group(H5Gclose), strings(H5Tclose);
  PetscFunctionBeginUser;
  PetscCall(w.Check(group.Reset(H5Gcreate2(file, table.group.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)),
                    "H5Gcreate2 of " + table.group));
  PetscCall(w.StringType(&strings, table.group));
  for (const TableColumn &c : table.columns) {
    if (auto v = std::get_if<std::vector<long long>>(&c.values))
      PetscCall(w.Dataset(group.get(), c.name, H5T_STD_I64LE, H5T_NATIVE_LLONG,
                          v->size() / std::max<size_t>(1, c.width), (hsize_t)c.width, nullptr, v->data(), H5P_DEFAULT));
    else if (auto r = std::get_if<std::vector<double>>(&c.values))
      PetscCall(w.Dataset(group.get(), c.name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
                          r->size() / std::max<size_t>(1, c.width), (hsize_t)c.width, nullptr, r->data(), H5P_DEFAULT));
    else if (auto f = std::get_if<std::vector<signed char>>(&c.values))
      PetscCall(w.Dataset(group.get(), c.name, H5T_STD_I8LE, H5T_NATIVE_SCHAR, f->size(), 0, nullptr, f->data(),
                          H5P_DEFAULT));
    else {
      const auto &s = std::get<std::vector<std::string>>(c.values);
      std::vector<const char *> p;
      for (const std::string &x : s) p.push_back(x.c_str());
      PetscCall(
          w.Dataset(group.get(), c.name, strings.get(), strings.get(), p.size(), 0, nullptr, p.data(), H5P_DEFAULT));
    }
  }
  PetscCall(w.Check(group.Close(), "H5Gclose of " + table.group));
  PetscFunctionReturn(0);
}

PetscErrorCode FinishOnRankZero(const std::string &tmp, const std::string &tmp_xmf, const ResultsContents &d) {
  const Hdf5Writing w(PETSC_COMM_SELF, d.path);
  H5Handle file(H5Fclose);
  PetscFunctionBeginUser;
  if (!d.tables.empty()) {
    PetscCall(w.Check(file.Reset(H5Fopen(tmp.c_str(), H5F_ACC_RDWR, H5P_DEFAULT)), "H5Fopen of temporary file " + tmp));
    for (const TableForOutput &t : d.tables) PetscCall(WriteTable(w, t, file.get()));
    PetscCall(w.Check(file.Close(), "H5Fclose"));
  }
  std::vector<XdmfField> fields;
  for (const ResultsContents::Group &g : d.groups)
    for (const AtomField &f : g.meta.fields)
      fields.push_back({g.meta.name + "_" + f.name, "/" + g.meta.name + "/" + f.name, f.components});
  PetscCall(WriteXdmf(tmp_xmf, d.path, d.h5_name, d.total_atoms, d.has_vectors ? d.n_eigenvalues : 0, fields));
  PetscFunctionReturn(0);
}

// Rank 0 renames (or, after a failure or a SIGINT/SIGTERM, removes) the temporaries once every rank has closed them:
// the HDF5 file first, since the XDMF file refers to it; if the second rename fails, the first is undone. The
// reduction is also the barrier after which every rank has closed the files.
PetscErrorCode Commit(MPI_Comm comm, const std::string &path, const std::string &tmp, const std::string &tmp_xmf,
                      const ResultsContents &d, PetscErrorCode write_error, bool attempted) {
  PetscMPIInt rank;
  const std::string xmf = XdmfPath(path);
  int sig = InterruptSignal(), rename_errno = 0;
  std::string renamed;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &sig, 1, MPI_INT, MPI_MAX, comm));
  const bool interrupted = sig != 0 && !write_error;
  if (rank == 0) {
    if (!write_error && !interrupted) {
      if (std::rename(tmp.c_str(), path.c_str()) != 0) rename_errno = errno, renamed = tmp;
      else if (std::rename(tmp_xmf.c_str(), xmf.c_str()) != 0)
        rename_errno = errno, renamed = tmp_xmf, (void)std::remove(path.c_str());
    }
    if (write_error || interrupted || rename_errno) {
      if (attempted) (void)std::remove(tmp.c_str());
      (void)std::remove(tmp_xmf.c_str());
    }
  }
  PetscCall(write_error);
  PetscCheck(!interrupted, comm, PETSC_ERR_SIG, "interrupted by %s while writing %s; no output written",
             SignalName(sig), d.path.c_str());
  PetscCallMPI(MPI_Bcast(&rename_errno, 1, MPI_INT, 0, comm));
  PetscCall(BcastString(comm, renamed));
  PetscCheck(rename_errno == 0, comm, PETSC_ERR_FILE_WRITE, "cannot write results to %s: renaming %s failed (%s)",
             d.path.c_str(), OneLine(renamed).c_str(), std::strerror(rename_errno));
  PetscFunctionReturn(0);
}

} // namespace

PetscErrorCode WriteResults(MPI_Comm comm, const std::string &path, const StatesForOutput &states,
                            const AtomsForOutput &atoms, const std::string &options,
                            const std::vector<std::pair<std::string, std::string>> &root_attributes,
                            const NamedValues &root_values, const SolverForOutput &solver,
                            std::span<const TableForOutput> tables) {
  PetscMPIInt rank;
  ResultsContents d;
  std::string tmp;
  bool attempted = false;
  QuietHDF5 quiet;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  d.path = OneLine(path);
  d.h5_name = path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);
  // Everything is validated before anything is created.
  PetscCall(GatherResultsContents(comm, states, atoms, options, root_attributes, root_values, solver, tables, &d));
  // Temporary names in the same directory (so that the renames are atomic), chosen by rank 0.
  if (rank == 0) tmp = TemporarySuffix();
  PetscCall(BcastString(comm, tmp));
  const std::string tmp_xmf = XdmfPath(path) + tmp;
  tmp = path + tmp;
  RemovedOnCrash guard_h5(tmp), guard_xmf(tmp_xmf);
  PetscErrorCode write_error = WriteFile(comm, tmp, d, states, atoms.canonical_index, &attempted);
  if (!write_error) {
    std::pair<PetscErrorCode, std::string> finish{0, ""};
    if (rank == 0) finish = Quietly([&] { return FinishOnRankZero(tmp, tmp_xmf, d); });
    write_error = AgreeOnError(comm, finish.first, finish.second);
  }
  PetscCall(Commit(comm, path, tmp, tmp_xmf, d, write_error, attempted));
  PetscFunctionReturn(0);
}

} // namespace tbpeta
