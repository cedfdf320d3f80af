// A derivative of a function that no object file linked by adcc defines is
// an error of the link step, at the request's line; with
// -fno-adcc-cross-tu, a request of a function defined in another file is
// an error of the compile step. A request whose file declares the function
// with other parameters than its definition has is an error too.
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %adcc -O2 -c main.c -o main.o
// RUN: %expect-exit 1 %adcc main.o -o prog 2>&1 | FileCheck --check-prefix=LINK %s
// RUN: %expect-exit 1 %adcc -O2 -fno-adcc-cross-tu -c main.c -o /dev/null 2>&1 | FileCheck --check-prefix=COMPILE %s
// RUN: %adcc -O2 -c other.c -o other.o
// RUN: %expect-exit 1 %adcc main.o other.o -o prog 2>&1 | FileCheck --check-prefix=ARITY %s
// A static variable the file writes is the program's through the name the
// file exports for it (driver/cross-tu-static-variables.c); a thread-local
// one has none, and its copy would not be the program's.
// RUN: %adcc -O2 statics.c use-statics.c -o prog && ./prog
// RUN: %adcc -O0 statics.c use-statics.c -o prog && ./prog
// RUN: %expect-exit 1 %adcc -O2 -DTLS statics.c use-statics.c -o prog 2>&1 | FileCheck --check-prefix=STATIC %s
// RUN: %expect-exit 1 %adcc -O0 -DTLS statics.c use-statics.c -o prog 2>&1 | FileCheck --check-prefix=STATIC %s
// RUN: %adcc -O2 -DCONST_ONLY statics.c use-statics.c -o prog && ./prog
// An error in a function of a file that never mentions AD, found at link
// time, points at its line too: every object file that carries its IR is
// compiled with location tracking (without -g, and without debug sections).
// RUN: %adcc -O2 -c model.c -o model.o
// RUN: llvm-readelf -S model.o | FileCheck --check-prefix=SECTIONS %s
// RUN: %adcc -O2 -c use-model.c -o use-model.o
// RUN: %expect-exit 1 %adcc use-model.o model.o -o prog 2>&1 | FileCheck --check-prefix=MODEL %s

// LINK: main.c:6:3: error: cannot differentiate 'f': no object file linked by adcc defines it
// LINK: adcc: error: linker command failed
// COMPILE: main.c:6:3: error: cannot differentiate 'f': its body is not available in this translation unit (and -fno-adcc-cross-tu is given)
// STATIC: adcc: error: a derivative made at link time uses 'factor', a static variable of the file that defines the function it differentiates
// ARITY: error: cannot differentiate 'f': it takes 2 parameters, but the file that requests its derivative declares 1
// SECTIONS-NOT: .debug_
// MODEL: model.c:3:3: error: cannot differentiate 'model' in reverse mode: inline assembly cannot be differentiated

//--- main.c
extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);
double f(double *x);
int main(void) {
  double x = 1, dx = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, &x, &dx);
  return dx != 2;
}

//--- other.c
double f(double *x, int n) { return n * *x; }

//--- statics.c
#ifdef TLS
static _Thread_local double factor = 2.0;
#else
static double factor = 2.0;
#endif
static const double bias = 0.5;
void set_factor(double f) { factor = f; }
double scaled(double *x) { return factor * *x * *x + bias * *x; }
double biased(double *x) { return bias * *x * *x; }

//--- use-statics.c
extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);
double scaled(double *x);
double biased(double *x);
void set_factor(double);
int main(void) {
  double x = 1, dx = 0;
#ifdef CONST_ONLY
  __enzyme_autodiff((void *)biased, enzyme_dup, &x, &dx);
  return dx != 1.0;
#else
  set_factor(3.0);
  __enzyme_autodiff((void *)scaled, enzyme_dup, &x, &dx);
  return dx != 6.5;
#endif
}

//--- model.c
double model(double *x) {
  double y = *x;
  __asm__("addsd %1, %0" : "+x"(y) : "x"(*x));
  return y * y;
}

//--- use-model.c
extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);
double model(double *x);
int main(void) {
  double x = 1, dx = 0;
  __enzyme_autodiff((void *)model, enzyme_dup, &x, &dx);
  return dx != 8;
}
