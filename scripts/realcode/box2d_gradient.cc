// Derivatives through Box2D v2.4 (github.com/erincatto/box2d, tag v2.4.2,
// its sources compiled unchanged and linked; the derivatives of their
// functions are made at link time). Each scene builds its own b2World
// (block and stack allocators, bodies and contacts linked by pointers,
// shapes called through virtual functions) inside the differentiated
// function, steps it, and returns a weighted sum of one body's final
// position and angle. The inputs are the body's initial linear and angular
// velocity and the gravity:
//
//  flight:   a circle in free fall, no contact: the derivatives against
//            their exact values for Box2D's semi-implicit Euler steps;
//  slide:    a box thrown along the ground (the contact solver's friction
//            and its clamps, the position correction);
//  bounce:   a circle thrown onto the ground with restitution 0.5;
//  stack:    a small box thrown onto a box resting on the ground (contacts
//            between two moving bodies);
//  tumble:   a box thrown spinning onto the ground, then sliding.
//
// Reverse mode (__enzyme_autodiff) against forward mode (__enzyme_fwddiff,
// one input at a time), both against central differences of the float
// simulation (loose tolerance: Box2D computes in float). Run by box2d.sh.
#include "box2d/box2d.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

extern int enzyme_dup, enzyme_const;
float __enzyme_autodiff(void *, ...);
float __enzyme_fwddiff(void *, ...);

// The joints' Dump functions (virtual, so differentiated with every
// joint's vtable though never called) print through the variadic b2Dump,
// which carries no derivative.
void *__enzyme_inactivefn_b2Dump[] = {(void *)b2Dump};

// The joints' Draw functions (virtual too) call b2Draw's virtual functions,
// which the program never calls: a debug drawer that draws nothing gives
// those calls a target.
struct NoDraw : b2Draw {
  void DrawPolygon(const b2Vec2 *, int32, const b2Color &) override {}
  void DrawSolidPolygon(const b2Vec2 *, int32, const b2Color &) override {}
  void DrawCircle(const b2Vec2 &, float, const b2Color &) override {}
  void DrawSolidCircle(const b2Vec2 &, float, const b2Vec2 &,
                       const b2Color &) override {}
  void DrawSegment(const b2Vec2 &, const b2Vec2 &, const b2Color &) override {}
  void DrawTransform(const b2Transform &) override {}
  void DrawPoint(const b2Vec2 &, float, const b2Color &) override {}
};
NoDraw drawer;

