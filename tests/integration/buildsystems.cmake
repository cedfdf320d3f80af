# Build-system integration: adcc as a drop-in compiler for Make, CMake and
# ccache, an installed adcc that works without the build tree, and objects
# that do not depend on the build directory. Each test
# is a script of its own (see the header comment of each for what it checks);
# buildsys-common.sh holds their shared helpers. Included by
# tests/integration/CMakeLists.txt, which defines adcc_script_test().
adcc_script_test(make-example make-example.sh)
adcc_script_test(cmake-example cmake-example.sh)
adcc_script_test(ccache ccache.sh)
adcc_script_test(install install.sh)
adcc_script_test(cmake-binutils cmake-binutils.sh)
adcc_script_test(compiler-detection compiler-detection.sh)
adcc_script_test(meson meson.sh)
adcc_script_test(bear bear.sh)
adcc_script_test(autoconf autoconf.sh)
adcc_script_test(reproducible reproducible.sh)

set(ADCC_BUILDSYSTEM_TESTS
  make-example
  cmake-example
  ccache
  install
  cmake-binutils
  compiler-detection
  meson
  bear
  autoconf
  reproducible)
# The scripts run builds of their own (make -j8, several CMake configures),
# so each occupies two processors; each takes seconds to a minute.
set_tests_properties(${ADCC_BUILDSYSTEM_TESTS} PROPERTIES
  LABELS "integration;buildsystems"
  PROCESSORS 2
  TIMEOUT 300)
# Tests of a tool that may be missing exit with 77 when it is: ctest shows
# them as skipped, with the reason in the output.
set_tests_properties(meson bear autoconf PROPERTIES SKIP_RETURN_CODE 77)
# adcc under distcc: a private distccd on loopback compiles what adcc
# preprocessed here (distcc.sh; skipped where distcc is not installed).
adcc_script_test(distcc distcc.sh)
set_tests_properties(distcc PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120)
