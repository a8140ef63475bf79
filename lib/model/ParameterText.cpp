// The parameter-file format: "key = value" lines, '#' comments, header keys carrying text and numeric keys in eV
// (a_lattice in Angstrom). Every check names the file, the line and the key; the first offending line wins.
#include "model/ParameterText.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <map>
#include <utility>
#include <vector>

namespace tbpeta {

namespace {

struct Entry {
  std::string text;  // value as written (comment and surrounding blanks removed)
  int line = 0;      // 1-based line number in the file
  double number = 0; // parsed value of numeric keys
};
using Entries = std::map<std::string, Entry>;

// Raised inside the parser, caught by ParseParameterText: the one line the user sees.
struct FormatError {
  std::string message;
};

const std::vector<std::string> kTextKeys = {"set",
                                            "material",
                                            "anion",
                                            "cation",
                                            "model",
                                            "spin_orbit",
                                            "energy_scale",
                                            "form",
                                            "citation",
                                            "status",
                                            "keating_citation",
                                            "strain_tb_citation"};
const std::vector<std::string> kRequiredText = {"set",   "material",   "anion",        "cation",
                                                "model", "spin_orbit", "energy_scale", "form"};
const std::vector<std::string> kOnsiteKeys = {"Es_a", "Ep_a", "Esstar_a", "Es_c", "Ep_c", "Esstar_c"};
const std::vector<std::string> kOnsiteDKeys = {"Ed_a", "Ed_c"};
const std::vector<std::string> kKeatingKeys = {"keating_alpha", "keating_beta"}; // optional, both or neither (N/m)
// Strained tight binding (optional): the bond-length exponents as a group, the on-site correction as a group.
struct StrainKey {
  const char *name;
  double *(*slot)(StrainedBondParameters &);
  bool needs_d;
};
#define TB_STRAIN_MEMBER(key, member, d)                                                                               \
  {                                                                                                                    \
    key, [](StrainedBondParameters &p) { return &p.member; }, d                                                        \
  }
const StrainKey kExponentKeys[] = {
    TB_STRAIN_MEMBER("eta_ss_sigma", ss_sigma, false),
    TB_STRAIN_MEMBER("eta_sstar_sstar_sigma", sstar_sstar_sigma, false),
    TB_STRAIN_MEMBER("eta_s_sstar_sigma", s_sstar_sigma, false),
    TB_STRAIN_MEMBER("eta_sp_sigma", sp_sigma, false),
    TB_STRAIN_MEMBER("eta_sstar_p_sigma", sstar_p_sigma, false),
    TB_STRAIN_MEMBER("eta_pp_sigma", pp_sigma, false),
    TB_STRAIN_MEMBER("eta_pp_pi", pp_pi, false),
    TB_STRAIN_MEMBER("eta_sd_sigma", sd_sigma, true),
    TB_STRAIN_MEMBER("eta_sstar_d_sigma", sstar_d_sigma, true),
    TB_STRAIN_MEMBER("eta_pd_sigma", pd_sigma, true),
    TB_STRAIN_MEMBER("eta_pd_pi", pd_pi, true),
    TB_STRAIN_MEMBER("eta_dd_sigma", dd_sigma, true),
    TB_STRAIN_MEMBER("eta_dd_pi", dd_pi, true),
    TB_STRAIN_MEMBER("eta_dd_delta", dd_delta, true),
};
const StrainKey kOnsiteStrainKeys[] = {
    TB_STRAIN_MEMBER("onsite_scale", onsite_scale, false),
    TB_STRAIN_MEMBER("onsite_shift_anion", shift_anion, false),
    TB_STRAIN_MEMBER("onsite_shift_cation", shift_cation, false),
    TB_STRAIN_MEMBER("onsite_C_ss", C[kKindS][kKindS], false),
    TB_STRAIN_MEMBER("onsite_C_sstar_sstar", C[kKindSstar][kKindSstar], false),
    TB_STRAIN_MEMBER("onsite_C_sstar_a_s_c", C[kKindSstar][kKindS], false),
    TB_STRAIN_MEMBER("onsite_C_s_a_sstar_c", C[kKindS][kKindSstar], false),
    TB_STRAIN_MEMBER("onsite_C_s_a_p_c", C[kKindS][kKindP], false),
    TB_STRAIN_MEMBER("onsite_C_p_a_s_c", C[kKindP][kKindS], false),
    TB_STRAIN_MEMBER("onsite_C_sstar_a_p_c", C[kKindSstar][kKindP], false),
    TB_STRAIN_MEMBER("onsite_C_p_a_sstar_c", C[kKindP][kKindSstar], false),
    TB_STRAIN_MEMBER("onsite_C_s_a_d_c", C[kKindS][kKindD], true),
    TB_STRAIN_MEMBER("onsite_C_d_a_s_c", C[kKindD][kKindS], true),
    TB_STRAIN_MEMBER("onsite_C_sstar_a_d_c", C[kKindSstar][kKindD], true),
    TB_STRAIN_MEMBER("onsite_C_d_a_sstar_c", C[kKindD][kKindSstar], true),
    TB_STRAIN_MEMBER("onsite_C_pp", C[kKindP][kKindP], false),
    TB_STRAIN_MEMBER("onsite_C_p_a_d_c", C[kKindP][kKindD], true),
    TB_STRAIN_MEMBER("onsite_C_d_a_p_c", C[kKindD][kKindP], true),
    TB_STRAIN_MEMBER("onsite_C_dd", C[kKindD][kKindD], true),
};
#undef TB_STRAIN_MEMBER

const StrainKey *FindStrainKey(const std::string &k) {
  for (const auto &g : kExponentKeys)
    if (k == g.name) return &g;
  for (const auto &g : kOnsiteStrainKeys)
    if (k == g.name) return &g;
  return nullptr;
}
bool IsStrainKey(const std::string &k) { return FindStrainKey(k) != nullptr; }

const std::vector<std::string> kVoglKeys = {"Vss", "Vxx", "Vxy", "Vsa_pc", "Vsc_pa", "Vsstara_pc", "Vpa_sstarc"};

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

bool Contains(const std::vector<std::string> &v, const std::string &s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

bool IsTextKey(const std::string &k) { return Contains(kTextKeys, k); }

bool IsSpinOrbitKey(const std::string &k) {
  return k == "lambda_so_a" || k == "lambda_so_c" || k == "Delta_so_a" || k == "Delta_so_c";
}

const TwoCentreKey *FindTwoCentre(const std::string &k) {
  for (const auto &t : kTwoCentreKeys)
    if (k == t.name) return &t;
  return nullptr;
}

bool IsNumericKey(const std::string &k) {
  return k == "a_lattice" || Contains(kKeatingKeys, k) || IsStrainKey(k) || Contains(kOnsiteKeys, k) ||
         Contains(kOnsiteDKeys, k) || IsSpinOrbitKey(k) || Contains(kVoglKeys, k) || FindTwoCentre(k);
}

std::string Join(const std::vector<std::string> &v) {
  std::string s;
  for (const auto &x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

std::string Trim(std::string_view s) {
  const char *ws = " \t\r\n\f\v";
  const auto b = s.find_first_not_of(ws);
  if (b == std::string_view::npos) return "";
  return std::string(s.substr(b, s.find_last_not_of(ws) - b + 1));
}

bool IsIdentifier(const std::string &s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// Whether text holds a byte that no text file has: NUL and the other control characters but tab (binary garbage,
// a file saved in UTF-16). Bytes >= 0x80 (UTF-8 in citations) are allowed.
bool HasControlCharacter(std::string_view s) {
  return std::any_of(s.begin(), s.end(), [](char c) { return (unsigned char)c < 0x20 && c != '\t'; });
}

// A piece of the user's text fit to quote in a one-line message: at most 40 bytes, control characters as '?'.
std::string Quote(std::string_view s) {
  std::string q(s.substr(0, 40));
  for (char &c : q)
    if ((unsigned char)c < 0x20 || c == 0x7f) c = '?';
  if (s.size() > 40) q += "...";
  return q;
}

// Locale-independent strict number parsing: the whole text must be one finite number.
bool ParseNumber(const std::string &text, double *x) {
  const char *b = text.data(), *e = text.data() + text.size();
  if (b != e && *b == '+') ++b; // from_chars does not take an explicit '+'
  if (b == e) return false;
  auto r = std::from_chars(b, e, *x);
  return r.ec == std::errc() && r.ptr == e && std::isfinite(*x);
}

class Parser {
public:
  Parser(std::string_view text, const std::string &path) : text_(text), path_(path) {}

  MaterialParameters Parse();

private:
  [[noreturn]] void Fail(int line, const std::string &what) const {
    throw FormatError{"parameter file '" + path_ + "'" + (line > 0 ? " line " + std::to_string(line) : "") + ": " +
                      what};
  }
  // What the header keys decide: which numbers are expected.
  struct Form {
    std::string model, form;
    bool with_d = false, vogl = false, with_so = false;
  };
  void ReadEntries();
  Form CheckHeader();
  void CheckKeys(const Form &f);
  void CheckKeating();
  template <size_t N>
  void CheckStrainGroup(const Form &f, const StrainKey (&group)[N], const char *prefix);
  void SpinOrbit(const Form &f, double lambda[2]);
  MaterialParameters Build(const Form &f, const double lambda[2]);
  void CheckChoice(const std::string &key, const std::vector<std::string> &allowed) const {
    const Entry &e = entries_.at(key);
    if (!Contains(allowed, e.text))
      Fail(e.line, key + " '" + Quote(e.text) + "' is not allowed (allowed: " + Join(allowed) + ")");
  }
  double Number(const std::string &k) const { return entries_.count(k) ? entries_.at(k).number : 0.0; }

  std::string_view text_;
  std::string path_;
  Entries entries_;
};

// Every "key = value" line, checking syntax, known keys, duplicates and numbers in file order.
void Parser::ReadEntries() {
  int line = 1;
  for (size_t pos = 0; pos < text_.size(); ++line) {
    const size_t end = std::min(text_.find('\n', pos), text_.size());
    const std::string_view raw = text_.substr(pos, end - pos);
    pos = end + 1;
    const std::string content = Trim(raw.substr(0, raw.find('#')));
    if (content.empty()) continue;
    if (HasControlCharacter(content))
      Fail(line, "a control character (binary data?) in '" + Quote(content) + "': a parameter file is plain text");
    const auto eq = content.find('=');
    const std::string key = eq == std::string::npos ? "" : Trim(std::string_view(content).substr(0, eq));
    if (eq == std::string::npos || !IsIdentifier(key))
      Fail(line, "expected 'key = value' (or a '#' comment), got '" + Quote(content) + "'");
    const std::string value = Trim(std::string_view(content).substr(eq + 1));
    if (!IsTextKey(key) && !IsNumericKey(key)) Fail(line, "unknown key '" + Quote(key) + "'");
    const auto prev = entries_.find(key);
    if (prev != entries_.end())
      Fail(line, "duplicate key '" + key + "' (first given on line " + std::to_string(prev->second.line) + ")");
    if (value.empty()) Fail(line, "empty value for key '" + key + "'");
    Entry entry;
    entry.text = value;
    entry.line = line;
    if (!IsTextKey(key) && !ParseNumber(value, &entry.number))
      Fail(line, "'" + Quote(value) + "' is not a number for key '" + key + "'");
    entries_[key] = entry;
  }
}

// The header: the keys that decide which numbers are expected.
Parser::Form Parser::CheckHeader() {
  for (const auto &k : kRequiredText)
    if (!entries_.count(k)) Fail(0, "missing key '" + k + "'");
  CheckChoice("model", {"sp3sstar", "sp3d5sstar"});
  CheckChoice("spin_orbit", {"yes", "no"});
  CheckChoice("energy_scale", {"absolute", "vbm_zero"});
  CheckChoice("form", {"vogl", "two_centre"});
  Form f;
  f.model = entries_["model"].text, f.form = entries_["form"].text;
  f.with_d = f.model == "sp3d5sstar", f.vogl = f.form == "vogl", f.with_so = entries_["spin_orbit"].text == "yes";
  if (f.vogl && f.with_d)
    Fail(entries_["form"].line, "form vogl needs model sp3sstar (Vogl sums exist only for sp3s*; use form two_centre)");
  return f;
}

// Numeric keys the model/form needs, and no other; spin-orbit keys are handled per atom (SpinOrbit).
void Parser::CheckKeys(const Form &f) {
  std::vector<std::string> required = {"a_lattice"};
  required.insert(required.end(), kOnsiteKeys.begin(), kOnsiteKeys.end());
  if (f.with_d) required.insert(required.end(), kOnsiteDKeys.begin(), kOnsiteDKeys.end());
  if (f.vogl) required.insert(required.end(), kVoglKeys.begin(), kVoglKeys.end());
  else
    for (const auto &t : kTwoCentreKeys)
      if (f.with_d || !t.needs_d) required.push_back(t.name);
  std::vector<std::pair<int, std::string>> by_line; // report the first offending key in file order
  for (const auto &[key, e] : entries_) by_line.emplace_back(e.line, key);
  std::sort(by_line.begin(), by_line.end());
  for (const auto &[line, key] : by_line) {
    if (IsTextKey(key) || Contains(required, key) || Contains(kKeatingKeys, key)) continue;
    if (const StrainKey *g = FindStrainKey(key)) {
      if (g->needs_d && !f.with_d)
        Fail(line, "key '" + key + "' is not allowed for model " + f.model + " (no d orbitals)");
      continue;
    }
    if (!IsSpinOrbitKey(key)) Fail(line, "key '" + key + "' is not allowed for model " + f.model + ", form " + f.form);
    if (!f.with_so) Fail(line, "key '" + key + "' is not allowed with spin_orbit = no");
  }
  for (const auto &k : required)
    if (!entries_.count(k)) Fail(0, "missing key '" + k + "' (model " + f.model + ", form " + f.form + ")");
  if (!(entries_["a_lattice"].number > 0))
    Fail(entries_["a_lattice"].line,
         "a_lattice must be positive (Angstrom), got '" + Quote(entries_["a_lattice"].text) + "'");
  CheckKeating();
  CheckStrainGroup(f, kExponentKeys, "eta_");
  CheckStrainGroup(f, kOnsiteStrainKeys, "onsite_");
}

// A group of strain keys comes whole or not at all (a missing exponent would silently leave an integral unstrained).
template <size_t N>
void Parser::CheckStrainGroup(const Form &f, const StrainKey (&group)[N], const char *prefix) {
  const StrainKey *given = nullptr, *missing = nullptr;
  for (const auto &g : group) {
    if (g.needs_d && !f.with_d) continue;
    (entries_.count(g.name) ? given : missing) = &g;
  }
  if (given && missing)
    Fail(entries_[given->name].line, std::string("key '") + given->name + "' needs every " + prefix +
                                         "* key of its group; '" + missing->name + "' is missing");
  if (std::string(prefix) == "onsite_" && given && !entries_.count("eta_ss_sigma"))
    Fail(entries_[given->name].line, "the onsite_* keys of strained tight binding need the eta_* keys too");
}

// The Keating constants are optional, but come as a pair of positive numbers (a negative alpha has no minimum).
void Parser::CheckKeating() {
  const bool alpha = entries_.count("keating_alpha"), beta = entries_.count("keating_beta");
  if (alpha != beta)
    Fail(entries_[alpha ? "keating_alpha" : "keating_beta"].line,
         std::string("key '") + (alpha ? "keating_alpha" : "keating_beta") + "' needs '" +
             (alpha ? "keating_beta" : "keating_alpha") + "' too");
  for (const auto &k : kKeatingKeys)
    if (entries_.count(k) && !(entries_[k].number > 0))
      Fail(entries_[k].line, k + " must be positive (N/m), got '" + Quote(entries_[k].text) + "'");
}

// Spin-orbit: per atom exactly one of lambda (= Delta/3) or the full splitting Delta.
void Parser::SpinOrbit(const Form &f, double lambda[2]) {
  lambda[0] = lambda[1] = 0;
  if (!f.with_so) return;
  const char *side[2] = {"a", "c"};
  for (int i = 0; i < 2; ++i) {
    const std::string lk = std::string("lambda_so_") + side[i], dk = std::string("Delta_so_") + side[i];
    const bool hl = entries_.count(lk), hd = entries_.count(dk);
    if (!hl && !hd) Fail(0, "missing key '" + lk + "' or '" + dk + "' (spin_orbit = yes)");
    if (hl && hd)
      Fail(std::max(entries_[lk].line, entries_[dk].line), "give only one of '" + lk + "' and '" + dk + "'");
    lambda[i] = hl ? entries_[lk].number : entries_[dk].number / 3.0;
  }
}

MaterialParameters Parser::Build(const Form &f, const double lambda[2]) {
  MaterialParameters p;
  p.set = entries_["set"].text;
  p.material = entries_["material"].text;
  p.anion = entries_["anion"].text;
  p.cation = entries_["cation"].text;
  p.model = f.with_d ? BasisModel::sp3d5sstar : BasisModel::sp3sstar;
  p.has_spin_orbit = f.with_so;
  p.energy_scale = entries_["energy_scale"].text == "absolute" ? EnergyScale::absolute : EnergyScale::vbm_zero;
  p.a_lattice = Number("a_lattice");
  p.anion_onsite = {Number("Es_a"), Number("Ep_a"), Number("Ed_a"), Number("Esstar_a"), lambda[0]};
  p.cation_onsite = {Number("Es_c"), Number("Ep_c"), Number("Ed_c"), Number("Esstar_c"), lambda[1]};
  if (f.vogl) {
    // Vogl's tabulated sums over the four bonds at k = 0 (each direction cosine +-1/sqrt3) -> two-centre integrals.
    const double q = std::sqrt(3.0) / 4.0;
    p.bond.ss_sigma = Number("Vss") / 4.0;
    p.bond.pp_sigma = (Number("Vxx") + 2.0 * Number("Vxy")) / 4.0;
    p.bond.pp_pi = (Number("Vxx") - Number("Vxy")) / 4.0;
    p.bond.s_a_p_c_sigma = q * Number("Vsa_pc");
    p.bond.s_c_p_a_sigma = q * Number("Vsc_pa");
    p.bond.sstar_a_p_c_sigma = q * Number("Vsstara_pc");
    p.bond.sstar_c_p_a_sigma = q * Number("Vpa_sstarc");
  } else {
    for (const auto &t : kTwoCentreKeys) p.bond.*t.member = Number(t.name);
  }
  p.keating = {Number("keating_alpha"), Number("keating_beta")};
  p.keating_citation = entries_.count("keating_citation") ? entries_["keating_citation"].text : "";
  if (entries_.count("eta_ss_sigma")) {
    p.strained.given = true;
    for (auto &g : kExponentKeys) *g.slot(p.strained) = Number(g.name);
    p.strained.has_onsite = entries_.count("onsite_scale") > 0;
    for (auto &g : kOnsiteStrainKeys) *g.slot(p.strained) = Number(g.name);
    p.strained.citation = entries_.count("strain_tb_citation") ? entries_["strain_tb_citation"].text : "";
  }
  p.citation = entries_.count("citation") ? entries_["citation"].text : "";
  p.status = entries_.count("status") ? entries_["status"].text : "";
  p.source = path_;
  return p;
}

MaterialParameters Parser::Parse() {
  ReadEntries();
  if (entries_.empty()) Fail(0, "no 'key = value' line (an empty file?)");
  const Form f = CheckHeader();
  CheckKeys(f);
  double lambda[2];
  SpinOrbit(f, lambda);
  return Build(f, lambda);
}

} // namespace

bool ParseParameterText(std::string_view text, const std::string &path, MaterialParameters *out, std::string *error) {
  try {
    *out = Parser(text, path).Parse();
    return true;
  } catch (const FormatError &e) {
    *error = e.message;
    return false;
  }
}

} // namespace tbpeta
