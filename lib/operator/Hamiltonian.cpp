#include "operator/Hamiltonian.hpp"

#include <climits>
#include <cmath>
#include <cstdio>
#include <vector>

#include "operator/block/BlockHamiltonian.hpp"
#include "operator/HamiltonianBlocks.hpp"
#include "operator/MatrixHamiltonian.hpp"
#include "operator/OperatorProperties.hpp"
#include "support/LogEvents.hpp"
#include "support/CrashReport.hpp"
#include "support/PetscHandle.hpp"

namespace tbpeta {

PetscErrorCode HamiltonianOptionsFromOptions(MPI_Comm comm, HamiltonianOptions *opts) {
  std::vector<const char *> names;
  for (const OperatorKind &k : OperatorKinds()) names.push_back(k.name);
  HamiltonianOptions o;
  PetscInt kind = 0;
  PetscFunctionBeginUser;
  PetscOptionsBegin(comm, nullptr, "Hamiltonian operator", "tbpeta");
  PetscCall(PetscOptionsEList("-hamiltonian",
                              "H as a PETSc matrix with its entries (aij, baij), tbpeta's stored bond blocks "
                              "(stored_blocks), recomputed in every product (shell), or a kind of the program's own",
                              "tbpeta", names.data(), (PetscInt)names.size(), names[kind], &kind, nullptr));
  PetscOptionsEnd();
  o.kind = names[kind];
  // Every kind reads its own options (so that -help lists them all); only the chosen kind's may be given.
  for (const OperatorKind &k : OperatorKinds()) {
    if (!k.from_options) continue;
    KindSettings settings;
    std::string given;
    PetscCall(k.from_options(comm, &settings, &given));
    PetscCheck(given.empty() || o.kind == k.name, comm, PETSC_ERR_USER_INPUT,
               "%s applies to -hamiltonian %s only (here -hamiltonian %s)", given.c_str(), k.name, o.kind.c_str());
    if (o.kind == k.name) o.settings = std::move(settings);
  }
  *opts = std::move(o);
  PetscFunctionReturn(0);
}

PetscErrorCode HamiltonianOptionsOf(const std::string &kind, const std::string &options, HamiltonianOptions *opts) {
  PetscOptions db;
  PetscFunctionBeginUser;
  PetscCall(PetscOptionsCreate(&db));
  PetscCall(PetscOptionsInsertString(db, ("-hamiltonian " + kind + " " + options).c_str()));
  PetscCall(PetscOptionsPush(db)); // the readers' default database, until popped
  const PetscErrorCode read = HamiltonianOptionsFromOptions(PETSC_COMM_SELF, opts);
  PetscCall(PetscOptionsPop());
  PetscCall(PetscOptionsDestroy(&db));
  PetscCall(read);
  PetscFunctionReturn(0);
}

namespace {

// The registered kind of opts (the options reader only gives registered names; programs that set a kind of their
// own get one line).
PetscErrorCode KindOf(MPI_Comm comm, const HamiltonianOptions &opts, const OperatorKind **kind) {
  PetscFunctionBeginUser;
  *kind = FindOperatorKind(opts.kind);
  PetscCheck(*kind, comm, PETSC_ERR_ARG_WRONG, "-hamiltonian %s is not a registered operator kind", opts.kind.c_str());
  PetscFunctionReturn(0);
}

} // namespace

std::string HamiltonianDescription(const HamiltonianOptions &opts) {
  const OperatorKind *kind = FindOperatorKind(opts.kind);
  return kind ? kind->describe(opts) : opts.kind;
}

namespace {

// A NaN or Inf in H (or entries so large that a row's sum overflows) would poison every product without a word: one
// product H 1 at build time finds the first such row on any kind of operator, and the error names its atom
// (canonical index, species, material) and orbital. A finite Frobenius norm (sum of |entry|^2) says every entry is
// finite: where the operator has a norm, that comes first, and the product (and the first touch of its two vectors,
// most of a shell's build: 328 MB for the 512,000-atom sp3d5s*+SO cube) is made only to find the row. Collective.
PetscErrorCode CheckHamiltonianFinite(MPI_Comm comm, const Structure &s, const TightBindingModel &model, Mat H,
                                      int bs) {
  OwnedVec one, y;
  const PetscScalar *py;
  PetscInt n;
  PetscBool has_norm;
  PetscFunctionBeginUser;
  PetscCall(MatHasOperation(H, MATOP_NORM, &has_norm));
  if (has_norm) {
    PetscReal fro;
    PetscCall(MatNorm(H, NORM_FROBENIUS, &fro));
    if (std::isfinite(fro)) PetscFunctionReturn(0);
  }
  PetscCall(MatCreateVecs(H, one.out(), y.out()));
  PetscCall(VecSet(one, 1.0));
  PetscCall(MatMult(H, one, y));
  PetscCall(VecGetLocalSize(y, &n));
  PetscCall(VecGetArrayRead(y, &py));
  long long bad = -1; // canonical row of this rank's first non-finite entry
  PetscInt first = -1;
  for (PetscInt r = 0; r < n && first < 0; ++r)
    if (!std::isfinite(PetscRealPart(py[r])) || !std::isfinite(PetscImaginaryPart(py[r]))) first = r;
  const double value = first >= 0 ? PetscRealPart(py[first]) : 0;
  PetscCall(VecRestoreArrayRead(y, &py));
  if (first >= 0) bad = s.lattice.canonicalIndex(s.sites[first / bs]) * bs + first % bs;
  long long lowest = bad < 0 ? LLONG_MAX : bad;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &lowest, 1, MPI_LONG_LONG, MPI_MIN, comm));
  if (lowest == LLONG_MAX) PetscFunctionReturn(0);
  // The rank holding that row describes it; everyone raises the same line.
  char where[256] = "";
  if (bad == lowest) {
    const PetscInt atom = first / bs;
    const auto &m = model.materials[s.material[atom]];
    const bool anion = s.sublattice(atom) == Sublattice::anion;
    std::snprintf(where, sizeof where, "canonical atom %lld (%s of %s), orbital %d: (H 1) = %g", bad / bs,
                  anion ? m.anion.c_str() : m.cation.c_str(), m.material.c_str(), (int)(bad % bs), value);
  }
  int rank, source;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  source = bad == lowest ? rank : -1;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &source, 1, MPI_INT, MPI_MAX, comm));
  PetscCallMPI(MPI_Bcast(where, sizeof where, MPI_CHAR, source, comm));
  SETERRQ(comm, PETSC_ERR_FP,
          "H is not finite at %s: an entry is NaN or Inf, or so large that a row's sum overflows; check the parameters "
          "of that material",
          where);
}

