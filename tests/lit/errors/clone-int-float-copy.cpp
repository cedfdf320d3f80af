// C++'s implicit copy assignment in a virtual clone (`*c = *this`, Box2D's
// b2Shape::Clone) of a class whose base holds `int type; float radius;`:
// from -O1 the optimizer copies the int and the float as one 64-bit
// integer, and nothing in the function types its halves. A located error
// there (status.md, "Not yet implemented"); at -O0 the copy keeps its
// fields and the gradient is right: d/dp of 0.5 |box| + radius + pi r^2.
// RUN: %adcc++ -O0 %s -o %t && %t | FileCheck --check-prefix=O0 %s
// RUN: %expect-exit 1 %adcc++ -O2 -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=O2 %s
// O0: 1 2 4.71
#include <cstdio>
#include <cstdlib>
#include <new>

float __enzyme_autodiff(void *, ...);
extern int enzyme_dup;

struct Vec {
  float x, y;
};
// (The implicit copy assignment is placed at the class's line.)
// O2: clone-int-float-copy.cpp:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate '{{Circle|Poly}}::clone() const' in reverse mode: a memory copy whose contents cannot be typed
struct Shape {
  virtual ~Shape() {}
  virtual Shape *clone() const = 0;
  virtual float mass() const = 0;
  int type = 0;
  float radius = 0;
};
struct Poly : Shape {
  Shape *clone() const override {
    Poly *c = new (std::malloc(sizeof(Poly))) Poly;
    *c = *this;
    return c;
  }
  float mass() const override {
    float s = 0;
    for (int i = 0; i < count; ++i)
      s += v[i].x * v[(i + 1) % count].y - v[(i + 1) % count].x * v[i].y;
    return 0.5f * s + radius;
  }
  Vec v[8];
  int count = 0;
};
struct Circle : Shape {
  Shape *clone() const override {
    Circle *c = new (std::malloc(sizeof(Circle))) Circle;
    *c = *this;
    return c;
  }
  float mass() const override { return 3.14159f * radius * radius; }
  Vec p;
};

__attribute__((noinline)) Shape *copy_of(const Shape *s) { return s->clone(); }

static float f(const float *p) {
  Poly box;
  box.count = 4;
  box.v[0] = {-p[0], -p[1]};
  box.v[1] = {p[0], -p[1]};
  box.v[2] = {p[0], p[1]};
  box.v[3] = {-p[0], p[1]};
  Circle c;
  c.radius = p[2];
  Shape *a = copy_of(&box), *b = copy_of(&c);
  float m = a->mass() + b->mass();
  a->~Shape();
  b->~Shape();
  std::free(a);
  std::free(b);
  return m;
}

int main() {
  float p[3] = {0.5f, 0.25f, 0.75f}, dp[3] = {0, 0, 0};
  __enzyme_autodiff((void *)f, enzyme_dup, p, dp);
  std::printf("%.3g %.3g %.3g\n", dp[0], dp[1], dp[2]);
}
