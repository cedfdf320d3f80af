// -E, -S, -emit-llvm, -c and -o produce what clang produces; -D, -U, -I,
// -std= apply.
// RUN: rm -rf %t && mkdir -p %t/inc && echo '#define FROM_INC 7' > %t/inc/extra.h
// RUN: %adcc -E -DSCALE=3 -DUNDEFME -UUNDEFME -I%t/inc -std=c11 %s | FileCheck %s --check-prefix=PP
// RUN: %adcc -S -O2 -DSCALE=3 -I%t/inc %s -o %t/out.s && FileCheck %s --check-prefix=ASM < %t/out.s
// RUN: %adcc -S -emit-llvm -O1 -DSCALE=3 -I%t/inc %s -o %t/out.ll && FileCheck %s --check-prefix=IR < %t/out.ll
// RUN: %adcc -c -emit-llvm -DSCALE=3 -I%t/inc %s -o %t/out.bc && llvm-dis %t/out.bc -o - | FileCheck %s --check-prefix=IR
// RUN: %adcc -c -DSCALE=3 -I%t/inc %s -o %t/out.o && llvm-readelf -h %t/out.o | FileCheck %s --check-prefix=OBJ
#include "extra.h"

#ifdef UNDEFME
#error "-U must undefine what -D defined before it"
#endif

// PP: double scaled(double x) { return x * 3 * 7 + 201112L; }
double scaled(double x) { return x * SCALE * FROM_INC + __STDC_VERSION__; }

// ASM: scaled:
// IR: define {{.*}}double @scaled(double
// OBJ: Machine: Advanced Micro Devices X86-64
