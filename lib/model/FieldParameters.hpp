#pragma once
// The electrostatic constants of one material for the fields on the atoms: the static dielectric constant and the
// piezoelectric coefficients (C/m^2) of the polarisation in Voigt form (fields/Polarization.hpp), read from tbpeta's
// data files data/fields/<Material>.txt ("key = value" lines, '#' comments) with their citation. The files give the
// coefficients as published with the published sublattice convention (key piezo_origin: which sublattice the source
// puts at the origin); tbpeta's lattice has the anion at (0,0,0) and the cation at +(1/4,1/4,1/4) a, and a source with
// the cation there describes the crystal inverted through a bond centre, under which every piezoelectric coefficient
// (a polar vector from an even strain) changes sign. So those values are negated on reading.
#include <petscsys.h>

#include <string>
#include <string_view>
#include <vector>

#include "model/FieldSpec.hpp"

namespace tbpeta {

struct PiezoCoefficients {
  double e14 = 0, B114 = 0, B124 = 0, B156 = 0; // C/m^2, tbpeta's sublattice convention
};

struct FieldParameters {
  std::string material;
  double eps_static = 0;                // static relative permittivity
  bool has_e14[2] = {false, false};     // experimental, calculated
  double e14[2] = {0, 0};               // experimental, calculated; tbpeta's convention
  bool has_second = false;              // B114, B124, B156 given
  double B114 = 0, B124 = 0, B156 = 0;  // tbpeta's convention
  std::string citation, status, source; // and the file read
  // The coefficients the run uses; call only when present (MissingKeys empty).
  PiezoCoefficients coefficients(PiezoOrder order, E14Choice e14_choice) const;
  // The keys a run with this order and choice needs that the file does not give ("" when none).
  std::string missingKeys(PiezoOrder order, E14Choice e14_choice) const;
};

// Parses the text of a field data file (`path` only names it in messages). Returns true and fills *out, or false with
// one line "field data file 'PATH' line N: ..." in *error. Pure C++: no PETSc, no files.
bool ParseFieldText(std::string_view text, const std::string &path, FieldParameters *out, std::string *error);

// Loads data/fields/<material>.txt for each material and checks it gives what `spec` needs: one line naming the
// material, the file and the missing keys otherwise. Collective.
PetscErrorCode LoadFieldParameters(MPI_Comm comm, const std::vector<std::string> &materials, const FieldSpec &spec,
                                   std::vector<FieldParameters> *out);

} // namespace tbpeta
