// A dense view (__enzyme_todense) that adcc cannot turn into calls of its
// load and store functions is an error at the place it goes, naming it:
// callbacks of the wrong type, a view kept in memory or passed to a
// function without a body, a view recorded on a reverse sweep's tape (its
// pointer variables' shadows at -O0; shadow records in forward mode over
// reverse mode, a sparse Hessian, at every level).
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,O0
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
  // CHECK-DAG: dense-views.c:[[@LINE+1]]:15: error: the dense view made by '__enzyme_todense' is stored into memory here, where adcc cannot follow it to turn its accesses into calls of 'load8' and 'store8'{{$}}
  global_view = __enzyme_todense((void *)load8, (void *)store8);
}

double *not_a_function(void *p) {
  // CHECK-DAG: dense-views.c:[[@LINE+1]]:10: error: the dense view made by '__enzyme_todense' needs a function as argument 1 (the load function)
  return __enzyme_todense(p, (void *)store8);
}

static double sum(const double *x) { return x[0] * x[1]; }
void reverse_at_o0(double *x) {
  // (adcc's record has no location: the view's is the place.)
  // O0-DAG: dense-views.c:[[@LINE+1]]:16: error: the dense view made by '__enzyme_todense' is stored into memory here (a reverse-mode derivative records it on its tape: the shadows of the pointer variables at -O0, the shadow records of forward mode over reverse mode), where adcc cannot follow it to turn its accesses into calls of 'load8' and 'store8'; pass the view to __enzyme_fwddiff of a function without reverse-mode requests, or to __enzyme_autodiff at -O1 or above
  double *dx = __enzyme_todense((void *)load8, (void *)store8);
  __enzyme_autodiff((void *)sum, enzyme_dup, x, dx);
}

// A sparse Hessian, forward mode over a gradient: the shadow of the
// gradient is recorded (at -O2 the place is the inlined sweep's).
void __enzyme_fwddiff(void *, ...);
static double quartic(const double *x) { return x[0] * x[0] * x[0] * x[1]; }
static void gradient(const double *x, double *g) {
  __enzyme_autodiff((void *)quartic, enzyme_dup, x, g);
}
void hessian_column(double *x, double *g, double *dx) {
  double *dg = __enzyme_todense((void *)load8, (void *)store8);
  // CHECK-DAG: error: the dense view made by '__enzyme_todense' is stored into memory here (a reverse-mode derivative records it on its tape
  __enzyme_fwddiff((void *)gradient, enzyme_dup, x, dx, enzyme_dup, g, dg);
}
