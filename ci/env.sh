# Sourced by the ci/ scripts: OpenMPI refuses to run as root (CI runs as root) and to oversubscribe 2 cores with
# 3 test ranks unless told to.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# A rank waiting for a message spins, and yields its core only when its job has more ranks than cores (OpenMPI's
# default; setting mpi_yield_when_idle either way overrides it). Told to yield always, 2-rank runs beside the
# variants' compilation took 2 to 3 times as long, each wait handing the core to the compiler (docs/structures.md's
# examples: 44.5 s against 16.8 s); told never to, a 3-rank test on 2 cores took 29 s instead of 1.
unset OMPI_MCA_mpi_yield_when_idle
# One BLAS thread per MPI rank.
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
