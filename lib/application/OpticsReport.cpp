#include "application/OpticsReport.hpp"

#include <cmath>
#include <cstdio>

#include "io/OutputPath.hpp"
#include "operator/BondCommutator.hpp"
#include "operator/OperatorProperties.hpp"
#include "optics/MomentumElements.hpp"
#include "optics/OpticalTransitions.hpp"
#include "solvers/EigenSolve.hpp"
#include "support/TextFile.hpp"

namespace tbpeta {

PetscErrorCode OpticsOptionsFromOptions(MPI_Comm comm, OpticsOptions *o) {
  char path[PETSC_MAX_PATH_LEN] = "";
  PetscBool given = PETSC_FALSE;
  PetscFunctionBeginUser;
  PetscOptionsBegin(comm, nullptr, "Optical transitions of the states (docs/optics.md)", "tbpeta");
  PetscCall(PetscOptionsBool("-optics",
                             "Momentum matrix elements, oscillator strengths and radiative rates of the "
                             "transitions between the conduction and valence states found (needs their vectors)",
                             "tbpeta", o->on, &o->on, nullptr));
  PetscCall(PetscOptionsReal("-optics_index", "Refractive index of the medium, for the radiative rates", "tbpeta",
                             o->index, &o->index, nullptr));
  PetscCall(PetscOptionsReal("-optics_degeneracy",
                             "States closer than this (eV) form one level, whose subspace the "
                             "sums run over",
                             "tbpeta", o->degeneracy, &o->degeneracy, nullptr));
  PetscCall(PetscOptionsString("-optics_spectrum", "Write the absorption spectrum (TE, TM) to this CSV file", "tbpeta",
                               path, path, sizeof path, &given));
  PetscCall(PetscOptionsReal("-optics_broadening", "Standard deviation of the spectrum's Gaussian (meV)", "tbpeta",
                             o->broadening_mev, &o->broadening_mev, nullptr));
  PetscOptionsEnd();
  PetscCheck(std::isfinite(o->index) && o->index > 0, comm, PETSC_ERR_USER_INPUT,
             "-optics_index: must be a positive refractive index, got %g", o->index);
  PetscCheck(std::isfinite(o->degeneracy) && o->degeneracy > 0, comm, PETSC_ERR_USER_INPUT,
             "-optics_degeneracy: must be a positive energy in eV, got %g", o->degeneracy);
  PetscCheck(std::isfinite(o->broadening_mev) && o->broadening_mev > 0, comm, PETSC_ERR_USER_INPUT,
             "-optics_broadening: must be a positive width in meV, got %g", o->broadening_mev);
  if (given) {
    o->spectrum = path;
    PetscCheck(o->on, comm, PETSC_ERR_USER_INPUT, "-optics_spectrum: needs -optics");
    PetscCall(CheckOutputFile(comm, o->spectrum, "-optics_spectrum", ".csv"));
  }
  PetscFunctionReturn(0);
}

namespace {

// c0, v0: the run's index of the first conduction and valence state (the levels count from them).
PetscErrorCode PrintTransitions(MPI_Comm comm, const std::vector<Transition> &t, const std::vector<Level> &lc,
                                const std::vector<Level> &lv, size_t c0, size_t v0, PetscInt products, double seconds) {
  PetscFunctionBeginUser;
  PetscCall(PetscPrintf(comm,
                        "optical transitions (2|e.p|^2/m0 in eV, summed over both levels' states; %" PetscInt_FMT
                        " products of H, %.3f s):\n",
                        products, seconds));
  PetscCall(PetscPrintf(comm, "  %4s %4s %10s %9s %9s %9s %9s %9s %9s %7s %7s %7s %10s %10s\n", "c", "v", "E (eV)", "x",
                        "y", "z", "[110]", "[1-10]", "TE", "DOP110", "DOP1-10", "aniso", "f (x+y+z)", "tau (ns)"));
  for (const Transition &r : t)
    PetscCall(PetscPrintf(comm,
                          "  %4zu %4zu %10.6f %9.4f %9.4f %9.4f %9.4f %9.4f %9.4f %7.3f %7.3f %7.3f %10.4f %10.4g\n",
                          c0 + lc[r.c_level].first, v0 + lv[r.v_level].first, r.energy, r.momentum2[0], r.momentum2[1],
                          r.momentum2[2], r.momentum2[3], r.momentum2[4], r.te, r.dop[0], r.dop[1], r.anisotropy,
                          r.f[0] + r.f[1] + r.f[2], r.lifetime * 1e9));
  PetscFunctionReturn(0);
}

TableForOutput OpticsTable(const std::vector<Transition> &t, const std::vector<Level> &lc, const std::vector<Level> &lv,
                           size_t c0, size_t v0) {
  std::vector<long long> levels;
  std::vector<double> energy, m2, f, te, tm, dop, anisotropy, rate, lifetime;
  for (const Transition &r : t) {
    const Level &C = lc[r.c_level], &V = lv[r.v_level];
    levels.insert(levels.end(),
                  {(long long)(c0 + C.first), (long long)C.count, (long long)(v0 + V.first), (long long)V.count});
    energy.push_back(r.energy), rate.push_back(r.rate), lifetime.push_back(r.lifetime);
    m2.insert(m2.end(), r.momentum2.begin(), r.momentum2.end());
    f.insert(f.end(), r.f.begin(), r.f.end());
    te.push_back(r.te), tm.push_back(r.tm), anisotropy.push_back(r.anisotropy);
    dop.insert(dop.end(), r.dop.begin(), r.dop.end());
  }
  return {"optics",
          {{"levels", levels, 4},
           {"energy", energy},
           {"momentum_squared", m2, kPolarisations},
           {"oscillator_strength", f, kPolarisations},
           {"te", te},
           {"tm", tm},
           {"dop", dop, 2},
           {"anisotropy", anisotropy},
           {"rate", rate},
           {"lifetime", lifetime}}};
}

// energy, TE and TM of the oscillator strength (the table's TE and TM over the energy), each transition a Gaussian of
// unit area (1/eV), on a grid of sigma / 10.
std::string SpectrumCsv(const std::vector<Transition> &t, double sigma) {
  std::string text = "energy_eV,te,tm\n";
  if (t.empty()) return text;
  double lo = t[0].energy, hi = t[0].energy;
  for (const Transition &r : t) lo = std::min(lo, r.energy), hi = std::max(hi, r.energy);
  lo -= 5 * sigma, hi += 5 * sigma;
  const int n = (int)std::ceil((hi - lo) / (sigma / 10)) + 1;
  for (int k = 0; k < n; ++k) {
    const double e = lo + k * (sigma / 10);
    double te = 0, tm = 0;
    for (const Transition &r : t) {
      const double g = std::exp(-0.5 * std::pow((e - r.energy) / sigma, 2)) / (sigma * std::sqrt(2 * M_PI));
      if (r.energy > 0) te += r.te / r.energy * g, tm += r.tm / r.energy * g;
    }
    char line[96];
    std::snprintf(line, sizeof line, "%.6f,%.8e,%.8e\n", e, te, tm);
    text += line;
  }
  return text;
}

} // namespace

PetscErrorCode ReportOptics(MPI_Comm comm, const OpticsOptions &opts, const TightBindingSystem &sys, Mat H, EPS eps,
                            const EigenStates &states, double gap_center, RunResults *results) {
  std::string vectors_hint = "choose a solver that returns eigenvectors", sides_hint;
  PetscFunctionBeginUser;
  if (!opts.on) PetscFunctionReturn(0);
  if (eps) PetscCall(TbEPSGetHint(eps, TbEPSHint::vectors, &vectors_hint)); // in the solver's own options
  PetscCheck(states.vectors && eps, comm, PETSC_ERR_USER_INPUT, "-optics: the solver returns no eigenvectors (%s); %s",
             states.solver.c_str(), vectors_hint.c_str());
  PetscCall(TbEPSGetHint(eps, TbEPSHint::both_sides, &sides_hint));
  std::vector<size_t> c, v;
  std::vector<double> ec, ev;
  for (size_t k = 0; k < states.values.size(); ++k) {
    const bool above = states.values[k] > gap_center;
    (above ? c : v).push_back(k), (above ? ec : ev).push_back(states.values[k]);
  }
  PetscCheck(!c.empty() && !v.empty(), comm, PETSC_ERR_USER_INPUT,
             "-optics: needs states on both sides of %.4f eV (found %zu above, %zu below): %s", gap_center, c.size(),
             v.size(), sides_hint.c_str());
  BondCommutator C;
  MomentumElements M;
  PetscCall(BondCommutator::Create(comm, sys.structure, sys.model, sys.spec.cell.k, H, &C));
  const StateReader read = [&](size_t k, Vec x) { return StateVector(eps, states, k, x); };
  PetscInt before, after;
  PetscCall(OperatorProductCount(H, &before));
  double seconds = MPI_Wtime();
  PetscCall(ComputeMomentumElements(C, H, c, v, read, &M));
  seconds = MPI_Wtime() - seconds;
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, comm));
  PetscCall(OperatorProductCount(H, &after));
  std::vector<Level> lc, lv;
  const std::vector<Transition> t = ComputeTransitions(M, ec, ev, opts.degeneracy, opts.index, &lc, &lv);
  PetscCall(PrintTransitions(comm, t, lc, lv, c.front(), v.front(), after - before, seconds));
  results->Add(ResultsPart{.tables = {OpticsTable(t, lc, lv, c.front(), v.front())}});
  if (!opts.spectrum.empty()) {
    PetscCall(WriteTextFile(comm, opts.spectrum, SpectrumCsv(t, opts.broadening_mev * 1e-3), "-optics_spectrum"));
    PetscCall(PetscPrintf(comm, "wrote the spectrum to %s\n", opts.spectrum.c_str()));
  }
  PetscFunctionReturn(0);
}

} // namespace tbpeta
