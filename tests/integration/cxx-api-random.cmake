# Random programs of <adcc.hpp> check gradient, forward, hvp and jacobian
# numerically at -O0 and -O2 (cxx-api-random.sh, tools/cxxapifuzz/gen.py;
# docs/testing.md).
adcc_script_test(cxx-api-random cxx-api-random.sh)
set_tests_properties(cxx-api-random PROPERTIES
  TIMEOUT 300
  LABELS "differential")
