// Split mode of a function returning a struct that mixes floating-point
// values with pointers or integers: __enzyme_reverse takes one seed per
// floating-point field, then the tape (e2e split_struct_results.c). A
// struct given as the seed, a missing seed, batched seeds, and such a
// struct returned through memory are errors at the call.
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
extern int enzyme_dup, enzyme_width;
struct pv {
  double *p;
  double v;
};
typedef struct {
  void *tape;
  struct pv r, s;
} aug_pv;
aug_pv __enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);
static struct pv mk(double *x) {
  struct pv r = {x + 1, x[0] * x[0]};
  return r;
}

void seed_struct(double *x, double *dx, struct pv seed, void *tape) {
  __enzyme_reverse((void *)mk, enzyme_dup, x, dx, seed, tape);
}
// CHECK: split-struct-seeds.c:[[#@LINE-2]]:3: error: the adjoint of floating-point field 0 of the result (one seed per floating-point field, then the tape) of 'mk' has type pointer, but the function expects double

void missing(double *x, double *dx, aug_pv a) {
  __enzyme_reverse((void *)mk, enzyme_dup, x, dx, a.tape);
}
// CHECK: split-struct-seeds.c:[[#@LINE-2]]:3: error: the adjoint of floating-point field 0 of the result (one seed per floating-point field, then the tape) of 'mk' has type pointer

void wide(double *x, double *d0, double *d1, void *tape) {
  __enzyme_reverse((void *)mk, enzyme_width, 2, enzyme_dup, x, d0, d1, 1.0,
                   1.0, tape);
}
// CHECK: split-struct-seeds.c:[[#@LINE-3]]:3: error: __enzyme_reverse of 'mk' with enzyme_width: the seeds of a struct result of struct { pointer; double; } (floating-point values with pointers or integers) are taken at width 1 only

// 24 bytes: returned through a hidden pointer.
struct pvn {
  double *p;
  double v;
  int n;
};
typedef struct {
  void *tape;
  struct pvn r, s;
} aug_pvn;
aug_pvn __enzyme_augmentfwd_n(void *, ...);
static struct pvn mk_n(double *x) {
  struct pvn r = {x + 1, x[0] * x[0], 3};
  return r;
}
aug_pvn augment_memory(double *x, double *dx) {
  return __enzyme_augmentfwd_n((void *)mk_n, enzyme_dup, x, dx);
}
// CHECK: split-struct-seeds.c:[[#@LINE-2]]:10: error: 'mk_n' returns its result through memory (a struct of more than 16 bytes), which a request cannot pass; return it through a pointer argument (enzyme_dup) instead
