// Per-thread tapes from std::thread, with adcc::TapeScope releasing what a
// scope pushed.
#include <adcc.h>

#include <thread>
#include <vector>

#include "check.h"

static double work(int Id, int N) {
  adcc_tape *Tape = adcc_tape_thread();
  adcc::TapeScope Scope(Tape);
  for (int I = 0; I < N; ++I)
    adcc_tape_push_f64(Tape, Id * 1000.0 + I);
  double Sum = 0;
  for (int I = N - 1; I >= N / 2; --I)
    Sum += adcc_tape_pop_f64(Tape) - Id * 1000.0;
  // The rest is released by the scope.
  return Sum;
}

int main() {
  const int Threads = 4, N = 200000;
  std::vector<double> Results(Threads);
  std::vector<std::thread> Pool;
  for (int T = 0; T < Threads; ++T)
    Pool.emplace_back([&, T] { Results[T] = work(T, N); });
  for (std::thread &T : Pool)
    T.join();
  double Want = 0;
  for (int I = N / 2; I < N; ++I)
    Want += I;
  for (double R : Results)
    CHECK_CLOSE(R, Want, 0);

  adcc_tape_stats Main;
  adcc_tape_get_stats(adcc_tape_thread(), &Main);
  CHECK_TRUE(Main.live_bytes == 0);
  CHECK_TRUE(work(7, 1000) > 0);
  adcc_tape_get_stats(adcc_tape_thread(), &Main);
  CHECK_TRUE(Main.live_bytes == 0); // released by the scope
  return check_finish();
}
