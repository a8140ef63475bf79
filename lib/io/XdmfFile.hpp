#pragma once
// The XDMF file beside an HDF5 results file (FILE.xmf for FILE.h5) with which ParaView opens the atoms as a point
// cloud (Xdmf 3, Polyvertex with the explicit connectivity /structure/index), species, material and each state's
// density (row i of /states/density) as node attributes. It names the HDF5 file without its directory, so that the
// two files can be moved together.
#include <petscsys.h>

#include <string>
#include <vector>

namespace tbpeta {

// FILE.h5 -> FILE.xmf (any other name gets .xmf appended).
std::string XdmfPath(const std::string &h5_path);

// A float64 per-atom dataset shown as a node attribute: 1 (scalar), 3 (vector) or 6 (symmetric tensor, Voigt) numbers.
struct XdmfField {
  std::string name, dataset;
  int components = 1;
};

// Writes the XDMF text to `path` for an HDF5 file named `h5_name` (no directory) of `atoms` atoms and `states`
// densities; errors on PETSC_COMM_SELF name `results` (the final HDF5 path). Not collective (rank 0 writes it).
PetscErrorCode WriteXdmf(const std::string &path, const std::string &results, const std::string &h5_name,
                         unsigned long long atoms, size_t states, const std::vector<XdmfField> &fields = {});

} // namespace tbpeta
