// -### prints the jobs without running them: compile jobs run adcc -cc1
// in-process; links get the tape runtime unless asked not to.
// RUN: %adcc -### %s -o prog 2>&1 | FileCheck %s --check-prefix=LINK
// RUN: %adcc++ -### %s -o prog 2>&1 | FileCheck %s --check-prefix=CXX
// RUN: %adcc -### -c %s 2>&1 | FileCheck %s --check-prefix=COMPILE
// RUN: %adcc -### -fno-adcc-runtime %s -o prog 2>&1 | FileCheck %s --check-prefix=NORT
// RUN: %adcc -### -nostdlib %s -o prog 2>&1 | FileCheck %s --check-prefix=NORT
// RUN: %adcc -### -fno-adcc-pass -fadcc-print-requests -c %s 2>&1 | FileCheck %s --check-prefix=FWD
// LINK: "{{.*}}adcc" "-cc1" "-triple" "x86_64
// LINK: "-resource-dir" "{{.*}}lib/clang/22"
// LINK: "{{.*}}ld"
// LINK-SAME: "{{.*}}.o" "{{.*}}lib/adcc/lib/libadcc_rt.a" "-lgcc"
// CXX: "-cc1"
// CXX: "{{.*}}libadcc_rt.a" "-lstdc++"
// COMPILE: "-cc1"
// COMPILE-NOT: libadcc_rt.a
// NORT: "-cc1"
// NORT-NOT: libadcc_rt.a
// FWD: "-cc1" {{.*}} "-fno-adcc-pass" "-fadcc-print-requests"
int main(void) { return 0; }
