/* Shadow structs whose integer tables (counts, ids, list heads) are the
 * primal's own, as Enzyme users often build them (`*ds = *s`, then new
 * arrays for the doubles only), against shadows with tables of their own.
 * Link cells in the manner of CoMD: atoms put into boxes
 * (`nAtoms[iBox]++` after a counter of local atoms: at -O2 a phi of two
 * loads of the count, which forward mode gave the tangent 1 and wrote into
 * the shadow's count, the primal's own there, until 2026-12-06), moved
 * between boxes (records copied, counts raised and lowered), a linked
 * cell list whose heads are set to -1 by memset, counts made in a local
 * array and copied over with a run-time length, counts restored from a
 * constant table. The shadow of a number must never be written: where it
 * is the primal's memory, the primal would see a second write.
 *
 * For each function and both kinds of shadow: forward mode along a
 * direction against the analytic tangent and central differences, reverse
 * mode (and split mode: __enzyme_augmentfwd, __enzyme_reverse) against the
 * tangent, and after every call the primal's integer tables against those
 * of a plain call. */
#include "check.h"

#include <string.h>

extern int enzyme_dup, enzyme_const;
double __enzyme_fwddiff(void *, ...);
void __enzyme_autodiff(void *, ...);
void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);

enum { NB = 4, CAP = 8, NA = 7 };

typedef struct {
  int nLocalBoxes, nLocal;
  int *nAtoms, *gid, *head, *next;
  double *r;
} Cells;

/* The weight of box b in the energy. */
static double weight(int b) { return 1 + 0.5 * b; }

static int box_of(double x) { return (int)floor(x); }

/* CoMD's putAtomInBox, reduced. */
__attribute__((noinline)) static void put(Cells *c, int gid, double x) {
  int b = box_of(x);
  int off = b * CAP + c->nAtoms[b];
  if (b < c->nLocalBoxes)
    c->nLocal++;
  c->nAtoms[b]++;
  c->gid[off] = gid;
  c->r[off] = x;
}

static double box_energy(const Cells *c) {
  double s = 0;
  for (int b = 0; b < NB; ++b)
    for (int k = 0; k < c->nAtoms[b]; ++k)
      s += weight(b) * c->r[b * CAP + k] * c->r[b * CAP + k];
  return s;
}

static void clear(Cells *c) {
  for (int b = 0; b < NB; ++b)
    c->nAtoms[b] = 0;
  c->nLocal = 0;
}

static double put_all(Cells *c, const double *x) {
  clear(c);
  for (int i = 0; i < NA; ++i)
    put(c, i, x[i]);
  return box_energy(c);
}

/* CoMD's moveAtom and copyAtom: the last atom of box i fills the hole. */
__attribute__((noinline)) static void copy_atom(Cells *c, int from, int to) {
  c->gid[to] = c->gid[from];
  memcpy(&c->r[to], &c->r[from], sizeof(double));
}

__attribute__((noinline)) static void move_atom(Cells *c, int k, int i,
                                                int j) {
  int nj = c->nAtoms[j];
  copy_atom(c, i * CAP + k, j * CAP + nj);
  c->nAtoms[j]++;
  c->nAtoms[i]--;
  int ni = c->nAtoms[i];
  if (ni)
    copy_atom(c, i * CAP + ni, i * CAP + k);
}

/* Everything in box 0 first, then each atom moved to its box. */
static double moved(Cells *c, const double *x) {
  clear(c);
  for (int i = 0; i < NA; ++i) {
    c->gid[i] = i;
    c->r[i] = x[i];
  }
  c->nAtoms[0] = NA;
  for (int k = 0; k < c->nAtoms[0];) {
    int b = box_of(c->r[k]);
    if (b != 0)
      move_atom(c, k, 0, b);
    else
      ++k;
  }
  return box_energy(c);
}

/* A linked cell list: heads set to -1 (bytes 0xff), atoms pushed. */
static double linked(Cells *c, const double *x) {
  memset(c->head, 0xff, NB * sizeof(int));
  for (int i = 0; i < NA; ++i) {
    int b = box_of(x[i]);
    c->next[i] = c->head[b];
    c->head[b] = i;
    c->r[i] = x[i];
  }
  double s = 0;
  for (int b = 0; b < NB; ++b)
    for (int i = c->head[b], n = 0; i >= 0 && n < NA; i = c->next[i], ++n)
      s += weight(b) * c->r[i] * c->r[i];
  return s;
}

