// tbpeta-bands: the bulk band structure of any parameter set and material along a path of fcc high-symmetry
// points, computed by the tbpeta library itself (the periodic 8-atom cubic cell and its stored Hamiltonian with the
// Bloch phase, unfolded to the primitive bands). Writes a CSV of the bands relative to the valence-band maximum,
// prints the band edges, gap, spin-orbit splitting and effective masses, and plots the bands to a PNG.
static const char help[] =
    "tbpeta-bands: bulk band structure of a tight-binding parameter set along a path of high-symmetry points.\n"
    "Run with -help for every option and its default.\n\n";

#include <petscsys.h>
#include <slepcsys.h>
#include <sys/wait.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "bulk/BandAnalysis.hpp"
#include "bulk/BandUnfolding.hpp"
#include "bulk/KPath.hpp"
#include "bulk/KaneEnergy.hpp"
#include "bulk/DeformationPotentials.hpp"
#include "strain/StrainTensor.hpp"
#include "model/StrainSpec.hpp"
#include "support/OptionLists.hpp"
#include "application/ApplicationMain.hpp"
#include "support/TextFile.hpp"
#include "support/InstallLayout.hpp"
#include "model/TightBindingModel.hpp"
#include "io/OutputPath.hpp"

using namespace tbpeta;
namespace fs = std::filesystem;

