#pragma once
// The options of an EPS as a user types them: "-" + its options prefix, so that a message names the option the user
// gave (-eps_target, -folded_eps_type, -lanczos_eps_nemo_seed in a comparison run).
#include <slepceps.h>

#include <string>

namespace tbpeta {

// "-" + the options prefix of eps ("-" without one). Not collective.
std::string OptionPrefix(EPS eps);

} // namespace tbpeta
