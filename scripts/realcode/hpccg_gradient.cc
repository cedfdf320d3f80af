// Derivatives through HPCCG (github.com/Mantevo/HPCCG, unchanged, built
// with -DUSING_OMP): eight conjugate-gradient iterations on its 27-point
// matrix, whose rows are reached through tables of pointers into one array
// of values (ptr_to_vals_in_row, ptr_to_diags), with OpenMP loops in
// ddot, waxpby and HPC_sparsemv, each in a file of its own (derivatives
// made when adcc links), timers and std::cout inside the differentiated
// code. The objective is a weighted sum of the solution after the
// iterations plus the residual norm HPCCG returns, as a function of the
// right-hand side and the matrix values. Reverse mode (the shadow matrix
// has its own values array and pointer tables into it) against central
// differences and forward mode. Run by hpccg.sh.
#include "HPCCG.hpp"
#include "HPC_Sparse_Matrix.hpp"
#include "generate_matrix.hpp"

#include <cmath>
#include <cstdio>

extern "C" {
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
}

namespace {

double objective(HPC_Sparse_Matrix *A, const double *b) {
  int n = A->local_nrow;
  double *x = new double[n]();
  int niters = 0;
  double normr = 0, times[7];
  HPCCG(A, b, x, 8, 0.0, niters, normr, times);
  double s = normr;
  for (int i = 0; i < n; ++i)
    s += std::sin(0.3 * i + 1) * x[i];
  delete[] x;
  return s;
}

// A matrix with the same rows whose values are zero: the shadow of A.
HPC_Sparse_Matrix *shadowOf(const HPC_Sparse_Matrix *A) {
  auto *D = new HPC_Sparse_Matrix(*A);
  int n = A->local_nrow;
  D->list_of_vals = new double[A->local_nnz]();
  D->ptr_to_vals_in_row = new double *[n];
  D->ptr_to_diags = new double *[n];
  for (int i = 0; i < n; ++i) {
    D->ptr_to_vals_in_row[i] =
        D->list_of_vals + (A->ptr_to_vals_in_row[i] - A->list_of_vals);
    D->ptr_to_diags[i] = D->list_of_vals + (A->ptr_to_diags[i] - A->list_of_vals);
  }
  return D;
}

int failures = 0;

void check(const char *what, double got, double want, double tol) {
  bool ok = std::fabs(got - want) <= tol * (1 + std::fabs(want));
  std::printf("%s: %.10g, expected %.10g%s\n", what, got, want,
              ok ? "" : "  FAIL");
  failures += !ok;
}

double difference(double *p, HPC_Sparse_Matrix *A, const double *b) {
  double v = *p, h = 1e-6 * (1 + std::fabs(v));
  *p = v + h;
  double up = objective(A, b);
  *p = v - h;
  double down = objective(A, b);
  *p = v;
  return (up - down) / (2 * h);
}

} // namespace

int main() {
  HPC_Sparse_Matrix *A;
  double *x, *b, *xexact;
  generate_matrix(6, 5, 4, &A, &x, &b, &xexact);
  int n = A->local_nrow;
  for (int i = 0; i < n; ++i) // (a right-hand side that is not A's row sums)
    b[i] += 0.5 * std::cos(0.7 * i);
  HPC_Sparse_Matrix *dA = shadowOf(A);
  double *db = new double[n]();
  __enzyme_autodiff((void *)objective, enzyme_dup, A, dA, enzyme_dup, b, db);

  // Forward along a direction over b, against the gradient.
  HPC_Sparse_Matrix *tA = shadowOf(A);
  double *v = new double[n];
  double dot = 0;
  for (int i = 0; i < n; ++i) {
    v[i] = std::cos(1.1 * i + 0.4);
    dot += v[i] * db[i];
  }
  double tangent =
      __enzyme_fwddiff((void *)objective, enzyme_dup, A, tA, enzyme_dup, b, v);
  check("forward along b against reverse", tangent, dot, 1e-8);

  char what[64];
  for (int i = 0; i < n; i += n / 5) {
    std::snprintf(what, sizeof what, "d/db[%d]", i);
    check(what, db[i], difference(&b[i], A, b), 1e-5);
  }
  for (int k = 0; k < A->local_nnz; k += A->local_nnz / 6) {
    std::snprintf(what, sizeof what, "d/dvalue[%d]", k);
    check(what, dA->list_of_vals[k], difference(&A->list_of_vals[k], A, b),
          1e-5);
  }
  int row = n / 2;
  std::snprintf(what, sizeof what, "d/ddiagonal[%d]", row);
  check(what, *dA->ptr_to_diags[row], difference(A->ptr_to_diags[row], A, b),
        1e-5);
  std::printf("%s\n", failures ? "FAIL" : "ok");
  return failures ? 1 : 0;
}
