// PENDING (not registered): reverse mode of C++ code built with UBSan's
// alignment and pointer-overflow checks (both in -fsanitize=undefined) at
// -O1 and above. The gradient of run() below frees the std::vector's
// buffer twice ("free(): double free detected", -O2/-O3) or crashes (-O1):
// in the optimized gradient the reverse sweep's deferred delete of the
// buffer is followed by `unreachable`. Each check alone passes, so do
// -fsanitize=null,pointer-overflow, -O0, forward mode, and the same code
// in C (rev_hardening.c, registered with -fsanitize=undefined).
// Reproduce: E2E_CFLAGS="-fsanitize=alignment,pointer-overflow" \
//   bash tests/e2e/run-e2e.sh tests/e2e/rev_pending_ubsan_cpp.cpp -O2
#include "rev_check.h"

#include <algorithm>
#include <numeric>
#include <vector>

static double run(const double *x) {
  std::vector<double> t(x, x + 5);
  std::transform(t.begin(), t.end(), t.begin(),
                 [](double a) { return std::sin(a) * a; });
  return std::accumulate(t.begin(), t.end(), 0.0);
}

int main() {
  CHECK_GRAD_AND_DOT(run, 5, 1.0);
  return check_finish();
}
