#include "application/OptionsFiles.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <vector>

namespace tbpeta {

namespace {

std::string FileProblem(const std::string &path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return std::strerror(errno);
  if (S_ISDIR(st.st_mode)) return "it is a directory";
  if (!S_ISREG(st.st_mode)) return "not a regular file";
  if (::access(path.c_str(), R_OK) != 0) return std::strerror(errno);
  return "";
}

} // namespace

std::string OptionsFileProblem(int argc, char **argv) {
  std::vector<std::string> words(argv + 1, argv + argc);
  if (const char *env = std::getenv("PETSC_OPTIONS")) {
    std::istringstream in(env);
    for (std::string w; in >> w;) words.push_back(w);
  }
  for (size_t i = 0; i < words.size(); ++i) {
    if (words[i] != "-options_file") continue;
    if (i + 1 >= words.size() || words[i + 1].empty() || words[i + 1][0] == '-')
      return "-options_file: needs a file name";
    const std::string problem = FileProblem(words[i + 1]);
    if (!problem.empty()) return "-options_file: cannot read '" + words[i + 1] + "' (" + problem + ")";
  }
  return "";
}

} // namespace tbpeta
