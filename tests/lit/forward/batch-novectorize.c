// With the loop vectorizer off (-fno-vectorize, the flags of Enzyme's
// benchmarks; also -O1), a batched tangent's lanes are one <4 x double>
// vector in loops too: the dot product's four tangent sums are one vector
// phi and one multiply-add of 4 doubles per element (with AVX2, vfmadd231pd on
// ymm registers), where they were four scalar sums (vfmadd231sd on xmm)
// that nothing vectorized. (With the vectorizer on, the lanes stay scalars
// in the loops it takes: batch-lanes.ll.) The numbers are checked at -O1, at -O2 without the vectorizers,
// and at -O3.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc -O2 -fno-vectorize -fno-slp-vectorize -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// RUN: %adcc --target=x86_64-unknown-linux-gnu -O2 -fno-vectorize -fno-slp-vectorize -mavx2 -mfma -S %s -o - | FileCheck %s --check-prefix=AVX2
// RUN: %adcc -O1 %s -o %t/o1 && %t/o1 | FileCheck %s
// RUN: %adcc -O2 -fno-vectorize -fno-slp-vectorize %s -o %t/o2 && %t/o2 | FileCheck %s
// RUN: %adcc -O3 %s -o %t/o3 && %t/o3 | FileCheck %s
//
// IR-LABEL: define {{.*}} @dot_w4(
// IR: [[SUM:%[0-9]+]] = phi <4 x double> [ zeroinitializer, %{{[0-9]+}} ], [ [[NEXT:%[0-9]+]], %{{[0-9]+}} ]
// IR: [[NEXT]] = {{.*}}call {{.*}}<4 x double> @llvm.fmuladd.v4f64(<4 x double> {{.*}}, <4 x double> {{.*}}, <4 x double> [[SUM]])
// AVX2-LABEL: dot_w4:
// AVX2-NOT: vfmadd{{[0-9]+}}sd
// AVX2: vfmadd{{[0-9]+}}pd {{.*}}%ymm
// AVX2-NOT: vfmadd{{[0-9]+}}sd
// AVX2: .cfi_endproc
// CHECK: lane 0 ok
// CHECK: lane 1 ok
// CHECK: lane 2 ok
// CHECK: lane 3 ok

int printf(const char *, ...);
typedef struct {
  double d[4];
} vec4;
extern int enzyme_width, enzyme_dup, enzyme_const;
vec4 __enzyme_fwddiff(void *, ...);

static double dot(const double *x, const double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * y[i];
  return s;
}

__attribute__((noinline)) vec4 dot_w4(const double *x, const double *dx0,
                                      const double *dx1, const double *dx2,
                                      const double *dx3, const double *y,
                                      int n) {
  return __enzyme_fwddiff((void *)dot, enzyme_width, 4, enzyme_dup, x, dx0,
                          dx1, dx2, dx3, enzyme_const, y, enzyme_const, n);
}

int main(void) {
  // Direction k: (k + 1) on the elements i = k mod 4, so that each lane's
  // sum is its own: d dot = sum over those i of (k + 1) y[i].
  enum { N = 37 };
  double x[N], y[N], e[4][N];
  for (int i = 0; i < N; i++) {
    x[i] = 0.5 + i;
    y[i] = 1.0 / (1 + i);
    for (int k = 0; k < 4; k++)
      e[k][i] = (i % 4 == k) ? 1.0 + k : 0.0;
  }
  vec4 t = dot_w4(x, e[0], e[1], e[2], e[3], y, N);
  for (int k = 0; k < 4; k++) {
    double want = 0;
    for (int i = k; i < N; i += 4)
      want += (1.0 + k) * y[i];
    double err = t.d[k] - want;
    printf("lane %d %s (%.17g, want %.17g)\n", k,
           err < 1e-13 && err > -1e-13 ? "ok" : "WRONG", t.d[k], want);
  }
  return 0;
}
