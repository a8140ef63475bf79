
tbpeta_add_test(test_parameters RANKS 1 2)
tbpeta_add_test(test_slater_koster RANKS 1)
tbpeta_add_test(test_structure RANKS 1 2 3)
tbpeta_add_test(test_hamiltonian RANKS 1 2 3)
tbpeta_add_test(test_app NOMPI RANKS 1 TIMEOUT 600)
tbpeta_add_test(test_results_writer RANKS 1 2 3)
tbpeta_add_test(test_bands RANKS 1)
tbpeta_add_test(test_folded RANKS 1 2 3)
