#pragma once
// The -options_file arguments of a command line (and of PETSC_OPTIONS), checked before PETSc reads them: PETSc
// itself stops inside PetscInitialize with a 30-line traceback, before any handler of tbpeta's can be installed.
#include <string>

namespace tbpeta {

// "" when every -options_file names a readable regular file, else one line: "-options_file: cannot read 'F' (why)".
std::string OptionsFileProblem(int argc, char **argv);

} // namespace tbpeta
