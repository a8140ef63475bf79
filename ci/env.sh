# Sourced by the ci/ scripts: OpenMPI refuses to run as root (CI runs as root) and to oversubscribe 2 cores with
# 3 test ranks unless told to.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# A rank waiting for a message spins (OpenMPI yields by itself only when one job has more ranks than cores). Told to
# yield while ci/test.sh compiled beside ctest, 2-rank runs took 2 to 3 times as long: each wait handed the core to
# the compiler (docs/structures.md's examples: 16.8 s spinning, 44.5 s yielding; two pages side by side: 22 s
# spinning, 33 s yielding).
export OMPI_MCA_mpi_yield_when_idle=0
# One BLAS thread per MPI rank.
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
