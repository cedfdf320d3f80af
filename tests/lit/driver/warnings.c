// -W options apply to the driver's own diagnostics as they do in clang.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc -c %s -L%t -o %t/a.o 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: not %adcc -Werror -c %s -L%t -o %t/a.o 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: %adcc -Wno-unused-command-line-argument -c %s -L%t -o %t/a.o 2>&1 | count 0
// WARN: warning: argument unused during compilation: '-L
// ERR: error: argument unused during compilation: '-L
int w(void) { return 0; }
