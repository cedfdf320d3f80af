/* Fields of packed structs read by every thread of an OpenMP region, in
 * both modes, with teams of 1, 2 and 4 threads (omp_check.h). Their
 * adjoints are added atomically, and a packed field is loaded at alignment
 * 1: an atomic add at that alignment was lowered to a call of libatomic's
 * __atomic_compare_exchange, and the program did not link (found on
 * miniBUDE, whose atoms are `struct __attribute__((packed)) {float x, y, z;
 * int32_t type;}`). Now aligned addresses take an atomic instruction and
 * misaligned ones (a double after a char) the runtime's add under a lock. */
#define N 12
#include "omp_check.h"

#include <stdint.h>

struct __attribute__((packed)) atom {
  float x, y, z;
  int32_t type;
};

/* v at offset 1: never aligned in an array of these. */
struct __attribute__((packed)) record {
  char tag;
  double v;
  short k;
};

static double packed_reads(const double *x, double *y, int n) {
  struct atom a[4];
  struct record r[3];
  for (int i = 0; i < 4; ++i) {
    a[i].x = (float)x[i];
    a[i].y = (float)x[i + 4];
    a[i].z = (float)(0.5 * x[i + 8]);
    a[i].type = i % 2;
  }
  for (int j = 0; j < 3; ++j) {
    r[j].tag = (char)j;
    r[j].v = x[8 + j] * x[8 + j] + x[n - 1];
    r[j].k = (short)(j + 1);
  }
  double s = 0;
#pragma omp parallel for reduction(+ : s) schedule(static, 3)
  for (int i = 0; i < 48; ++i) {
    struct atom q = a[i % 4];
    const struct record *p = &r[(i * 7) % 3];
    double w = q.type ? 1.5 : 0.5;
    s += w * q.x * q.y + sin(q.z) * p->v + p->v * p->v * p->k;
  }
  y[0] = s;
  return s;
}

DERIVATIVES(packed_reads)

int main(void) {
  /* (Steps of 1e-3: the atoms hold floats.) */
  CHECK_GRADIENT(packed_reads, 1e-3, 2e-3);
  return check_finish();
}
