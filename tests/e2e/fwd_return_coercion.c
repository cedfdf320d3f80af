/* enzyme_primal_return with width 2 of a float function: the C struct
 * {float, float[2]} is returned as the ABI type { <2 x float>, float },
 * the same layout as the derivative's { float, [2 x float] } (once
 * rejected as a mismatch). */
#include "fwd_check.h"

typedef struct {
  float primal;
  float d[2];
} pf2;
pf2 __enzyme_fwddiff_pf2(void *, ...);

static float sqf(float x) { return x * x; }

int main(void) {
  pf2 r = __enzyme_fwddiff_pf2((void *)sqf, enzyme_width, 2,
                               enzyme_primal_return, 3.0f, 1.0f, 2.0f);
  CHECK_CLOSE(r.primal, 9.0, 1e-7);
  CHECK_CLOSE(r.d[0], 6.0, 1e-7);
  CHECK_CLOSE(r.d[1], 12.0, 1e-7);
  return check_finish();
}
