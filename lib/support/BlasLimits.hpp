#pragma once
// What the BLAS loaded at run time cannot do. OpenBLAS 0.3.21 (Debian 12) picks its kernels by the CPU it detects; on
// a CPU it does not know it falls back to the Prescott kernels, whose zgemv "N" (y += A x, the projection of SLEPc's
// basis orthogonalisation, BVMultVec) copies y into a work buffer of 128 MiB and writes past it from 2^23 local rows
// on: a SEGV. Measured here with OPENBLAS_CORETYPE for each core: Prescott, Atom, Opteron, Bulldozer, Piledriver,
// Steamroller and Excavator overrun; Core2 ... SkylakeX, Zen and Barcelona do not.
#include <petscsys.h>

#include <string>

namespace tbpeta {

// The name of the BLAS kernels in use ("prescott", "haswell", ...) or "" when the BLAS is not OpenBLAS.
std::string BlasKernelName();

// The largest number of rows per rank for which the BLAS's zgemv "N" is safe (PETSC_MAX_INT: no limit known).
PetscInt BlasGemvRowLimit();

} // namespace tbpeta
