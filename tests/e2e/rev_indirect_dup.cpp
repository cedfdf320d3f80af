// Indirect calls in reverse mode whose targets come from duplicated memory:
// a function pointer in a struct passed with enzyme_dup (run_ops), a
// virtual call on a duplicated object (run_model: the shadow object has the
// same dynamic type) and a pointer to member function called on a
// duplicated object (via_member). Closed forms. (std::function:
// rev_std_function.cpp.)
#include "rev_check.h"

#include <cmath>

// a function pointer stored in a struct next to data
struct Op {
  double (*f)(double, double);
  double w;
};
static double op_add(double a, double b) { return a + b * b; }
static double op_mul(double a, double b) { return a * b; }
static double run_ops(const Op *ops, int n, double x) {
  double r = x;
  for (int i = 0; i < n; ++i)
    r = ops[i].f(r, ops[i].w * x);
  return r;
}

struct Model {
  double scale;
  virtual double eval(double x) const = 0;
  virtual ~Model() {}
};
struct Quadratic : Model {
  double eval(double x) const override { return scale * x * x; }
};
static double run_model(const Model *m, double x) {
  return m->eval(x) + m->eval(2 * x);
}

// pointers to member functions
struct Poly {
  double a, b;
  double lin(double x) const { return a * x + b; }
  double quad(double x) const { return a * x * x + b * x; }
};
static double via_member(const Poly *p, double x, int k) {
  double (Poly::*m)(double) const = k ? &Poly::quad : &Poly::lin;
  return (p->*m)(x) * (p->*m)(x);
}

int main() {
  {
    Op ops[3] = {{op_add, 0.5}, {op_mul, 2.0}, {op_add, -1.0}};
    Op dops[3] = {{op_add, 0}, {op_mul, 0}, {op_add, 0}};
    double x = 0.7;
    double dx = __enzyme_autodiff((void *)run_ops, ops, dops, 3, x);
    // r0 = x + 0.25 x^2, r1 = r0 * 2x, r2 = r1 + x^2
    double r0 = x + 0.25 * x * x, dr0 = 1 + 0.5 * x;
    double e = dr0 * 2 * x + r0 * 2 + 2 * x;
    CHECK_CLOSE(dx, e, REV_TOL_EXACT);
    // dr2/dw_i for w = (0.5, 2, -1): b_i = w_i x
    CHECK_CLOSE(dops[0].w, 2 * 0.5 * x * x * 2 * x, REV_TOL_EXACT);
    CHECK_CLOSE(dops[1].w, r0 * x, REV_TOL_EXACT);
    CHECK_CLOSE(dops[2].w, 2 * -1.0 * x * x, REV_TOL_EXACT);
  }
  {
    Quadratic q;
    q.scale = 1.5;
    double x = 0.6;
    // duplicated object: the shadow has the same dynamic type
    Quadratic dq;
    dq.scale = 0;
    double dxq = __enzyme_autodiff((void *)run_model, &q, &dq, x);
    CHECK_CLOSE(dxq, 1.5 * (2 * x + 8 * x), REV_TOL_EXACT);
    CHECK_CLOSE(dq.scale, x * x + 4 * x * x, REV_TOL_EXACT);
  }
  {
    Poly p{1.5, -0.5}, dp{0, 0};
    double x = 0.9;
    double dx = __enzyme_autodiff((void *)via_member, &p, &dp, x, 1);
    double q = 1.5 * x * x - 0.5 * x;
    CHECK_CLOSE(dx, 2 * q * (3 * x - 0.5), REV_TOL_EXACT);
    CHECK_CLOSE(dp.a, 2 * q * x * x, REV_TOL_EXACT);
    CHECK_CLOSE(dp.b, 2 * q * x, REV_TOL_EXACT);
  }
  return check_finish();
}
