/* heat_mpi.c: the gradient of an explicit 2-D heat equation with a cubic
 * reaction term, its grid split into strips of rows over MPI ranks that
 * exchange one halo row with each neighbour per step (MPI_Isend, MPI_Irecv,
 * MPI_Waitall), differentiated by adcc in reverse mode with respect to the
 * initial field (docs/parallel.md#mpi). Run under mpirun with 1, 2, 4, ...
 * ranks; the grid is the same at every rank count (the rows divided among
 * the ranks). Columns (rank 0): primal and gradient time (median of
 * samples, all ranks between barriers), their ratio, and the check of the
 * gradient: central differences of the loss along a random direction
 * against the gradient's dot product with it, over all ranks. A benchmark,
 * not a test.
 *
 *   mpirun -np P heat_mpi [--quick] [--samples N] [--json FILE]
 *
 * With --json, rank 0 writes a JSON array of one record (benchmark, size,
 * ranks, primal_s, gradient_s, gradient_ratio, verified, max_rel_err) that
 * bench/run puts into its report.
 */
#include "../common/measure.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const;
extern void __enzyme_autodiff(void *, ...);

typedef struct {
  int nx, rows; /* columns; rows of this rank's strip */
  int steps;
  double nu, r; /* diffusion number, reaction rate */
  int up, down; /* neighbour ranks, or MPI_PROC_NULL at the edges */
} heat_grid;

/* One explicit step: u and next hold rows + 2 rows of nx, the first and
 * last the halo rows, filled from the neighbours (zero beyond the grid's
 * edges, where the neighbour is MPI_PROC_NULL). */
static void heat_step(double *u, double *next, const heat_grid *g) {
  int nx = g->nx, rows = g->rows;
  MPI_Request req[4];
  MPI_Irecv(u, nx, MPI_DOUBLE, g->up, 1, MPI_COMM_WORLD, &req[0]);
  MPI_Irecv(&u[(size_t)(rows + 1) * nx], nx, MPI_DOUBLE, g->down, 2,
            MPI_COMM_WORLD, &req[1]);
  MPI_Isend(&u[(size_t)rows * nx], nx, MPI_DOUBLE, g->down, 1, MPI_COMM_WORLD,
            &req[2]);
  MPI_Isend(&u[nx], nx, MPI_DOUBLE, g->up, 2, MPI_COMM_WORLD, &req[3]);
  MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
  for (int i = 1; i <= rows; ++i)
    for (int j = 0; j < nx; ++j) {
      size_t k = (size_t)i * nx + j;
      double c = u[k];
      double w = j ? u[k - 1] : 0, e = j + 1 < nx ? u[k + 1] : 0;
      next[k] = c + g->nu * (u[k - nx] + u[k + nx] + w + e - 4 * c) -
                g->r * c * c * c;
    }
}

/* This rank's part of the loss: the sum of squares of the field after
 * g->steps steps from u0 (rows x nx; the loss is the sum over the
 * ranks). */
double heat_loss(const double *u0, const heat_grid *g) {
  size_t nx = (size_t)g->nx, len = (size_t)g->rows * nx;
  double *u = calloc(len + 2 * nx, sizeof(double));
  double *next = calloc(len + 2 * nx, sizeof(double));
  memcpy(u + nx, u0, sizeof(double) * len);
  for (int t = 0; t < g->steps; ++t) {
    heat_step(u, next, g);
    double *swap = u;
    u = next;
    next = swap;
  }
  double s = 0;
  for (size_t k = nx; k < len + nx; ++k)
    s += u[k] * u[k];
  free(u);
  free(next);
  return s;
}

