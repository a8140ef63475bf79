#pragma once
// PETSc's HDF5 viewer on a new file, opened so that a failure leaves nothing behind. PetscViewerHDF5Open keeps
// H5Fcreate's error code as the viewer's file, so destroying a viewer whose file could not be created flushes that
// "file" again: a second error line, and the viewer's memory left allocated (seen with -malloc_dump on an output in
// /sys). Here the viewer is destroyed as one that never had a file.
#include <petscviewer.h>

#include <string>

namespace tbpeta {

// *viewer: the HDF5 viewer writing `path` (MPI-IO), or null with *problem the innermost error's text (nothing leaked,
// nothing printed). Collective.
PetscErrorCode OpenHdf5ForWriting(MPI_Comm comm, const std::string &path, PetscViewer *viewer, std::string *problem);

} // namespace tbpeta
