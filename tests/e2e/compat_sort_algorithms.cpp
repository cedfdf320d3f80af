// std::sort, std::stable_sort, std::partial_sort and std::nth_element of
// structs that mix doubles and ints (a std::vector and a C array),
// differentiated in reverse and forward mode at every level, -O0 included:
// there the heaps and insertion steps of libstdc++ move whole elements
// through iterators whose operator* gives the address, which adcc types
// after inlining the iterators' small functions into a simplified copy
// (prepare/SimplifiedCopies.cpp). The derivative follows the permutation
// the algorithm chose: gradients against analytic values (ranks counted
// here by hand) and central differences, forward against reverse.
// The sorts by the int field alone (stable_sort, and a plain insertion
// sort by id) were wrong in reverse mode from -O1 on: SROA keeps the tail
// of the saved element, `{int; pad; double}` from byte 4, in a 12-byte
// buffer, and its copies' adjoints were moved as if the double began at
// byte 0 of the copy (reverse/ReverseRules.cpp). From -O1 on,
// std::stable_sort by an int field was an error (issue 33): its
// merge buffer's memmoves of `last - first` bytes were known only by the
// ints the comparator reads; the element copies' !tbaa.struct and the
// exact divisions of pointer differences by the element size now type
// them (analysis/ElementEvidence.cpp; 20 elements, so that the merge goes
// through the buffer). At -O3 std::partial_sort was an error: a trip
// count expanded after the shadows were made put a phi without a shadow
// in place of the vector's data pointer after the loop that fills it
// (reverse/InvariantTrips.cpp, LoopArrays.cpp).
// (libstdc++ 12's stable_sort calls its own deprecated get_temporary_buffer.)
#pragma clang diagnostic ignored "-Wdeprecated-declarations"

#include "check.h"

#include <algorithm>
#include <cmath>
#include <vector>

extern int enzyme_dup, enzyme_const;
extern "C" void __enzyme_autodiff(void *, ...);
extern "C" double __enzyme_fwddiff(void *, ...);

namespace {

// (15 elements or more: std::stable_sort merges through its buffer)
constexpr int N = 20;

struct item {
  double key;
  int id;
  double val;
};

item make(const double *x, int i) {
  return {std::sin(3 * x[i] + i), i, x[i] * x[i] * (i + 1)};
}
bool byKey(const item &a, const item &b) { return a.key < b.key; }

double sorted(const double *x) {
  std::vector<item> v;
  for (int i = 0; i < N; ++i)
    v.push_back(make(x, i));
  std::sort(v.begin(), v.end(), byKey);
  double s = 0;
  for (int j = 0; j < N; ++j)
    s += (j + 1) * v[j].val;
  return s;
}

// (ties of the int field: the stable order is the original one)
double stable(const double *x) {
  item a[N];
  for (int i = 0; i < N; ++i)
    a[i] = make(x, i);
  std::stable_sort(a, a + N,
                   [](const item &p, const item &q) { return p.id % 3 < q.id % 3; });
  double s = 0;
  for (int j = 0; j < N; ++j)
    s += (j + 1) * a[j].val;
  return s;
}

// (by id, largest first, moving whole structs)
double insertion(const double *x) {
  item a[N];
  for (int i = 0; i < N; ++i)
    a[i] = make(x, i);
  for (int i = 1; i < N; ++i) {
    item v = a[i];
    int j = i;
    for (; j > 0 && v.id > a[j - 1].id; --j)
      a[j] = a[j - 1];
    a[j] = v;
  }
  double s = 0;
  for (int j = 0; j < N; ++j)
    s += (j + 1) * a[j].val;
  return s;
}

double partial(const double *x) {
  std::vector<item> v;
  for (int i = 0; i < N; ++i)
    v.push_back(make(x, i));
  std::partial_sort(v.begin(), v.begin() + 4, v.end(), byKey);
  double s = 0;
  for (int j = 0; j < 4; ++j)
    s += (j + 1) * v[j].val;
  return s;
}

double nth(const double *x) {
  item a[N];
  for (int i = 0; i < N; ++i)
    a[i] = make(x, i);
  std::nth_element(a, a + 3, a + N, byKey);
  double s = 5 * a[3].val;
  for (int j = 0; j < 3; ++j)
    s += a[j].val;
  return s;
}

// The weight of element i at its rank r, by hand.
double weightSorted(int r) { return r + 1; }
double weightPartial(int r) { return r < 4 ? r + 1 : 0; }
double weightNth(int r) { return r == 3 ? 5 : r < 3 ? 1 : 0; }
// How an element's rank is found: by its key, by id % 3 keeping the
// original order among ties (stable_sort), by id, largest first.
enum class ById { No, Stable, Descending };

void analytic(const double *x, double (*weight)(int), ById by,
              double *g) {
  for (int i = 0; i < N; ++i) {
    int r = 0;
    for (int k = 0; k < N; ++k) {
      if (by == ById::Descending)
        r += k > i;
      else if (by == ById::Stable)
        r += k % 3 < i % 3 || (k % 3 == i % 3 && k < i);
      else
        r += make(x, k).key < make(x, i).key;
    }
    g[i] = weight(r) * 2 * x[i] * (i + 1);
  }
}

void check(double (*f)(const double *), double (*weight)(int),
           ById by, const double *x) {
  double g[N] = {}, want[N];
  __enzyme_autodiff((void *)f, enzyme_dup, x, g);
  analytic(x, weight, by, want);
  double xs[N];
  for (int i = 0; i < N; ++i) {
    CHECK_CLOSE(g[i], want[i], 1e-12);
    double h = 1e-6;
    std::copy(x, x + N, xs);
    xs[i] = x[i] + h;
    double up = f(xs);
    xs[i] = x[i] - h;
    double down = f(xs);
    CHECK_CLOSE((up - down) / (2 * h), g[i], 1e-6);
    double t[N] = {};
    t[i] = 1;
    CHECK_CLOSE(__enzyme_fwddiff((void *)f, enzyme_dup, x, t), g[i], 1e-12);
  }
}

} // namespace

int main() {
  double points[2][N];
  for (int i = 0; i < N; ++i) {
    points[0][i] = 1.3 * std::sin(1.7 * i + 0.4);
    points[1][i] = 1.1 * std::cos(2.3 * i - 0.2);
  }
  for (const double *x : points) {
    check(sorted, weightSorted, ById::No, x);
    check(stable, weightSorted, ById::Stable, x);
    check(insertion, weightSorted, ById::Descending, x);
    check(partial, weightPartial, ById::No, x);
    check(nth, weightNth, ById::No, x);
  }
  return check_finish();
}
