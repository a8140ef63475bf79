#pragma once
// A structure file (-structure_file F): the regions of a nanostructure, one per line, later lines winning where they
// overlap. A line is a shape followed by key=value fields; '#' starts a comment; blank lines are skipped:
//
//   lens      material=InAs diameter=16 height=3.5 center=20,20,10 wetting=2 composition=0.6,1
//   pyramid   material=InAs base=12 height=4 center=40,20,10
//   box       material=GaAs size=30,30,2 center=15,15,5 alloy=AlAs,0.3
//
// Keys: material (required), center=x,y,z (nm; default the supercell's centre), the shape's sizes (nm: the keys of its
// DotShapeKind's parameters, such as radius, size=x,y,z, diameter=D or D[110],D[1-10], height, top, base; each shape
// requires its own, takes no other, and a size it does not require takes its default), wetting=n (monolayers of a/2
// under a shape that sits on a plane), alloy=M,x and composition=x or x_base,x_apex. The shapes are the registered
// ones (DotShapes.cpp).
// Every bad line is refused in one line naming FILE:line and what is allowed.
#include <petscsys.h>

#include <string>
#include <vector>

#include "geometry/DotRegion.hpp"

namespace tbpeta {

// "M,x" -> material and fraction in [0, 1]; returns "" or what is wrong (without the option's name).
std::string ParseAlloyText(const std::string &text, std::string *material, double *x);

// Parses the text of a structure file named `name` (for the errors); returns "" or the one-line error.
std::string ParseStructureText(const std::string &name, const std::string &text, std::vector<RegionSpec> *regions);

// Reads and parses the file (every rank reads it). Collective; PETSC_ERR_USER_INPUT or PETSC_ERR_FILE_OPEN.
PetscErrorCode ReadStructureFile(MPI_Comm comm, const std::string &path, std::vector<RegionSpec> *regions);

} // namespace tbpeta
