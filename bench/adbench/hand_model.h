/*===- hand_model.h - The hand model and data of hand.c ------------------===*
 *
 * The types of hand.c's model (bones, rest positions, skinning weights,
 * triangles) and data (correspondences and points), and the reading of the
 * model's files (bones.txt, vertices.txt, triangles.txt in model/ next to
 * a data file).
 *
 *===----------------------------------------------------------------------===*/
#ifndef ADCC_BENCH_HAND_MODEL_H
#define ADCC_BENCH_HAND_MODEL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Model and data ------------------------------------------------------ */

enum { MAXB = 32, NTHETA = 26 };

typedef struct {
  int nb, nv, nt;
  int parent[MAXB];
  double B[MAXB][16], Binv[MAXB][16]; /* row-major 4x4                     */
  double *rest;                       /* 3 nv rest positions               */
  int *wstart, *wbone;                /* skinning weights of vertex j:     */
  double *wval;                       /* wstart[j] .. wstart[j+1]-1        */
  int *tri;                           /* 3 nt vertex indices               */
} model_t;

typedef struct {
  model_t m;
  int N, complicated;
  int *corr; /* vertex (simple) or triangle (complicated) of point i       */
  double *y; /* 3N data points                                             */
} hand_data;

static void *xalloc(size_t bytes) {
  void *p = calloc(1, bytes ? bytes : 1);
  if (!p) {
    fprintf(stderr, "hand: out of memory\n");
    exit(2);
  }
  return p;
}

static FILE *open_in(const char *dir, const char *name) {
  char path[4096];
  snprintf(path, sizeof path, "%s%s", dir, name);
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "hand: cannot open %s\n", path);
    exit(2);
  }
  return f;
}

static void bad_file(const char *what) {
  fprintf(stderr, "hand: malformed %s\n", what);
  exit(2);
}

/* The next ':'-separated field of *s as a number. */
static double field(char **s, const char *what) {
  char *end;
  double v = strtod(*s, &end);
  if (end == *s)
    bad_file(what);
  *s = *end == ':' ? end + 1 : end;
  return v;
}

/* Counts the lines of f that are not empty, and rewinds it. */
static int count_lines(FILE *f, char *line, size_t len) {
  int n = 0;
  while (fgets(line, (int)len, f))
    n += line[0] != '\n' && line[0] != '\r' && line[0] != 0;
  rewind(f);
  return n;
}

static void read_model(model_t *m, const char *dir) {
  static char line[1 << 16];
  FILE *f = open_in(dir, "bones.txt");
  m->nb = 0;
  while (fgets(line, sizeof line, f)) {
    char *s = strchr(line, ':'); /* skip the name */
    if (!s)
      continue;
    if (m->nb == MAXB)
      bad_file("bones.txt (too many bones)");
    s++;
    int b = m->nb++;
    m->parent[b] = (int)field(&s, "bones.txt");
    for (int k = 0; k < 16; k++)
      m->B[b][k] = field(&s, "bones.txt");
    for (int k = 0; k < 16; k++)
      m->Binv[b][k] = field(&s, "bones.txt");
    if (m->parent[b] >= b)
      bad_file("bones.txt (parent after child)");
  }
  fclose(f);
  if (m->nb < 21)
    bad_file("bones.txt (fewer than 21 bones)");

  f = open_in(dir, "vertices.txt");
  m->nv = count_lines(f, line, sizeof line);
  m->rest = xalloc(3 * (size_t)m->nv * sizeof(double));
  m->wstart = xalloc(((size_t)m->nv + 1) * sizeof(int));
  m->wbone = xalloc((size_t)m->nv * MAXB * sizeof(int));
  m->wval = xalloc((size_t)m->nv * MAXB * sizeof(double));
  int nw = 0;
  for (int j = 0; j < m->nv; j++) {
    if (!fgets(line, sizeof line, f))
      bad_file("vertices.txt");
    char *s = line;
    for (int k = 0; k < 8; k++) {
      double v = field(&s, "vertices.txt");
      if (k < 3)
        m->rest[3 * j + k] = v;
    }
    int cnt = (int)field(&s, "vertices.txt");
    if (cnt < 0 || cnt > MAXB)
      bad_file("vertices.txt (weight count)");
    m->wstart[j] = nw;
    for (int k = 0; k < cnt; k++, nw++) {
      m->wbone[nw] = (int)field(&s, "vertices.txt");
      m->wval[nw] = field(&s, "vertices.txt");
      if (m->wbone[nw] < 0 || m->wbone[nw] >= m->nb)
        bad_file("vertices.txt (bone index)");
    }
  }
  m->wstart[m->nv] = nw;
  fclose(f);

  f = open_in(dir, "triangles.txt");
  m->nt = count_lines(f, line, sizeof line);
  m->tri = xalloc(3 * (size_t)m->nt * sizeof(int));
  for (int t = 0; t < m->nt; t++) {
    if (!fgets(line, sizeof line, f))
      bad_file("triangles.txt");
    char *s = line;
    for (int k = 0; k < 3; k++) {
      m->tri[3 * t + k] = (int)field(&s, "triangles.txt");
      if (m->tri[3 * t + k] < 0 || m->tri[3 * t + k] >= m->nv)
        bad_file("triangles.txt (vertex index)");
    }
  }
  fclose(f);
}

#endif /* ADCC_BENCH_HAND_MODEL_H */
