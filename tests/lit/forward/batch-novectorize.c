// With the loop vectorizer off (-fno-vectorize, the flags of Enzyme's
// benchmarks; also -O1), a batched tangent's lanes are one <4 x double>
// vector in the loops it would have taken too, unless the loop carries a
// floating-point value across iterations. smooth's loop (no such value):
// its tangents are vector arithmetic on the 4 lanes (with AVX2,
// vfmadd231pd and vmulpd on ymm registers), where they were 4 scalar
// copies that nothing vectorized. dot's loop (a sum) keeps 4 scalar sums:
// one vector phi made the code generator split the sum into scalars and
// shuffle the phi's lanes in every iteration (slower than scalar lanes).
// (With the vectorizer on, the lanes stay scalars in the loops it takes:
// batch-lanes.ll.) The numbers are checked at -O1, at -O2 without the
// vectorizers, and at -O3.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc -O2 -fno-vectorize -fno-slp-vectorize -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// RUN: %adcc --target=x86_64-unknown-linux-gnu -O2 -fno-vectorize -fno-slp-vectorize -mavx2 -mfma -S %s -o - | FileCheck %s --check-prefix=AVX2
// RUN: %adcc -O1 %s -o %t/o1 && %t/o1 | FileCheck %s
// RUN: %adcc -O2 -fno-vectorize -fno-slp-vectorize %s -o %t/o2 && %t/o2 | FileCheck %s
// RUN: %adcc -O3 %s -o %t/o3 && %t/o3 | FileCheck %s
//
// IR-LABEL: define {{.*}} @smooth_w4(
// IR: [[I:%[0-9]+]] = phi i64
// IR: fmul <4 x double>
// IR: br i1 {{.*}}, !llvm.loop
// IR-LABEL: define {{.*}} @dot_w4(
// IR-NOT: phi <4 x double> [ zeroinitializer, %{{[0-9]+}} ], [ %{{[0-9]+}}, %{{[0-9]+}} ]
// IR: phi double
// IR: phi double
// IR: phi double
// IR: phi double
// IR: br i1 {{.*}}, !llvm.loop
// AVX2-LABEL: smooth_w4:
// AVX2: vfmadd{{[0-9]+}}pd {{.*}}%ymm
// AVX2: .cfi_endproc
// AVX2-LABEL: dot_w4:
// AVX2: vfmadd231sd
// AVX2: vfmadd231sd
// AVX2: vfmadd231sd
// AVX2: vfmadd231sd
// AVX2: .cfi_endproc
// CHECK: smooth lane 0 ok
// CHECK: smooth lane 1 ok
// CHECK: smooth lane 2 ok
// CHECK: smooth lane 3 ok
// CHECK: dot lane 0 ok
// CHECK: dot lane 1 ok
// CHECK: dot lane 2 ok
// CHECK: dot lane 3 ok

int printf(const char *, ...);
typedef struct {
  double d[4];
} vec4;
extern int enzyme_width, enzyme_dup, enzyme_dupnoneed, enzyme_const;
void __enzyme_fwddiff(void *, ...);
vec4 __enzyme_fwddiff_dot(void *, ...) __asm__("__enzyme_fwddiff");

static void smooth(const double *x, double *y, int n) {
  for (int i = 1; i + 1 < n; i++)
    y[i] = x[i] * (x[i - 1] + x[i + 1]) - 0.5 * x[i] * x[i];
}

__attribute__((noinline)) void smooth_w4(const double *x, double *const *dx,
                                         double *y, double *const *dy,
                                         int n) {
  __enzyme_fwddiff((void *)smooth, enzyme_width, 4, enzyme_dup, x, dx[0],
                   dx[1], dx[2], dx[3], enzyme_dupnoneed, y, dy[0], dy[1],
                   dy[2], dy[3], enzyme_const, n);
}

static double dot(const double *x, const double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * y[i];
  return s;
}

__attribute__((noinline)) vec4 dot_w4(const double *x, double *const *dx,
                                      const double *y, int n) {
  return __enzyme_fwddiff_dot((void *)dot, enzyme_width, 4, enzyme_dup, x,
                              dx[0], dx[1], dx[2], dx[3], enzyme_const, y,
                              enzyme_const, n);
}

static const char *verdict(double got, double want) {
  double err = got - want;
  return err < 1e-12 && err > -1e-12 ? "ok" : "WRONG";
}

int main(void) {
  // Direction k: (k + 1) on the elements i = k mod 4, so that each lane's
  // numbers are its own.
  enum { N = 37 };
  double x[N], y[N], e[4][N], ty[4][N];
  double *dx[4] = {e[0], e[1], e[2], e[3]}, *dy[4] = {ty[0], ty[1], ty[2],
                                                       ty[3]};
  for (int i = 0; i < N; i++) {
    x[i] = 0.5 + i;
    y[i] = 1.0 / (1 + i);
    for (int k = 0; k < 4; k++) {
      e[k][i] = (i % 4 == k) ? 1.0 + k : 0.0;
      ty[k][i] = 0;
    }
  }
  // d y[i] = (x[i-1] + x[i+1] - x[i]) dx[i] + x[i] (dx[i-1] + dx[i+1]).
  smooth_w4(x, dx, y, dy, N);
  for (int k = 0; k < 4; k++) {
    const char *worst = "ok";
    for (int i = 1; i + 1 < N; i++) {
      double want = (x[i - 1] + x[i + 1] - x[i]) * e[k][i] +
                    x[i] * (e[k][i - 1] + e[k][i + 1]);
      if (verdict(ty[k][i], want)[0] == 'W') {
        printf("smooth lane %d element %d: %.17g, want %.17g\n", k, i,
               ty[k][i], want);
        worst = "WRONG";
      }
    }
    printf("smooth lane %d %s\n", k, worst);
  }
  // d dot = sum over i = k mod 4 of (k + 1) y[i].
  vec4 t = dot_w4(x, dx, y, N);
  for (int k = 0; k < 4; k++) {
    double want = 0;
    for (int i = k; i < N; i += 4)
      want += (1.0 + k) * y[i];
    printf("dot lane %d %s (%.17g, want %.17g)\n", k, verdict(t.d[k], want),
           t.d[k], want);
  }
  return 0;
}
