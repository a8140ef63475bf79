#include "solvers/SolverTraits.hpp"

#include <algorithm>
#include <vector>

#include "solvers/EpsOptionPrefix.hpp"

namespace tbpeta {

namespace {

template <class F>
PetscErrorCode Query(EPS eps, const char *name, F **f) {
  PetscFunctionBeginUser;
  *f = nullptr;
  PetscCall(PetscObjectQueryFunction((PetscObject)eps, name, f));
  PetscFunctionReturn(0);
}

} // namespace

PetscErrorCode TbEPSComposeFunctions(EPS eps, std::span<const TbEPSFunction> table, bool clear) {
  PetscFunctionBeginUser;
  for (const TbEPSFunction &f : table)
    PetscCall(PetscObjectComposeFunction((PetscObject)eps, f.name, clear ? nullptr : f.function));
  PetscFunctionReturn(0);
}

PetscInt SlepcDefaultBasis(PetscInt nev, bool arpack) {
  return arpack ? std::max<PetscInt>(20, 2 * nev + 1) : std::max<PetscInt>(2 * nev, nev + 15);
}

PetscErrorCode TbEPSDescribe(EPS eps, std::string *text) {
  PetscErrorCode (*f)(EPS, char *, size_t);
  PetscFunctionBeginUser;
  PetscCall(Query(eps, "TbEPSDescribe_C", &f));
  if (f) {
    std::vector<char> buf(1024, 0);
    PetscCall(f(eps, buf.data(), buf.size()));
    *text = buf.data();
    PetscFunctionReturn(0);
  }
  EPSType type;
  ST st;
  STType sttype;
  PetscCall(EPSGetType(eps, &type));
  PetscCall(EPSGetST(eps, &st));
  PetscCall(STGetType(st, &sttype));
  *text = std::string(type ? type : "?") + " + " + (sttype ? sttype : "?");
  PetscFunctionReturn(0);
}

PetscErrorCode TbEPSEstimateVectors_Default(EPS eps, PetscInt nev, PetscInt *vectors) {
  PetscInt ncv;
  PetscBool arpack;
  PetscFunctionBeginUser;
  PetscCall(EPSGetDimensions(eps, nullptr, &ncv, nullptr));
  PetscCall(PetscObjectTypeCompare((PetscObject)eps, EPSARPACK, &arpack));
  if (ncv <= 0) ncv = SlepcDefaultBasis(nev, arpack);
  *vectors = ncv + nev;
  PetscFunctionReturn(0);
}

PetscErrorCode TbEPSEstimateVectors(EPS eps, PetscInt nev, const OperatorProperties &planned, PetscInt *vectors) {
  PetscErrorCode (*f)(EPS, PetscInt, const OperatorProperties &, PetscInt *);
  PetscFunctionBeginUser;
  PetscCall(Query(eps, "TbEPSEstimateVectors_C", &f));
  PetscCall(f ? f(eps, nev, planned, vectors) : TbEPSEstimateVectors_Default(eps, nev, vectors));
  PetscFunctionReturn(0);
}

PetscErrorCode TbEPSPrintWarnings(EPS eps) {
  PetscErrorCode (*f)(EPS);
  PetscFunctionBeginUser;
  PetscCall(Query(eps, "TbEPSPrintWarnings_C", &f));
  if (f) PetscCall(f(eps));
  PetscFunctionReturn(0);
}

PetscErrorCode TbEPSGetTraits(EPS eps, TbEPSTraits *traits) {
  PetscErrorCode (*f)(EPS, TbEPSTraits *);
  PetscFunctionBeginUser;
  *traits = TbEPSTraits{};
  PetscCall(Query(eps, "TbEPSGetTraits_C", &f));
  if (f) PetscCall(f(eps, traits));
  PetscFunctionReturn(0);
}

PetscErrorCode TbEPSSetQuestion_Default(EPS eps, PetscInt nv, PetscInt nc, double centre) {
  PetscFunctionBeginUser;
  PetscCall(EPSSetTarget(eps, centre));
  PetscCall(EPSSetWhichEigenpairs(eps, EPS_TARGET_MAGNITUDE));
  PetscCall(EPSSetDimensions(eps, nv + nc, PETSC_DEFAULT, PETSC_DEFAULT));
  PetscFunctionReturn(0);
}

PetscErrorCode TbEPSSetQuestion(EPS eps, PetscInt nv, PetscInt nc, double centre) {
  PetscErrorCode (*f)(EPS, PetscInt, PetscInt, PetscReal);
  PetscFunctionBeginUser;
  PetscCall(Query(eps, "TbEPSSetQuestion_C", &f));
  PetscCall(f ? f(eps, nv, nc, centre) : TbEPSSetQuestion_Default(eps, nv, nc, centre));
  PetscFunctionReturn(0);
}

// SLEPc's restarting solvers: the restarts that keep them within m applications of their operator, from the basis ncv
// (made explicit first). Krylov-Schur: ncv applications, then at most ceil(ncv/2) per restart (half the basis is
// kept); ARPACK: ncv + 1, then at most ncv - nev per restart. Upper bounds: a capped run stops between about 2/3 m
// and m products.
PetscErrorCode TbEPSSetProductCap_Default(EPS eps, PetscInt rows, PetscInt m) {
  PetscBool arpack;
  PetscReal tol;
  PetscInt max_it, nev, ncv, mpd;
  PetscFunctionBeginUser;
  PetscCall(EPSGetTolerances(eps, &tol, &max_it));
  if (max_it != PETSC_DEFAULT) PetscFunctionReturn(0); // the user's own limit wins
  PetscCall(PetscObjectTypeCompare((PetscObject)eps, EPSARPACK, &arpack));
  PetscCall(EPSGetDimensions(eps, &nev, &ncv, &mpd));
  if (ncv <= 0) ncv = std::min(rows, SlepcDefaultBasis(nev, arpack));
  PetscCall(EPSSetDimensions(eps, nev, ncv, mpd));
  const PetscInt restarts = arpack ? 1 + std::max<PetscInt>(0, m - ncv - 1) / std::max<PetscInt>(1, ncv - nev)
                                   : 1 + std::max<PetscInt>(0, m - ncv) / ((ncv + 1) / 2);
  PetscCall(EPSSetTolerances(eps, tol, restarts));
  PetscFunctionReturn(0);
}

PetscErrorCode TbEPSSetProductCap(EPS eps, PetscInt rows, PetscInt products) {
  PetscErrorCode (*f)(EPS, PetscInt, PetscInt);
  PetscFunctionBeginUser;
  PetscCall(Query(eps, "TbEPSSetProductCap_C", &f));
  PetscCall(f ? f(eps, rows, products) : TbEPSSetProductCap_Default(eps, rows, products));
  PetscFunctionReturn(0);
}

PetscErrorCode TbEPSTakesCentre(EPS eps, bool *takes) {
  PetscErrorCode (*f)(EPS, PetscReal);
  PetscFunctionBeginUser;
  PetscCall(Query(eps, "TbEPSSetCentre_C", &f));
  *takes = f != nullptr;
  PetscFunctionReturn(0);
}

PetscErrorCode TbEPSSetCentre(EPS eps, PetscReal centre) {
  PetscErrorCode (*f)(EPS, PetscReal);
  PetscFunctionBeginUser;
  PetscCall(Query(eps, "TbEPSSetCentre_C", &f));
  if (f) PetscCall(f(eps, centre));
  PetscFunctionReturn(0);
}

std::string TbEPSHint_Default(EPS eps, TbEPSHint what) {
  const std::string p = OptionPrefix(eps);
  switch (what) {
  case TbEPSHint::vectors: return "choose an " + p + "eps_type that returns eigenvectors";
  case TbEPSHint::both_sides: return "set " + p + "eps_target between them, or raise " + p + "eps_nev";
  case TbEPSHint::limits: return "raise " + p + "eps_max_it";
  }
  return "";
}

PetscErrorCode TbEPSGetHint(EPS eps, TbEPSHint what, std::string *hint) {
  PetscErrorCode (*f)(EPS, TbEPSHint, char *, size_t);
  PetscFunctionBeginUser;
  PetscCall(Query(eps, "TbEPSGetHint_C", &f));
  *hint = TbEPSHint_Default(eps, what);
  if (!f) PetscFunctionReturn(0);
  std::vector<char> buf(512, 0);
  PetscCall(f(eps, what, buf.data(), buf.size()));
  if (buf[0]) *hint = buf.data(); // an empty text: the default
  PetscFunctionReturn(0);
}

} // namespace tbpeta
