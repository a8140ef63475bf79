# Sourced by the ci/ scripts: OpenMPI refuses to run as root (CI runs as root) and to oversubscribe 2 cores with
# 3 test ranks unless told to.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# One BLAS thread per MPI rank.
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
