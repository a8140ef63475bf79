// libFuzzer target for the parameter-file reader (ParseParameterText): any bytes in, either parameters that make
// sense or one printable error line out; never a crash, a hang, undefined behaviour or a leak (built with ASan and
// UBSan by ci/fuzz.sh). The corpus (tests/fuzz/corpus) holds the shipped files and broken variants of them.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "model/ParameterText.hpp"

namespace {
void Require(bool ok, const char *what, const std::string &detail) {
  if (ok) return;
  std::fprintf(stderr, "fuzz_parameter_text: invariant broken: %s: %s\n", what, detail.c_str());
  std::abort();
}

bool Finite(const tbpeta::OnSiteEnergies &e) {
  return std::isfinite(e.s) && std::isfinite(e.p) && std::isfinite(e.d) && std::isfinite(e.sstar) &&
         std::isfinite(e.lambda_so);
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string_view text(reinterpret_cast<const char *>(data), size);
  tbpeta::MaterialParameters p;
  std::string error;
  if (tbpeta::ParseParameterText(text, "fuzz.tbp", &p, &error)) {
    Require(error.empty(), "success with an error message", error);
    Require(p.a_lattice > 0 && std::isfinite(p.a_lattice), "a_lattice not positive and finite",
            std::to_string(p.a_lattice));
    Require(Finite(p.anion_onsite) && Finite(p.cation_onsite), "non-finite on-site energy", p.material);
    Require(!p.set.empty() && !p.material.empty() && !p.anion.empty() && !p.cation.empty(), "empty header value",
            p.material);
  } else {
    // One line, quoting at most a short printable excerpt of the input.
    Require(error.rfind("parameter file 'fuzz.tbp'", 0) == 0, "error does not name the file", error);
    Require(error.size() < 400, "error line too long", error.substr(0, 100));
    for (char c : error) Require((unsigned char)c >= 0x20 || c == '\t', "control character in the error", error);
  }
  return 0;
}
