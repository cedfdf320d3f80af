// -shared -fPIC -Wl, -L -l: a shared library and a program using it.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc -shared -fPIC -O2 %s -Wl,-soname,libscale.so -o %t/libscale.so
// RUN: llvm-readelf -d %t/libscale.so | FileCheck %s --check-prefix=SO
// RUN: echo 'double scale(double); int main(void){ return scale(2.0) != 6.0; }' > %t/main.c
// RUN: %adcc %t/main.c -L%t -lscale -Wl,-rpath,%t -o %t/prog && %t/prog
// SO: (SONAME) Library soname: [libscale.so]
double scale(double x) { return 3 * x; }
