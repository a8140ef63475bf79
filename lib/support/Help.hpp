#pragma once
// -help: every program reads all of its options (so that PETSc lists each with its default), then returns without
// running when this is true. The one way the code asks.
#include <petscsys.h>

namespace tbpeta {

// Whether -help (or -h) was given. Not collective.
bool HelpRequested();

} // namespace tbpeta
