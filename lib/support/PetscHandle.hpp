#pragma once
// Move-only owners of PETSc handles: each destroys its object exactly once, when it goes out of scope, so a value
// that holds a handle cannot be copied by accident (two copies would destroy the same object) and an early return
// on an error frees what was made before it.
#include <petscmat.h>
#include <petscsf.h>
#include <petscsnes.h>
#include <slepceps.h>

#include <utility>

namespace tbpeta {

template <class Handle, PetscErrorCode (*Destroy)(Handle *)>
class Owned {
public:
  Owned() = default;
  explicit Owned(Handle h) : h_(h) {}
  Owned(const Owned &) = delete;
  Owned &operator=(const Owned &) = delete;
  Owned(Owned &&other) noexcept : h_(std::exchange(other.h_, nullptr)) {}
  Owned &operator=(Owned &&other) noexcept {
    if (this != &other) reset(std::exchange(other.h_, nullptr));
    return *this;
  }
  ~Owned() { reset(); }

  Handle get() const { return h_; }
  operator Handle() const { return h_; }
  // For a PETSc constructor: XCreate(..., owned.out()) frees what was held before.
  Handle *out() {
    reset();
    return &h_;
  }
  Handle release() { return std::exchange(h_, nullptr); }
  void reset(Handle h = nullptr) {
    if (h_) (void)Destroy(&h_); // a destructor cannot report: PETSc's own error handler has already printed
    h_ = h;
  }

private:
  Handle h_ = nullptr;
};

using OwnedVec = Owned<Vec, VecDestroy>;
using OwnedMat = Owned<Mat, MatDestroy>;
using OwnedIS = Owned<IS, ISDestroy>;
using OwnedScatter = Owned<VecScatter, VecScatterDestroy>;
using OwnedViewer = Owned<PetscViewer, PetscViewerDestroy>;
using OwnedSNES = Owned<SNES, SNESDestroy>;
using OwnedKSP = Owned<KSP, KSPDestroy>;
using OwnedSF = Owned<PetscSF, PetscSFDestroy>;
using OwnedRandom = Owned<PetscRandom, PetscRandomDestroy>;
using OwnedEPS = Owned<EPS, EPSDestroy>;
using OwnedBV = Owned<BV, BVDestroy>;

} // namespace tbpeta
