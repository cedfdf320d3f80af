// Objects copied by their implicit copy assignment inside a virtual clone
// (`*copy = *this`), as Box2D's b2Shape::Clone does: the base class holds
// `int kind; float radius;`, which the optimizer copies as one 64-bit
// integer from -O1 on, and the derived classes' `{float, float}` points as
// another. Nothing in the clone's own code says what the bits are; the
// class of `this` does. The reverse sweep refused the copy ("a memory copy
// whose contents cannot be typed") until 2026-12-06; now the integer's
// float lanes move their adjoints and its int lane none. Reverse mode
// against the analytic gradient and central differences, forward mode
// against reverse.
#include "check.h"

#include <new>

extern int enzyme_dup, enzyme_const;
float __enzyme_autodiff(void *, ...);
float __enzyme_fwddiff(void *, ...);

struct Point {
  float x, y;
};

struct Shape {
  virtual ~Shape() {}
  virtual Shape *clone() const = 0;
  virtual float measure() const = 0;
  int kind = 0;
  float radius = 0;
};

// A polygon: its area (shoelace) plus its rounding radius.
struct Polygon : Shape {
  Shape *clone() const override {
    Polygon *copy = new (std::malloc(sizeof(Polygon))) Polygon;
    *copy = *this;
    return copy;
  }
  float measure() const override {
    float twice = 0;
    for (int i = 0; i < count; ++i) {
      const Point &a = corners[i], &b = corners[(i + 1) % count];
      twice += a.x * b.y - b.x * a.y;
    }
    return 0.5f * twice + kind * radius;
  }
  Point corners[6];
  int count = 0;
};

// A disc: its area, and its centre's distance along x.
struct Disc : Shape {
  Shape *clone() const override {
    Disc *copy = new (std::malloc(sizeof(Disc))) Disc;
    *copy = *this;
    return copy;
  }
  float measure() const override {
    return 3.14159265f * radius * radius + centre.x;
  }
  Point centre;
};

__attribute__((noinline)) Shape *duplicate(const Shape *s) {
  return s->clone();
}

// p = (half width, half height, polygon radius, disc radius, centre x).
static float scene(const float *p) {
  Polygon box;
  box.count = 4;
  box.kind = 2;
  box.radius = p[2];
  box.corners[0] = {-p[0], -p[1]};
  box.corners[1] = {p[0], -p[1]};
  box.corners[2] = {p[0], p[1]};
  box.corners[3] = {-p[0], p[1]};
  Disc disc;
  disc.kind = 1;
  disc.radius = p[3];
  disc.centre = {p[4], 0.5f};
  Shape *a = duplicate(&box), *b = duplicate(&disc);
  // Objective: 4 w h + 2 r + pi s^2 + cx, each through a copy, squared
  // terms mixed so that every input's adjoint passes the copies.
  float m = a->measure() * b->measure();
  a->~Shape();
  b->~Shape();
  std::free(a);
  std::free(b);
  return m;
}

int main() {
  float p[5] = {0.5f, 0.25f, 0.75f, 0.6f, 1.5f};
  float dp[5] = {0, 0, 0, 0, 0};
  __enzyme_autodiff((void *)scene, enzyme_dup, p, dp);
  // A = 4 w h + 2 r, B = pi s^2 + cx: d(A B) = B dA + A dB.
  double A = 4.0 * p[0] * p[1] + 2.0 * p[2];
  double B = 3.14159265 * p[3] * p[3] + p[4];
  double want[5] = {B * 4 * p[1], B * 4 * p[0], B * 2,
                    A * 2 * 3.14159265 * p[3], A};
  for (int i = 0; i < 5; ++i) {
    CHECK_CLOSE(dp[i], want[i], 1e-5);
    float t[5] = {0, 0, 0, 0, 0};
    t[i] = 1;
    CHECK_CLOSE(__enzyme_fwddiff((void *)scene, enzyme_dup, p, t), dp[i],
                1e-5);
    float q[5];
    for (int j = 0; j < 5; ++j)
      q[j] = p[j];
    float h = 1e-2f;
    q[i] = p[i] + h;
    double up = scene(q);
    q[i] = p[i] - h;
    double down = scene(q);
    CHECK_CLOSE((up - down) / (2 * h), dp[i], 1e-3);
  }
  return check_finish();
}
