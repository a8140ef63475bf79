#include "solvers/folded/ChebyshevFilter.hpp"

#include <cmath>
#include <memory>
#include <vector>

#include "solvers/folded/FoldedOperator.hpp"

namespace tbpeta {

namespace {

struct FilterContext : OperatorOfH {
  double centre = 0, half_width = 1; // of the interval: H' = (H - centre) / half_width has its spectrum in [-1, 1]
  std::vector<double> c;             // c_0..c_d
  OwnedVec t[3];
};

double Scaled(const ChebyshevFilterSpec &s, double x) { return (x - 0.5 * (s.lo + s.hi)) / (0.5 * (s.hi - s.lo)); }

// t_out = 2 H' t_in - t_old (or H' t_in when t_old is null).
PetscErrorCode ChebyshevStep(const FilterContext &f, Vec t_in, Vec t_old, Vec t_out) {
  PetscFunctionBeginUser;
  PetscCall(MatMult(f.H, t_in, t_out));
  const double scale = (t_old ? 2.0 : 1.0) / f.half_width;
  PetscCall(VecAXPBY(t_out, -scale * f.centre, scale, t_in)); // scale (H - centre) t_in
  if (t_old) PetscCall(VecAXPY(t_out, -1.0, t_old));
  PetscFunctionReturn(0);
}

// y = x - sum_k c_k T_k(H') x = (1 - p(H)) x, by the three-term recurrence of T_k (three work vectors in turn).
PetscErrorCode FilterMult(Mat F, Vec x, Vec y) {
  FilterContext *f;
  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(F, &f));
  Vec older = x, old = f->t[0];
  PetscCall(ChebyshevStep(*f, x, nullptr, old)); // T_1 x
  PetscCall(VecCopy(x, y));
  PetscCall(VecAXPBY(y, -f->c[1], 1.0 - f->c[0], old));
  for (size_t k = 2; k < f->c.size(); ++k) {
    Vec next = f->t[0];
    for (const OwnedVec &t : f->t)
      if (t.get() != older && t.get() != old) next = t;
    PetscCall(ChebyshevStep(*f, old, older, next)); // T_k x = 2 H' T_{k-1} x - T_{k-2} x
    PetscCall(VecAXPY(y, -f->c[k], next));
    older = old;
    old = next;
  }
  PetscFunctionReturn(0);
}

} // namespace

void ChebyshevFilterCoefficients(const ChebyshevFilterSpec &spec, double *c) {
  const PetscInt d = spec.degree, n = d + 1;
  const double s = Scaled(spec, spec.sigma), theta = std::acos(s);
  double value = 0;
  for (PetscInt k = 0; k <= d; ++k) {
    const double jackson = ((n - k) * std::cos(M_PI * k / n) + std::sin(M_PI * k / n) / std::tan(M_PI / n)) / n;
    c[k] = jackson * (k ? 2.0 : 1.0) * std::cos(k * theta); // delta(x - s) ~ 1 + 2 sum_k T_k(s) T_k(x)
    value += c[k] * std::cos(k * theta);
  }
  for (PetscInt k = 0; k <= d; ++k) c[k] /= value;
}

double ChebyshevFilterValue(const ChebyshevFilterSpec &spec, double x) {
  std::vector<double> c(spec.degree + 1);
  ChebyshevFilterCoefficients(spec, c.data());
  const double theta = std::acos(std::fmin(1.0, std::fmax(-1.0, Scaled(spec, x))));
  double p = 0;
  for (PetscInt k = 0; k <= spec.degree; ++k) p += c[k] * std::cos(k * theta);
  return p;
}

PetscErrorCode CreateChebyshevFilterOperator(Mat H, const ChebyshevFilterSpec &spec, Mat *F) {
  MPI_Comm comm;
  PetscFunctionBeginUser;
  PetscCall(PetscObjectGetComm((PetscObject)H, &comm));
  PetscCheck(spec.degree >= 2, comm, PETSC_ERR_ARG_OUTOFRANGE,
             "the Chebyshev filter needs degree >= 2, got %" PetscInt_FMT, spec.degree);
  PetscCheck(spec.lo < spec.sigma && spec.sigma < spec.hi, comm, PETSC_ERR_ARG_OUTOFRANGE,
             "the filter's centre %g eV is outside H's spectrum [%g, %g] eV", spec.sigma, spec.lo, spec.hi);
  auto f = std::make_unique<FilterContext>();
  f->centre = 0.5 * (spec.lo + spec.hi);
  f->half_width = 0.5 * (spec.hi - spec.lo);
  f->c.resize(spec.degree + 1);
  ChebyshevFilterCoefficients(spec, f->c.data());
  for (OwnedVec &v : f->t) PetscCall(MatCreateVecs(H, v.out(), nullptr));
  PetscCall(CreateOperatorOfH(H, f.get(), FilterMult, "Chebyshev filter 1 - p(H)", "chebyshev_filter",
                              "1 - p(H), p a Jackson-damped Chebyshev filter", F));
  f.release(); // the shell owns it
  PetscFunctionReturn(0);
}

} // namespace tbpeta