// What the Mat carries: its kind, entries, numbering and size (nonzeros summed over the ranks, bytes this rank's).
PetscErrorCode DescribeOperator(const Structure &s, const TightBindingModel &model, std::array<double, 3> k,
                                const OperatorKind &kind, const HamiltonianOptions &opts, double op_bytes, Mat H) {
  OperatorProperties p;
  PetscInt rows;
  PetscFunctionBeginUser;
  PetscCall(PlannedOperatorProperties(PetscObjectComm((PetscObject)H), model, s.lattice, k, opts, &p));
  PetscCall(MatGetSize(H, &rows, nullptr));
  PetscCheck(rows == p.rows, PetscObjectComm((PetscObject)H), PETSC_ERR_PLIB,
             "-hamiltonian %s built %" PetscInt_FMT " rows, %" PetscInt_FMT " planned", kind.name, rows, p.rows);
  p.canonical_atoms = s.canonicalRuns();
  if (op_bytes == 0) { // a PETSc matrix: what it stores
    MatInfo mi, all;
    PetscBool blocked;
    PetscInt local_rows;
    PetscCall(MatGetInfo(H, MAT_LOCAL, &mi));
    PetscCall(MatGetInfo(H, MAT_GLOBAL_SUM, &all));
    PetscCall(MatGetLocalSize(H, &local_rows, nullptr));
    PetscCall(PetscObjectTypeCompareAny((PetscObject)H, &blocked, MATMPIBAIJ, MATSEQBAIJ, ""));
    const double bs = model.blockSize(),
                 index_bytes = blocked ? sizeof(PetscInt) / (bs * bs) : sizeof(PetscInt); // one column index per block
    p.bytes = mi.nz_used * (sizeof(PetscScalar) + index_bytes) + (double)local_rows * sizeof(PetscInt);
    p.nonzeros = all.nz_used;
  } else p.bytes = op_bytes; // this rank's: summed only when asked (OperatorTotalBytes), so the build reduces nothing
  PetscCall(OperatorSetProperties(H, std::move(p), true));
  PetscFunctionReturn(0);
}

} // namespace

