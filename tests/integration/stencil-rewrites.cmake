# Random stencil kernels differentiated with and without the rewrites of
# their reverse loops must give the same gradients (stencil-rewrites.sh,
# tools/stencilfuzz/gen.py; docs/testing.md).
adcc_script_test(stencil-rewrites stencil-rewrites.sh)
set_tests_properties(stencil-rewrites PROPERTIES
  TIMEOUT 300
  LABELS "differential")
