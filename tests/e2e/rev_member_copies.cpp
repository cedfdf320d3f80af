// A struct member copied out of an argument into a local struct (Box2D's
// b2TimeOfImpact: `distanceInput.proxyA = input->proxyA`): the member
// holds an array of 2-D vectors, a pointer, an int and a float, so the
// copy's field list (Clang's !tbaa.struct) names the array as bytes, and
// the callers only store floats through the argument themselves (a helper
// not inlined fills the members), so the analysis says "floats at every
// offset" of it. The local's declared type says which bytes are which;
// the floats of the argument's other members, after the copied bytes, no
// longer stop it from saying so (from -O1: "a copy of an array of structs
// that mix floating-point fields and pointers, whose element size is
// unknown" until 2026-12-06). Reverse mode against the analytic gradient
// and central differences, forward mode against reverse.
#include "check.h"

extern int enzyme_dup, enzyme_const;
float __enzyme_autodiff(void *, ...);
float __enzyme_fwddiff(void *, ...);

struct Vec {
  float x, y;
};

struct Proxy {
  Vec buffer[2];
  const Vec *verts;
  int count;
  float radius;
};

struct Query {
  Proxy a, b;
  float scale;
};

struct Request {
  Proxy a, b;
  float t0, t1, t2;
};

__attribute__((noinline)) static void setProxy(Proxy *x, float u, float v,
                                               float r) {
  x->buffer[0] = {u, v};
  x->buffer[1] = {v, -u};
  x->verts = x->buffer;
  x->count = 2;
  x->radius = r;
}

// The farthest vertex of either proxy along its direction, scaled, plus
// the radii and a product of the first proxy's vertices.
__attribute__((noinline)) static float reach(const Query *q, Vec d) {
  float best = -1e30f;
  for (int i = 0; i < q->a.count; ++i) {
    float s = q->a.verts[i].x * d.x + q->a.verts[i].y * d.y;
    if (s > best)
      best = s;
  }
  for (int i = 0; i < q->b.count; ++i) {
    float s = q->b.verts[i].x * d.y - q->b.verts[i].y * d.x;
    if (s > best)
      best = s;
  }
  return best * q->scale + q->a.radius + q->b.radius +
         q->a.verts[0].x * q->a.verts[1].x;
}

__attribute__((noinline)) static float solve(const Request *r) {
  Query q;
  q.a = r->a;
  q.b = r->b;
  q.scale = r->t1;
  return reach(&q, Vec{r->t0, r->t2});
}

// p = (a's u, a's v, a's radius, b's u, scale).
static float scene(const float *p) {
  Request r;
  setProxy(&r.a, p[0], p[1], p[2]);
  setProxy(&r.b, p[3], 2.0f, 0.25f);
  r.t0 = 0.6f;
  r.t1 = p[4];
  r.t2 = 0.8f;
  return solve(&r);
}

int main() {
  const int n = 5;
  float p[n] = {0.5f, 1.5f, 0.3f, 0.7f, 1.2f}, dp[n] = {0};
  __enzyme_autodiff((void *)scene, enzyme_dup, p, dp);
  // The farthest: b's second vertex (2, -u_b), 2 * 0.8 + 0.6 u_b.
  double best = 1.6 + 0.6 * p[3];
  double want[n] = {p[1], p[0], 1, 0.6 * p[4], best};
  for (int i = 0; i < n; ++i) {
    CHECK_CLOSE(dp[i], want[i], 1e-5);
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
    CHECK_CLOSE((up - down) / (2 * h), dp[i], 2e-3);
  }
  return check_finish();
}
