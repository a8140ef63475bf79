#pragma once
// A benchmark's options, each declared once: its name, its help line, its default and the setting it fills. One call
// reads them all in one PetscOptionsBegin/End block titled with the program's name, so that -help lists each with its
// default; a value that does not parse is one line naming the option (PETSc's own parsers name the value only); an
// output file (the CSV) is checked before any work. The same list gives the settings as CSV columns.
#include <petscsys.h>

#include <string>
#include <variant>
#include <vector>

namespace tbpeta::bench {

// Where an option's value goes: an integer, a real, a logical, a word, or a comma-separated list of integers or
// words (empty entries dropped).
using OptionTarget = std::variant<PetscInt *, PetscReal *, PetscBool *, std::string *, std::vector<PetscInt> *,
                                  std::vector<std::string> *>;

struct BenchOption {
  std::string name;           // "-bench_products"
  std::string help;           // what -help says of it
  std::string fallback;       // the default as a command line would give it ("": none)
  OptionTarget target;        // the setting it fills
  PetscBool *given = nullptr; // optional: set to whether the command line gave it
  std::string output;         // a file the benchmark writes: its extension (CheckOutputFile); "": not a file
};
using BenchOptions = std::vector<BenchOption>;

// -bench_csv FILE: the CSV a benchmark writes ("": none unless a default is given), checked before the work.
BenchOption CsvFileOption(std::string *path, const std::string &help = "Also write the rows as CSV",
                          const std::string &fallback = "", const std::string &name = "-bench_csv");

// Fills every target with its default, then with the command line's value, and checks the output files. Collective;
// PETSC_ERR_USER_INPUT naming the option for a value that is not of its kind or a file that cannot be written.
PetscErrorCode ReadBenchOptions(MPI_Comm comm, const char *program, const BenchOptions &options);

// The settings as CSV: the option names without their dash, and the targets' values (a list in quotes).
std::string SettingsCsvHeader(const BenchOptions &options);
std::string SettingsCsvValues(const BenchOptions &options);

} // namespace tbpeta::bench
