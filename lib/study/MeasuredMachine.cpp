#include "study/MeasuredMachine.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "support/CsvTable.hpp"

namespace tbpeta {

namespace {

// The table of a CSV file; *ok false when it cannot be read or parsed.
CsvTable ReadCsv(const std::string &path, bool *ok) {
  std::ifstream f(path);
  std::ostringstream text;
  std::string error;
  CsvTable t;
  text << f.rdbuf();
  *ok = f && CsvTable::Parse(text.str(), &t, &error);
  return t;
}

} // namespace

PetscErrorCode MeasuredMachineSetting(MPI_Comm comm, const std::string &dir, const std::string &variant,
                                      MachineSetting *m) {
  bool ping_ok, ops_ok;
  const std::string ping = dir + "/pingpong.csv", ops = dir + "/operators.csv";
  PetscFunctionBeginUser;
  const CsvTable p = ReadCsv(ping, &ping_ok), o = ReadCsv(ops, &ops_ok);
  PetscCheck(ping_ok && ops_ok, comm, PETSC_ERR_USER_INPUT,
             "-model_settings measured: no sweep results in %s (%s%s%s missing): run benchmarks/run-study first",
             dir.c_str(), ping_ok ? "" : "pingpong.csv", !ping_ok && !ops_ok ? ", " : "",
             ops_ok ? "" : "operators.csv");
  const int one_way = p.column("one_way_s"), bw = p.column("bandwidth_bytes_per_s");
  const int set = o.column("set"), ranks = o.column("ranks"), atoms = o.column("atoms"), var = o.column("variant"),
            seconds = o.column("seconds");
  PetscCheck(
      one_way >= 0 && bw >= 0, comm, PETSC_ERR_USER_INPUT,
      "-model_settings measured: %s lacks the columns one_way_s and bandwidth_bytes_per_s (bench_pingpong -bench_csv)",
      ping.c_str());
  PetscCheck(set >= 0 && ranks >= 0 && atoms >= 0 && var >= 0 && seconds >= 0, comm, PETSC_ERR_USER_INPUT,
             "-model_settings measured: %s lacks one of the columns set, ranks, atoms, variant, seconds "
             "(bench_operators -bench_csv)",
             ops.c_str());
  double latency = -1, bandwidth = -1, t_atom = -1, atoms_best = 0;
  for (size_t r = 0; r < p.rows(); ++r) {
    if (latency < 0) latency = std::atof(p.at(r, one_way).c_str());
    bandwidth = std::max(bandwidth, std::atof(p.at(r, bw).c_str()));
  }
  for (size_t r = 0; r < o.rows(); ++r) {
    if (o.at(r, set) != "nemo3d" || o.at(r, ranks) != "1" || o.at(r, var) != variant) continue;
    const double n = std::atof(o.at(r, atoms).c_str()), s = std::atof(o.at(r, seconds).c_str());
    if (n > atoms_best && s > 0) atoms_best = n, t_atom = s / n;
  }
  PetscCheck(latency > 0 && bandwidth > 0, comm, PETSC_ERR_USER_INPUT,
             "-model_settings measured: %s holds no ping-pong rows", ping.c_str());
  PetscCheck(t_atom > 0, comm, PETSC_ERR_USER_INPUT,
             "-model_settings measured: %s has no nemo3d row of %s on 1 rank (-model_measured_operator)", ops.c_str(),
             variant.c_str());
  *m = {"measured", t_atom, latency, bandwidth};
  PetscFunctionReturn(0);
}

} // namespace tbpeta