/* Counts made in a local array, copied over with a run-time length. */
__attribute__((noinline)) static void copy_ints(int *to, const int *from,
                                                int n) {
  memcpy(to, from, n * sizeof(int));
}

static double local_counts(Cells *c, const double *x, int nb) {
  int tmp[nb];
  for (int b = 0; b < nb; ++b)
    tmp[b] = 0;
  for (int i = 0; i < NA; ++i)
    tmp[box_of(x[i])]++;
  copy_ints(c->nAtoms, tmp, nb);
  double s = 0;
  for (int b = 0; b < nb; ++b)
    s += c->nAtoms[b] * weight(b) * x[b] * x[b];
  return s;
}

/* Counts restored from a constant table, then atoms put after them. */
static const int Saved[NB] = {1, 0, 2, 0};

static double restored(Cells *c, const int *saved, const double *x) {
  copy_ints(c->nAtoms, saved, NB);
  for (int i = 0; i < NA; ++i) {
    int b = box_of(x[i]);
    int k = c->nAtoms[b]++;
    c->r[b * CAP + k] = x[i];
  }
  return box_energy(c);
}

/* --- the checks ------------------------------------------------------- */

enum { PUT, MOVED, LINKED, LOCAL, RESTORED, NFUN };
static const char *Names[NFUN] = {"put", "moved", "linked", "local",
                                  "restored"};

typedef struct {
  int nAtoms[NB], gid[NB * CAP], head[NB], next[NA];
  double r[NB * CAP];
} Storage;

static void bind(Cells *c, Storage *s) {
  memset(s, 0, sizeof *s);
  *c = (Cells){2, 0, s->nAtoms, s->gid, s->head, s->next, s->r};
  /* (The atoms restored() keeps: constants.) */
  for (int b = 0; b < NB; ++b)
    for (int k = 0; k < CAP; ++k)
      s->r[b * CAP + k] = 0.25 + 0.125 * k;
}

static double call(int fn, Cells *c, const double *x) {
  switch (fn) {
  case PUT:
    return put_all(c, x);
  case MOVED:
    return moved(c, x);
  case LINKED:
    return linked(c, x);
  case LOCAL:
    return local_counts(c, x, NB);
  default:
    return restored(c, Saved, x);
  }
}

static double tangent(int fn, Cells *c, Cells *dc, double *x, double *dx) {
  switch (fn) {
  case PUT:
    return __enzyme_fwddiff((void *)put_all, enzyme_dup, c, dc, enzyme_dup,
                            x, dx);
  case MOVED:
    return __enzyme_fwddiff((void *)moved, enzyme_dup, c, dc, enzyme_dup, x,
                            dx);
  case LINKED:
    return __enzyme_fwddiff((void *)linked, enzyme_dup, c, dc, enzyme_dup, x,
                            dx);
  case LOCAL:
    return __enzyme_fwddiff((void *)local_counts, enzyme_dup, c, dc,
                            enzyme_dup, x, dx, enzyme_const, NB);
  default:
    return __enzyme_fwddiff((void *)restored, enzyme_dup, c, dc, enzyme_const,
                            Saved, enzyme_dup, x, dx);
  }
}

static void gradient(int fn, Cells *c, Cells *dc, double *x, double *gx) {
  switch (fn) {
  case PUT:
    __enzyme_autodiff((void *)put_all, enzyme_dup, c, dc, enzyme_dup, x, gx);
    break;
  case MOVED:
    __enzyme_autodiff((void *)moved, enzyme_dup, c, dc, enzyme_dup, x, gx);
    break;
  case LINKED:
    __enzyme_autodiff((void *)linked, enzyme_dup, c, dc, enzyme_dup, x, gx);
    break;
  case LOCAL:
    __enzyme_autodiff((void *)local_counts, enzyme_dup, c, dc, enzyme_dup, x,
                      gx, enzyme_const, NB);
    break;
  default:
    __enzyme_autodiff((void *)restored, enzyme_dup, c, dc, enzyme_const, Saved,
                      enzyme_dup, x, gx);
  }
}

/* Split mode for two of them (the tape between the sweeps). */
/* Split mode for two of them (the tape between the sweeps). (One
 * function each: at -O2 the optimizer merges the two branches of one
 * function into a call through a phi of the two functions.) */
