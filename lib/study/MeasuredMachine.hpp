#pragma once
// The scaling model's "measured" setting from this machine's sweeps (benchmarks/run-study): tau and b from
// bench_pingpong's CSV (the smallest message's one-way time, the largest bandwidth), t_atom from bench_operators' CSV
// (the sp3d5s*+SO row of one operator variant on 1 rank with the most atoms: seconds per product / atoms). Both read
// by column name.
#include <petscsys.h>

#include <string>

#include "study/ScalingModel.hpp"

namespace tbpeta {

// dir/pingpong.csv and dir/operators.csv; one line naming the file or column when a sweep is missing. Collective
// (every rank reads the same small files).
PetscErrorCode MeasuredMachineSetting(MPI_Comm comm, const std::string &dir, const std::string &variant,
                                      MachineSetting *m);

} // namespace tbpeta
