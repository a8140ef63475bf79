#pragma once
// An on-site term: one potential energy of an electron on the atoms (eV per owned atom: electrostatic,
// piezoelectric, an applied field, ...), a registered kind of the fields layer. A kind reads its own options and
// makes its term; SystemFields sums the terms that are on into Structure::potential, which every operator kind adds
// to every orbital and spin of the atom. A new term is one file that defines its kind plus one registration line
// (OnsiteTerms.cpp, or RegisterOnsiteTerm at run time before the options are read, as EPSRegister).
#include <petscsys.h>

#include <deque>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "model/FieldSpec.hpp"
#include "model/TightBindingSystem.hpp"
#include "strain/SystemRelaxation.hpp"
#include "support/ResultsPart.hpp"

namespace tbpeta {

// One term of a run, made from the options by its kind; it keeps what it computed for the summary and the output.
class OnsiteTerm {
public:
  virtual ~OnsiteTerm() = default;
  // Whether the options switched it on; a term that is off computes nothing and adds nothing to H.
  virtual bool on() const = 0;
  // This rank's potential energy of an electron on each owned atom of sys.structure, in eV, into `energy` (sized
  // owned, zero on entry). After the relaxation; strain.domain holds the padded strain domain with -piezo. Collective.
  virtual PetscErrorCode Compute(MPI_Comm comm, const TightBindingSystem &sys, const SystemStrain &strain,
                                 std::span<double> energy) = 0;
  // Its words in the run's fields line, printed when it is on ("applied field ..., zero at ... nm; "). Collective.
  virtual PetscErrorCode PrintSummary(MPI_Comm) const { return 0; }
  // Its share of the results file, on or off: datasets and attributes of the group fields/ (written when any term
  // is on; its datasets sized as `fields->fields[0]`, the potential), root attributes, groups or tables in `part`.
  virtual void Output(AtomGroup * /*fields*/, ResultsPart * /*part*/) const {}
  // Bytes this rank allocates while it computes (a grid, a few bytes per atom), for the memory preflight. Collective.
  virtual PetscErrorCode EstimateBytes(MPI_Comm, const TightBindingSystem &, double *bytes) const {
    *bytes = 0;
    return 0;
  }
  // What allocates those bytes, for the preflight's line ("piezoelectric Poisson solve").
  virtual std::string ComputeDescription() const { return "on-site term's computation"; }
};

struct OnsiteTermKind {
  std::string name;
  // Reads the term's options inside its own PetscOptionsBegin/End (so that -help lists them with their defaults),
  // checks them (one-line PETSC_ERR_USER_INPUT naming the option) and makes the term, on or off. `spec`: what the
  // system's options chose of the fields (the built-in terms' options, read with the system because the model loads
  // the piezoelectric coefficients and the relaxation keeps the padded domain for them). Collective.
  PetscErrorCode (*from_options)(MPI_Comm comm, const FieldSpec &spec, std::unique_ptr<OnsiteTerm> *term);
};

// Adds a kind after the others, or replaces the kind of the same name. Call it on every rank alike before the
// options are read (as EPSRegister).
PetscErrorCode RegisterOnsiteTerm(const OnsiteTermKind &kind);
// Every kind in the order of the sum and of the summary: the built-in ones (piezo, efield), then the registered ones.
const std::deque<OnsiteTermKind> &OnsiteTermKinds();

// Every kind's term read from the options, in the order of OnsiteTermKinds(). Collective.
PetscErrorCode OnsiteTermsFromOptions(MPI_Comm comm, const FieldSpec &spec,
                                      std::vector<std::unique_ptr<OnsiteTerm>> *terms);

} // namespace tbpeta
