/* vecdemo.c - exercises the vector and matrix operations and prints a
 * checksum of every intermediate result. */
#include "checksum.h"
#include "vecops.h"

#include <stdio.h>

enum { N = 64, ROWS = 8, COLS = 8 };

int main(void) {
  double x[N], y[N], a[ROWS * COLS], v[COLS], av[ROWS];
  checksum_t sum;
  checksum_init(&sum);

  vec_ramp(x, N, -4.0, 0.25);  /* -4, -3.75, ..., 11.75 */
  vec_ramp(y, N, 2.0, -0.125); /* 2, 1.875, ..., -5.875 */
  vec_axpy(y, x, N, 1.5);
  vec_scale(x, N, 0.5);
  checksum_add_array(&sum, x, N);
  checksum_add_array(&sum, y, N);

  double dot = vec_dot(x, y, N);
  double total = vec_sum(y, N);
  double peak = vec_max_abs(y, N);
  printf("dot     = %.17g\n", dot);
  printf("sum     = %.17g\n", total);
  printf("max|y|  = %.17g\n", peak);

  for (int r = 0; r < ROWS; ++r)
    for (int c = 0; c < COLS; ++c)
      a[r * COLS + c] = (double)((r * c + r) % 5 - 2) * 0.125;
  vec_ramp(v, COLS, 1.0, 0.5);
  mat_vec(a, ROWS, COLS, v, av);
  printf("A v     =");
  for (int r = 0; r < ROWS; ++r)
    printf(" %g", av[r]);
  printf("\n");

  checksum_add(&sum, dot);
  checksum_add(&sum, total);
  checksum_add(&sum, peak);
  checksum_add_array(&sum, av, ROWS);
  printf("checksum: %016llx\n", (unsigned long long)sum.state);
  return 0;
}
