
tbpeta_add_test(test_parameters RANKS 1 2)
tbpeta_add_test(test_slater_koster RANKS 1)
tbpeta_add_test(test_structure RANKS 1 2 3)
tbpeta_add_test(test_dot_shapes RANKS 1 2 3)
tbpeta_add_test(test_fields RANKS 1 2 3)
tbpeta_add_test(test_optics RANKS 1 2 3)
tbpeta_add_test(test_hamiltonian RANKS 1 2 3)
# The executables as a user runs them: many short jobs, mostly waiting for mpiexec; in two halves.
tbpeta_add_test(test_app NOMPI RANKS 1 TIMEOUT 600 SPLIT "App.BadInput*:App.Renamed*:App.Unreadable*:App.Help*:App.Lens*:App.Crash*")
tbpeta_add_test(test_results_writer RANKS 1 2 3)
tbpeta_add_test(test_bands RANKS 1)
tbpeta_add_test(test_folded RANKS 1 2 3)
# OpenBLAS's Prescott kernels, whatever the CPU: the ones whose zgemv overruns its buffer beyond 2^23 rows per rank
# (support/BlasLimits.hpp), which the eigenvector store must never call.
tbpeta_add_test(test_lanczos RANKS 1 2 3 ENV OPENBLAS_CORETYPE=Prescott)
tbpeta_add_test(test_allocation RANKS 1 2 3)
tbpeta_add_test(test_compare RANKS 1 2 3)
tbpeta_add_test(test_block_hamiltonian RANKS 1 2 3)
target_link_libraries(test_block_hamiltonian PRIVATE tbpeta_bench) # the roofline's counts (benchmarks/Roofline.hpp)
tbpeta_add_test(test_halo RANKS 1 2 3)
# Each family's recipe (docs/development.md), a new member added from its test file alone: one program.
tbpeta_add_test(test_register RANKS 1 2 3 SOURCES
  test_register_solver.cpp
  test_register_shape.cpp
  test_register_benchmark.cpp
  test_register_output_group.cpp
  test_register_onsite_term.cpp
  test_register_parameter_set.cpp
  test_register_operator.cpp
)
target_link_libraries(test_register PRIVATE tbpeta_bench) # the benchmarks' framework, for test_register_benchmark.cpp
tbpeta_add_test(test_strain RANKS 1 2 3)
tbpeta_add_test(test_strained_hamiltonian RANKS 1 2 3)

# Partitions with uneven and one-plane domains on 8 ranks (oversubscribed on a small machine).
tbpeta_add_test(test_many_ranks RANKS 8)

# The layers depend one way, no include circles, and long functions say why (tests/check_architecture.py).
find_package(Python3 COMPONENTS Interpreter REQUIRED)
add_test(NAME architecture COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/check_architecture.py ${CMAKE_SOURCE_DIR})
# The Spack recipe against the build: variants, their CMake options, dependencies (Python's parser, no Spack).
add_test(NAME packaging COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/check_packaging.py ${CMAKE_SOURCE_DIR})

# The docs: every option table against the programs' -help, and every example command of the README and docs/ run
# as a reader runs it (one test per page; the quick scaling study is docs/scaling-study.md's example).
add_test(NAME docs_options COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/check_docs.py ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR}/bin)
set_tests_properties(docs_options PROPERTIES ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1")
file(GLOB TBPETA_DOC_PAGES RELATIVE ${CMAKE_SOURCE_DIR} CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/README.md ${CMAKE_SOURCE_DIR}/docs/*.md)
foreach(page ${TBPETA_DOC_PAGES})
  get_filename_component(name ${page} NAME_WE)
  add_test(NAME docs_examples_${name} COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/run_doc_examples.py ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR}/bin ${page})
  set_tests_properties(docs_examples_${name} PROPERTIES TIMEOUT 600)
endforeach()

# ctest starts the costliest tests first, but a fresh clone (CI) has no timings of its own yet
# (Testing/Temporary/CTestCostData.txt): these, the longest (seconds of a CI run), would otherwise start last and end
# alone on one core while the other idles.
set_tests_properties(test_app_np1_b PROPERTIES COST 60)
set_tests_properties(test_app_np1_a PROPERTIES COST 50)
foreach(page benchmarks:46 structures:33 solvers:22 strained-hamiltonian:17 strain:12 README:9
        model-and-parameter-files:9 scaling-study:8 operators:6)
  string(REPLACE ":" ";" page_cost ${page})
  list(GET page_cost 0 name)
  list(GET page_cost 1 cost)
  set_tests_properties(docs_examples_${name} PROPERTIES COST ${cost})
endforeach()
