// Reading tight-binding parameter files (data/params/<set>/<Material>.tbp or a user's -params_file).
// Every rank reads the (small) file itself, so any error is raised identically on all ranks of the communicator.
#include "tbpeta/ParameterSet.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <map>
#include <utility>

#ifndef TBPETA_DATA_DIR
  #define TBPETA_DATA_DIR "data"
#endif

namespace tbpeta {

namespace {

namespace fs = std::filesystem;

struct Entry {
  std::string text;       // value as written (comment and surrounding blanks removed)
  int         line   = 0; // 1-based line number in the file
  double      number = 0; // parsed value of numeric keys
};
using Entries = std::map<std::string, Entry>;

// Header keys carry text; everything else is a number in eV (a_lattice in Angstrom).
const std::vector<std::string> kTextKeys     = {"set", "material", "anion", "cation", "model", "spin_orbit", "energy_scale", "form", "citation", "status"};
const std::vector<std::string> kRequiredText = {"set", "material", "anion", "cation", "model", "spin_orbit", "energy_scale", "form"};
const std::vector<std::string> kOnsiteKeys   = {"Es_a", "Ep_a", "Esstar_a", "Es_c", "Ep_c", "Esstar_c"};
const std::vector<std::string> kOnsiteDKeys  = {"Ed_a", "Ed_c"};
const std::vector<std::string> kVoglKeys     = {"Vss", "Vxx", "Vxy", "Vsa_pc", "Vsc_pa", "Vsstara_pc", "Vpa_sstarc"};

struct TwoCentreKey {
  const char *name;
  double TwoCentreIntegrals::*member;
  bool needs_d; // exists only in the sp3d5s* model
};
const TwoCentreKey kTwoCentreKeys[] = {
  {"ss_sigma", &TwoCentreIntegrals::ss_sigma, false},
  {"sstar_sstar_sigma", &TwoCentreIntegrals::sstar_sstar_sigma, false},
  {"sstar_a_s_c_sigma", &TwoCentreIntegrals::sstar_a_s_c_sigma, false},
  {"s_a_sstar_c_sigma", &TwoCentreIntegrals::s_a_sstar_c_sigma, false},
  {"s_a_p_c_sigma", &TwoCentreIntegrals::s_a_p_c_sigma, false},
  {"s_c_p_a_sigma", &TwoCentreIntegrals::s_c_p_a_sigma, false},
  {"sstar_a_p_c_sigma", &TwoCentreIntegrals::sstar_a_p_c_sigma, false},
  {"sstar_c_p_a_sigma", &TwoCentreIntegrals::sstar_c_p_a_sigma, false},
  {"s_a_d_c_sigma", &TwoCentreIntegrals::s_a_d_c_sigma, true},
  {"s_c_d_a_sigma", &TwoCentreIntegrals::s_c_d_a_sigma, true},
  {"sstar_a_d_c_sigma", &TwoCentreIntegrals::sstar_a_d_c_sigma, true},
  {"sstar_c_d_a_sigma", &TwoCentreIntegrals::sstar_c_d_a_sigma, true},
  {"pp_sigma", &TwoCentreIntegrals::pp_sigma, false},
  {"pp_pi", &TwoCentreIntegrals::pp_pi, false},
  {"p_a_d_c_sigma", &TwoCentreIntegrals::p_a_d_c_sigma, true},
  {"p_c_d_a_sigma", &TwoCentreIntegrals::p_c_d_a_sigma, true},
  {"p_a_d_c_pi", &TwoCentreIntegrals::p_a_d_c_pi, true},
  {"p_c_d_a_pi", &TwoCentreIntegrals::p_c_d_a_pi, true},
  {"dd_sigma", &TwoCentreIntegrals::dd_sigma, true},
  {"dd_pi", &TwoCentreIntegrals::dd_pi, true},
  {"dd_delta", &TwoCentreIntegrals::dd_delta, true},
};

bool Contains(const std::vector<std::string> &v, const std::string &s) { return std::find(v.begin(), v.end(), s) != v.end(); }

bool IsTextKey(const std::string &k) { return Contains(kTextKeys, k); }

bool IsSpinOrbitKey(const std::string &k) { return k == "lambda_so_a" || k == "lambda_so_c" || k == "Delta_so_a" || k == "Delta_so_c"; }

const TwoCentreKey *FindTwoCentre(const std::string &k) {
  for (const auto &t : kTwoCentreKeys)
    if (k == t.name) return &t;
  return nullptr;
}

bool IsNumericKey(const std::string &k) {
  return k == "a_lattice" || Contains(kOnsiteKeys, k) || Contains(kOnsiteDKeys, k) || IsSpinOrbitKey(k) || Contains(kVoglKeys, k) || FindTwoCentre(k);
}

std::string Join(const std::vector<std::string> &v) {
  std::string s;
  for (const auto &x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

std::string Trim(const std::string &s) {
  const char *ws = " \t\r\n\f\v";
  const auto  b  = s.find_first_not_of(ws);
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(ws) - b + 1);
}

bool IsIdentifier(const std::string &s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// Locale-independent strict number parsing: the whole text must be one finite number.
bool ParseNumber(const std::string &text, double *x) {
  const char *b = text.data(), *e = text.data() + text.size();
  if (b != e && *b == '+') ++b; // from_chars does not take an explicit '+'
  if (b == e) return false;
  auto r = std::from_chars(b, e, *x);
  return r.ec == std::errc() && r.ptr == e && std::isfinite(*x);
}

// Read every "key = value" line of the file, checking syntax, known keys, duplicates and numbers in file order.
PetscErrorCode ReadEntries(MPI_Comm comm, const std::string &path, Entries *entries) {
  PetscMPIInt rank;
  PetscFunctionBeginUser;
  // Rank 0 reads the file and sends its text to the others, so every rank parses the same bytes and raises the same
  // error (a file readable on one node only must not leave ranks waiting for each other).
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  std::string text;
  long long length = -1; // -1: could not be opened; -2: read error
  if (rank == 0) {
    std::error_code ec;
    std::ifstream   file(path, std::ios::binary);
    if (file.is_open() && fs::is_regular_file(path, ec)) {
      std::stringstream ss;
      ss << file.rdbuf();
      text   = ss.str();
      length = file.bad() ? -2 : (long long)text.size();
    }
  }
  PetscCallMPI(MPI_Bcast(&length, 1, MPI_LONG_LONG, 0, comm));
  PetscCheck(length != -1, comm, PETSC_ERR_FILE_OPEN, "parameter file '%s': cannot be opened (give a readable file in tbpeta's 'key = value' parameter format)", path.c_str());
  PetscCheck(length != -2, comm, PETSC_ERR_FILE_READ, "parameter file '%s': read error", path.c_str());
  PetscCheck(length < (1LL << 30), comm, PETSC_ERR_USER_INPUT, "parameter file '%s': %lld bytes is not a parameter file", path.c_str(), length);
  text.resize((size_t)length);
  PetscCallMPI(MPI_Bcast(text.data(), (int)length, MPI_CHAR, 0, comm));
  std::istringstream in(text);
  std::string        raw;
  for (int line = 1; std::getline(in, raw); ++line) {
    const std::string content = Trim(raw.substr(0, raw.find('#')));
    if (content.empty()) continue;
    const auto        eq  = content.find('=');
    const std::string key = eq == std::string::npos ? "" : Trim(content.substr(0, eq));
    PetscCheck(eq != std::string::npos && IsIdentifier(key), comm, PETSC_ERR_USER_INPUT, "parameter file '%s' line %d: expected 'key = value' (or a '#' comment), got '%s'", path.c_str(), line, content.c_str());
    const std::string value = Trim(content.substr(eq + 1));
    PetscCheck(IsTextKey(key) || IsNumericKey(key), comm, PETSC_ERR_USER_INPUT, "parameter file '%s' line %d: unknown key '%s'", path.c_str(), line, key.c_str());
    const auto prev = entries->find(key);
    PetscCheck(prev == entries->end(), comm, PETSC_ERR_USER_INPUT, "parameter file '%s' line %d: duplicate key '%s' (first given on line %d)", path.c_str(), line, key.c_str(), prev == entries->end() ? 0 : prev->second.line);
    PetscCheck(!value.empty(), comm, PETSC_ERR_USER_INPUT, "parameter file '%s' line %d: empty value for key '%s'", path.c_str(), line, key.c_str());
    Entry entry;
    entry.text = value;
    entry.line = line;
    if (!IsTextKey(key)) {
      PetscCheck(ParseNumber(value, &entry.number), comm, PETSC_ERR_USER_INPUT, "parameter file '%s' line %d: '%s' is not a number for key '%s'", path.c_str(), line, value.c_str(), key.c_str());
    }
    (*entries)[key] = entry;
  }
  PetscFunctionReturn(0);
}

// Value of a header key that must be one of `allowed`.
PetscErrorCode CheckChoice(MPI_Comm comm, const std::string &path, const Entries &entries, const std::string &key, const std::vector<std::string> &allowed) {
  PetscFunctionBeginUser;
  const Entry &e = entries.at(key);
  PetscCheck(Contains(allowed, e.text), comm, PETSC_ERR_USER_INPUT, "parameter file '%s' line %d: %s '%s' is not allowed (allowed: %s)", path.c_str(), e.line, key.c_str(), e.text.c_str(), Join(allowed).c_str());
  PetscFunctionReturn(0);
}

} // namespace

std::string dataDirectory() {
  const char *env = std::getenv("TBPETA_DATA_DIR");
  if (env && *env) return env;
  return TBPETA_DATA_DIR;
}

std::vector<std::string> shippedSets() {
  std::vector<std::string> sets;
  std::error_code          ec;
  for (fs::directory_iterator it(fs::path(dataDirectory()) / "params", ec), end; !ec && it != end; it.increment(ec))
    if (it->is_directory(ec)) sets.push_back(it->path().filename().string());
  std::sort(sets.begin(), sets.end());
  return sets;
}

std::vector<std::string> materialsInSet(const std::string &set) {
  std::vector<std::string> materials;
  if (!Contains(shippedSets(), set)) return materials; // also keeps names like "../x" out of the file system
  std::error_code ec;
  for (fs::directory_iterator it(fs::path(dataDirectory()) / "params" / set, ec), end; !ec && it != end; it.increment(ec))
    if (it->is_regular_file(ec) && it->path().extension() == ".tbp") materials.push_back(it->path().stem().string());
  std::sort(materials.begin(), materials.end());
  return materials;
}

PetscErrorCode LoadShippedMaterial(MPI_Comm comm, const std::string &set, const std::string &material, MaterialParameters *out) {
  PetscFunctionBeginUser;
  PetscCall(LoadShippedMaterial(comm, set, material, "-material", out));
  PetscFunctionReturn(0);
}

PetscErrorCode LoadShippedMaterial(MPI_Comm comm, const std::string &set, const std::string &material, const char *material_option, MaterialParameters *out) {
  PetscFunctionBeginUser;
  const std::vector<std::string> sets = shippedSets();
  if (sets.empty()) {
    const std::string dir = (fs::path(dataDirectory()) / "params").string();
    SETERRQ(comm, PETSC_ERR_USER_INPUT, "-params: unknown parameter set '%s' (no sets found in '%s'; point TBPETA_DATA_DIR at tbpeta's data directory)", set.c_str(), dir.c_str());
  }
  PetscCheck(Contains(sets, set), comm, PETSC_ERR_USER_INPUT, "-params: unknown parameter set '%s' (shipped sets: %s)", set.c_str(), Join(sets).c_str());
  const std::vector<std::string> materials = materialsInSet(set);
  PetscCheck(Contains(materials, material), comm, PETSC_ERR_USER_INPUT, "%s: '%s' is not in parameter set '%s' (available: %s)", material_option, material.c_str(), set.c_str(), Join(materials).c_str());
  const std::string  path = (fs::path(dataDirectory()) / "params" / set / (material + ".tbp")).string();
  MaterialParameters p;
  PetscCall(LoadParameterFile(comm, path, &p));
  // A shipped file must describe what its location says, or the user would silently get another material.
  PetscCheck(p.set == set && p.material == material, comm, PETSC_ERR_USER_INPUT, "parameter file '%s': declares set '%s', material '%s' but is shipped as set '%s', material '%s'", path.c_str(), p.set.c_str(), p.material.c_str(), set.c_str(), material.c_str());
  *out = p;
  PetscFunctionReturn(0);
}

PetscErrorCode LoadParameterFile(MPI_Comm comm, const std::string &path, MaterialParameters *out) {
  Entries entries;

  PetscFunctionBeginUser;
  PetscCall(ReadEntries(comm, path, &entries));

  // Header: the keys that decide which numbers are expected.
  for (const auto &k : kRequiredText) PetscCheck(entries.count(k), comm, PETSC_ERR_USER_INPUT, "parameter file '%s': missing key '%s'", path.c_str(), k.c_str());
  PetscCall(CheckChoice(comm, path, entries, "model", {"sp3sstar", "sp3d5sstar"}));
  PetscCall(CheckChoice(comm, path, entries, "spin_orbit", {"yes", "no"}));
  PetscCall(CheckChoice(comm, path, entries, "energy_scale", {"absolute", "vbm_zero"}));
  PetscCall(CheckChoice(comm, path, entries, "form", {"vogl", "two_centre"}));
  const std::string model = entries["model"].text, form = entries["form"].text;
  const bool        with_d = model == "sp3d5sstar", vogl = form == "vogl", with_so = entries["spin_orbit"].text == "yes";
  PetscCheck(!(vogl && with_d), comm, PETSC_ERR_USER_INPUT, "parameter file '%s' line %d: form vogl needs model sp3sstar (Vogl sums exist only for sp3s*; use form two_centre)", path.c_str(), entries["form"].line);

  // Numeric keys the model/form needs; spin-orbit keys are handled per atom below.
  std::vector<std::string> required = {"a_lattice"};
  required.insert(required.end(), kOnsiteKeys.begin(), kOnsiteKeys.end());
  if (with_d) required.insert(required.end(), kOnsiteDKeys.begin(), kOnsiteDKeys.end());
  if (vogl) required.insert(required.end(), kVoglKeys.begin(), kVoglKeys.end());
  else
    for (const auto &t : kTwoCentreKeys)
      if (with_d || !t.needs_d) required.push_back(t.name);

  std::vector<std::pair<int, std::string>> by_line; // report the first offending key in file order
  for (const auto &[key, e] : entries) by_line.emplace_back(e.line, key);
  std::sort(by_line.begin(), by_line.end());
  for (const auto &[line, key] : by_line) {
    if (IsTextKey(key) || Contains(required, key)) continue;
    if (IsSpinOrbitKey(key)) {
      PetscCheck(with_so, comm, PETSC_ERR_USER_INPUT, "parameter file '%s' line %d: key '%s' is not allowed with spin_orbit = no", path.c_str(), line, key.c_str());
    } else {
      SETERRQ(comm, PETSC_ERR_USER_INPUT, "parameter file '%s' line %d: key '%s' is not allowed for model %s, form %s", path.c_str(), line, key.c_str(), model.c_str(), form.c_str());
    }
  }
  for (const auto &k : required) PetscCheck(entries.count(k), comm, PETSC_ERR_USER_INPUT, "parameter file '%s': missing key '%s' (model %s, form %s)", path.c_str(), k.c_str(), model.c_str(), form.c_str());

  // Spin-orbit: per atom exactly one of lambda (= Delta/3) or the full splitting Delta.
  double lambda[2] = {0, 0};
  if (with_so) {
    const char *side[2] = {"a", "c"};
    for (int i = 0; i < 2; ++i) {
      const std::string lk = std::string("lambda_so_") + side[i], dk = std::string("Delta_so_") + side[i];
      const bool        hl = entries.count(lk), hd = entries.count(dk);
      PetscCheck(hl || hd, comm, PETSC_ERR_USER_INPUT, "parameter file '%s': missing key '%s' or '%s' (spin_orbit = yes)", path.c_str(), lk.c_str(), dk.c_str());
      PetscCheck(!(hl && hd), comm, PETSC_ERR_USER_INPUT, "parameter file '%s' line %d: give only one of '%s' and '%s'", path.c_str(), std::max(entries[lk].line, entries[dk].line), lk.c_str(), dk.c_str());
      lambda[i] = hl ? entries[lk].number : entries[dk].number / 3.0;
    }
  }
  PetscCheck(entries["a_lattice"].number > 0, comm, PETSC_ERR_USER_INPUT, "parameter file '%s' line %d: a_lattice must be positive (Angstrom), got '%s'", path.c_str(), entries["a_lattice"].line, entries["a_lattice"].text.c_str());

  auto               num = [&entries](const std::string &k) { return entries.count(k) ? entries.at(k).number : 0.0; };
  MaterialParameters p;
  p.set            = entries["set"].text;
  p.material       = entries["material"].text;
  p.anion          = entries["anion"].text;
  p.cation         = entries["cation"].text;
  p.model          = with_d ? BasisModel::sp3d5sstar : BasisModel::sp3sstar;
  p.has_spin_orbit = with_so;
  p.energy_scale   = entries["energy_scale"].text == "absolute" ? EnergyScale::absolute : EnergyScale::vbm_zero;
  p.a_lattice      = num("a_lattice");
  p.anion_onsite   = {num("Es_a"), num("Ep_a"), num("Ed_a"), num("Esstar_a"), lambda[0]};
  p.cation_onsite  = {num("Es_c"), num("Ep_c"), num("Ed_c"), num("Esstar_c"), lambda[1]};
  if (vogl) {
    // Vogl's tabulated sums over the four bonds at k = 0 (each direction cosine +-1/sqrt3) -> two-centre integrals.
    const double q = std::sqrt(3.0) / 4.0;
    p.bond.ss_sigma          = num("Vss") / 4.0;
    p.bond.pp_sigma          = (num("Vxx") + 2.0 * num("Vxy")) / 4.0;
    p.bond.pp_pi             = (num("Vxx") - num("Vxy")) / 4.0;
    p.bond.s_a_p_c_sigma     = q * num("Vsa_pc");
    p.bond.s_c_p_a_sigma     = q * num("Vsc_pa");
    p.bond.sstar_a_p_c_sigma = q * num("Vsstara_pc");
    p.bond.sstar_c_p_a_sigma = q * num("Vpa_sstarc");
  } else {
    for (const auto &t : kTwoCentreKeys) p.bond.*t.member = num(t.name);
  }
  p.citation = entries.count("citation") ? entries["citation"].text : "";
  p.status   = entries.count("status") ? entries["status"].text : "";
  p.source   = path;
  *out       = p;
  PetscFunctionReturn(0);
}

} // namespace tbpeta
