/* Batched forward mode through local arrays indexed at run time: a chain
 * of 4x4 transforms, each bone's posed from its parent's (the index read
 * from an array, as the ADBench hand model's skeleton), zeroed angles, and
 * a sum over the posed points.  Those local arrays are only read and
 * written as doubles, so their shadows hold the lanes side by side
 * (forward-mode.md, "Performance"), also where callees of this file
 * write and read them; an array a callee uses otherwise keeps one shadow
 * per lane.  Every lane at widths 2, 3, 4 and 8 must equal the
 * width-1 tangent of its direction, and those central differences. */
#include "fwd_check.h"
#include <string.h>

enum { NB = 7, NT = 2 * NB + 2 };

typedef struct {
  double d[2];
} d2;
typedef struct {
  double d[3];
} d3;
typedef struct {
  double d[4];
} d4;
typedef struct {
  double d[8];
} d8;
d2 __enzyme_fwddiff_w2(void *, ...);
d3 __enzyme_fwddiff_w3(void *, ...);
d4 __enzyme_fwddiff_w4(void *, ...);
d8 __enzyme_fwddiff_w8(void *, ...);

/* A callee that receives a local array: that array's shadows stay one per
 * lane. */
__attribute__((noinline)) static double weigh(const double *v, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += v[i] * (1 + 0.1 * i);
  return s;
}

/* The transforms written by one callee and read by another through
 * indices read from memory (a vertex's bones), which passes them on to a
 * third: the array's shadows go to the callees with their lanes side by
 * side. */
__attribute__((noinline)) static void fill(const double *th, int nb,
                                           double *A) {
  for (int b = 0; b < nb; ++b)
    for (int i = 0; i < 12; ++i)
      A[12 * b + i] = cos(th[b] + 0.1 * i) * th[(b + i) % nb];
}
__attribute__((noinline)) static double row(const double *Ab,
                                            const double *x) {
  return Ab[0] * x[0] + Ab[1] * x[1] + Ab[2] * x[2] + Ab[3];
}
__attribute__((noinline)) static double skin(const double *A,
                                             const int *bones, int nw) {
  static const double x[3] = {0.3, -0.2, 0.5};
  double s = 0;
  for (int k = 0; k < nw; ++k) {
    const double *Ab = &A[12 * bones[k]];
    s += row(Ab, x) * row(Ab + 4, x) + row(Ab + 8, x) / (2 + k);
  }
  return s;
}

static double pose(const double *th, const int *parent, int nb) {
  double ang[NB][3], absT[NB][16], tip[NB];
  memset(ang, 0, sizeof ang);
  for (int b = 0; b < nb; ++b) {
    ang[b][0] = th[b];
    ang[b][2] = th[nb + b] * th[b];
  }
  for (int b = 0; b < nb; ++b) {
    double cx = cos(ang[b][0]), sx = sin(ang[b][0]);
    double cz = cos(ang[b][2]), sz = sin(ang[b][2]);
    double rel[16] = {cz, -sz * cx, sz * sx, 0.5 + th[2 * nb],
                      sz, cz * cx,  -cz * sx, 0.25 * b,
                      0,  sx,       cx,       th[2 * nb + 1],
                      0,  0,        0,        1};
    int p = parent[b];
    if (p < 0) {
      for (int i = 0; i < 16; ++i)
        absT[b][i] = rel[i];
    } else {
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) {
          double s = 0;
          for (int k = 0; k < 4; ++k)
            s += absT[p][4 * i + k] * rel[4 * k + j];
          absT[b][4 * i + j] = s;
        }
    }
    tip[b] = absT[b][3] * absT[b][3] + absT[b][7] * absT[b][11];
  }
  double s = 0;
  for (int b = 0; b < nb; ++b)
    for (int i = 0; i < 12; ++i)
      s += absT[b][i] * (i + 1) / (b + 2.0);
  double A[12 * NB];
  fill(th, nb, A);
  return sin(s) + weigh(tip, nb) + skin(A, parent + 1, nb - 1);
}

static const int Parent[NB] = {-1, 0, 1, 2, 0, 4, 1};
static double Theta[NT];
static int Dir;
static double along(double t) {
  double th[NT];
  memcpy(th, Theta, sizeof th);
  th[Dir] += t;
  return pose(th, Parent, NB);
}

int main(void) {
  for (int k = 0; k < NT; ++k)
    Theta[k] = 0.3 * sin(1.7 * k + 0.4) + 0.05 * k;
  int parent[NB];
  memcpy(parent, Parent, sizeof parent);
  double one[NT], dth[8][NT], ref[NT];
  for (int k = 0; k < NT; ++k) {
    memset(one, 0, sizeof one);
    one[k] = 1;
    ref[k] = __enzyme_fwddiff((void *)pose, enzyme_dup, Theta, one,
                              enzyme_const, parent, enzyme_const, NB);
    Dir = k;
    CHECK_CLOSE(ref[k], fd_central(along, 0), FWD_TOL_FD);
  }
  /* Lane l of a call starting at column k: direction k + l (mod NT). */
  for (int k = 0; k < NT; k += 3) {
    for (int l = 0; l < 8; ++l) {
      memset(dth[l], 0, sizeof dth[l]);
      dth[l][(k + l) % NT] = 1;
    }
    d2 r2 = __enzyme_fwddiff_w2((void *)pose, enzyme_width, 2, enzyme_dup,
                                Theta, dth[0], dth[1], enzyme_const, parent,
                                enzyme_const, NB);
    d3 r3 = __enzyme_fwddiff_w3((void *)pose, enzyme_width, 3, enzyme_dup,
                                Theta, dth[0], dth[1], dth[2], enzyme_const,
                                parent, enzyme_const, NB);
    d4 r4 = __enzyme_fwddiff_w4((void *)pose, enzyme_width, 4, enzyme_dup,
                                Theta, dth[0], dth[1], dth[2], dth[3],
                                enzyme_const, parent, enzyme_const, NB);
    d8 r8 = __enzyme_fwddiff_w8((void *)pose, enzyme_width, 8, enzyme_dup,
                                Theta, dth[0], dth[1], dth[2], dth[3], dth[4],
                                dth[5], dth[6], dth[7], enzyme_const, parent,
                                enzyme_const, NB);
    for (int l = 0; l < 8; ++l) {
      double want = ref[(k + l) % NT];
      if (l < 2)
        CHECK_CLOSE(r2.d[l], want, 1e-12);
      if (l < 3)
        CHECK_CLOSE(r3.d[l], want, 1e-12);
      if (l < 4)
        CHECK_CLOSE(r4.d[l], want, 1e-12);
      CHECK_CLOSE(r8.d[l], want, 1e-12);
    }
  }
  /* The primal is untouched by the lanes. */
  CHECK_CLOSE(pose(Theta, parent, NB), along(0), 0);
  return check_finish();
}
