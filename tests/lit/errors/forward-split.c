// Misuse of split forward mode (__enzyme_augmentfwd, then __enzyme_fwdsplit
// with its tape): errors at the call, never wrong tangents. (A tape of the
// wrong kind at run time: e2e fwd_split.c.)
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
extern int enzyme_dup, enzyme_const;
void *__enzyme_augmentfwd(void *, ...);
double __enzyme_fwdsplit(void *, ...);
void __enzyme_reverse(void *, ...);
typedef struct {
  double a, b, c;
} three;
three __enzyme_fwdsplit_three(void *, ...);

double sq(double x) { return x * x; }

double missing(double x) {
  // CHECK-DAG: forward-split.c:[[@LINE+1]]:10: error: too few arguments to __enzyme_fwdsplit for 'sq': missing the tape from __enzyme_augmentfwd
  return __enzyme_fwdsplit((void *)sq, x, 1.0);
}

double not_a_pointer(double x) {
  // CHECK-DAG: forward-split.c:[[@LINE+1]]:10: error: the tape given to __enzyme_fwdsplit must be the pointer that __enzyme_augmentfwd returned
  return __enzyme_fwdsplit((void *)sq, x, 1.0, 2.0);
}

three too_large(double x, void *tape) {
  // CHECK-DAG: forward-split.c:[[@LINE+1]]:10: error: __enzyme_fwdsplit is declared to return struct three, but the derivative of 'sq' returns double
  return __enzyme_fwdsplit_three((void *)sq, x, 1.0, tape);
}

// The two calls must describe the same sweeps.
double dot(const double *a, const double *b) { return a[0] * b[0]; }
double differ(double *a, double *da, double *b, double *db) {
  void *tape =
      __enzyme_augmentfwd((void *)dot, enzyme_dup, a, da, enzyme_const, b);
  // CHECK-DAG: forward-split.c:[[@LINE+1]]:10: error: __enzyme_fwdsplit of 'dot' reads records of 'dot:dd:1' (function:activities:width), but the __enzyme_augmentfwd calls of it in this file record 'dot:dc:1'
  return __enzyme_fwdsplit((void *)dot, enzyme_dup, a, da, enzyme_dup, b, db,
                           tape);
}

// One tape serves one of split reverse mode and split forward mode.
double cube(double x) { return x * x * x; }
double both(double x) {
  void *tape = __enzyme_augmentfwd((void *)cube, x);
  // CHECK-DAG: forward-split.c:[[@LINE+1]]:3: error: __enzyme_reverse of 'cube' in a file that also asks __enzyme_fwdsplit of it
  __enzyme_reverse((void *)cube, x, 1.0, tape);
  return __enzyme_fwdsplit((void *)cube, x, 1.0, tape);
}

// A registered split derivative whose augmented function returns no tape.
double k(double x) { return x; }
double k_aug(double x) { return x; }
double k_split(double x, double dx, void *tape) { return dx; }
void *__enzyme_register_splitderivative_k[] = {(void *)k, (void *)k_aug,
                                               (void *)k_split};
double uses_k(double x) {
  // CHECK-DAG: forward-split.c:[[@LINE+1]]:10: error: cannot differentiate 'uses_k' in forward mode: the augmented function 'k_aug' of a registered split derivative must take the function's parameters and return {void *tape, result} (the tape alone for a void function)
  return k(x) * 2;
}
double ruled(double x, void *tape) {
  return __enzyme_fwdsplit((void *)uses_k, x, 1.0, tape);
}

// A function of another file.
double elsewhere(double x);
double other_file(double x) {
  // CHECK-DAG: forward-split.c:[[@LINE+1]]:16: error: split forward mode needs the body of 'elsewhere' in this translation unit
  void *tape = __enzyme_augmentfwd((void *)elsewhere, x);
  // CHECK-DAG: forward-split.c:[[@LINE+1]]:10: error: split forward mode needs the body of 'elsewhere' in this translation unit
  return __enzyme_fwdsplit((void *)elsewhere, x, 1.0, tape);
}
