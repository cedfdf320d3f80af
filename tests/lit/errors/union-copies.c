// A union of integer views (four bytes or one unsigned int, as Box2D's
// b2ContactID) copied out of an array of structs that also hold floats,
// its features then swapped: the union's IR type names one member only;
// the frontend records that no member is a float (IntegerUnions.h), and
// at -O0 and -O1 the copy is differentiated (e2e rev_union_ids.c; refused
// at -O0 until 2026-12-06). From -O2, where the loop's accesses no longer
// name the struct, the byte stores of the swap are still refused at their
// line ("a floating-point value is copied as an integer"), never a
// derivative that loses or invents adjoints (status.md).
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=O2 %s
extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);

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

__attribute__((noinline)) static void keep(point *out, const clip *in, int n) {
  for (int i = 0; i < n; ++i) {
    out[i].local.x = 2 * in[i].v.x;
    out[i].local.y = in[i].v.y;
    out[i].impulse = 0;
    out[i].id = in[i].id;
    if (i) { // swap the features, as b2CollidePolygons does when flipped
      feature f = out[i].id.cf;
      out[i].id.cf.a = f.b;
      // O2: union-copies.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'keep' in reverse mode: a floating-point value is copied as an integer
      out[i].id.cf.b = f.a;
    }
  }
}

static float f(const float *p) {
  clip c[2] = {{{p[0], p[1]}, {{1, 2, 3, 4}}}, {{p[1], p[0]}, {{5, 6, 7, 8}}}};
  point m[2];
  keep(m, c, 2);
  return m[0].local.x * m[1].local.y + m[1].local.x + m[0].id.cf.a;
}

void df(const float *p, float *dp) {
  __enzyme_autodiff((void *)f, enzyme_dup, p, dp);
}
