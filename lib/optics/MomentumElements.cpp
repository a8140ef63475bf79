#include "optics/MomentumElements.hpp"

#include "support/LogEvents.hpp"
#include "support/PetscHandle.hpp"

namespace tbpeta {

PetscErrorCode ComputeMomentumElements(const BondCommutator &C, Mat H, const std::vector<size_t> &conduction,
                                       const std::vector<size_t> &valence, const StateReader &read,
                                       MomentumElements *out) {
  const LogEvents *ev;
  OwnedVec xv, xc, y;
  PetscFunctionBeginUser;
  PetscCall(GetLogEvents(&ev));
  PetscCall(PetscLogEventBegin(ev->momentum, 0, 0, 0, 0));
  out->conduction = conduction, out->valence = valence;
  out->value.assign(conduction.size() * valence.size(), {});
  PetscCall(MatCreateVecs(H, xv.out(), xc.out()));
  PetscCall(VecDuplicate(xv, y.out()));
  // One axis at a time, so that a single C_a |v> is held: the conduction states are read once per axis.
  for (size_t iv = 0; iv < valence.size(); ++iv) {
    PetscCall(read(valence[iv], xv));
    for (int a = 0; a < 3; ++a) {
      PetscCall(C.Apply(a, xv, y));
      for (size_t ic = 0; ic < conduction.size(); ++ic) {
        PetscScalar m;
        PetscCall(read(conduction[ic], xc));
        PetscCall(VecDot(y, xc, &m)); // x_c^H y = <c| C_a |v>
        out->value[ic * valence.size() + iv][a] = m;
      }
    }
  }
  PetscCall(PetscLogEventEnd(ev->momentum, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

} // namespace tbpeta