static double sum_ranks(double v) {
  double s;
  MPI_Allreduce(&v, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return s;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size, quick = 0, samples = 5;
  FILE *json = NULL;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--quick"))
      quick = 1;
    else if (!strcmp(argv[i], "--samples") && i + 1 < argc)
      samples = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--json") && i + 1 < argc) {
      ++i;
      if (rank == 0 && !(json = fopen(argv[i], "w"))) {
        perror(argv[i]);
        MPI_Abort(MPI_COMM_WORLD, 2);
      }
    } else if (!strcmp(argv[i], "--min-time") && i + 1 < argc) {
      ++i; /* (one run per sample: a step costs milliseconds) */
    } else {
      if (rank == 0)
        fprintf(stderr, "usage: heat_mpi [--quick] [--samples N] "
                        "[--json FILE]\n");
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
  }
  if (samples < 1)
    samples = 1;
  int ny = quick ? 64 : 256, nx = ny;
  heat_grid g = {nx,           0, quick ? 20 : 50, 0.2, 0.05, MPI_PROC_NULL,
                 MPI_PROC_NULL};
  int first = (int)((long)ny * rank / size);
  g.rows = (int)((long)ny * (rank + 1) / size) - first;
  if (rank > 0)
    g.up = rank - 1;
  if (rank + 1 < size)
    g.down = rank + 1;
  size_t len = (size_t)g.rows * nx;
  double *u0 = malloc(sizeof(double) * len), *d_u0 = calloc(len, 8);
  double *dir = malloc(sizeof(double) * len), *probe = malloc(8 * len);
  for (size_t k = 0; k < len; ++k) {
    int i = first + (int)(k / (size_t)nx), j = (int)(k % (size_t)nx);
    u0[k] = 0.5 + 0.4 * sin(0.1 * i) * cos(0.07 * j);
  }
  rng_state += (uint64_t)rank * 7919;
  for (size_t k = 0; k < len; ++k)
    dir[k] = urand(-1, 1);

  double *tp = malloc(sizeof(double) * samples);
  double *tg = malloc(sizeof(double) * samples);
  for (int s = 0; s < samples; ++s) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    volatile double loss = heat_loss(u0, &g);
    (void)loss;
    MPI_Barrier(MPI_COMM_WORLD);
    double t1 = MPI_Wtime();
    memset(d_u0, 0, sizeof(double) * len);
    __enzyme_autodiff((void *)heat_loss, enzyme_dup, u0, d_u0, enzyme_const,
                      &g);
    MPI_Barrier(MPI_COMM_WORLD);
    double t2 = MPI_Wtime();
    tp[s] = t1 - t0;
    tg[s] = t2 - t1;
  }
  /* the gradient along dir against central differences of the loss */
  const double h = 1e-5;
  for (size_t k = 0; k < len; ++k)
    probe[k] = u0[k] + h * dir[k];
  double plus = sum_ranks(heat_loss(probe, &g));
  for (size_t k = 0; k < len; ++k)
    probe[k] = u0[k] - h * dir[k];
  double minus = sum_ranks(heat_loss(probe, &g));
  double dot = 0;
  for (size_t k = 0; k < len; ++k)
    dot += d_u0[k] * dir[k];
  dot = sum_ranks(dot);
  double fd = (plus - minus) / (2 * h);
  double err = fabs(dot - fd) / (fabs(fd) > 1 ? fabs(fd) : 1);
  int verified = err < 1e-6;
  double primal = median(tp, samples), gradient = median(tg, samples);
  if (rank == 0) {
    printf("%-12s %4dx%-4d %3d steps %2d ranks  primal %9.5f s  gradient "
           "%9.5f s  ratio %5.2f  %s (rel. err %.1e)\n",
           "heat2d_mpi", nx, ny, g.steps, size, primal, gradient,
           gradient / primal, verified ? "verified" : "WRONG", err);
    if (json) {
      fprintf(json,
              "[{\"benchmark\": \"heat2d_mpi\", \"size\": \"%dx%d, "
              "%d steps\", \"ranks\": %d, ",
              nx, ny, g.steps, size);
      json_num(json, "primal_s", primal, 0);
      json_num(json, "gradient_s", gradient, 0);
      json_num(json, "gradient_ratio", gradient / primal, 0);
      json_num(json, "max_rel_err", err, 0);
      fprintf(json, "\"verified\": %s}]\n", verified ? "true" : "false");
      fclose(json);
    }
  }
  free(tp);
  free(tg);
  free(u0);
  free(d_u0);
  free(dir);
  free(probe);
  MPI_Finalize();
  return verified ? 0 : 1;
}
