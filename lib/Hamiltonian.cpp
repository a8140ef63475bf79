#include "tbpeta/Hamiltonian.hpp"

#include <cstring>
#include <string>

namespace tbpeta {

const char *HamiltonianKindName(HamiltonianKind kind) {
  switch (kind) {
  case HamiltonianKind::stored: return "stored";
  case HamiltonianKind::stored_blocks: return "stored_blocks";
  default: return "shell";
  }
}

PetscErrorCode HamiltonianOptionsFromOptions(MPI_Comm comm, HamiltonianOptions *opts) {
  const char *kinds[] = {"stored", "stored_blocks", "shell", "HamiltonianKind", "HAMILTONIAN_", nullptr};
  HamiltonianOptions o;
  PetscEnum kind = (PetscEnum)o.kind;
  PetscBool cache = o.block_cache ? PETSC_TRUE : PETSC_FALSE, cache_set = PETSC_FALSE, format_set = PETSC_FALSE;
  PetscFunctionBeginUser;
  PetscOptionsBegin(comm, nullptr, "Hamiltonian operator", "tbpeta");
  PetscCall(PetscOptionsEnum("-hamiltonian", "H as a stored PETSc matrix (stored, see -mat_type), tbpeta's stored bond blocks (stored_blocks) or recomputed in every product (shell)", "tbpeta",
                             kinds, kind, &kind, nullptr));
  PetscCall(PetscOptionsBool("-shell_block_cache", "-hamiltonian shell: keep the distinct bond blocks (1) or recompute every block from Slater-Koster in every product (0)", "tbpeta", cache,
                             &cache, &cache_set));
  PetscOptionsEnd();
  PetscCall(PetscOptionsHasName(nullptr, nullptr, "-mat_type", &format_set));
  o.kind = (HamiltonianKind)kind;
  o.block_cache = cache;
  PetscCheck(!cache_set || o.kind == HamiltonianKind::shell, comm, PETSC_ERR_USER_INPUT, "-shell_block_cache applies to -hamiltonian shell only (here -hamiltonian %s)", HamiltonianKindName(o.kind));
  PetscCheck(!format_set || o.kind == HamiltonianKind::stored, comm, PETSC_ERR_USER_INPUT, "-mat_type applies to -hamiltonian stored only (here -hamiltonian %s)", HamiltonianKindName(o.kind));
  PetscCall(MatrixFormatFromOptions(comm, &o.format));
  *opts = o;
  PetscFunctionReturn(0);
}

std::string HamiltonianDescription(const HamiltonianOptions &opts) {
  switch (opts.kind) {
  case HamiltonianKind::stored: return std::string("stored (") + (opts.format == MatrixFormat::aij ? "aij" : "baij") + ")";
  case HamiltonianKind::stored_blocks: return "stored_blocks (tbpeta's bond blocks)";
  default: return opts.block_cache ? "shell (on the fly, block cache)" : "shell (on the fly, every block recomputed)";
  }
}

PetscErrorCode CreateHamiltonian(MPI_Comm comm, const Structure &s, const TightBindingModel &model, std::array<double, 3> k, const HamiltonianOptions &opts, Mat *H,
                                 HamiltonianInfo *info) {
  PetscFunctionBeginUser;
  switch (opts.kind) {
  case HamiltonianKind::stored: PetscCall(AssembleHamiltonian(comm, s, model, k, opts.format, H, info)); break;
  case HamiltonianKind::stored_blocks: PetscCall(CreateBlockHamiltonian(comm, s, model, k, BlockSource::per_bond, H, info)); break;
  case HamiltonianKind::shell: PetscCall(CreateBlockHamiltonian(comm, s, model, k, opts.block_cache ? BlockSource::shared : BlockSource::recomputed, H, info)); break;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode HamiltonianIsStored(Mat H, bool *stored) {
  MatType type;
  PetscFunctionBeginUser;
  PetscCall(MatGetType(H, &type));
  *stored = std::strcmp(type, MATSHELL) != 0;
  PetscFunctionReturn(0);
}

} // namespace tbpeta
