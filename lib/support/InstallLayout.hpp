#pragma once
// Where tbpeta's files are at run time: the data directories (params/<set>/<Material>.tbp, fields/<Material>.txt)
// and the plot scripts. An installed tbpeta (cmake --install) finds them relative to its own library or program, in
// <prefix>/share/tbpeta and <prefix>/share/tbpeta/scripts, so the installed tree can be moved; the build tree reads
// the sources' data/ and app/. The environment variable TBPETA_DATA_DIR replaces the data directories: a list
// dir1:dir2:... searched in order, in which an empty entry stands for the built-in directory (as in MANPATH), so
// TBPETA_DATA_DIR=mydata: adds the sets of mydata/params to the shipped ones.
#include <string>
#include <vector>

namespace tbpeta {

// The data directories in the order they are searched (TBPETA_DATA_DIR, else the built-in one); never empty.
std::vector<std::string> DataDirectories();
// The data directory of this build: <prefix>/share/tbpeta when installed, the sources' data/ in the build tree.
std::string BuiltInDataDirectory();
// The path of `relative` (e.g. "fields/GaAs.txt") in the first data directory that holds it; in the first data
// directory when none does (the reader then names that path in its error).
std::string FindDataFile(const std::string &relative);
// The plot scripts (plot_bands.py, ...): <prefix>/share/tbpeta/scripts when installed, the sources' app/ otherwise.
std::string ScriptsDirectory();

} // namespace tbpeta