namespace {

const char *basisName(BasisModel b) { return b == BasisModel::sp3sstar ? "sp3s*" : "sp3d5s*"; }

std::string ShellQuote(const std::string &s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// No "-0.0000" in the summary.
double Shown(double x) { return std::fabs(x) < 5e-5 ? 0.0 : x; }

std::string PointK(const KPoint &k) {
  char buf[96];
  std::snprintf(buf, sizeof(buf), "(%.4f, %.4f, %.4f)", Shown(k[0]), Shown(k[1]), Shown(k[2]));
  return buf;
}

PetscErrorCode PrintSummary(MPI_Comm comm, const BulkBands &bands, const BandPath &path, size_t nk,
                            const BandAnalysis &a) {
  const TightBindingModel &m = bands.model();
  const MaterialParameters &p = m.materials[0];
  PetscFunctionBeginUser;
  std::string route;
  for (size_t i = 0; i < path.labels.size(); ++i) route += (i ? "-" : "") + path.labels[i];
  PetscCall(PetscPrintf(comm, "tbpeta-bands: %s %s, parameter set %s (%s%s), a = %.5f A\n",
                        p.anion == p.cation ? "diamond" : "zincblende", p.material.c_str(), m.set.c_str(),
                        basisName(m.basis), m.spin_orbit ? " + spin-orbit" : "", p.a_lattice));
  PetscCall(PetscPrintf(comm,
                        "  path           %s, %d points per segment, %zu k points, %d bands per k (unfolded from the "
                        "8-atom cubic cell)\n",
                        route.c_str(), path.points_per_segment, nk, bands.bandCount()));
  PetscCall(PetscPrintf(
      comm, "  VBM            %.4f eV (absolute; top valence band at G; the CSV and plot are relative to it)\n",
      Shown(a.vbm)));
  PetscCall(PetscPrintf(comm, "  CBM            %.4f eV above the VBM (absolute %.4f eV) at %s, k = %s 2pi/a\n", a.gap,
                        Shown(a.cbm), a.cbm_where.c_str(), PointK(a.cbm_k).c_str()));
  if (a.direct) PetscCall(PetscPrintf(comm, "  gap            %.4f eV, direct at G\n", a.gap));
  else
    PetscCall(PetscPrintf(comm,
                          "  gap            %.4f eV, indirect (CBM at %s, k = %s 2pi/a); direct gap at G %.4f eV\n",
                          a.gap, a.cbm_where.c_str(), PointK(a.cbm_k).c_str(), a.gamma_gap));
  if (m.spin_orbit) PetscCall(PetscPrintf(comm, "  Delta_so       %.4f eV at G\n", a.delta_so));
  else PetscCall(PetscPrintf(comm, "  Delta_so       none (no spin-orbit)\n"));
  std::string em;
  for (const auto &d : a.electron) {
    char buf[96];
    if (std::fabs(d.mass) > 1000)
      std::snprintf(buf, sizeof(buf), "%sflat (|m*| > 1000) along %s", em.empty() ? "" : ", ", d.name.c_str());
    else std::snprintf(buf, sizeof(buf), "%s%.4f along %s", em.empty() ? "" : ", ", d.mass, d.name.c_str());
    em += buf;
  }
  PetscCall(PetscPrintf(comm, "  electron mass  m*/m0 = %s (at the CBM)\n", em.c_str()));
  PetscCall(PetscPrintf(
      comm, "  hole masses    m*/m0 at G: heavy %.4f, light %.4f along [100]; heavy %.4f, light %.4f along [111]\n",
      a.m_hh_100, a.m_lh_100, a.m_hh_111, a.m_lh_111));
  PetscFunctionReturn(0);
}

// Vurgaftman, Meyer & Ram-Mohan, J. Appl. Phys. 89, 5815 (2001): a_gap = a_c - a_v, b, d (eV), for comparison.
struct Reference {
  const char *material;
  double a_gap, b, d;
};
constexpr Reference kVurgaftman2001[] = {{"GaAs", -8.33, -2.0, -4.8}, {"InAs", -6.08, -1.8, -3.6}};

PetscErrorCode PrintDeformationPotentials(MPI_Comm comm, const TightBindingModel &model,
                                          const DeformationPotentials &dp) {
  const std::string &name = model.materials[0].material;
  const Reference *ref = nullptr;
  for (const auto &r : kVurgaftman2001)
    if (name == r.material) ref = &r;
  auto versus = [&](double ours, double theirs) {
    char buf[64];
    std::snprintf(buf, sizeof buf, " (Vurgaftman 2001: %.2f, %+.0f %%)", theirs, 100 * (ours - theirs) / theirs);
    return ref ? std::string(buf) : std::string();
  };
  PetscFunctionBeginUser;
  PetscCall(PetscPrintf(
      comm, "deformation potentials at G (symmetric differences at +-%.2g strain; %s; electron energies):\n", dp.delta,
      model.strained.describe().c_str()));
  PetscCall(PetscPrintf(comm, "  a_gap = dEg/d(tr eps)          %8.3f eV%s\n", dp.a_gap,
                        ref ? versus(dp.a_gap, ref->a_gap).c_str() : ""));
  PetscCall(PetscPrintf(comm, "  b ([001], E_lh - E_hh = 2b(ezz - exx))  %8.3f eV%s\n", dp.b,
                        ref ? versus(dp.b, ref->b).c_str() : ""));
  PetscCall(PetscPrintf(comm, "  d ([111], E(1/2) - E(3/2) = 2 sqrt3 d exy)  %8.3f eV%s\n", dp.d,
                        ref ? versus(dp.d, ref->d).c_str() : ""));
  PetscCall(PetscPrintf(
      comm,
      "  hydrostatic shifts dE/d(tr eps): valence top %.3f eV; lowest conduction band at G %.3f, X %.3f, L %.3f eV\n",
      dp.a_v, dp.a_c[0], dp.a_c[1], dp.a_c[2]));
  PetscCall(PetscPrintf(comm, "  gap deformation potentials to X and L: %.3f, %.3f eV\n", dp.a_gap_x, dp.a_gap_l));
  PetscFunctionReturn(0);
}

// What tbpeta-bands asks of strain: the crystal's strain, the deformation potentials, the strained H's options.
struct BandsStrain {
  Voigt eps{0, 0, 0, 0, 0, 0};
  bool strained = false, deformation = false, onsite = true, harrison = false;
};

PetscErrorCode ReadBandsStrain(MPI_Comm comm, BandsStrain *s) {
  PetscReal values[6] = {0, 0, 0, 0, 0, 0};
  PetscInt n = 6;
  PetscBool given = PETSC_FALSE, deformation = PETSC_FALSE;
  PetscFunctionBeginUser;
  PetscOptionsBegin(comm, nullptr, "Bulk under strain", "tbpeta-bands");
  PetscCall(PetscOptionsRealArray("-strain_tensor",
                                  "Strain the crystal: exx,eyy,ezz,eyz,exz,exy (tensor components; atoms relaxed "
                                  "inside by the Keating energy, H on the relaxed bonds); default unstrained",
                                  "tbpeta-bands", values, &n, &given));
  PetscCall(PetscOptionsBool(
      "-deformation_potentials",
      "Print a_gap, b, d at G and the hydrostatic shifts at G, X, L (symmetric differences at +-0.2 % strain)",
      "tbpeta-bands", deformation, &deformation, nullptr));
  PetscOptionsEnd();
  PetscCall(StrainedHamiltonianOptions(comm, &s->onsite, &s->harrison));
  PetscCheck(!given || n == 6, comm, PETSC_ERR_USER_INPUT,
             "-strain_tensor: give 6 numbers exx,eyy,ezz,eyz,exz,exy, got %" PetscInt_FMT, n);
  for (int c = 0; c < 6; ++c) {
    PetscCheck(std::isfinite(values[c]) && std::fabs(values[c]) <= 0.2, comm, PETSC_ERR_USER_INPUT,
               "-strain_tensor: component %d is %g; each must be finite and at most 0.2 in size", c + 1,
               (double)values[c]);
    s->eps[c] = values[c];
  }
  s->strained = given, s->deformation = deformation;
  PetscFunctionReturn(0);
}

// The deformation potentials (if asked) and the bands of the crystal under its strain.
PetscErrorCode StrainedBands(MPI_Comm comm, const TightBindingModel &model, const BandsStrain &s, BulkBands *bands) {
  PetscFunctionBeginUser;
  if (s.deformation) {
    DeformationPotentials dp;
    PetscCall(ComputeDeformationPotentials(model, 0, 0.002, &dp));
    PetscCall(PrintDeformationPotentials(comm, model, dp));
  }
  PetscCall(BulkBands::Create(model, 0, bands, s.eps));
  if (!s.strained) PetscFunctionReturn(0);
  char text[160];
  std::snprintf(text, sizeof text, "%.6g,%.6g,%.6g,%.6g,%.6g,%.6g", s.eps[0], s.eps[1], s.eps[2], s.eps[3], s.eps[4],
                s.eps[5]);
  PetscCall(PetscPrintf(comm, "strain %s (xx,yy,zz,yz,xz,xy), atoms relaxed inside the cell; H on the %s\n", text,
                        model.strained.describe().c_str()));
  PetscFunctionReturn(0);
}

// The band table as CSV, written whole or not at all (WriteTextFile); with -kane, the band edges' momentum elements
// at every k after the bands.
PetscErrorCode WriteCsv(MPI_Comm comm, const std::string &path, const std::vector<PathSample> &samples,
                        const std::vector<std::vector<double>> &e, double vbm,
                        const std::vector<BandEdgeMomentum> &momenta) {
  PetscFunctionBeginUser;
  std::string text = "k_distance_2pi_over_a,kx,ky,kz,label";
  char buf[160];
  for (size_t b = 0; b < e[0].size(); ++b) text += ",band_" + std::to_string(b);
  if (!momenta.empty()) text += ",p2_x_eV,p2_y_eV,p2_z_eV,valence_states,conduction_states";
  text += "\n";
  for (size_t i = 0; i < samples.size(); ++i) {
    const auto &s = samples[i];
    std::snprintf(buf, sizeof buf, "%.8f,%.8f,%.8f,%.8f,%s", s.distance, s.k[0], s.k[1], s.k[2], s.label.c_str());
    text += buf;
    for (double x : e[i]) {
      std::snprintf(buf, sizeof buf, ",%.6f", x - vbm);
      text += buf;
    }
    if (!momenta.empty()) {
      const auto &m = momenta[i];
      std::snprintf(buf, sizeof buf, ",%.8f,%.8f,%.8f,%d,%d", m.p[0], m.p[1], m.p[2], m.valence, m.conduction);
      text += buf;
    }
    text += "\n";
  }
  PetscCall(WriteTextFile(comm, path, text, "-csv"));
  PetscFunctionReturn(0);
}

// Rank 0 runs the plot script on the CSV into a temporary PNG and renames it. Returns the failure (one line) in
// `failure`, empty on success, the same on every rank.
PetscErrorCode Plot(MPI_Comm comm, const std::string &script, const std::string &csv, const std::string &png,
                    double emin, double emax, const std::string &title, const BandAnalysis &a, std::string *failure) {
  PetscMPIInt rank;
  char message[1024] = "";
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (rank == 0) {
    const std::string tmp = png + ".tmp", log = png + ".log.tmp";
    char numbers[512];
    std::snprintf(numbers, sizeof(numbers),
                  " --emin %.6g --emax %.6g --gap %.6f --cbm-distance %.8f --cbm-energy %.6f --gap-kind %s", emin, emax,
                  a.gap, a.cbm_distance, a.gap, a.direct ? "direct" : "indirect");
    const std::string cmd = "/usr/bin/python3 " + ShellQuote(script) + " --csv " + ShellQuote(csv) + " --png " +
                            ShellQuote(tmp) + " --title " + ShellQuote(title) + numbers + " >" + ShellQuote(log) +
                            " 2>&1";
    const int status = std::system(cmd.c_str());
    std::error_code ec;
    if (status == 0 && fs::exists(tmp, ec) && fs::file_size(tmp, ec) > 0) {
      fs::rename(tmp, png, ec);
      if (ec)
        std::snprintf(message, sizeof(message), "-png %s: could not rename the plot into place (%s)", png.c_str(),
                      ec.message().c_str());
    } else {
      std::string last;
      std::ifstream in(log);
      for (std::string line; std::getline(in, line);)
        if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
      char how[64];
      if (status == -1) std::snprintf(how, sizeof(how), "could not be started");
      else if (WIFSIGNALED(status)) std::snprintf(how, sizeof(how), "was killed by signal %d", WTERMSIG(status));
      else if (WEXITSTATUS(status) != 0)
        std::snprintf(how, sizeof(how), "failed (exit status %d)", WEXITSTATUS(status));
      else std::snprintf(how, sizeof(how), "wrote no PNG");
      std::snprintf(message, sizeof(message), "plot script %s %s%s%s; the CSV %s was written", script.c_str(), how,
                    last.empty() ? "" : ": ", last.c_str(), csv.c_str());
    }
    fs::remove(tmp, ec);
    fs::remove(log, ec);
  }
  PetscCallMPI(MPI_Bcast(message, sizeof(message), MPI_CHAR, 0, comm));
  *failure = message;
  PetscFunctionReturn(0);
}

// -plot_script must name a file (rank 0 looks). Collective.
PetscErrorCode CheckPlotScript(MPI_Comm comm, const char *script) {
  int found = 1;
  PetscMPIInt rank;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (rank == 0) {
    std::error_code ec;
    found = fs::is_regular_file(script, ec);
  }
  PetscCallMPI(MPI_Bcast(&found, 1, MPI_INT, 0, comm));
  PetscCheck(found, comm, PETSC_ERR_FILE_OPEN, "-plot_script %s: no such file (use -png none to skip the plot)",
             script);
  PetscFunctionReturn(0);
}

// -kane: E_P of the crystal as given (under its strain) on one line, and the band edges' momentum elements at every
// sample for the CSV.
PetscErrorCode KaneEnergyAndMomenta(MPI_Comm comm, const BulkBands &bands, const std::vector<PathSample> &samples,
                                    std::vector<BandEdgeMomentum> *momenta) {
  double ep;
  bool defined;
  PetscFunctionBeginUser;
  PetscCall(KaneEnergy(bands, &ep, &defined));
  if (defined) PetscCall(PetscPrintf(comm, "Kane energy E_P = %.3f eV\n", ep));
  else
    PetscCall(PetscPrintf(comm, "Kane energy: none (no s-like conduction pair at G facing the six p states, as in a "
                                "diamond crystal); the CSV holds the band edges' momentum elements\n"));
  PetscCall(BandEdgeMomentaAlongPath(comm, bands, samples, momenta));
  PetscFunctionReturn(0);
}

// The set and material of the options, with the strained-H settings; -kane refused without spin-orbit.
PetscErrorCode LoadModel(MPI_Comm comm, const BandsStrain &strain, bool kane, TightBindingModel *model) {
  ModelSpec spec;
  PetscFunctionBeginUser;
  PetscCall(ModelSpecFromOptions(comm, ModelSpec{}, {ModelSpec{}.host}, &spec));
  PetscCall(LoadTightBindingModel(comm, spec, {}, model));
  model->strained = {strain.strained || strain.deformation, strain.onsite,
                     strain.harrison ? BondScaling::harrison : BondScaling::parameters};
  PetscCall(CheckStrainedModel(comm, *model));
  PetscCheck(!kane || model->spin_orbit, comm, PETSC_ERR_USER_INPUT,
             "-kane: the Kane energy needs spin-orbit (the six states of the p manifold); set %s has none",
             model->set.c_str());
  PetscFunctionReturn(0);
}

PetscErrorCode Run(MPI_Comm comm, int *exit_code) {
  char csv[PETSC_MAX_PATH_LEN] = "bands.csv", png[PETSC_MAX_PATH_LEN] = "bands.png", script[PETSC_MAX_PATH_LEN];
  PetscReal emin = -13, emax = 6;
  PetscBool kane = PETSC_FALSE;
  BandsStrain strain;
  PetscFunctionBeginUser;
  *exit_code = 0;
  const std::string default_script = (fs::path(ScriptsDirectory()) / "plot_bands.py").string();
  std::snprintf(script, sizeof(script), "%s", default_script.c_str());
  PetscOptionsBegin(comm, nullptr, "Band structure output", "tbpeta-bands");
  PetscCall(PetscOptionsString("-csv", "Write the bands (eV relative to the VBM) along the path to this CSV file",
                               "tbpeta-bands", csv, csv, sizeof(csv), nullptr));
  PetscCall(PetscOptionsString("-png", "Plot the bands to this PNG file ('none' to skip)", "tbpeta-bands", png, png,
                               sizeof(png), nullptr));
  PetscCall(PetscOptionsString("-plot_script", "Python plotting script (run with /usr/bin/python3)", "tbpeta-bands",
                               script, script, sizeof(script), nullptr));
  PetscCall(PetscOptionsReal("-bands_emin", "Lower end of the plotted energy window, eV relative to the VBM",
                             "tbpeta-bands", emin, &emin, nullptr));
  PetscCall(PetscOptionsReal("-bands_emax", "Upper end of the plotted energy window, eV relative to the VBM",
                             "tbpeta-bands", emax, &emax, nullptr));
  PetscCall(PetscOptionsBool("-kane",
                             "Print the Kane energy E_P at Gamma and add the band edges' momentum elements at every k "
                             "to the CSV, from [H, r] (needs spin-orbit)",
                             "tbpeta-bands", kane, &kane, nullptr));
  PetscOptionsEnd();
  PetscCall(ReadBandsStrain(comm, &strain));

  TightBindingModel model;
  PetscCall(LoadModel(comm, strain, kane, &model));
  BandPath path;
  PetscCall(BandPathFromOptions(comm, &path));
  if (HelpRequested()) PetscFunctionReturn(0); // -help describes, it does not run

  const bool plot = std::string(png) != "none";
  PetscCheck(emin < emax, comm, PETSC_ERR_USER_INPUT, "-bands_emin %g -bands_emax %g: the window must have emin < emax",
             (double)emin, (double)emax);
  PetscCall(CheckOutputFile(comm, csv, "-csv", ".csv"));
  if (plot) {
    PetscCall(CheckOutputFile(comm, png, "-png", ".png"));
    PetscCheck(std::string(png) != std::string(csv), comm, PETSC_ERR_USER_INPUT, "-png %s: the same file as -csv", png);
    PetscCall(CheckPlotScript(comm, script));
  }
  for (const auto &w : model.warnings) PetscCall(PetscPrintf(comm, "tbpeta-bands: warning: %s\n", w.c_str()));

  BulkBands bands;
  PetscCall(StrainedBands(comm, model, strain, &bands));
  const auto samples = SamplePath(path);
  std::vector<std::vector<double>> energies;
  PetscCall(BandsAlongPath(comm, bands, samples, &energies));
  BandAnalysis analysis;
  PetscCall(AnalyzeBands(bands, path, samples, energies, &analysis));
  PetscCall(PrintSummary(comm, bands, path, samples.size(), analysis));
  std::vector<BandEdgeMomentum> momenta;
  if (kane) PetscCall(KaneEnergyAndMomenta(comm, bands, samples, &momenta));

  PetscCall(WriteCsv(comm, csv, samples, energies, analysis.vbm, momenta));
  PetscCall(PetscPrintf(comm, "wrote %s\n", csv));
  if (plot) {
    const auto &p = model.materials[0];
    const std::string title =
        p.material + " (" + model.set + ", " + basisName(model.basis) + (model.spin_orbit ? " + SO" : "") + ")";
    std::string failure;
    PetscCall(Plot(comm, script, csv, png, emin, emax, title, analysis, &failure));
    if (!failure.empty()) {
      PetscCall(PetscFPrintf(comm, PETSC_STDERR, "tbpeta-bands: error: %s\n", failure.c_str()));
      *exit_code = 1;
      PetscFunctionReturn(0);
    }
    PetscCall(PetscPrintf(comm, "wrote %s\n", png));
  }
  PetscFunctionReturn(0);
}

} // namespace

int main(int argc, char **argv) { return ApplicationMain(argc, argv, help, "tbpeta-bands", Run); }
