#include "model/StrainSpec.hpp"

#include <cstdio>

#include "support/OptionLists.hpp"

namespace tbpeta {

const char *StrainModelName(StrainModel m) { return m == StrainModel::keating ? "keating" : "none"; }

PetscErrorCode StrainedHamiltonianOptions(MPI_Comm comm, bool *onsite, bool *harrison) {
  static const char *const onsites[] = {"none", "boykin"}, *const scalings[] = {"parameters", "harrison"};
  int o = *onsite ? 1 : 0, h = *harrison ? 1 : 0;
  char onsite_name[64], scaling_name[64];
  PetscFunctionBeginUser;
  std::snprintf(onsite_name, sizeof onsite_name, "%s", onsites[o]);
  std::snprintf(scaling_name, sizeof scaling_name, "%s", scalings[h]);
  PetscOptionsBegin(comm, nullptr,
                    "Strained H: tight binding on the relaxed bonds (direction cosines, V(d) = V(d0) (d0/d)^eta, "
                    "Boykin's on-site correction)",
                    "tbpeta");
  PetscCall(PetscOptionsString(
      "-strain_onsite",
      "Strained H: the on-site correction of each bond (Boykin et al. 2002, as NEMO 3-D): boykin, or none", "tbpeta",
      onsite_name, onsite_name, sizeof onsite_name, nullptr));
  PetscCall(PetscOptionsString(
      "-strain_tb_scaling",
      "Strained H: bond-length exponents of the two-centre integrals: parameters (eta_* of the parameter set), or "
      "harrison (eta = 2 for all, no on-site correction; for sets without strain data)",
      "tbpeta", scaling_name, scaling_name, sizeof scaling_name, nullptr));
  PetscOptionsEnd();
  PetscCall(ChooseOptionWord(comm, "-strain_onsite", onsite_name, onsites, 2, &o));
  PetscCall(ChooseOptionWord(comm, "-strain_tb_scaling", scaling_name, scalings, 2, &h));
  *onsite = o == 1, *harrison = h == 1;
  PetscFunctionReturn(0);
}

PetscErrorCode StrainSpecFromOptions(MPI_Comm comm, const StrainSpec &defaults, const std::array<bool, 3> &periodic,
                                     StrainSpec *spec) {
  static const char *const models[] = {"none", "keating"}, *const fixes[] = {"none", "zmin"},
                           *const laterals[] = {"free", "periodic", "auto"};
  int model = (int)defaults.model, fix = (int)defaults.fix, lateral = defaults.lateral_periodic ? 1 : 2;
  char substrate[64], model_name[64], fix_name[64], lateral_name[64];
  PetscInt pad[3];
  PetscBool set, allow = defaults.allow_unconverged ? PETSC_TRUE : PETSC_FALSE;
  StrainSpec s = defaults;
  PetscFunctionBeginUser;
  std::snprintf(substrate, sizeof substrate, "%s", defaults.substrate.c_str());
  for (int a = 0; a < 3; ++a) pad[a] = defaults.pad[a];
  PetscOptionsBegin(
      comm, nullptr,
      "Strain: relaxation of the atoms by a Keating valence force field (NEMO 3-D's first phase). The minimiser is "
      "SNES with the prefix strain_: by default qn (L-BFGS) whose initial inverse Hessian is the bonds' Laplacian per "
      "component (-strain_snes_qn_scale_type jacobian, -strain_ksp_type preonly, -strain_pc_type shell; one cycle of "
      "-strain_laplacian_ksp_type preonly -strain_laplacian_pc_type gamg, the motions of zero energy removed), "
      "-strain_snes_atol 1e-3 eV/nm on the largest force on an atom, -strain_snes_rtol 0, -strain_snes_stol 0, "
      "-strain_snes_max_it 20000",
      "tbpeta");
  std::snprintf(model_name, sizeof model_name, "%s", models[model]);
  std::snprintf(fix_name, sizeof fix_name, "%s", fixes[fix]);
  std::snprintf(lateral_name, sizeof lateral_name, "%s", laterals[lateral]);
  PetscCall(PetscOptionsString(
      "-strain",
      "Relaxation of the atoms: none, or keating (Keating valence force field minimised by SNES, -strain_snes_*)",
      "tbpeta", model_name, model_name, sizeof model_name, &set));
  PetscCall(PetscOptionsString(
      "-strain_substrate",
      "Material whose lattice constant the lattice and its periodic lengths take (empty: the host, -material)",
      "tbpeta", substrate, substrate, sizeof substrate, &set));
  PetscCall(PetscOptionsString(
      "-strain_fix", "Atoms held in place: none, or zmin (the bottom atomic plane: a substrate; needs an open z)",
      "tbpeta", fix_name, fix_name, sizeof fix_name, &set));
  PetscCall(PetscOptionsString(
      "-strain_lateral",
      "Lateral (x, y) faces of the strain domain: free, periodic (the padded strain domain repeats along x and y, "
      "so a wetting layer and the crystal continue beyond it; needs -strain_pad_cells along each open lateral axis), "
      "or auto (periodic where the open box is padded along x and y, as a dot in the crystal it grew in; else free)",
      "tbpeta", lateral_name, lateral_name, sizeof lateral_name, nullptr));
  PetscCall(PetscOptionsBool("-strain_allow_unconverged",
                             "Go on with a relaxation that stopped before its tolerance (warned, strain/converged = 0)",
                             "tbpeta", allow, &allow, nullptr));
  PetscOptionsEnd();
  PetscCall(StrainedHamiltonianOptions(comm, &s.tb_onsite, &s.tb_harrison));
  PetscCall(ChooseOptionWord(comm, "-strain", model_name, models, 2, &model));
  PetscCall(ChooseOptionWord(comm, "-strain_fix", fix_name, fixes, 2, &fix));
  PetscCall(ChooseOptionWord(comm, "-strain_lateral", lateral_name, laterals, 3, &lateral));
  PetscCall(OptionsGetIntTuple(
      comm, "-strain_pad_cells",
      "Host cells added to the strain domain on each open face, relaxed but not part of H: px,py,pz", 3, pad, &set));
  for (int a = 0; a < 3; ++a) {
    PetscCheck(pad[a] >= 0 && pad[a] <= 10000, comm, PETSC_ERR_USER_INPUT,
               "-strain_pad_cells: %" PetscInt_FMT " cells along %c; each entry must be 0 or more", pad[a], "xyz"[a]);
    PetscCheck(pad[a] == 0 || !periodic[a], comm, PETSC_ERR_USER_INPUT,
               "-strain_pad_cells: %" PetscInt_FMT
               " cells along %c, a periodic axis (-periodic); padding needs an open face",
               pad[a], "xyz"[a]);
    s.pad[a] = (int)pad[a];
  }
  s.model = (StrainModel)model;
  s.fix = (StrainFix)fix;
  const bool padded_laterally = (periodic[0] || s.pad[0] >= 1) && (periodic[1] || s.pad[1] >= 1);
  s.lateral_periodic = lateral == 1 || (lateral == 2 && s.on() && padded_laterally && !(periodic[0] && periodic[1]));
  for (int a = 0; a < 2; ++a) // a periodic domain the size of the open box would wrap the structure onto itself
    PetscCheck(!s.lateral_periodic || !s.on() || periodic[a] || s.pad[a] >= 1, comm, PETSC_ERR_USER_INPUT,
               "-strain_lateral periodic: the strain domain needs room around the open electronic box along %c: give "
               "-strain_pad_cells of at least 1 cell there (now %d)",
               "xyz"[a], s.pad[a]);
  PetscCheck(s.fix == StrainFix::none || !periodic[2], comm, PETSC_ERR_USER_INPUT,
             "-strain_fix zmin: z is periodic (-periodic); holding the bottom plane needs an open z face");
  s.substrate = substrate;
  s.allow_unconverged = allow;
  *spec = s;
  PetscFunctionReturn(0);
}

} // namespace tbpeta
