# Sourced by the ci/ scripts: OpenMPI refuses to run as root (CI runs as root) and to oversubscribe 2 cores with
# 3 test ranks unless told to.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# A rank waiting for a message yields its core. OpenMPI does so by itself only when one job has more ranks than
# cores; ci/test.sh runs two 2-rank jobs side by side (and compiles beside ctest), where ranks that spin took a third
# more CPU (test_lanczos and test_block_hamiltonian on 2 ranks each, at once: 21 CPU-s spinning, 13 yielding).
export OMPI_MCA_mpi_yield_when_idle=1
# One BLAS thread per MPI rank.
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
