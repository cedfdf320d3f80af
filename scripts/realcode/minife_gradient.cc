// minife_gradient.cc: differentiate miniFE (github.com/Mantevo/miniFE, its
// serial reference version ref/, unchanged) with adcc, as an Enzyme user
// would: __enzyme_autodiff and __enzyme_fwddiff on functions that call
// miniFE's own templates (docs/testing.md, "Real programs").
//
//  1. The element kernel: miniFE's Hex8 diffusion matrix and source vector
//     of one element (Gauss quadrature, Jacobians, 3x3 inverses) as a
//     function of its 24 node coordinates.
//  2. The whole program: mesh, matrix structure (std::set, std::map),
//     finite-element assembly, the two Dirichlet conditions, local
//     indices and conjugate gradients; the output a weighted sum of the
//     solution and of its squares, as a function of the two prescribed
//     boundary values.
//  3. The solver alone: conjugate gradients on the assembled system, as a
//     function of the matrix's coefficients and of the right-hand side
//     (the CSRMatrix and Vector structs passed Duplicated, with shadows
//     that share their index vectors' contents).
//
// Each gradient is checked against central differences; forward mode
// against reverse mode. Built by scripts/realcode/minife.sh; not part of
// ctest (miniFE is not in this repository).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include <Box.hpp>
#include <CSRMatrix.hpp>
#include <Vector.hpp>
#include <assemble_FE_data.hpp>
#include <cg_solve.hpp>
#include <generate_matrix_structure.hpp>
#include <make_local_matrix.hpp>
#include <simple_mesh_description.hpp>

extern int enzyme_const, enzyme_dup, enzyme_out;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

using Matrix = miniFE::CSRMatrix<double, int, int>;
using Vec = miniFE::Vector<double, int, int>;
using Elem = miniFE::ElemData<int, double>;

static int failures = 0;

static void check(const char *what, double ad, double fd, double tol) {
  double err = std::fabs(ad - fd) / std::fmax(1.0, std::fabs(fd));
  bool ok = err <= tol && std::isfinite(ad);
  if (!ok)
    ++failures;
  std::printf("%-34s ad % .10e  ref % .10e  %s\n", what, ad, fd,
              ok ? "ok" : "WRONG");
}

// 1. One element.
static double element_output(const double *coords) {
  Elem e;
  miniFE::compute_gradient_values(e.grad_vals);
  for (int i = 0; i < 24; ++i)
    e.elem_node_coords[i] = coords[i];
  miniFE::compute_element_matrix_and_vector(e);
  double s = 0;
  for (int i = 0; i < 36; ++i)
    s += (1.0 + 0.1 * i) * e.elem_diffusion_matrix[i];
  for (int i = 0; i < 8; ++i)
    s += (2.0 - 0.2 * i) * e.elem_source_vector[i];
  return s;
}

static void check_element() {
  double c[24], d[24] = {0}, t[24];
  Elem ref;
  miniFE::get_hex8_node_coords_3d(0.25, 0.5, 0.0, 0.5, 0.25, 0.5,
                                  ref.elem_node_coords);
  for (int i = 0; i < 24; ++i)
    c[i] = ref.elem_node_coords[i] + 0.02 * std::sin(1.0 + i);
  __enzyme_autodiff((void *)element_output, enzyme_dup, c, d);
  double h = 1e-6, dot = 0;
  for (int i = 0; i < 24; ++i) {
    double p[24], m[24];
    for (int j = 0; j < 24; ++j)
      p[j] = m[j] = c[j];
    p[i] += h;
    m[i] -= h;
    double fd = (element_output(p) - element_output(m)) / (2 * h);
    if (i % 5 == 0) {
      char what[64];
      std::snprintf(what, sizeof what, "element d/dcoord[%d]", i);
      check(what, d[i], fd, 1e-6);
    }
    t[i] = std::cos(0.3 * i);
    dot += d[i] * t[i];
  }
  double tan = __enzyme_fwddiff((void *)element_output, enzyme_dup, c, t);
  check("element forward vs reverse", tan, dot, 1e-10);
}

// 2. The whole program as a function of the boundary values.
static int mesh_n = 4, cg_iters = 12;

static double whole_program(const miniFE::simple_mesh_description<int> &mesh,
                            const Matrix &structure, const double *bc) {
  Matrix A = structure;
  int nrows = A.rows.size();
  Vec b(A.rows[0], nrows), x(A.rows[0], nrows);
  miniFE::Parameters params;
  miniFE::assemble_FE_data(mesh, A, b, params);
  miniFE::impose_dirichlet(bc[0], A, b, mesh_n + 1, mesh_n + 1, mesh_n + 1,
                           mesh.bc_rows_0);
  miniFE::impose_dirichlet(bc[1], A, b, mesh_n + 1, mesh_n + 1, mesh_n + 1,
                           mesh.bc_rows_1);
  miniFE::make_local_matrix(A);
  double tol = 0, normr = 0;
  int iters = 0;
  miniFE::timer_type times[miniFE::NUM_TIMERS];
  miniFE::cg_solve(A, b, x, miniFE::matvec_std<Matrix, Vec>(), cg_iters,
                   tol, iters, normr, times);
  double s = 0;
  for (int i = 0; i < nrows; ++i)
    s += std::sin(0.1 * i) * x.coefs[i] + 0.5 * x.coefs[i] * x.coefs[i];
  return s;
}

