/* Checks of derivatives of MPI programs, run by every rank together.
 *
 * The objective is J(x_0, ..., x_{P-1}) = sum over ranks r of f(x_r), where
 * x_r is rank r's local array and f is the function differentiated (its
 * MPI calls couple the ranks). Reverse mode seeded with 1 on every rank
 * gives each rank dJ/dx_r; forward mode with a tangent v_r on every rank
 * gives local tangents whose sum is dJ . v. Both are compared with central
 * differences of J computed by the same program: for each rank q and index
 * i, x_q[i] is moved by +-h on rank q only and all ranks evaluate f. */
#ifndef ADCC_MPI_CHECK_H
#define ADCC_MPI_CHECK_H

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int mpi_check_failures = 0;

static inline double mpi_sum(double v) {
  double s;
  MPI_Allreduce(&v, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return s;
}

static inline void mpi_expect_close(const char *what, int i, double got,
                                    double want, double tol) {
  double scale = fabs(want) > 1 ? fabs(want) : 1;
  if (!(fabs(got - want) <= tol * scale)) {
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    printf("FAIL rank %d: %s[%d] = %.17g, expected %.17g\n", rank, what, i, got,
           want);
    ++mpi_check_failures;
  }
}

/* \p grad: this rank's reverse-mode gradient; \p tangent_out: this rank's
 * forward-mode tangent along \p dir; central differences of step \p h
 * within \p tol (relative). */
static inline void mpi_check_with(const char *name, double (*f)(double *, int),
                                  double *x, int n, const double *grad,
                                  const double *dir, double tangent_out,
                                  double h, double tol) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int q = 0; q < size; ++q)
    for (int i = 0; i < n; ++i) {
      double keep = x[i];
      if (rank == q)
        x[i] = keep + h;
      double plus = mpi_sum(f(x, n));
      if (rank == q)
        x[i] = keep - h;
      double minus = mpi_sum(f(x, n));
      x[i] = keep;
      if (rank == q)
        mpi_expect_close(name, i, grad[i], (plus - minus) / (2 * h), tol);
    }
  /* forward against reverse: sum_r <grad_r, v_r> = sum_r tangent_r */
  double dot = 0;
  for (int i = 0; i < n; ++i)
    dot += grad[i] * dir[i];
  /* (float buffers round the two modes differently) */
  mpi_expect_close(name, -1, mpi_sum(tangent_out), mpi_sum(dot),
                   tol * 1e-4 > 1e-10 ? tol * 1e-4 : 1e-10);
}

static inline void mpi_check(const char *name, double (*f)(double *, int),
                             double *x, int n, const double *grad,
                             const double *dir, double tangent_out) {
  mpi_check_with(name, f, x, n, grad, dir, tangent_out, 1e-6, 1e-6);
}

void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup, enzyme_const;

/* This rank's gradient of \p f at \p x0 (\p n <= 16 inputs) by reverse
 * mode and its tangent along a fixed direction by forward mode, checked by
 * mpi_check_with (steps \p h, tolerance \p tol). */
static inline void mpi_check_derivatives(const char *name,
                                         double (*f)(double *, int),
                                         const double *x0, int n, double h,
                                         double tol) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double x[16], dir[16], grad[16] = {0};
  for (int i = 0; i < n; ++i) {
    x[i] = x0[i];
    dir[i] = 0.3 + 0.1 * i - 0.05 * rank;
  }
  __enzyme_autodiff((void *)f, enzyme_dup, x, grad, enzyme_const, n);
  double t = __enzyme_fwddiff((void *)f, enzyme_dup, x, dir, enzyme_const, n);
  mpi_check_with(name, f, x, n, grad, dir, t, h, tol);
}

/* MPI_Init; this rank's number, or -1 (after MPI_Finalize) when the program
 * does not run with 2 to \p max_ranks ranks. */
static inline int mpi_check_init(int *argc, char ***argv, int max_ranks) {
  MPI_Init(argc, argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size >= 2 && size <= max_ranks)
    return rank;
  if (rank == 0)
    printf("run with 2 to %d ranks\n", max_ranks);
  MPI_Finalize();
  return -1;
}

/* Every rank's failures; rank 0 prints "ok" last. */
static inline int mpi_check_finish(void) {
  int failures = 0;
  MPI_Allreduce(&mpi_check_failures, &failures, 1, MPI_INT, MPI_SUM,
                MPI_COMM_WORLD);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  fflush(stdout);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    printf(failures ? "%d check(s) failed\n" : "ok\n", failures);
  MPI_Finalize();
  return failures ? 1 : 0;
}

#endif
