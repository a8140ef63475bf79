# Sourced by the ci/ scripts: OpenMPI refuses to run as root (CI runs as root) and to oversubscribe 2 cores with
# 3 test ranks unless told to.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# A rank waiting for a message yields its core. OpenMPI does so by itself only when one job has more ranks than
# cores; ci/test.sh runs two 2-rank jobs side by side (and compiles beside ctest), where ranks that spin took a third
# more CPU (test_lanczos and test_block_hamiltonian on 2 ranks each, at once: 21 CPU-s spinning, 13 yielding).
export OMPI_MCA_mpi_yield_when_idle=1
# Start-up: the point-to-point layer ob1 over shared memory, without probing UCX and libfabric for a network this
# machine does not have, and a rank started without mpiexec (most test runs) without spawning a daemon: a tbpeta run
# of 8 atoms took 0.41 s alone and 0.44 s on 2 ranks, and takes 0.08 s and 0.21 s.
export OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader OMPI_MCA_ess_singleton_isolated=1
# One BLAS thread per MPI rank.
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
