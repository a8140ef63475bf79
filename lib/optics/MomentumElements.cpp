#include "optics/MomentumElements.hpp"

#include "support/LogEvents.hpp"
#include "support/PetscHandle.hpp"

namespace tbpeta {

PetscErrorCode ComputeMomentumElements(const BondCommutator &C, Mat H, const std::vector<size_t> &conduction,
                                       const std::vector<size_t> &valence, const StateReader &read,
                                       MomentumElements *out) {
  const LogEvents *ev;
  OwnedVec xv, xc, y[3];
  PetscFunctionBeginUser;
  PetscCall(GetLogEvents(&ev));
  PetscCall(PetscLogEventBegin(ev->momentum, 0, 0, 0, 0));
  out->conduction = conduction, out->valence = valence;
  out->value.assign(conduction.size() * valence.size(), {});
  PetscCall(MatCreateVecs(H, xv.out(), xc.out()));
  for (OwnedVec &v : y) PetscCall(VecDuplicate(xv, v.out()));
  for (size_t iv = 0; iv < valence.size(); ++iv) {
    PetscCall(read(valence[iv], xv));
    for (int a = 0; a < 3; ++a) PetscCall(C.Apply(a, xv, y[a]));
    for (size_t ic = 0; ic < conduction.size(); ++ic) {
      PetscCall(read(conduction[ic], xc));
      Vec ys[3] = {y[0], y[1], y[2]};
      PetscScalar m[3];
      PetscCall(VecMDot(xc, 3, ys, m)); // m[a] = y_a^H x_c, the conjugate of <c| C_a |v> = x_c^H y_a
      for (int a = 0; a < 3; ++a) out->value[ic * valence.size() + iv][a] = PetscConj(m[a]);
    }
  }
  PetscCall(PetscLogEventEnd(ev->momentum, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

} // namespace tbpeta
