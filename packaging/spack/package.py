# Spack recipe for tbpeta (https://spack.io). From a checkout of this repository:
#   spack repo create ~/tbpeta-repo && cp -r packaging/spack ~/tbpeta-repo/packages/tbpeta && spack repo add ~/tbpeta-repo
#   spack dev-build -d . tbpeta@main            (this checkout; or spack install tbpeta@main once `git` below is set)
#   spack load tbpeta && tbpeta -version
# The build is the same CMake configuration that CI runs (ci/build.sh: Ninja, Release), with each variant one CMake
# option; tests/check_packaging.py (ctest `packaging`) checks this file against CMakeLists.txt without Spack.
from spack.package import *


class Tbpeta(CMakePackage):
    """Electronic states of multi-million-atom semiconductor nanostructures in empirical tight binding (sp3s*,
    sp3d5s*, spin-orbit), on PETSc, SLEPc and MPI, with HDF5 output."""

    homepage = "https://example.org/tbpeta"  # the project's page, once it is published
    git = "https://example.org/tbpeta.git"  # the project's repository, once it is published

    # Releases are added here as version("0.1.0", tag="v0.1.0") once they are tagged.
    version("main", branch="main")

    generator("ninja")

    variant(
        "build_type",
        default="Release",
        description="CMake build type (CI builds Release)",
        values=("Debug", "Release", "RelWithDebInfo"),
    )
    variant("int64", default=False, description="64-bit PetscInt for systems beyond 2^31 rows (TBPETA_INDEX64)")
    variant("native", default=True, description="Compile the product kernels with -march=native (TBPETA_NATIVE)")
    variant("shared", default=True, description="Build libtbpeta as a shared library (BUILD_SHARED_LIBS)")

    depends_on("cmake@3.18:", type="build")
    depends_on("ninja", type="build")
    depends_on("pkgconfig", type="build")
    depends_on("mpi")
    depends_on("lapack")
    depends_on("hdf5+mpi")
    depends_on("petsc@3.18:+complex+hdf5+mpi+mumps")
    depends_on("petsc~int64", when="~int64")
    depends_on("petsc+int64", when="+int64")
    depends_on("slepc@3.18:")
    depends_on("googletest", type="test")
    # The plot scripts installed in share/tbpeta/scripts.
    depends_on("python@3:", type="run")
    depends_on("py-numpy", type="run")
    depends_on("py-h5py", type="run")
    depends_on("py-matplotlib", type="run")

    def cmake_args(self):
        return [
            self.define_from_variant("TBPETA_INDEX64", "int64"),
            self.define_from_variant("TBPETA_NATIVE", "native"),
            self.define_from_variant("BUILD_SHARED_LIBS", "shared"),
            self.define("TBPETA_BUILD_TESTS", self.run_tests),
            # Spack's PETSc and SLEPc are PETSc.pc and SLEPc.pc whatever their indices (Debian's 64-bit ones are
            # PETSc64.pc and SLEPc64.pc, the names tbpeta asks for by default with TBPETA_INDEX64).
            self.define("TBPETA_PETSC_MODULE", "PETSc"),
            self.define("TBPETA_SLEPC_MODULE", "SLEPc"),
        ]

    @run_after("install")
    @on_package_attributes(run_tests=True)
    def check_install(self):
        with working_dir(self.build_directory):
            ctest("-R", "test_parameters|architecture|packaging", "--output-on-failure")