namespace {

enum Scene { Flight, Slide, Bounce, Stack, Tumble, SceneCount };
const char *const SceneNames[] = {"flight", "slide", "bounce", "stack",
                                  "tumble"};
constexpr int Inputs = 4; // vx, vy, angular velocity, gravity
constexpr float Step = 1.0f / 60.0f;

b2Body *ground(b2World &world) {
  b2BodyDef def;
  def.position.Set(0.0f, -10.0f);
  b2Body *g = world.CreateBody(&def);
  b2PolygonShape box;
  box.SetAsBox(50.0f, 10.0f);
  g->CreateFixture(&box, 0.0f);
  return g;
}

b2Body *dynamicBody(b2World &world, float x, float y) {
  b2BodyDef def;
  def.type = b2_dynamicBody;
  def.position.Set(x, y);
  def.allowSleep = false;
  return world.CreateBody(&def);
}

// The scene's objective after `steps` steps: p = (vx, vy, w, g).
float simulate(const float *p, int scene, int steps) {
  b2World world(b2Vec2(0.0f, p[3]));
  world.SetDebugDraw(&drawer);
  b2Body *body = nullptr;
  switch (scene) {
  case Flight: {
    body = dynamicBody(world, 0.0f, 10.0f);
    b2CircleShape c;
    c.m_radius = 0.5f;
    body->CreateFixture(&c, 1.0f);
    break;
  }
  case Slide: {
    ground(world);
    body = dynamicBody(world, 0.0f, 0.5f);
    b2PolygonShape box;
    box.SetAsBox(0.5f, 0.5f);
    b2FixtureDef fd;
    fd.shape = &box;
    fd.density = 1.0f;
    fd.friction = 0.3f;
    body->CreateFixture(&fd);
    break;
  }
  case Bounce: {
    ground(world);
    body = dynamicBody(world, 0.0f, 2.0f);
    b2CircleShape c;
    c.m_radius = 0.5f;
    b2FixtureDef fd;
    fd.shape = &c;
    fd.density = 1.0f;
    fd.friction = 0.2f;
    fd.restitution = 0.5f;
    body->CreateFixture(&fd);
    break;
  }
  case Stack: {
    ground(world);
    b2Body *below = dynamicBody(world, 0.0f, 0.5f);
    b2PolygonShape box;
    box.SetAsBox(0.5f, 0.5f);
    b2FixtureDef fd;
    fd.shape = &box;
    fd.density = 1.0f;
    fd.friction = 0.6f;
    below->CreateFixture(&fd);
    body = dynamicBody(world, 0.1f, 1.6f);
    box.SetAsBox(0.3f, 0.3f);
    fd.density = 2.0f;
    body->CreateFixture(&fd);
    break;
  }
  default: {
    ground(world);
    body = dynamicBody(world, 0.0f, 1.5f);
    b2PolygonShape box;
    box.SetAsBox(0.5f, 0.25f);
    b2FixtureDef fd;
    fd.shape = &box;
    fd.density = 1.0f;
    fd.friction = 0.4f;
    body->CreateFixture(&fd);
    break;
  }
  }
  body->SetLinearVelocity(b2Vec2(p[0], p[1]));
  body->SetAngularVelocity(p[2]);
  for (int i = 0; i < steps; ++i)
    world.Step(Step, 8, 3);
  b2Vec2 x = body->GetPosition();
  return x.x + 0.5f * x.y + 0.25f * body->GetAngle();
}

int failures = 0, checks = 0;

void check(const char *scene, const char *what, int i, double got,
           double want, double tol) {
  bool ok = std::fabs(got - want) <= tol * (1 + std::fabs(want));
  ++checks;
  std::printf("%-8s d/dp[%d] %-22s %+.6e, expected %+.6e%s\n", scene, i, what,
              got, want, ok ? "" : "  FAIL");
  failures += !ok;
}

void run(int scene, int steps, const float *p0) {
  const char *name = SceneNames[scene];
  float p[Inputs], dp[Inputs] = {0};
  std::memcpy(p, p0, sizeof p);
  __enzyme_autodiff((void *)simulate, enzyme_dup, p, dp, enzyme_const, scene,
                    enzyme_const, steps);
  for (int i = 0; i < Inputs; ++i) {
    float t[Inputs] = {0};
    t[i] = 1.0f;
    float fwd = __enzyme_fwddiff((void *)simulate, enzyme_dup, p, t,
                                 enzyme_const, scene, enzyme_const, steps);
    check(name, "forward vs reverse", i, fwd, dp[i], 1e-4);
    // Central differences in float: steps large enough for float's
    // rounding, small enough for the contact events not to change.
    float h = 1e-2f * (1.0f + std::fabs(p[i]));
    float keep = p[i];
    p[i] = keep + h;
    double up = simulate(p, scene, steps);
    p[i] = keep - h;
    double down = simulate(p, scene, steps);
    p[i] = keep;
    check(name, "reverse vs differences", i, dp[i], (up - down) / (2 * h),
          2e-2);
  }
  if (scene == Flight) {
    // Box2D's step: v += h g, then x += h v (no damping, no clamp at these
    // speeds): x_N = x_0 + N h v_0 + h^2 g N (N + 1) / 2. Objective
    // x + 0.5 y + 0.25 angle, the angle = N h w.
    double n = steps, hh = Step;
    check(name, "reverse vs exact", 0, dp[0], n * hh, 1e-4);
    check(name, "reverse vs exact", 1, dp[1], 0.5 * n * hh, 1e-4);
    check(name, "reverse vs exact", 2, dp[2], 0.25 * n * hh, 1e-4);
    check(name, "reverse vs exact", 3, dp[3],
          0.5 * hh * hh * n * (n + 1) / 2, 1e-4);
  }
}

} // namespace

int main(int argc, char **argv) {
  int steps = argc > 1 ? std::atoi(argv[1]) : 60;
  static const float start[SceneCount][Inputs] = {
      {3.0f, 4.0f, 0.5f, -10.0f},  // flight
      {4.0f, 0.0f, 0.0f, -10.0f},  // slide
      {2.0f, -1.0f, 0.3f, -10.0f}, // bounce
      {0.5f, 1.0f, 0.5f, -10.0f},  // stack
      {1.5f, 1.0f, 3.0f, -10.0f},  // tumble
  };
  for (int s = 0; s < SceneCount; ++s)
    if (argc <= 2 || !std::strcmp(argv[2], SceneNames[s]))
      run(s, steps, start[s]);
  std::printf("box2d: %d checks, %d failures\n", checks, failures);
  return failures != 0;
}
