# Differential test against clang-22 on a fixed set of csmith programs (see
# tests/integration/csmith-fixed.sh and docs/testing.md). Fails, rather than
# being skipped, when csmith is not installed.
adcc_script_test(csmith-fixed csmith-fixed.sh)
# The script compiles two seeds at a time; let ctest -j account for that.
set_tests_properties(csmith-fixed PROPERTIES
  PROCESSORS 2
  TIMEOUT 300
  LABELS "csmith;differential")
