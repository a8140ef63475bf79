// The on-site term `efield`: an applied electric field (-efield, -efield_origin, read with the system:
// model/FieldSpec), phi = -F.(r - r0) at each atom's relaxed position, so that an electron's energy gains
// +e F.(r - r0); r0 is the box's centre unless -efield_origin. Its output: the field and its origin in fields/, the
// field as the root attribute efield.
#include "fields/OnsiteTerm.hpp"

namespace tbpeta {

namespace {

class AppliedFieldTerm : public OnsiteTerm {
public:
  explicit AppliedFieldTerm(const FieldSpec &spec) : spec_(spec) {}
  bool on() const override { return spec_.fieldOn(); }

  // F in kV/cm (1e-4 V/nm), positions in nm.
  PetscErrorCode Compute(MPI_Comm, const TightBindingSystem &sys, const SystemStrain &,
                         std::span<double> energy) override {
    const Structure &s = sys.structure;
    for (int a = 0; a < 3; ++a)
      origin_[a] = spec_.origin_given ? spec_.efield_origin[a] : 0.125 * sys.a_nm * (sys.lattice.planes()[a] - 1);
    for (PetscInt i = 0; i < s.owned; ++i) {
      const std::array<double, 3> r = s.position(i, sys.a_nm);
      double phi = 0;
      for (int a = 0; a < 3; ++a) phi -= 1e-4 * spec_.efield[a] * (r[a] - origin_[a]);
      energy[i] = -phi;
    }
    return 0;
  }

  PetscErrorCode PrintSummary(MPI_Comm comm) const override {
    PetscFunctionBeginUser;
    PetscCall(PetscPrintf(comm, "applied field %s, zero at %.4f,%.4f,%.4f nm; ", AppliedFieldText(spec_.efield).c_str(),
                          origin_[0], origin_[1], origin_[2]));
    PetscFunctionReturn(0);
  }

  // The field and its origin (0 when off) always.
  void Output(AtomGroup *fields, ResultsPart *part) const override {
    part->attributes.push_back({"efield", AppliedFieldText(spec_.efield)});
    fields->values.insert(fields->values.end(), {{"efield_x", spec_.efield[0]},
                                                 {"efield_y", spec_.efield[1]},
                                                 {"efield_z", spec_.efield[2]},
                                                 {"efield_origin_x", origin_[0]},
                                                 {"efield_origin_y", origin_[1]},
                                                 {"efield_origin_z", origin_[2]}});
  }

private:
  FieldSpec spec_;
  std::array<double, 3> origin_{0, 0, 0}; // nm, where the potential is zero
};

PetscErrorCode AppliedFieldFromOptions(MPI_Comm, const FieldSpec &spec, std::unique_ptr<OnsiteTerm> *term) {
  *term = std::make_unique<AppliedFieldTerm>(spec);
  return 0;
}

} // namespace

OnsiteTermKind AppliedFieldTermKind() { return {"efield", AppliedFieldFromOptions}; }

} // namespace tbpeta
