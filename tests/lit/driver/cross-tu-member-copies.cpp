// Struct fields copied as integers in a member function of another file,
// whose derivative is made at link time: a constructor copying `{float,
// float}` points from its definition struct into `this`, and a virtual
// clone copying `int kind; float size;` as one i64 (Box2D's joints'
// constructors and b2Shape::Clone). From -O1 the copies name no type; the
// class of `this` does, and its IR type was not in the IR the object
// carries (no instruction names it any more) until 2026-12-06: the
// derivative refused the copies ("a memory copy whose contents cannot be
// typed"). Every level, both modes: f = k s + a.x b.y with k = 2, s = 3 x,
// a = (x, 2), b = (1, x^2), so f = 6 x + x^3 and f'(1.5) = 6 + 3 x^2 =
// 12.75.
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %adcc++ -O0 -c body.cpp main.cpp && %adcc++ main.o body.o -o prog-O0 && ./prog-O0 | FileCheck %s
// RUN: %adcc++ -O1 -c body.cpp main.cpp && %adcc++ main.o body.o -o prog-O1 && ./prog-O1 | FileCheck %s
// RUN: %adcc++ -O2 -c body.cpp main.cpp && %adcc++ main.o body.o -o prog-O2 && ./prog-O2 | FileCheck %s
// RUN: %adcc++ -O3 -c body.cpp main.cpp && %adcc++ main.o body.o -o prog-O3 && ./prog-O3 | FileCheck %s
// CHECK: reverse 12.75 forward 12.75

//--- body.h
struct Vec {
  float x, y;
};
struct PartDef {
  int kind;
  Vec a, b;
};
struct Part {
  explicit Part(const PartDef *def);
  Part() {}
  virtual ~Part() {}
  virtual Part *clone() const;
  float value() const;
  int kind = 0;
  float size = 0;
  Vec a, b;
};
void release(Part *p);

//--- body.cpp
#include "body.h"
#include <cstdlib>
#include <new>
Part::Part(const PartDef *def) {
  kind = def->kind;
  a = def->a;
  b = def->b;
}
Part *Part::clone() const {
  Part *c = new (std::malloc(sizeof(Part))) Part;
  *c = *this;
  return c;
}
float Part::value() const { return kind * size + a.x * b.y; }
void release(Part *p) {
  p->~Part();
  std::free(p);
}

//--- main.cpp
#include "body.h"
#include <cstdio>
float __enzyme_autodiff(void *, ...);
float __enzyme_fwddiff(void *, ...);
// kind 2, size 3 x, a = (x, 2), b = (1, x^2): f = 6 x + x^3.
static float f(float x) {
  PartDef def = {2, {x, 2}, {1, x * x}};
  Part p(&def);
  p.size = 3 * x;
  Part *c = p.clone();
  float v = c->value();
  release(c);
  return v;
}
int main() {
  float r = __enzyme_autodiff((void *)f, 1.5f);
  float t = __enzyme_fwddiff((void *)f, 1.5f, 1.0f);
  std::printf("reverse %g forward %g\n", r, t);
}
