// A dense view (__enzyme_todense) that adcc cannot turn into calls of its
// load and store functions is an error at the place it goes, naming it:
// callbacks of the wrong type, a view kept in memory or passed to a
// function without a body, a view that may or may not be the pointer a
// select gives, passed to a function without a body. (Views recorded on a
// reverse sweep's tape are followed: e2e sparse_hessian.c.)
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
double *__enzyme_todense(void *, void *, ...);
void __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

double load8(long offset) { return (double)offset; }
float load_float(long offset) { return (float)offset; }
void store8(double v, long offset) { (void)v, (void)offset; }
void keep(double *p);

double wrong_type(void) {
  double *v = __enzyme_todense((void *)load_float, (void *)store8);
  // CHECK-DAG: dense-views.c:[[@LINE+1]]:10: error: the dense view made by '__enzyme_todense' is accessed here, for which 'load_float' must have the type double (i64)
  return v[2];
}

void extra_argument(int k) {
  double *v = __enzyme_todense((void *)load8, (void *)store8, k);
  // CHECK-DAG: dense-views.c:[[@LINE+1]]:8: error: the dense view made by '__enzyme_todense' is accessed here, for which 'store8' must have the type void (double, i64, i32)
  v[1] = 2.0;
}

void unknown_callee(void) {
  double *v = __enzyme_todense((void *)load8, (void *)store8);
  // CHECK-DAG: dense-views.c:[[@LINE+1]]:3: error: the dense view made by '__enzyme_todense' reaches a call of a function without a body here
  keep(v + 1);
}

double *global_view;
void kept_in_memory(void) {
  // CHECK-DAG: dense-views.c:[[@LINE+1]]:15: error: the dense view made by '__enzyme_todense' is stored into memory here, where adcc cannot follow it to turn its accesses into calls of 'load8' and 'store8' (only the records of reverse-mode derivatives are followed)
  global_view = __enzyme_todense((void *)load8, (void *)store8);
}

double *not_a_function(void *p) {
  // CHECK-DAG: dense-views.c:[[@LINE+1]]:10: error: the dense view made by '__enzyme_todense' needs a function as argument 1 (the load function)
  return __enzyme_todense(p, (void *)store8);
}

// A view chosen by a select (or a phi) with another pointer is told apart
// at run time by its address; such a pointer passed to a function without
// a body cannot be.
void chosen(double *other, int c) {
  double *v = __enzyme_todense((void *)load8, (void *)store8);
  double *p = c ? v : other;
  p[0] = 1.0;
  // CHECK-DAG: dense-views.c:[[@LINE+1]]:3: error: the dense view made by '__enzyme_todense' is recorded on a tape, or chosen by a select or a phi, and a pointer that may be the view reaches a call of a function without a body here, where adcc cannot tell whether it is the view
  keep(p);
}
