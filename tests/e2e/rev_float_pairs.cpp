// Structs of two floats (a 2-D vector) that the optimizer carries as one
// 64-bit integer, as Box2D's b2CollideEdgeAndPolygon does with its b2Vec2s:
//  - the best of two axes kept across a loop (`best.n = dirs[j]`): a phi
//    of the integer, started at the bits of {0, 0}, its halves cut out
//    with trunc and lshr and cast to floats (-O1);
//  - the same, where the optimizer builds the integer of one float and a
//    constant (`{x, -0.5f}` as `zext (bitcast x) | bits(-0.5f) << 32`)
//    and chooses between integers with selects (-O2);
//  - a vector copied out of an array into a struct, its y half also
//    stored, as an i32, into another field (`side = {n.y, -n.x}`, -O2).
// Refused until 2026-12-06 ("integer bits reinterpreted as a
// floating-point value", "a floating-point value is copied as an
// integer"). Reverse mode against central differences, forward mode
// against reverse.
#include "check.h"

#include <cfloat>

extern int enzyme_dup, enzyme_const;
float __enzyme_autodiff(void *, ...);
float __enzyme_fwddiff(void *, ...);

struct Vec {
  float x, y;
};

struct Axis {
  Vec n;
  int kind;
  int index;
  float depth;
};

// The direction among +d and -d along which the points reach least far.
static Axis bestAxis(const Vec *pts, int count, Vec d) {
  Axis a;
  a.kind = 1;
  a.index = -1;
  a.depth = -FLT_MAX;
  a.n = {0, 0};
  Vec dirs[2] = {d, {-d.x, -d.y}};
  for (int j = 0; j < 2; ++j) {
    float s = FLT_MAX;
    for (int i = 0; i < count; ++i) {
      float t = dirs[j].x * pts[i].x + dirs[j].y * pts[i].y;
      if (t < s)
        s = t;
    }
    if (s > a.depth) {
      a.index = j;
      a.depth = s;
      a.n = dirs[j];
    }
  }
  return a;
}

struct Face {
  int i1, i2;
  Vec v1, v2;
  Vec normal;
  Vec side1;
  float offset1;
  Vec side2;
  float offset2;
};

struct Polygon {
  Vec vertices[4];
  Vec normals[4];
  int count;
};

// The face of the polygon whose normal points most along d, with its side
// planes (Box2D's reference face).
__attribute__((noinline)) static void referenceFace(const Polygon &poly,
                                                    Vec d, Face &ref) {
  int best = 0;
  float most = -FLT_MAX;
  for (int i = 0; i < poly.count; ++i) {
    float s = poly.normals[i].x * d.x + poly.normals[i].y * d.y;
    if (s > most) {
      most = s;
      best = i;
    }
  }
  ref.i1 = best;
  ref.i2 = best + 1 < poly.count ? best + 1 : 0;
  ref.v1 = poly.vertices[ref.i1];
  ref.v2 = poly.vertices[ref.i2];
  ref.normal = poly.normals[ref.i1];
  ref.side1 = {ref.normal.y, -ref.normal.x};
  ref.side2 = {-ref.side1.x, -ref.side1.y};
  ref.offset1 = ref.side1.x * ref.v1.x + ref.side1.y * ref.v1.y;
  ref.offset2 = ref.side2.x * ref.v2.x + ref.side2.y * ref.v2.y;
}

// p = (x0, y1, x2, dx, w, h, angle-ish shear).
static float axes(const float *p) {
  Vec pts[3] = {{p[0], 1}, {0.2f, p[1]}, {p[2] - 2.2f, p[0]}};
  Axis a = bestAxis(pts, 3, Vec{p[3], -0.5f});
  Axis b = bestAxis(pts, 3, Vec{0.25f, p[3] * p[0]});
  return a.n.x * 3 + a.n.y * a.depth + b.n.x * b.n.y + b.depth * b.depth;
}

static float faces(const float *p) {
  float w = p[4], h = p[5], s = p[6];
  Polygon poly;
  poly.count = 4;
  Vec v[4] = {{-w, -h}, {w, -h + s}, {w, h}, {-w + s, h}};
  for (int i = 0; i < 4; ++i) {
    poly.vertices[i] = v[i];
    Vec e = {v[(i + 1) % 4].x - v[i].x, v[(i + 1) % 4].y - v[i].y};
    poly.normals[i] = {e.y, -e.x};
  }
  Face ref;
  referenceFace(poly, Vec{0.3f, 1.0f}, ref);
  return ref.offset1 * ref.normal.y + ref.offset2 * ref.side1.x +
         ref.side2.x * ref.v1.y + ref.normal.y * ref.v2.x;
}

static float scene(const float *p) { return axes(p) + faces(p); }

int main() {
  const int n = 7;
  float p[n] = {0.5f, -1.0f, 2.0f, 0.8f, 0.7f, 0.4f, 0.1f};
  float dp[n] = {0};
  __enzyme_autodiff((void *)scene, enzyme_dup, p, dp);
  int nonzero = 0;
  for (int i = 0; i < n; ++i) {
    float t[n] = {0};
    t[i] = 1;
    CHECK_CLOSE(__enzyme_fwddiff((void *)scene, enzyme_dup, p, t), dp[i],
                1e-5);
    float q[n];
    for (int j = 0; j < n; ++j)
      q[j] = p[j];
    float h = 1e-3f;
    q[i] = p[i] + h;
    double up = scene(q);
    q[i] = p[i] - h;
    double down = scene(q);
    CHECK_CLOSE(dp[i], (up - down) / (2 * h), 2e-3);
    nonzero += dp[i] != 0;
  }
  CHECK_TRUE(nonzero == n);
  return check_finish();
}
