#pragma once
// What the nanostructure hands to a run's results file when it has regions: the group composition/, per atom the
// local fraction x of the regions' materials that its species was drawn with (an anion: the mean over its bonded
// cations) and the region that holds its site (-1: none); as attributes the number of regions, the interdiffusion
// length and the alloy seed.
#include "geometry/Nanostructure.hpp"
#include "geometry/Structure.hpp"
#include "support/ResultsPart.hpp"

namespace tbpeta {

// Nothing without regions. Not collective: this rank's owned atoms of s.
ResultsPart CompositionOutput(const Structure &s, const Nanostructure &nano);

} // namespace tbpeta
