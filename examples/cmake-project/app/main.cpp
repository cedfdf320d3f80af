// main.cpp - fits a quadratic model to sampled data: computes the loss and
// its gradient with numlib (C) and checks the gradient against central
// finite differences. Prints the results; exits with 1 if a check fails.
//
// Part of the adcc cmake-project example.
#include "numlib.h"
#include "series.hpp"

#include <adcc.h> // adcc::TapeScope, adcc_tape_get_stats

#include <cstdio>
#include <vector>

int main() {
  // Samples of 1 - 0.5 x + 0.25 x^2 on [-2, 2], perturbed by multiples of
  // 1/16. Every value is a dyadic rational, so the loss and the gradient
  // below are computed exactly and print the same with any optimization.
  const std::vector<double> xs = example::linspace(-2.0, 2.0, 17);
  const std::vector<double> ys = example::map(xs, [](double x) {
    const int bump = static_cast<int>(x * 4) % 3;
    return 1.0 - 0.5 * x + 0.25 * x * x + 0.0625 * bump;
  });
  const std::vector<double> p{0.5, 0.25, -0.125};

  std::vector<double> grad(NL_PARAMS);
  double loss;
  {
    // Releases, at the end of the block, anything left on this thread's tape.
    adcc::TapeScope scope;
    loss = nl_loss_grad(p.data(), xs.data(), ys.data(), xs.size(),
                        grad.data());
  }

  const auto loss_of = [&](const std::vector<double> &q) {
    return nl_loss(q.data(), xs.data(), ys.data(), xs.size());
  };
  std::vector<double> fd(NL_PARAMS);
  for (std::size_t k = 0; k < fd.size(); ++k)
    fd[k] = example::central_difference(loss_of, p, k, 1e-5);
  const double error = example::max_relative_error(grad, fd);

  adcc_tape_stats stats;
  adcc_tape_get_stats(adcc_tape_thread(), &stats);

  std::printf("loss = %.17g\n", loss);
  std::printf("gradient = %.17g %.17g %.17g\n", grad[0], grad[1], grad[2]);
  const bool loss_ok = loss == loss_of(p);
  const bool grad_ok = error < 1e-6;
  const bool tape_ok = stats.live_bytes == 0 && stats.push_count == xs.size();
  std::printf("loss check: %s\n", loss_ok ? "ok" : "FAILED");
  std::printf("gradient check: %s (max relative error vs finite "
              "differences %.1e)\n",
              grad_ok ? "ok" : "FAILED", error);
  std::printf("tape check: %s (%zu pushes, %zu live bytes after the sweep)\n",
              tape_ok ? "ok" : "FAILED", stats.push_count, stats.live_bytes);
  return loss_ok && grad_ok && tape_ok ? 0 : 1;
}
