/* A union of integer views (four bytes, or one unsigned int: Box2D's
 * b2ContactID) copied out of an array of structs that also hold floats,
 * its bytes then swapped (as b2CollidePolygons does when it flips the
 * shapes), and an array of structs holding such a union grown by a memcpy
 * of a run-time length through a pointer reloaded for each use (Box2D's
 * b2DynamicTree::AllocateNode). The union's IR type names one member only;
 * the frontend says that none is a float, so its bytes carry no
 * derivative. Refused until 2026-12-06: at -O0 "a memory copy whose
 * contents cannot be typed", from -O1 "a floating-point value is copied
 * as an integer" at the byte stores of the swap. Reverse mode against the analytic gradient
 * and central differences, forward mode against reverse. */
#include "check.h"

#include <string.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
float __enzyme_fwddiff(void *, ...);

typedef struct {
  float x, y;
} vec;
typedef struct {
  unsigned char a, b, c, d;
} feature;
typedef union {
  feature cf;
  unsigned key;
} contact_id;
typedef struct {
  vec v;
  contact_id id;
} clip;
typedef struct {
  vec local;
  float impulse;
  contact_id id;
} point;

__attribute__((noinline)) static void keep(point *out, const clip *in,
                                           int n) {
  for (int i = 0; i < n; ++i) {
    out[i].local.x = 2 * in[i].v.x;
    out[i].local.y = in[i].v.y;
    out[i].impulse = 0;
    out[i].id = in[i].id;
    if (i) {
      feature f = out[i].id.cf;
      out[i].id.cf.a = f.b;
      out[i].id.cf.b = f.a;
    }
  }
}

/* Tree nodes: a box, and a union of a parent and a next index. */
typedef struct {
  vec lo, hi;
  union {
    int parent;
    int next;
  } link;
  int height;
} node;
typedef struct {
  node *nodes;
  int count, capacity;
} tree;

__attribute__((noinline)) static int grow(tree *t) {
  if (t->count == t->capacity) {
    node *old = t->nodes;
    t->capacity *= 2;
    t->nodes = (node *)malloc(t->capacity * sizeof(node));
    memcpy(t->nodes, old, t->count * sizeof(node));
    free(old);
  }
  t->nodes[t->count].link.next = -1;
  t->nodes[t->count].height = 0;
  return t->count++;
}

/* p = (x, y): the clipped points' product, plus the boxes' extents. */
static float objective(const float *p) {
  clip c[2] = {{{p[0], p[1]}, {{1, 2, 3, 4}}}, {{p[1], p[0]}, {{5, 6, 7, 8}}}};
  point m[2];
  keep(m, c, 2);
  float s = m[0].local.x * m[1].local.y + m[1].local.x + m[1].id.cf.a;
  tree t = {(node *)malloc(sizeof(node)), 0, 1};
  for (int i = 0; i < 5; ++i) {
    int k = grow(&t);
    t.nodes[k].lo.x = p[0] * i;
    t.nodes[k].hi.x = p[1] * p[1] + i;
    t.nodes[k].lo.y = t.nodes[k].hi.y = 0;
  }
  for (int i = 0; i < t.count; ++i)
    s += t.nodes[i].hi.x - t.nodes[i].lo.x;
  free(t.nodes);
  return s;
}

int main(void) {
  float p[2] = {0.75f, 1.25f}, dp[2] = {0, 0};
  __enzyme_autodiff((void *)objective, enzyme_dup, p, dp);
  /* s = 2 x * x + 2 y + 6 + sum_i (y^2 + i - x i): ds/dx = 4 x - 10,
     ds/dy = 2 + 10 y. */
  CHECK_CLOSE(dp[0], 4 * p[0] - 10, 1e-5);
  CHECK_CLOSE(dp[1], 2 + 10 * p[1], 1e-5);
  for (int i = 0; i < 2; ++i) {
    float t[2] = {0, 0};
    t[i] = 1;
    CHECK_CLOSE(__enzyme_fwddiff((void *)objective, enzyme_dup, p, t), dp[i],
                1e-5);
    float q[2] = {p[0], p[1]}, h = 1e-2f;
    q[i] = p[i] + h;
    double up = objective(q);
    q[i] = p[i] - h;
    double down = objective(q);
    CHECK_CLOSE((up - down) / (2 * h), dp[i], 1e-3);
  }
  return check_finish();
}
