#pragma once
// A run's results in one HDF5 file (parallel, MPI-IO, collective on the communicator) and an XDMF file beside it
// (XdmfFile) with which ParaView opens the atoms as a point cloud. Layout of the HDF5 file:
//   /eigenvalues           float64 (n,)     eV, ascending
//   /states/residuals      float64 (n,)     ||Hx - lambda x|| of each state, same order as the eigenvalues
//   /states/dot_fraction   float64 (n,)     the fraction of each state's density on the dot's atoms (when given)
//   /states/bound          int8    (n,)     1: the state's energy lies in the host's gap (when given)
//   /states/density        float64 (n,N)    |psi|^2 summed over the rows of each atom (rows of unit vectors sum to 1);
//                                           whenever the solver returned eigenvectors
//   /states/vectors        float64 (n,R,2)  the eigenvectors (real, imaginary part), R = N * block_size rows in the
//                                           canonical row order (canonical atom * block_size + orbital); on request,
//                                           written by PETSc's HDF5 viewer (VecView, one time step per state)
//   /structure/positions   float64 (N,3)    nm, rows in the canonical (rank-independent) atom order
//   /structure/species     int32   (N,)     attribute `names`: the species names, comma-separated
//   /structure/material    int32   (N,)     attribute `names`: the material names, comma-separated
//   /structure/index       int32   (N,)     0..N-1: the connectivity of the XDMF point cloud
//   /<group>/<field>       float64 (N,) or (N,c)  per-atom fields of the caller (e.g. strain/displacement), canonical
//                                           atom order, with the group's attributes; also node attributes in XDMF
//   /solver                group            attribute `name` (string) and one float64 attribute per counter
//   /<table>/<column>      (rows,)          tables of the caller (e.g. compare/, the comparison of solvers)
//   root attributes        `options` and the caller's key/value pairs (variable-length UTF-8 strings), and the
//                          caller's numeric values (float64, e.g. gap_center)
// Both files are written under temporary names in the same directory and renamed when complete, so a failed or
// interrupted run leaves neither behind.
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "io/ResultsForOutput.hpp"

namespace tbpeta {

// Writes PATH and its XDMF file (collective on comm). Strings and numbers other than the per-atom data are taken from
// rank 0. Inconsistent input (sizes, indices out of range, names containing a comma, duplicate or reserved attribute
// or counter names) is refused before anything is created; any failure removes the temporaries (and a file already
// renamed), so neither file is left. One-line PETSc errors.
PetscErrorCode WriteResults(MPI_Comm comm, const std::string &path, const StatesForOutput &states,
                            const AtomsForOutput &atoms, const std::string &options,
                            const std::vector<std::pair<std::string, std::string>> &root_attributes,
                            const NamedValues &root_values = {}, const SolverForOutput &solver = {},
                            std::span<const TableForOutput> tables = {});

} // namespace tbpeta
