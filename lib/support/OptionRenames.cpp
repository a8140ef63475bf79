#include "support/OptionRenames.hpp"

#include <algorithm>

namespace tbpeta {

namespace {

std::vector<RenamedOption> &RenameRegistry() {
  static std::vector<RenamedOption> renamed;
  return renamed;
}

} // namespace

void RegisterRenamedOptions(std::span<const RenamedOption> renamed) {
  std::vector<RenamedOption> &all = RenameRegistry();
  for (const RenamedOption &r : renamed) {
    auto same = std::find_if(all.begin(), all.end(), [&](const RenamedOption &x) { return x.option == r.option; });
    if (same == all.end()) all.push_back(r);
    else same->successor = r.successor;
  }
}

const std::vector<RenamedOption> &RegisteredRenamedOptions() { return RenameRegistry(); }

PetscErrorCode RefuseRegisteredRenamedOptions(MPI_Comm comm) {
  PetscBool set;
  PetscFunctionBeginUser;
  for (const RenamedOption &r : RenameRegistry()) {
    PetscCall(PetscOptionsHasName(nullptr, nullptr, r.option.c_str(), &set));
    PetscCheck(!set, comm, PETSC_ERR_USER_INPUT, "%s was renamed: use %s", r.option.c_str(), r.successor.c_str());
  }
  PetscFunctionReturn(0);
}

} // namespace tbpeta
