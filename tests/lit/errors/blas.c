// BLAS and LAPACK calls that adcc cannot differentiate are errors at their
// line naming the routine, in forward and reverse mode, at -O0 and -O2
// (docs/rules.md#blas): LAPACK factorizations, complex BLAS, BLAS routines
// without a rule, cuBLAS, batched and split forward derivatives of the
// routines with rules. The declarations are written here so that the test
// needs no BLAS installation.
// RUN: %expect-exit 1 %adcc -O0 -c -DLAPACK %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=LAPACK
// RUN: %expect-exit 1 %adcc -O2 -c -DLAPACK -DFORWARD %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=LAPACK
// RUN: %expect-exit 1 %adcc -O2 -c -DPOTRF %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=POTRF
// RUN: %expect-exit 1 %adcc -O0 -c -DCOMPLEX %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=COMPLEX
// RUN: %expect-exit 1 %adcc -O2 -c -DNORULE -DFORWARD %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NORULE
// RUN: %expect-exit 1 %adcc -O2 -c -DCUBLAS %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=CUBLAS
// RUN: %expect-exit 1 %adcc -O2 -c -DBATCH %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=BATCH
// RUN: %expect-exit 1 %adcc -O0 -c -DBATCH -DREVERSE_BATCH %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=BATCH
// RUN: %expect-exit 1 %adcc -O2 -c -DSPLIT %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=SPLIT
// RUN: %expect-exit 1 %adcc -O2 -c -DHESSIAN %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=HESSIAN
// RUN: %expect-exit 1 %adcc -O2 -c -DWRONGTYPE %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=WRONGTYPE
// The index of a maximum carries no derivative: fine.
// RUN: %adcc -O2 -c -DAMAX %s -o /dev/null
extern int enzyme_width, enzyme_dup;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
void __enzyme_autodiff_void(void *, ...);
typedef struct {
  double a[2];
} two;
two __enzyme_fwddiff2(void *, ...);
void *__enzyme_augmentfwd(void *, ...);

enum { ColMajor = 102, NoTrans = 111, Upper = 121, NonUnit = 131, Left = 141 };
void dgetrf_(const int *m, const int *n, double *a, const int *lda,
             int *ipiv, int *info);
void LAPACKE_dpotrf(int layout, char uplo, int n, double *a, int lda);
void cblas_zgemm(int, int, int, int, int, int, const void *, const void *,
                 int, const void *, int, const void *, void *, int);
void cblas_dtrsm(int, int, int, int, int, int, int, double,
                 const double *, int, double *, int);
int cublasDdot_v2(void *handle, int n, const double *x, int incx,
                  const double *y, int incy, double *result);
double cblas_ddot(int n, const double *x, int incx, const double *y,
                  int incy);
double cblas_snrm2(int n, const double *x, int incx); // (BLAS's: float)
int cblas_idamax(int n, const double *x, int incx);

double f(double *a) {
  double r = 0;
#ifdef LAPACK
  int n = 2, ipiv[2], info;
  // LAPACK: :[[@LINE+1]]:3: error: cannot differentiate 'f' in {{forward|reverse}} mode: 'dgetrf_' (LAPACK) has no derivative rule: adcc differentiates the BLAS routines dot, axpy, scal, copy, nrm2, asum, gemv, symv, trsv, ger, gemm and syrk
  dgetrf_(&n, &n, a, &n, ipiv, &info);
#endif
#ifdef POTRF
  // POTRF: :[[@LINE+1]]:3: error: {{.*}}'LAPACKE_dpotrf' (LAPACK) has no derivative rule
  LAPACKE_dpotrf(ColMajor, 'U', 2, a, 2);
#endif
#ifdef COMPLEX
  double c[4] = {0}, one[2] = {1, 0};
  // COMPLEX: :[[@LINE+1]]:3: error: {{.*}}'cblas_zgemm' (complex BLAS) has no derivative rule
  cblas_zgemm(ColMajor, NoTrans, NoTrans, 1, 1, 1, one, a, 1, a, 1, one, c, 1);
  r = c[0];
#endif
#ifdef NORULE
  double c[4] = {0};
  c[1] = a[1];
  // NORULE: :[[@LINE+1]]:3: error: cannot differentiate 'f' in forward mode: 'cblas_dtrsm' (BLAS) has no derivative rule
  cblas_dtrsm(ColMajor, Left, Upper, NoTrans, NonUnit, 2, 1, 1.0, a, 2, c, 2);
  r = c[0];
#endif
#ifdef CUBLAS
  // CUBLAS: :[[@LINE+1]]:3: error: {{.*}}'cublasDdot_v2' (cuBLAS) has no derivative rule
  cublasDdot_v2(0, 2, a, 1, a, 1, &r);
#endif
#if defined(BATCH) || defined(SPLIT) || defined(HESSIAN)
  // BATCH: :[[@LINE+2]]:7: error: {{.*}}batched derivatives (enzyme_width) of BLAS calls ('cblas_ddot') are not supported
  // SPLIT: :[[@LINE+1]]:7: error: {{.*}}split forward mode of BLAS calls ('cblas_ddot') is not supported
  r = cblas_ddot(2, a, 1, a, 1);
#endif
#ifdef WRONGTYPE
  // WRONGTYPE: :[[@LINE+1]]:7: error: {{.*}}'cblas_snrm2' is declared with a type other than CBLAS's
  r = cblas_snrm2(2, a, 1);
#endif
#ifdef AMAX
  r = a[cblas_idamax(2, a, 1)];
#endif
  return r * a[1];
}

#if defined(HESSIAN)
static void grad(double *a, double *d) { __enzyme_autodiff_void((void *)f, a, d); }
double g(double *a, double *d, double *v, double *hv) {
  // HESSIAN: :[[@LINE+3]]:10: error: cannot differentiate the derivative of 'f' in forward mode: second derivatives through BLAS calls (the derivative of 'cblas_ddot' differentiated again, as forward over reverse mode does) are not supported yet
  // HESSIAN-NOT: adcc.blas
  // HESSIAN-NOT: no object file
  return __enzyme_fwddiff((void *)grad, a, v, d, hv);
}
#elif defined(BATCH) && defined(REVERSE_BATCH)
void g(double *a, double *d1, double *d2) {
  __enzyme_autodiff_void((void *)f, enzyme_width, 2, a, d1, d2);
}
#elif defined(BATCH)
two g(double *a, double *d1, double *d2) {
  return __enzyme_fwddiff2((void *)f, enzyme_width, 2, a, d1, d2);
}
#elif defined(SPLIT)
double __enzyme_fwdsplit(void *, ...);
double g(double *a, double *d) {
  void *tape = __enzyme_augmentfwd((void *)f, a, d);
  return __enzyme_fwdsplit((void *)f, a, d, tape);
}
#elif defined(FORWARD)
double g(double *a, double *d) { return __enzyme_fwddiff((void *)f, a, d); }
#else
double g(double *a, double *d) { return __enzyme_autodiff((void *)f, a, d); }
#endif