static void check_whole_program() {
  Box box = {{0, mesh_n, 0, mesh_n, 0, mesh_n}};
  Box mine = box;
  miniFE::simple_mesh_description<int> mesh(box, mine);
  Matrix S;
  miniFE::generate_matrix_structure(mesh, S);
  double bc[2] = {0.3, 1.0}, d[2] = {0, 0};
  __enzyme_autodiff((void *)whole_program, enzyme_const, &mesh, enzyme_const,
                    &S, enzyme_dup, bc, d);
  double h = 1e-5;
  for (int i = 0; i < 2; ++i) {
    double p[2] = {bc[0], bc[1]}, m[2] = {bc[0], bc[1]};
    p[i] += h;
    m[i] -= h;
    double fd = (whole_program(mesh, S, p) - whole_program(mesh, S, m)) / (2 * h);
    check(i ? "program d/d(bc value 1)" : "program d/d(bc value 0)", d[i], fd,
          1e-6);
  }
  double t[2] = {0.7, -0.4};
  double tan = __enzyme_fwddiff((void *)whole_program, enzyme_const, &mesh,
                                enzyme_const, &S, enzyme_dup, bc, t);
  check("program forward vs reverse", tan, 0.7 * d[0] - 0.4 * d[1], 1e-9);
}

// 3. Conjugate gradients alone.
static double solver(Matrix &A, Vec &b, const double *w) {
  Vec x(b.startIndex, b.local_size);
  double tol = 0, normr = 0;
  int iters = 0;
  miniFE::timer_type times[miniFE::NUM_TIMERS];
  miniFE::cg_solve(A, b, x, miniFE::matvec_std<Matrix, Vec>(), cg_iters,
                   tol, iters, normr, times);
  double s = 0;
  for (int i = 0; i < b.local_size; ++i)
    s += w[i] * x.coefs[i];
  return s;
}

static void check_solver() {
  Box box = {{0, mesh_n, 0, mesh_n, 0, mesh_n}};
  Box mine = box;
  miniFE::simple_mesh_description<int> mesh(box, mine);
  Matrix A;
  miniFE::generate_matrix_structure(mesh, A);
  int nrows = A.rows.size();
  Vec b(A.rows[0], nrows);
  miniFE::Parameters params;
  miniFE::assemble_FE_data(mesh, A, b, params);
  miniFE::impose_dirichlet(0.0, A, b, mesh_n + 1, mesh_n + 1, mesh_n + 1,
                           mesh.bc_rows_0);
  miniFE::impose_dirichlet(1.0, A, b, mesh_n + 1, mesh_n + 1, mesh_n + 1,
                           mesh.bc_rows_1);
  miniFE::make_local_matrix(A);
  std::vector<double> w(nrows);
  for (int i = 0; i < nrows; ++i)
    w[i] = 1.0 + 0.01 * i;

  Matrix dA = A;
  Vec db = b;
  std::fill(dA.packed_coefs.begin(), dA.packed_coefs.end(), 0.0);
  std::fill(db.coefs.begin(), db.coefs.end(), 0.0);
  __enzyme_autodiff((void *)solver, enzyme_dup, &A, &dA, enzyme_dup, &b, &db,
                    enzyme_const, w.data());

  double h = 1e-6;
  int rows[3] = {nrows / 3, nrows / 2, nrows - 1};
  for (int r : rows) {
    double keep = b.coefs[r];
    b.coefs[r] = keep + h;
    double fp = solver(A, b, w.data());
    b.coefs[r] = keep - h;
    double fm = solver(A, b, w.data());
    b.coefs[r] = keep;
    char what[64];
    std::snprintf(what, sizeof what, "solver d/db[%d]", r);
    check(what, db.coefs[r], (fp - fm) / (2 * h), 1e-6);
  }
  size_t nnz = A.packed_coefs.size();
  // (In each third of the coefficients, the one with the largest
  // derivative: many are zero, in the rows of the boundary conditions.)
  size_t entries[3] = {0, nnz / 3, 2 * nnz / 3};
  for (int t = 0; t < 3; ++t)
    for (size_t k = t * nnz / 3; k < (t + 1) * nnz / 3; ++k)
      if (std::fabs(dA.packed_coefs[k]) >
          std::fabs(dA.packed_coefs[entries[t]]))
        entries[t] = k;
  for (size_t k : entries) {
    double keep = A.packed_coefs[k];
    A.packed_coefs[k] = keep + h;
    double fp = solver(A, b, w.data());
    A.packed_coefs[k] = keep - h;
    double fm = solver(A, b, w.data());
    A.packed_coefs[k] = keep;
    char what[64];
    std::snprintf(what, sizeof what, "solver d/dA[%zu]", k);
    check(what, dA.packed_coefs[k], (fp - fm) / (2 * h), 1e-6);
  }

  // Forward mode along a direction in b and A against the reverse gradient.
  Matrix tA = A;
  Vec tb = b;
  double dot = 0;
  for (size_t k = 0; k < nnz; ++k) {
    tA.packed_coefs[k] = std::sin(0.37 * k);
    dot += tA.packed_coefs[k] * dA.packed_coefs[k];
  }
  for (int i = 0; i < nrows; ++i) {
    tb.coefs[i] = std::cos(0.11 * i);
    dot += tb.coefs[i] * db.coefs[i];
  }
  double tan = __enzyme_fwddiff((void *)solver, enzyme_dup, &A, &tA,
                                enzyme_dup, &b, &tb, enzyme_const, w.data());
  check("solver forward vs reverse", tan, dot, 1e-9);
}

int main(int argc, char **argv) {
  if (argc > 1)
    mesh_n = std::atoi(argv[1]);
  if (argc > 2)
    cg_iters = std::atoi(argv[2]);
  check_element();
  check_whole_program();
  check_solver();
  std::printf("%s: %d failure(s)\n", failures ? "FAILED" : "passed",
              failures);
  return failures != 0;
}
