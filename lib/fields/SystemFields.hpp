#pragma once
// The potentials on the atoms of a run, after the relaxation and before H: the sum of the on-site terms that are on
// (fields/OnsiteTerm.hpp: the registered kinds, built in the piezoelectric potential of the relaxed strain, PiezoTerm,
// and an applied field, AppliedFieldTerm). Their sum enters H as the potential energy of an electron on every orbital
// of the atom (Structure::potential, eV), in every operator kind; phi = -energy/e (V) is what the output shows.
// Logged as TbFields.
#include <petscsys.h>

#include <memory>
#include <string>
#include <vector>

#include "fields/OnsiteTerm.hpp"
#include "model/TightBindingSystem.hpp"
#include "strain/SystemRelaxation.hpp"

namespace tbpeta {

struct SystemFields {
  std::vector<std::unique_ptr<OnsiteTerm>> terms; // every kind's, on or off, with what it computed
  std::vector<double> potential;                  // phi (V) per owned atom of the electronic box: the terms' sum
  double seconds = 0;
  bool on() const {
    for (const auto &t : terms)
      if (t->on()) return true;
    return false;
  }
  // The term of type T (e.g. PiezoTerm), or nullptr.
  template <class T>
  const T *find() const {
    for (const auto &t : terms)
      if (auto p = dynamic_cast<const T *>(t.get())) return p;
    return nullptr;
  }
};

// Reads the terms from the options (sys->spec.fields for the built-in ones), computes those that are on and sets
// sys->structure.potential to their sum (eV); frees the strain domain kept for them. Nothing is computed and no
// potential is set when every term is off. Collective.
PetscErrorCode ComputeSystemFields(MPI_Comm comm, TightBindingSystem *sys, SystemStrain *strain, SystemFields *fields);

// The minimum and maximum of the potential over all ranks (V). Collective.
PetscErrorCode PotentialRange(MPI_Comm comm, const SystemFields &fields, double *min, double *max);

// What the fields cost on this rank, for the memory preflight: whether any term is on (then Structure::potential
// holds 8 bytes per owned atom) and the largest of the terms' own bytes while they compute. Collective.
struct FieldsEstimate {
  bool on = false;          // a term is on: a potential on every owned atom
  double compute_bytes = 0; // the largest term's computation, freed before H is built
  std::string compute;      // what that is ("piezoelectric Poisson solve")
};
PetscErrorCode EstimateSystemFields(MPI_Comm comm, const TightBindingSystem &sys, FieldsEstimate *estimate);

// What the fields hand to a run's results file: the root attributes of every term (piezo, piezo_e14, efield, ...)
// and, when a term is on, the group fields/: the potential phi (V) per atom, the time, and each term's datasets and
// attributes. Not collective (this rank's atoms).
ResultsPart FieldsOutput(const SystemFields &fields);

// -help: the options of every on-site term and the Poisson solver's. Collective.
PetscErrorCode ListFieldOptions(MPI_Comm comm);

} // namespace tbpeta
