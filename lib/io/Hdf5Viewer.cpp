// PETSc's private HDF5 viewer first: it must precede every other HDF5 header.
#include <petsc/private/viewerhdf5impl.h>

#include "io/Hdf5Viewer.hpp"

#include "support/CollectiveError.hpp"

namespace tbpeta {

PetscErrorCode OpenHdf5ForWriting(MPI_Comm comm, const std::string &path, PetscViewer *viewer, std::string *problem) {
  PetscFunctionBeginUser;
  *viewer = nullptr, problem->clear();
  PetscCall(PetscViewerCreate(comm, viewer));
  PetscCall(PetscViewerSetType(*viewer, PETSCVIEWERHDF5));
  PetscCall(PetscViewerFileSetMode(*viewer, FILE_MODE_WRITE));
  auto [code, message] = Quietly([&] { return PetscViewerFileSetName(*viewer, path.c_str()); });
  if (!code) PetscFunctionReturn(0);
  auto *hdf5 = static_cast<PetscViewer_HDF5 *>((*viewer)->data);
  if (hdf5->file_id < 0) hdf5->file_id = 0; // no file was created: nothing to flush or close
  *problem = message.empty() ? "PETSc error " + std::to_string((int)code) : message;
  PetscCall(PetscViewerDestroy(viewer));
  PetscFunctionReturn(0);
}

} // namespace tbpeta
