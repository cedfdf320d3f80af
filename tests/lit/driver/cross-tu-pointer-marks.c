// Marks of pointer shadows (issue 33) for gradients made at link time: the
// requesting file cannot know whether the derivative of another file's
// function marks pointer shadows, nor on which tape level it records
// (above 0 where the function nests requests: item (3) of the known bug),
// so it calls functions that the link step makes with the derivative
// (`__adcc_xtu.mb.`, `__adcc_xtu.me.`), which begin and end the marks on
// that level or do nothing. Before, such a request began no marks (the
// requesting file used none), or began them on level 0: a float then a
// pointer in the same bytes gave adjoints near 2^24 at -O0 (32 of 32
// checks wrong, with or without a nested request). The shadows of the
// stored pointers lie on a page at an address whose low 32 bits, read as a
// float, are 2^23 or more.
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %adcc -O0 -c callee.c main.c && %adcc main.o callee.o -o prog0 -lm
// RUN: ./prog0 | FileCheck %s
// RUN: llvm-nm main.o | FileCheck %s --check-prefix=NAMES
// RUN: %adcc -O1 -c callee.c main.c && %adcc main.o callee.o -o prog1 -lm
// RUN: ./prog1 | FileCheck %s
// RUN: %adcc -O2 -c callee.c main.c && %adcc main.o callee.o -o prog2 -lm
// RUN: ./prog2 | FileCheck %s
// RUN: %adcc -O3 -c callee.c main.c && %adcc main.o callee.o -o prog3 -lm
// RUN: ./prog3 | FileCheck %s
// RUN: %adcc -O0 main.c callee.c -o one0 -lm && ./one0 | FileCheck %s
// CHECK: plain: 0 wrong
// CHECK: nested: 0 wrong
// NAMES-DAG: U __adcc_xtu.mb.a1.011.dd.O0.plain
// NAMES-DAG: U __adcc_xtu.me.a1.011.dd.O0.plain
// NAMES-DAG: U __adcc_xtu.mb.a1.011.dd.O0.nested

//--- callee.c
#include <stdlib.h>
extern int enzyme_dup, enzyme_const;
float __enzyme_autodiff(void *, ...);
enum { N = 16 };
struct particle {
  float pos, vel;
  float pad[14];
};
__attribute__((noinline)) static void link_block(void *block, void *next) {
  *(void **)block = next;
}
static float inner(float y) { return y * y; }
/* sum_i 2 x_i^3 (+ 2 x_i from a nested gradient): a float then a pointer
   in one block, a pointer then a float in another */
static float blocks(float *x, float **where, int nest) {
  float s = 0;
  for (int i = 0; i < N; ++i) {
    struct particle *q = malloc(sizeof *q);
    q->pos = x[i] * x[i];
    float r = q->pos * x[i];
    link_block(q, x + i);
    if (nest)
      r += __enzyme_autodiff((void *)inner, x[i]);
    struct particle *p = malloc(sizeof *p);
    link_block(p, x + i);
    p->pos = x[i] * x[i];
    r += p->pos * x[i];
    where[i] = x + i;
    free(q);
    free(p);
    s += r;
  }
  return s;
}
float plain(float *x, float **where) { return blocks(x, where, 0); }
float nested(float *x, float **where) { return blocks(x, where, 1); }

//--- main.c
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
extern int enzyme_dup, enzyme_const;
float __enzyme_autodiff(void *, ...);
enum { N = 16 };
float plain(float *x, float **where);
float nested(float *x, float **where);
static void *large_bits_page(void) {
  for (uintptr_t a = 0x4b000000; a <= 0x4e000000; a += 0x01000000) {
    void *p = mmap((void *)a, 4096, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (p == (void *)a)
      return p;
    if (p != MAP_FAILED)
      munmap(p, 4096);
  }
  return malloc(4096);
}
int main(void) {
  char *page = large_bits_page();
  float x[N], *where[N];
  float *dx = (float *)page;
  float **dwhere = (float **)(page + 2048);
  for (int i = 0; i < N; ++i)
    x[i] = 0.5f + 0.0125f * i;
  for (int nest = 0; nest < 2; ++nest) {
    int wrong = 0;
    for (int run = 0; run < 2; ++run) {
      for (int i = 0; i < N; ++i) {
        dx[i] = 0;
        dwhere[i] = NULL;
      }
      if (nest)
        __enzyme_autodiff((void *)nested, enzyme_dup, x, dx, enzyme_dup,
                          where, dwhere);
      else
        __enzyme_autodiff((void *)plain, enzyme_dup, x, dx, enzyme_dup, where,
                          dwhere);
      for (int i = 0; i < N; ++i) {
        double want = 6.0 * x[i] * x[i] + (nest ? 2 : 0);
        wrong += !(fabs(dx[i] - want) <= 1e-5 * want);
        wrong += dwhere[i] != dx + i;
      }
    }
    printf("%s: %d wrong\n", nest ? "nested" : "plain", wrong);
  }
  return 0;
}
