#pragma once
// -optics: the interband transitions of a run's states (optics/OpticalTransitions), after the solve: a table in the
// run's output, the HDF5 group optics/ and, with -optics_spectrum FILE.csv, the absorption spectrum for TE and TM
// light broadened by a Gaussian.
#include <slepceps.h>

#include <string>
#include <vector>

#include "application/RunOutput.hpp"
#include "model/TightBindingSystem.hpp"
#include "solvers/EigenStates.hpp"

namespace tbpeta {

struct OpticsOptions {
  PetscBool on = PETSC_FALSE;
  double index = 3.5;         // refractive index of the medium (GaAs near its gap)
  double degeneracy = 1e-5;   // eV: states closer than this form one level
  std::string spectrum;       // CSV path, or empty
  double broadening_mev = 10; // the Gaussian's standard deviation
};

// Reads -optics, -optics_index, -optics_degeneracy, -optics_spectrum and -optics_broadening; refuses a non-positive
// index, broadening or tolerance and a spectrum file that cannot be written, in one line. Collective.
PetscErrorCode OpticsOptionsFromOptions(MPI_Comm comm, OpticsOptions *opts);

// The transitions between the states above `gap_center` (conduction) and below it (valence), printed as a table,
// added to the run's results as the table optics/ and written to the spectrum file. H: the operator the states are of;
// eps holds their eigenvectors (a one-line error when the solver returned none). Collective.
PetscErrorCode ReportOptics(MPI_Comm comm, const OpticsOptions &opts, const TightBindingSystem &sys, Mat H, EPS eps,
                            const EigenStates &states, double gap_center, RunResults *results);

} // namespace tbpeta
