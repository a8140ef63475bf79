// The registry of on-site terms (OnsiteTerm.hpp).
#include "fields/OnsiteTerm.hpp"

#include "support/Registry.hpp"

namespace tbpeta {

// Each built-in term's file defines its kind; registering it is one line of the table below.
OnsiteTermKind PiezoTermKind();        // PiezoTerm.cpp
OnsiteTermKind AppliedFieldTermKind(); // AppliedFieldTerm.cpp

namespace {

Registry<OnsiteTermKind> &OnsiteTermRegistry() {
  static Registry<OnsiteTermKind> kinds = {
      PiezoTermKind(),
      AppliedFieldTermKind(),
  };
  return kinds;
}

} // namespace

PetscErrorCode RegisterOnsiteTerm(const OnsiteTermKind &kind) {
  PetscFunctionBeginUser;
  PetscCheck(!kind.name.empty() && kind.from_options, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL,
             "RegisterOnsiteTerm: a kind needs a name and a from_options function");
  OnsiteTermRegistry().Add(kind);
  PetscFunctionReturn(0);
}

const std::deque<OnsiteTermKind> &OnsiteTermKinds() { return OnsiteTermRegistry().all(); }

PetscErrorCode OnsiteTermsFromOptions(MPI_Comm comm, const FieldSpec &spec,
                                      std::vector<std::unique_ptr<OnsiteTerm>> *terms) {
  PetscFunctionBeginUser;
  terms->clear();
  for (const OnsiteTermKind &k : OnsiteTermKinds()) {
    std::unique_ptr<OnsiteTerm> term;
    PetscCall(k.from_options(comm, spec, &term));
    PetscCheck(term, comm, PETSC_ERR_PLIB, "on-site term %s made no term", k.name.c_str());
    terms->push_back(std::move(term));
  }
  PetscFunctionReturn(0);
}

} // namespace tbpeta
