/* Split forward mode (__enzyme_augmentfwd records, __enzyme_fwdsplit gives
 * the tangent) of functions returning a struct that mixes floating-point
 * values with pointers or integers: {double *p; double v;} and {double v;
 * long n;}. The recording call was refused until 2026-12-07 with reverse
 * mode's "cannot seed its result". Tangents against central differences. */
#include "check.h"

extern int enzyme_dup, enzyme_const;

struct pv {
  double *p;
  double v;
};
__attribute__((noinline)) static struct pv mk_pv(const double *x,
                                                 double *out) {
  out[0] = x[0] * sin(x[1]);
  struct pv r = {out, x[0] * x[0] * x[1]};
  return r;
}
typedef struct {
  void *tape;
  struct pv r;
} aug_pv;
aug_pv __enzyme_augmentfwd_pv(void *, ...);
struct pv __enzyme_fwdsplit_pv(void *, ...);

struct vn {
  double v;
  long n;
};
__attribute__((noinline)) static struct vn mk_vn(const double *x) {
  struct vn r = {exp(x[0]) * x[1], 2};
  return r;
}
typedef struct {
  void *tape;
  struct vn r;
} aug_vn;
aug_vn __enzyme_augmentfwd_vn(void *, ...);
struct vn __enzyme_fwdsplit_vn(void *, ...);

int main(void) {
  const double x[2] = {0.7, 1.3}, h = 1e-6;
  for (int i = 0; i < 2; ++i) {
    double dx[2] = {0, 0}, o[1], d[1] = {0};
    dx[i] = 1;
    double xp[2] = {x[0], x[1]}, xm[2] = {x[0], x[1]}, op[1], om[1];
    xp[i] += h;
    xm[i] -= h;
    aug_pv a = __enzyme_augmentfwd_pv((void *)mk_pv, enzyme_dup, x, dx,
                                      enzyme_dup, o, d);
    struct pv t = __enzyme_fwdsplit_pv((void *)mk_pv, enzyme_dup, x, dx,
                                       enzyme_dup, o, d, a.tape);
    CHECK_TRUE(a.r.p == o && t.p == d);
    CHECK_CLOSE(t.v, (mk_pv(xp, op).v - mk_pv(xm, om).v) / (2 * h), 1e-6);
    CHECK_CLOSE(d[0], (op[0] - om[0]) / (2 * h), 1e-6);

    aug_vn b = __enzyme_augmentfwd_vn((void *)mk_vn, enzyme_dup, x, dx);
    struct vn u =
        __enzyme_fwdsplit_vn((void *)mk_vn, enzyme_dup, x, dx, b.tape);
    CHECK_TRUE(b.r.n == 2);
    CHECK_CLOSE(u.v, (mk_vn(xp).v - mk_vn(xm).v) / (2 * h), 1e-6);
  }
  return check_finish();
}
