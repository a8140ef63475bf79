
tbpeta_add_test(test_parameters RANKS 1 2)
tbpeta_add_test(test_slater_koster RANKS 1)
# test_slater_koster calls LAPACK (zheev) directly; PETSc's pkg-config file does not list it.
find_package(LAPACK REQUIRED)
target_link_libraries(test_slater_koster PRIVATE LAPACK::LAPACK)
tbpeta_add_test(test_structure RANKS 1 2 3)
tbpeta_add_test(test_hamiltonian RANKS 1 2 3)
