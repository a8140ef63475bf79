// The built-in directories are compiled in for the build tree (lib/CMakeLists.txt) and found at run time for an
// installed tree: from the file that holds this code (libtbpeta.so, or the program when the library is static) and
// from the running program (/proc/self/exe), each through the installed layout's relative path to share/tbpeta. An
// installed tree is recognised by its params/ folder, so the build tree (build/lib, build/bin) falls through to the
// sources.
#include "support/InstallLayout.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <system_error>

#ifndef TBPETA_BUILD_DATA_DIR
#define TBPETA_BUILD_DATA_DIR "data"
#define TBPETA_BUILD_SCRIPTS_DIR "app"
#define TBPETA_DATA_FROM_LIB "../share/tbpeta"
#define TBPETA_DATA_FROM_BIN "../share/tbpeta"
#endif

namespace tbpeta {

namespace {

namespace fs = std::filesystem;

// <prefix>/share/tbpeta of the installed tree this code runs from, or empty in the build tree.
std::string FindInstalledDataDirectory() {
  std::vector<fs::path> candidates;
  Dl_info info;
  if (dladdr(reinterpret_cast<void *>(&BuiltInDataDirectory), &info) && info.dli_fname &&
      fs::path(info.dli_fname).is_absolute())
    candidates.push_back(fs::path(info.dli_fname).parent_path() / TBPETA_DATA_FROM_LIB);
  std::error_code ec;
  const fs::path program = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) candidates.push_back(program.parent_path() / TBPETA_DATA_FROM_BIN);
  for (const fs::path &dir : candidates)
    if (fs::is_directory(dir / "params", ec)) return dir.lexically_normal().string();
  return "";
}

const std::string &InstalledDataDirectory() {
  static const std::string dir = FindInstalledDataDirectory();
  return dir;
}

} // namespace

std::string BuiltInDataDirectory() {
  return InstalledDataDirectory().empty() ? std::string(TBPETA_BUILD_DATA_DIR) : InstalledDataDirectory();
}

std::vector<std::string> DataDirectories() {
  const char *env = std::getenv("TBPETA_DATA_DIR");
  if (!env || !*env) return {BuiltInDataDirectory()};
  std::vector<std::string> dirs;
  const std::string list = env;
  for (size_t start = 0;;) {
    const size_t end = list.find(':', start);
    const std::string entry = list.substr(start, end == std::string::npos ? std::string::npos : end - start);
    dirs.push_back(entry.empty() ? BuiltInDataDirectory() : entry);
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return dirs;
}

std::string FindDataFile(const std::string &relative) {
  const std::vector<std::string> dirs = DataDirectories();
  std::error_code ec;
  for (const std::string &dir : dirs)
    if (fs::exists(fs::path(dir) / relative, ec)) return (fs::path(dir) / relative).string();
  return (fs::path(dirs.front()) / relative).string();
}

std::string ScriptsDirectory() {
  return InstalledDataDirectory().empty() ? std::string(TBPETA_BUILD_SCRIPTS_DIR)
                                          : (fs::path(InstalledDataDirectory()) / "scripts").string();
}

} // namespace tbpeta
