#pragma once
// The parameter-file format itself ("key = value" lines, '#' comments): text in, MaterialParameters or one error
// line out. Pure C++ (no PETSc, no MPI, no files), so that the fuzz target (tests/fuzz) can drive it on its own;
// ParameterSet reads the files and turns an error into a PETSc error on the whole communicator.
#include <string>
#include <string_view>

#include "model/MaterialParameters.hpp"

namespace tbpeta {

// Parses `text` (the whole file; `path` only names it in messages). Returns true and fills *out, or returns false
// and sets *error to one line "parameter file 'PATH' line N: ..." naming the key and what was expected.
bool ParseParameterText(std::string_view text, const std::string &path, MaterialParameters *out, std::string *error);

} // namespace tbpeta
