// Steps of iterators over a constant std::map inside differentiated code,
// as miniFE's find_row_for_id does (lower_bound, then --iter): the
// iterator's shadow is null (the map has no shadow), read back from the
// iterator's memory as a scratch shadow, and libstdc++'s
// _Rb_tree_decrement/_Rb_tree_increment were called on that scratch, whose
// zeros have no links: a segmentation fault at -O0, in reverse and forward
// mode, until 2026-12-06. The calls are involved because the id is passed
// by reference into a struct that holds derivatives. Checked against
// central differences, forward mode (and batched forward mode) against
// reverse mode, and a Hessian-vector product (forward over reverse)
// against differences of gradients.
#include "check.h"

#include <map>

extern int enzyme_const, enzyme_dup, enzyme_width;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

// The row of an id: ranges of ids start at the map's keys.
static int find_row(int id, const std::map<int, int> &starts) {
  std::map<int, int>::const_iterator it = starts.lower_bound(id);
  if (it == starts.end() || it->first != id)
    --it;
  return it->second + (id - it->first);
}

// The weights of the keys from `from` on (increments).
static double tail_weight(const int &from, const std::map<int, double> &w) {
  double s = 0;
  for (std::map<int, double>::const_iterator it = w.lower_bound(from);
       it != w.end(); ++it)
    s += it->second;
  return s;
}

struct Mesh {
  std::map<int, int> starts;
  std::map<int, double> weights;
  int row(const int &id) const { return find_row(id, starts); }
};

struct Elem {
  int nodes[4];
  double coords[4];
};

static void get_nodes(const Mesh &m, int e, int *nodes, double *coords) {
  for (int i = 0; i < 4; ++i)
    nodes[i] = e + i;
  for (int i = 0; i < 4; ++i) {
    nodes[i] = m.row(nodes[i]);
    coords[i] = 0.5 * (e + i) * tail_weight(nodes[i], m.weights);
  }
}

static double f(const Mesh &m, const double *p) {
  double s = 0;
  for (int e = 0; e < 5; ++e) {
    Elem el;
    get_nodes(m, 3 * e, el.nodes, el.coords);
    for (int i = 0; i < 4; ++i)
      el.coords[i] = p[0] * el.coords[i] * el.coords[i] +
                     p[1] * el.nodes[i] + sin(p[2] * el.coords[i]);
    for (int i = 0; i < 4; ++i)
      s += el.coords[i] * el.coords[i];
  }
  return s;
}

static void f_out(const Mesh &m, const double *p, double *out) {
  *out = f(m, p);
}

static void grad(const Mesh &m, const double *p, double *d) {
  __enzyme_autodiff((void *)f, enzyme_const, &m, enzyme_dup, p, d);
}
int main() {
  Mesh m;
  for (int i = 0; i < 30; i += 4)
    m.starts[i] = 100 + 2 * i;
  for (int i = 90; i < 200; i += 7)
    m.weights[i] = 0.01 * (i % 5) + 0.002;
  double p[3] = {0.7, 0.01, 0.3}, d[3] = {0, 0, 0};
  __enzyme_autodiff((void *)f, enzyme_const, &m, enzyme_dup, p, d);
  double h = 1e-6, dot = 0;
  for (int i = 0; i < 3; ++i) {
    double a[3] = {p[0], p[1], p[2]}, b[3] = {p[0], p[1], p[2]};
    a[i] += h;
    b[i] -= h;
    CHECK_CLOSE(d[i], (f(m, a) - f(m, b)) / (2 * h), 1e-6);
    CHECK_TRUE(d[i] != 0);
    dot += d[i] * (1.0 + i);
  }
  double t[3] = {1, 2, 3};
  CHECK_CLOSE(
      __enzyme_fwddiff((void *)f, enzyme_const, &m, enzyme_dup, p, t), dot,
      1e-10);
  // Batched forward mode: two directions at once.
  double t1[3] = {1, 0, 0}, t2[3] = {0, 0, 1}, out, o1 = 0, o2 = 0;
  __enzyme_fwddiff((void *)f_out, enzyme_width, 2, enzyme_const, &m,
                   enzyme_dup, p, t1, t2, enzyme_dup, &out, &o1, &o2);
  CHECK_CLOSE(o1, d[0], 1e-10);
  CHECK_CLOSE(o2, d[2], 1e-10);
  // Hessian-vector product: forward over reverse.
  double v[3] = {0.3, -0.2, 0.5}, g0[3] = {0, 0, 0}, hv[3] = {0, 0, 0};
  __enzyme_fwddiff((void *)grad, enzyme_const, &m, enzyme_dup, p, v,
                   enzyme_dup, g0, hv);
  for (int i = 0; i < 3; ++i) {
    double a[3], b[3], ga[3] = {0, 0, 0}, gb[3] = {0, 0, 0};
    for (int j = 0; j < 3; ++j) { a[j] = p[j] + h * v[j]; b[j] = p[j] - h * v[j]; }
    grad(m, a, ga); grad(m, b, gb);
    CHECK_CLOSE(hv[i], (ga[i] - gb[i]) / (2 * h), 1e-5);
  }
  return check_finish();
}
