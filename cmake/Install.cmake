# cmake --install build --prefix P: what an installed tbpeta holds (docs/install.md shows the tree).
#   P/bin                          tbpeta, tbpeta-bands, tbpeta-halo, tbpeta-model (RPATH $ORIGIN/../lib)
#   P/lib                          libtbpeta (shared by default), cmake/tbpeta/ (find_package), pkgconfig/tbpeta.pc
#   P/include/tbpeta/<layer>/      the library's headers, included as "model/TightBindingSystem.hpp"
#   P/share/tbpeta/params, fields  the parameter sets and field coefficients, found relative to the installed
#                                  library and programs (support/InstallLayout.cpp)
#   P/share/tbpeta/scripts         the plot scripts of app/ (with results_file.py, which they import)
# The benchmarks and tests stay in the build tree.
include(CMakePackageConfigHelpers)
set(TBPETA_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/tbpeta)

install(TARGETS tbpeta_lib EXPORT tbpetaTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS tbpeta tbpeta-bands tbpeta-halo tbpeta-model RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# Directory names below keep their trailing slash: the contents of lib/, data/params and data/fields are installed.
install(DIRECTORY ${CMAKE_SOURCE_DIR}/lib/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tbpeta FILES_MATCHING PATTERN "*.hpp")
install(DIRECTORY ${CMAKE_SOURCE_DIR}/data/params ${CMAKE_SOURCE_DIR}/data/fields
  DESTINATION ${CMAKE_INSTALL_DATADIR}/tbpeta)
file(GLOB TBPETA_SCRIPTS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/app/*.py)
install(PROGRAMS ${TBPETA_SCRIPTS} DESTINATION ${CMAKE_INSTALL_DATADIR}/tbpeta/scripts)

# The CMake package: find_package(tbpeta) gives tbpeta::tbpeta with its headers and the libraries it links, found
# again by tbpetaConfig.cmake (PETSc and SLEPc through pkg-config, 64-bit-index ones when TBPETA_INDEX64 is on).
install(EXPORT tbpetaTargets NAMESPACE tbpeta:: DESTINATION ${TBPETA_CMAKE_DIR})
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/tbpetaConfig.cmake.in
  ${CMAKE_BINARY_DIR}/cmake/tbpetaConfig.cmake INSTALL_DESTINATION ${TBPETA_CMAKE_DIR} PATH_VARS CMAKE_INSTALL_DATADIR)
# Before 1.0 a minor version may change the interface.
write_basic_package_version_file(${CMAKE_BINARY_DIR}/cmake/tbpetaConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/cmake/tbpetaConfig.cmake ${CMAKE_BINARY_DIR}/cmake/tbpetaConfigVersion.cmake
  DESTINATION ${TBPETA_CMAKE_DIR})

# The pkg-config file, relative to its own place (${pcfiledir}) so that the installed tree can move. Libs has the
# RPATH of libtbpeta, so that `c++ main.cpp $(pkg-config --cflags --libs tbpeta)` runs as built, and MPI's libraries
# (a user's code calls MPI); Cflags has MPI's and HDF5's include directories (the public headers include mpi.h and
# hdf5.h), as this build found them. HDF5 and LAPACK are linked by a shared libtbpeta itself (Libs.private); a static
# one needs them on the line.
file(RELATIVE_PATH TBPETA_PC_PREFIX ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" TBPETA_PC_PREFIX "${TBPETA_PC_PREFIX}")
set(TBPETA_PC_CFLAGS "")
foreach(dir ${MPI_CXX_INCLUDE_DIRS} ${HDF5_C_INCLUDE_DIRS})
  string(APPEND TBPETA_PC_CFLAGS " -I${dir}")
endforeach()
foreach(def ${MPI_CXX_COMPILE_DEFINITIONS} ${HDF5_C_DEFINITIONS})
  string(APPEND TBPETA_PC_CFLAGS " -D${def}")
endforeach()
string(REPLACE ";" " " TBPETA_PC_MPI_OPTIONS "${MPI_CXX_COMPILE_OPTIONS}")
string(APPEND TBPETA_PC_CFLAGS " ${TBPETA_PC_MPI_OPTIONS}")
string(STRIP "${TBPETA_PC_CFLAGS}" TBPETA_PC_CFLAGS)
string(REPLACE ";" " " TBPETA_PC_LIBS "${MPI_CXX_LINK_FLAGS} ${MPI_CXX_LIBRARIES}")
string(REPLACE ";" " " TBPETA_PC_PRIVATE "${HDF5_C_LIBRARIES} ${LAPACK_LINKER_FLAGS} ${LAPACK_LIBRARIES}")
if(BUILD_SHARED_LIBS)
  set(TBPETA_PC_LIBS_PRIVATE "${TBPETA_PC_PRIVATE}")
else()
  string(APPEND TBPETA_PC_LIBS " ${TBPETA_PC_PRIVATE}")
  set(TBPETA_PC_LIBS_PRIVATE "")
endif()
string(STRIP "${TBPETA_PC_LIBS}" TBPETA_PC_LIBS)
string(STRIP "${TBPETA_PC_LIBS_PRIVATE}" TBPETA_PC_LIBS_PRIVATE)
configure_file(${CMAKE_SOURCE_DIR}/cmake/tbpeta.pc.in ${CMAKE_BINARY_DIR}/cmake/tbpeta.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/cmake/tbpeta.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