static void split_put(Cells *c, Cells *dc, double *x, double *gx) {
  void *t =
      __enzyme_augmentfwd((void *)put_all, enzyme_dup, c, dc, enzyme_dup, x, gx);
  __enzyme_reverse((void *)put_all, enzyme_dup, c, dc, enzyme_dup, x, gx, 1.0,
                   t);
}

static void split_linked(Cells *c, Cells *dc, double *x, double *gx) {
  void *t =
      __enzyme_augmentfwd((void *)linked, enzyme_dup, c, dc, enzyme_dup, x, gx);
  __enzyme_reverse((void *)linked, enzyme_dup, c, dc, enzyme_dup, x, gx, 1.0,
                   t);
}

/* The primal's integer tables after a derivative against a plain call's. */
static void check_tables(const char *what, int fn, const Storage *got,
                         const Storage *want) {
  int same = memcmp(got->nAtoms, want->nAtoms, sizeof got->nAtoms) == 0;
  if (fn == LINKED)
    same = memcmp(got->head, want->head, sizeof got->head) == 0 &&
           memcmp(got->next, want->next, sizeof got->next) == 0;
  if (fn == PUT || fn == MOVED)
    same &= memcmp(got->gid, want->gid, sizeof got->gid) == 0;
  if (!same) {
    printf("FAIL %s %s: the primal's integer tables changed\n", Names[fn],
           what);
    ++check_failures;
  }
}

int main(void) {
  double x[NA] = {0.5, 1.5, 0.25, 2.5, 1.75, 3.5, 2.125};
  double dx[NA] = {1, -2, 3, 0.5, 5, -1.5, 2};
  for (int fn = 0; fn < NFUN; ++fn) {
    /* The primal alone: its tables, energy and central differences. */
    Storage plain;
    Cells c;
    bind(&c, &plain);
    double e = call(fn, &c, x);
    const double h = 1e-6;
    double xp[NA], xm[NA];
    for (int i = 0; i < NA; ++i) {
      xp[i] = x[i] + h * dx[i];
      xm[i] = x[i] - h * dx[i];
    }
    Storage scratch;
    bind(&c, &scratch);
    double fd = (call(fn, &c, xp) - call(fn, &c, xm)) / (2 * h);
    /* d/dt of sum weight * x^2 over the atoms kept, in their boxes. */
    /* (local: of sum count * weight * x[b]^2 over the boxes.) */
    double exact = 0;
    for (int i = 0; i < NA; ++i)
      if (fn != LOCAL)
        exact += 2 * weight(box_of(x[i])) * x[i] * dx[i];
      else if (i < NB)
        exact += 2 * plain.nAtoms[i] * weight(i) * x[i] * dx[i];
    CHECK_CLOSE(fd, exact, 1e-6);
    printf("%s: energy %.6f, tangent %.6f\n", Names[fn], e, exact);

    for (int shared = 0; shared < 2; ++shared) {
      Storage p, own;
      Cells pc, dc;
      double dr[NB * CAP];
      bind(&pc, &p);
      bind(&dc, &own);
      memset(dr, 0, sizeof dr);
      if (shared)
        dc = pc;
      dc.r = dr;
      double t = tangent(fn, &pc, &dc, x, dx);
      CHECK_CLOSE(t, exact, 1e-12);
      check_tables(shared ? "forward (shared)" : "forward", fn, &p, &plain);

      double gx[NA] = {0};
      bind(&pc, &p);
      memset(dr, 0, sizeof dr);
      gradient(fn, &pc, &dc, x, gx);
      double dot = 0;
      for (int i = 0; i < NA; ++i)
        dot += gx[i] * dx[i];
      CHECK_CLOSE(dot, exact, 1e-12);
      check_tables(shared ? "reverse (shared)" : "reverse", fn, &p, &plain);

      if (fn != PUT && fn != LINKED)
        continue;
      double sx[NA] = {0};
      bind(&pc, &p);
      memset(dr, 0, sizeof dr);
      (fn == PUT ? split_put : split_linked)(&pc, &dc, x, sx);
      for (int i = 0; i < NA; ++i)
        CHECK_CLOSE(sx[i], gx[i], 1e-12);
      check_tables(shared ? "split (shared)" : "split", fn, &p, &plain);
    }
  }
  return check_finish();
}
