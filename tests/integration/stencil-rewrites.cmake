# Random stencil kernels differentiated with and without the rewrites of
# their reverse loops must give the same gradients (stencil-rewrites.sh,
# tools/stencilfuzz/gen.py; docs/testing.md). CI runs 7 of the script's 18
# seeds: 2-D kernels (4, 12 and 36; 12's loop runs in rows, as does 129's)
# and 1-D ones (7, 11, 21); the other 11 are in the extended suite
# (stencil-rewrites-more, scripts/all-levels.sh).
adcc_script_test(stencil-rewrites stencil-rewrites.sh 4 7 11 12 21 36 129)
set_tests_properties(stencil-rewrites PROPERTIES
  TIMEOUT 300
  LABELS "differential")
adcc_extended_test(stencil-rewrites-more "${CMAKE_CURRENT_BINARY_DIR}"
  "ADCC=${ADCC_EXE};ADCC_SOURCE_DIR=${PROJECT_SOURCE_DIR}"
  bash "${CMAKE_CURRENT_SOURCE_DIR}/stencil-rewrites.sh"
  15 16 20 23 25 26 27 32 40 180 329
  PROPERTIES TIMEOUT 600)