PetscInt KramersBlock(const TightBindingModel &model, const ZincblendeLattice &lattice, std::array<double, 3> k) {
  return model.spin_orbit && lattice.timeReversalInvariant(k) ? model.blockSize() : 0;
}

PetscErrorCode PlannedOperatorProperties(MPI_Comm comm, const TightBindingModel &model,
                                         const ZincblendeLattice &lattice, std::array<double, 3> k,
                                         const HamiltonianOptions &opts, OperatorProperties *p) {
  const OperatorKind *kind;
  PetscFunctionBeginUser;
  PetscCall(KindOf(comm, opts, &kind));
  *p = OperatorProperties{};
  p->kind = kind->name;
  p->description = kind->describe(opts);
  p->has_entries = kind->has_entries;
  p->rows_per_atom = model.blockSize();
  p->kramers_block = KramersBlock(model, lattice, k);
  p->rows = (PetscInt)(lattice.totalAtoms() * model.blockSize());
  PetscFunctionReturn(0);
}

PetscErrorCode CreateHamiltonian(MPI_Comm comm, const Structure &s, const TightBindingModel &model,
                                 std::array<double, 3> k, const HamiltonianOptions &opts, Mat *H, bool check_finite) {
  const LogEvents *ev;
  double op_bytes = 0;
  CrashPhase phase("building H (-hamiltonian " + opts.kind + ")");
  PetscFunctionBeginUser;
  PetscCall(CheckStrainedModel(comm, model));
  PetscCheck(!model.strained.on || s.a_nm > 0, comm, PETSC_ERR_ARG_WRONGSTATE,
             "a strained H needs the structure's lattice constant (Structure::a_nm)");
  PetscCall(GetLogEvents(&ev));
  PetscCall(PetscLogEventBegin(ev->assembly, 0, 0, 0, 0));
  const OperatorKind *kind;
  PetscCall(KindOf(comm, opts, &kind));
  PetscCall(kind->create(comm, s, model, k, opts, H, &op_bytes));
  PetscCall(DescribeOperator(s, model, k, *kind, opts, op_bytes, *H));
  PetscCall(PetscLogEventEnd(ev->assembly, 0, 0, 0, 0));
  if (!check_finite) PetscFunctionReturn(0);
  PetscErrorCode finite = CheckHamiltonianFinite(comm, s, model, *H, model.blockSize());
  if (finite) PetscCall(MatDestroy(H));
  PetscCall(finite);
  PetscFunctionReturn(0);
}

double EstimateHamiltonianBytes(const OperatorCounts &counts, const HamiltonianOptions &opts) {
  const OperatorKind *kind = FindOperatorKind(opts.kind);
  return kind ? kind->estimate_bytes(counts, opts) : 0;
}

double EstimateHamiltonianBytes(const Structure &s, const TightBindingModel &model, const HamiltonianOptions &opts) {
  return EstimateHamiltonianBytes(CountOperator(s, model), opts);
}

} // namespace tbpeta
