#pragma once
// What the user asked of the potentials on the atoms: the piezoelectric potential of the relaxed strain (-piezo,
// -piezo_e14, its Poisson grid -piezo_grid and padding -piezo_pad_cells) and an applied electric field (-efield,
// -efield_origin). A value read from the options in one place; the Poisson solver's own options are KSP options with
// the prefix piezo_ (read by the fields layer).
#include <petscsys.h>

#include <array>
#include <string>

namespace tbpeta {

enum class PiezoOrder { none, first, second }; // which terms of the polarisation (fields/Polarization.hpp)
// Which first-order coefficient e14 the data files give; automatic is resolved by the order when the options are read
// (calculated with second order, whose coefficients were computed with it; experimental with first).
enum class E14Choice { experimental, calculated, automatic };

struct FieldSpec {
  PiezoOrder piezo = PiezoOrder::none;
  E14Choice e14 = E14Choice::automatic;
  int grid = 2;                                 // Poisson grid nodes per lattice constant along each axis (1, 2 or 4)
  int pad = 8;                                  // host cells added beyond the strain domain on each open face
  std::array<double, 3> efield{0, 0, 0};        // kV/cm
  std::array<double, 3> efield_origin{0, 0, 0}; // nm; used when origin_given, else the box centre
  bool origin_given = false;

  bool piezoOn() const { return piezo != PiezoOrder::none; }
  bool fieldOn() const { return efield != std::array<double, 3>{0, 0, 0}; }
  bool any() const { return piezoOn() || fieldOn(); }
};

// The choice itself, or for automatic the one the order implies.
E14Choice ResolvedE14(PiezoOrder order, E14Choice c);
const char *PiezoOrderName(PiezoOrder o);
// "Fx,Fy,Fz kV/cm" with %g (PETSc's own printf would write "0." for 0).
std::string AppliedFieldText(const std::array<double, 3> &F);
const char *E14ChoiceName(E14Choice c);

// Reads the field options; `periodic` (-periodic) and `strained` (-strain keating) decide what is possible.
// Collective; one-line PETSC_ERR_USER_INPUT for an unknown order or e14 choice, -piezo without -strain, a grid other
// than 1, 2 or 4, a negative padding, a field that is not three finite numbers or has a component along a periodic
// axis.
PetscErrorCode FieldSpecFromOptions(MPI_Comm comm, const FieldSpec &defaults, const std::array<bool, 3> &periodic,
                                    bool strained, FieldSpec *spec);

} // namespace tbpeta
