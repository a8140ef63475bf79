
tbpeta_add_test(test_parameters RANKS 1 2)
tbpeta_add_test(test_slater_koster RANKS 1)
tbpeta_add_test(test_structure RANKS 1 2 3)
tbpeta_add_test(test_hamiltonian RANKS 1 2 3)
# The executables as a user runs them: many short jobs, mostly waiting for mpiexec; in two halves.
tbpeta_add_test(test_app NOMPI RANKS 1 TIMEOUT 600 SPLIT "App.BadInput*:App.Renamed*:App.Unreadable*:App.Help*")
tbpeta_add_test(test_results_writer RANKS 1 2 3)
tbpeta_add_test(test_bands RANKS 1)
tbpeta_add_test(test_folded RANKS 1 2 3)
tbpeta_add_test(test_lanczos RANKS 1 2 3)
tbpeta_add_test(test_allocation RANKS 1 2 3)
tbpeta_add_test(test_compare RANKS 1 2 3)
tbpeta_add_test(test_block_hamiltonian RANKS 1 2 3)
tbpeta_add_test(test_halo RANKS 1 2 3)
tbpeta_add_test(test_register_solver RANKS 1 2 3)

# The scaling study's quick variant end to end (sweeps, halo, model, plots, report), as a user runs it.
add_test(NAME study_quick COMMAND bash ${CMAKE_SOURCE_DIR}/benchmarks/run-study -quick -out ${CMAKE_BINARY_DIR}/study-quick ${CMAKE_BINARY_DIR})
set_tests_properties(study_quick PROPERTIES TIMEOUT 300 PROCESSORS 2 PASS_REGULAR_EXPRESSION "done: .*report.md"
  ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_rmaps_base_oversubscribe=1")
# Partitions with uneven and one-plane domains on 8 ranks (oversubscribed on a small machine).
tbpeta_add_test(test_many_ranks RANKS 8)

# The layers depend one way, no include circles, and long functions say why (tests/check_architecture.py).
find_package(Python3 COMPONENTS Interpreter REQUIRED)
add_test(NAME architecture COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/check_architecture.py ${CMAKE_SOURCE_DIR})
