#pragma once
// -output FILE.h5 of a run (io/ResultsFile): one bundle (RunResults) collects what the stages hand to it as they run,
// and WriteRunOutput writes it: the structure in canonical order, each stage's groups, tables and root attributes
// (support/ResultsPart.hpp: strain/, composition/, fields/, optics/, compare/, ...), the states (densities whenever the
// solver returned eigenvectors, the vectors themselves with -output_vectors) and the solver's record.
#include <slepceps.h>

#include <functional>
#include <string>
#include <variant>
#include <vector>

#include "model/TightBindingSystem.hpp"
#include "optics/BoundStates.hpp"
#include "solvers/EigenStates.hpp"
#include "support/ResultsPart.hpp"

namespace tbpeta {

struct RunOutputOptions {
  std::string path;           // -output (empty: none)
  bool write_vectors = false; // -output_vectors
};

// Reads -output and -output_vectors, and refuses a path that cannot be written (OutputPath). Collective.
PetscErrorCode RunOutputOptionsFromOptions(MPI_Comm comm, RunOutputOptions *opts);

// What a run writes, collected stage by stage: each stage adds its own part (one line where it runs), in the order
// of the file's groups. The bundle refers to the system and the states; they must outlive it.
class RunResults {
public:
  // sys: the run's system; its structure (built by the time the file is written) is the file's structure/ group.
  explicit RunResults(const TightBindingSystem &sys) : sys_(&sys) {}

  // A part made now (tables, attributes, small groups).
  void Add(ResultsPart part) { parts_.emplace_back(std::move(part)); }
  // A part made when the file is written, from objects that outlive the bundle: a stage that runs before the solve
  // adds its per-atom groups this way, so that their arrays are not held through the solve (nor made without -output).
  void Add(std::function<ResultsPart()> make) { parts_.emplace_back(std::move(make)); }
  // The run's states and the solver that holds their eigenvectors (nullptr: none): states/, solver/ and the root
  // attribute `solver`.
  void SetStates(const EigenStates &states, EPS eps) { states_ = &states, eps_ = eps; }
  // Whether each state is the dot's (states/dot_fraction, states/bound); it must outlive the bundle.
  void SetBinding(const StateBinding &binding) { binding_ = &binding; }
  const StateBinding *binding() const { return binding_; }

  const TightBindingSystem &system() const { return *sys_; }
  const EigenStates &states() const;
  EPS eps() const { return eps_; }
  // Every part in the order added, the later ones made now.
  std::vector<ResultsPart> MakeParts() const;

private:
  const TightBindingSystem *sys_;
  const EigenStates *states_ = nullptr;
  EPS eps_ = nullptr;
  const StateBinding *binding_ = nullptr;
  std::vector<std::variant<ResultsPart, std::function<ResultsPart()>>> parts_;
};

// Writes the bundle to opts.path (nothing without -output), with the root attributes program, parameter_set,
// energy_unit and options beside the stages'. Shown in -log_view as TbOutput. Collective.
PetscErrorCode WriteRunOutput(MPI_Comm comm, const RunOutputOptions &opts, const RunResults &results);

} // namespace tbpeta
