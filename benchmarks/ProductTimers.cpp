#include "ProductTimers.hpp"

#include "SystemProbes.hpp"
#include "solvers/lanczos/LanczosRecurrence.hpp"

namespace tbpeta::bench {

PetscErrorCode TimeProducts(MPI_Comm comm, const std::vector<OwnedMat> &ops, PetscInt products,
                            std::vector<double> *median) {
  OwnedVec x, y;
  std::vector<std::vector<double>> t(ops.size());
  PetscFunctionBeginUser;
  median->clear();
  if (ops.empty()) PetscFunctionReturn(0);
  PetscCall(MatCreateVecs(ops[0], x.out(), y.out()));
  PetscCall(VecSet(x, 1.0));
  for (PetscInt k = -1; k < products; ++k)
    for (size_t o = 0; o < ops.size(); ++o) {
      double dt;
      PetscCall(TimeOnRanks(
          comm, [&] { return MatMult(ops[o], x, y); }, &dt));
      if (k >= 0) t[o].push_back(dt); // k = -1: warm-up
    }
  for (const auto &times : t) median->push_back(Median(times));
  PetscFunctionReturn(0);
}

PetscErrorCode TimeLanczosSteps(Mat H, PetscInt steps, LanczosStepTimes *times) {
  lanczos::Recurrence r[3]; // lazy, fused, plain
  std::vector<double> t[4];
  double beta[3] = {};
  OwnedVec x, y;
  PetscFunctionBeginUser;
  for (int p = 0; p < 3; ++p) {
    PetscCall(r[p].Create(H, 0.0));
    if (p > 0) r[p].lazy = nullptr;
    if (p > 1) r[p].fused = nullptr;
    PetscCall(lanczos::StartVector(r[p], 1));
  }
  PetscCall(MatCreateVecs(H, x.out(), y.out()));
  PetscCall(VecCopy(r[0].v, x));
  for (PetscInt k = -1; k < steps; ++k)
    for (int p = 0; p < 4; ++p) {
      double alpha, dt;
      const auto step = [&]() -> PetscErrorCode {
        return p < 3 ? lanczos::Step(r[p], beta[p], &alpha, &beta[p]) : MatMult(H, x, y);
      };
      PetscCall(TimeOnRanks(r[0].comm, step, &dt));
      if (k >= 0) t[p].push_back(dt);
    }
  for (auto &q : r) PetscCall(q.Destroy());
  times->lazy = Median(t[0]);
  times->fused = Median(t[1]);
  times->plain = Median(t[2]);
  times->product = Median(t[3]);
  PetscFunctionReturn(0);
}

} // namespace tbpeta::bench
