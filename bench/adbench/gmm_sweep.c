/* gmm_sweep.c: gmm.c's objective and gradient, each called on its own and
 * timed by the thread's CPU time (scripts/gmm_sweep.sh).
 *
 * gmm.c times wall-clock medians of samples of at least --min-time seconds.
 * On a shared machine whose load moves by a factor of several within a run,
 * those move with it; the CPU time a thread spent in one call does not count
 * the time it waited for a core, so the fastest of a few calls compares two
 * builds of the same source without an idle machine (what the machine's other
 * work does to the caches still counts). One call per repetition also makes
 * callgrind's count of gmm_ad_gradient the instructions of exactly one
 * gradient (`--toggle-collect=gmm_ad_gradient`).
 *
 * Build: build/bin/adcc -O2 bench/adbench/gmm_sweep.c -lm   (or clang with
 *        Enzyme's plugin: the same source, the same Enzyme C API calls)
 * Usage: gmm_sweep FILE [REPS]   (REPS: calls of each, default 10)
 * Prints one line: d, K, n, the fastest primal and gradient call in
 * milliseconds of CPU time, and the objective and the sum of the gradient's
 * entries (the same for every compiler within rounding). */
#define main gmm_bench_main
#include "gmm.c"
#undef main

static double thread_cpu_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: gmm_sweep FILE [REPS]\n");
    return 2;
  }
  gmm_t g;
  memset(&g, 0, sizeof g);
  if (gmm_read(&g, argv[1]))
    return 2;
  int reps = argc > 2 ? atoi(argv[2]) : 10;
  double best_primal = 1e30, best_grad = 1e30, f = 0;
  for (int r = 0; r < reps; r++) {
    double t0 = thread_cpu_s();
    f = gmm_primal(&g);
    double t1 = thread_cpu_s();
    gmm_ad_gradient(&g);
    double t2 = thread_cpu_s();
    if (t1 - t0 < best_primal)
      best_primal = t1 - t0;
    if (t2 - t1 < best_grad)
      best_grad = t2 - t1;
  }
  double sum = 0;
  for (long i = 0; i < g.nparams; i++)
    sum += g.grad[i];
  printf("d=%d K=%d n=%d primal_ms %.4f gradient_ms %.4f objective %.12g "
         "gradient_sum %.12g\n",
         g.d, g.k, g.n, best_primal * 1e3, best_grad * 1e3, f, sum);
  free(g.params), free(g.grad), free(g.dir), free(g.hand), free(g.work);
  free(g.x);
  return 0;
}
