// -ftime-trace writes clang's JSON time trace, as clang does: the passes,
// and inside the AD pass its phases and the passes it runs on the
// derivatives (it used to be ignored: the in-process cc1 never started the
// profiler).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %expect-exit 0 %adcc -O2 -c -ftime-trace -ftime-trace-granularity=0 %s -o %t/time-trace.o
// RUN: FileCheck %s < %t/time-trace.json
// RUN: %expect-exit 0 %adcc -O2 -c -ftime-trace=%t/named.json %s -o %t/named.o
// RUN: FileCheck %s --check-prefix=NAMED < %t/named.json
// CHECK-DAG: "name":"adcore::ADPass"
// CHECK-DAG: "name":"adcc: synthesize","args":{"detail":"sq"}
// CHECK-DAG: "name":"adcc: optimize derivatives"
// CHECK-DAG: "name":"SROAPass","args":{"detail":"diffe_sq"}
// NAMED: "traceEvents"
//
// A trace that cannot be written is an error, exit status 1.
// RUN: %expect-exit 1 %adcc -O2 -c -ftime-trace=%t/missing/dir/t.json %s -o %t/bad.o 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: cannot write the time trace '{{.*}}t.json': No such file or directory
extern int enzyme_dup;
double __enzyme_autodiff(void *, ...);
static double sq(const double *x) { return x[0] * x[0]; }
void grad(const double *x, double *dx) { __enzyme_autodiff((void *)sq, x, dx); }
