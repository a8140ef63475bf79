#include "model/FieldSpec.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>

#include "support/OptionLists.hpp"

namespace tbpeta {

const char *PiezoOrderName(PiezoOrder o) {
  return o == PiezoOrder::first ? "first" : o == PiezoOrder::second ? "second" : "none";
}
std::string AppliedFieldText(const std::array<double, 3> &F) {
  char text[128];
  std::snprintf(text, sizeof text, "%g,%g,%g kV/cm", F[0], F[1], F[2]);
  return text;
}

const char *E14ChoiceName(E14Choice c) {
  return c == E14Choice::calculated ? "calculated" : c == E14Choice::experimental ? "experimental" : "auto";
}

E14Choice ResolvedE14(PiezoOrder order, E14Choice c) {
  if (c != E14Choice::automatic) return c;
  return order == PiezoOrder::second ? E14Choice::calculated : E14Choice::experimental;
}

namespace {

// -efield and -efield_origin: three finite numbers each; no field component along a periodic axis.
PetscErrorCode ReadAppliedField(MPI_Comm comm, const std::array<bool, 3> &periodic, FieldSpec *s) {
  PetscBool set;
  PetscFunctionBeginUser;
  PetscCall(OptionsGetRealTuple(comm, "-efield",
                                "Applied electric field Fx,Fy,Fz (kV/cm): an electron's on-site energy gains "
                                "+e F.(r - r0); only along open axes",
                                3, s->efield.data(), &set));
  for (int a = 0; a < 3; ++a) {
    PetscCheck(std::isfinite(s->efield[a]), comm, PETSC_ERR_USER_INPUT,
               "-efield: the %c component is not a finite number (give three finite numbers in kV/cm)", "xyz"[a]);
    char value[64];
    std::snprintf(value, sizeof value, "%g", s->efield[a]); // (PETSc's own %g would print "10.")
    PetscCheck(s->efield[a] == 0 || !periodic[a], comm, PETSC_ERR_USER_INPUT,
               "-efield: %s kV/cm along %c, a periodic axis (-periodic); a field needs an open axis (a periodic "
               "potential cannot ramp)",
               value, "xyz"[a]);
  }
  PetscCall(OptionsGetRealTuple(comm, "-efield_origin",
                                "Where the applied field's potential is zero, x,y,z in nm (default: the box centre)", 3,
                                s->efield_origin.data(), &set));
  s->origin_given = set;
  for (int a = 0; a < 3; ++a)
    PetscCheck(std::isfinite(s->efield_origin[a]), comm, PETSC_ERR_USER_INPUT,
               "-efield_origin: the %c component is not a finite number (give x,y,z in nm)", "xyz"[a]);
  PetscFunctionReturn(0);
}

} // namespace

PetscErrorCode FieldSpecFromOptions(MPI_Comm comm, const FieldSpec &defaults, const std::array<bool, 3> &periodic,
                                    bool strained, FieldSpec *spec) {
  static const char *const orders[] = {"none", "first", "second"}, *const e14s[] = {"experimental", "calculated",
                                                                                    "auto"};
  FieldSpec s = defaults;
  char order_name[64], e14_name[64];
  PetscInt grid = s.grid, pad = s.pad;
  PetscBool order_set;
  int order = (int)s.piezo, e14 = (int)s.e14;
  PetscFunctionBeginUser;
  std::snprintf(order_name, sizeof order_name, "%s", orders[order]);
  std::snprintf(e14_name, sizeof e14_name, "%s", e14s[e14]);
  PetscOptionsBegin(comm, nullptr,
                    "Fields on the atoms: the piezoelectric potential of the relaxed strain, solved on a DMDA grid "
                    "by KSP with the prefix piezo_ (default -piezo_ksp_type cg -piezo_pc_type gamg -piezo_ksp_rtol "
                    "1e-10), and an applied electric field",
                    "tbpeta");
  PetscCall(PetscOptionsString("-piezo",
                               "Piezoelectric polarisation of the relaxed strain: none, first (e14) or second "
                               "(e14 and B114, B124, B156); needs -strain keating",
                               "tbpeta", order_name, order_name, sizeof order_name, &order_set));
  PetscCall(PetscOptionsString("-piezo_e14",
                               "First-order coefficient from the data files: experimental, calculated, or auto "
                               "(calculated with -piezo second, whose B114, B124, B156 were computed with it; "
                               "experimental with -piezo first)",
                               "tbpeta", e14_name, e14_name, sizeof e14_name, nullptr));
  PetscCall(PetscOptionsInt("-piezo_grid", "Poisson grid nodes per lattice constant along each axis: 1, 2 or 4",
                            "tbpeta", grid, &grid, nullptr));
  PetscCall(PetscOptionsInt("-piezo_pad_cells",
                            "Host cells added beyond the strain domain on each open face of the Poisson domain, "
                            "where the potential is held at 0",
                            "tbpeta", pad, &pad, nullptr));
  PetscOptionsEnd();
  PetscCall(ChooseOptionWord(comm, "-piezo", order_name, orders, 3, &order));
  PetscCall(ChooseOptionWord(comm, "-piezo_e14", e14_name, e14s, 3, &e14));
  s.piezo = (PiezoOrder)order;
  s.e14 = ResolvedE14(s.piezo, (E14Choice)e14);
  PetscCheck(!s.piezoOn() || strained, comm, PETSC_ERR_USER_INPUT,
             "-piezo %s: the polarisation comes from the relaxed strain; add -strain keating", order_name);
  PetscCheck(grid == 1 || grid == 2 || grid == 4, comm, PETSC_ERR_USER_INPUT,
             "-piezo_grid: %" PetscInt_FMT " is not allowed (allowed: 1, 2 or 4 nodes per lattice constant)", grid);
  PetscCheck(pad >= 0 && pad <= 10000, comm, PETSC_ERR_USER_INPUT,
             "-piezo_pad_cells: %" PetscInt_FMT " must be 0 or more", pad);
  s.grid = (int)grid, s.pad = (int)pad;
  PetscCall(ReadAppliedField(comm, periodic, &s));
  *spec = s;
  PetscFunctionReturn(0);
}

} // namespace tbpeta
