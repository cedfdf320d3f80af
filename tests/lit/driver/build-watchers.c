// Under a build watcher (Bear 3: INTERCEPT_REPORT_DESTINATION; intercept-build
// and Bear 2: INTERCEPT_BUILD_TARGET_DIR), adcc runs itself again as
// adcc-clang, adcc++ as adcc-clang++, names those tools recognize as
// compilers; the compile is the same. Without one, adcc runs as itself.
// RUN: rm -rf %t && mkdir -p %t
// RUN: env INTERCEPT_REPORT_DESTINATION=x not %adcc -c %t/missing.c 2>&1 | FileCheck %s --check-prefix=C
// RUN: env INTERCEPT_BUILD_TARGET_DIR=%t not %adcc++ -c %t/missing.cpp 2>&1 | FileCheck %s --check-prefix=CXX
// RUN: not %adcc -c %t/missing.c 2>&1 | FileCheck %s --check-prefix=PLAIN
// RUN: env INTERCEPT_REPORT_DESTINATION=x %adcc -O2 %s -o %t/watched
// RUN: %adcc -O2 %s -o %t/plain
// RUN: %t/watched | FileCheck %s --check-prefix=OUT
// RUN: %t/plain | FileCheck %s --check-prefix=OUT
// C: adcc-clang: error: no such file or directory
// CXX: adcc-clang++: error: no such file or directory
// PLAIN: {{^}}adcc: error: no such file or directory
// OUT: 0.75
#include <stdio.h>

int main(void) {
  printf("%.2f\n", 3.0 / 4.0);
  return 0;
}
