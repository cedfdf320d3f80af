/* Enzyme's batched primal, __enzyme_batch: enzyme_width lanes of a
 * function, with vector (one value per lane, the default), scalar (one
 * value for all) and buffer (a pointer advanced by a stride per lane)
 * arguments; results as a struct of the lanes' results, small (in
 * registers) and large (through memory), in C at every level. */
#include "check.h"

typedef struct {
  double x1, x2, x3, x4;
} vec4;
typedef struct {
  double a, b;
} vec2;
typedef struct {
  float v[3];
} vec3f;
vec4 __enzyme_batch(void *, ...);
vec2 __enzyme_batch2(void *, ...);
vec3f __enzyme_batch3f(void *, ...);
void __enzyme_batchv(void *, ...);
extern int enzyme_width, enzyme_vector, enzyme_scalar, enzyme_buffer;

static double square(double x) { return x * x; }
static double axpy(double a, double x, double y) { return a * x + y; }
static float scaled(float x, int k) { return x * (float)k; }
static void update(double *p, double s) {
  p[0] *= s;
  p[1] += s;
}

int main(void) {
  vec4 r = __enzyme_batch((void *)square, enzyme_width, 4, enzyme_vector, 1.0,
                          2.0, 3.0, 4.0);
  CHECK_CLOSE(r.x1, 1, 0);
  CHECK_CLOSE(r.x2, 4, 0);
  CHECK_CLOSE(r.x3, 9, 0);
  CHECK_CLOSE(r.x4, 16, 0);
  vec2 s = __enzyme_batch2((void *)axpy, enzyme_width, 2, enzyme_scalar, 10.0,
                           1.0, 2.0, enzyme_scalar, 0.5);
  CHECK_CLOSE(s.a, 10.5, 0);
  CHECK_CLOSE(s.b, 20.5, 0);
  /* floats and ints through the variadic call (promoted, converted back) */
  vec3f t = __enzyme_batch3f((void *)scaled, enzyme_width, 3, 1.5f, 2.5f,
                             -1.0f, enzyme_scalar, 4);
  CHECK_CLOSE(t.v[0], 6, 0);
  CHECK_CLOSE(t.v[1], 10, 0);
  CHECK_CLOSE(t.v[2], -4, 0);
  double buf[6] = {1, 2, 3, 4, 5, 6};
  __enzyme_batchv((void *)update, enzyme_width, 3, enzyme_buffer,
                  2 * sizeof(double), buf, enzyme_scalar, 2.0);
  const double want[6] = {2, 4, 6, 6, 10, 8};
  for (int i = 0; i < 6; ++i)
    CHECK_CLOSE(buf[i], want[i], 0);
  return check_finish();
}
