// Unit tests of the checkpointing schedules (runtime/lib/checkpoint.c) with
// stand-in step derivatives: the state is a step counter, the augmented
// sweep records which step it ran from which state, and the reverse sweep
// checks that it reverses the most recent recording. For every schedule,
// step count and snapshot budget: each step is recorded from its own
// input state and reversed exactly once, last step first; revolve's
// advances equal Griewank's recursion; snapshots stay within the budget.

#include "adcc_checkpoint.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <vector>

namespace {

struct Log {
  std::vector<long> Pending;  // steps recorded, not reversed (a stack)
  std::vector<long> Reversed; // in the order reversed
  bool Wrong = false;
  long Limit = 0; // (the while form's count)
};
Log TheLog;

void step(void *State, void *) { ++*static_cast<long *>(State); }
int running(void *State, void *) {
  return *static_cast<long *>(State) < TheLog.Limit;
}
void *aug(void *State, void *DState, void *, void *) {
  long &S = *static_cast<long *>(State);
  TheLog.Pending.push_back(S);
  ++S;
  (void)DState;
  return reinterpret_cast<void *>(TheLog.Pending.size());
}
void *augConst(void *State, void *DState, void *P) {
  return aug(State, DState, P, nullptr);
}
void rev(void *, void *, void *, void *, void *Tape) {
  if (TheLog.Pending.empty() ||
      reinterpret_cast<size_t>(Tape) != TheLog.Pending.size()) {
    TheLog.Wrong = true;
    return;
  }
  TheLog.Reversed.push_back(TheLog.Pending.back());
  TheLog.Pending.pop_back();
}
void revConst(void *State, void *DState, void *P, void *Tape) {
  rev(State, DState, P, nullptr, Tape);
}

const adcc_step_fns Fns = {reinterpret_cast<void *>(step),
                           reinterpret_cast<void *>(running),
                           nullptr,
                           nullptr,
                           reinterpret_cast<void *>(aug),
                           reinterpret_cast<void *>(augConst),
                           reinterpret_cast<void *>(rev),
                           reinterpret_cast<void *>(revConst)};

// Griewank's recursion: t(1, s) = 0, t(l, 1) = l(l-1)/2, t(l, s) = min over
// 0 < j < l of j + t(l - j, s - 1) + t(j, s).
long fewest(long L, long S) {
  static std::map<std::pair<long, long>, long> Known;
  if (L <= 1)
    return 0;
  if (S == 1)
    return L * (L - 1) / 2;
  auto It = Known.find({L, S});
  if (It != Known.end())
    return It->second;
  long Best = -1;
  for (long J = 1; J < L; ++J) {
    long T = J + fewest(L - J, S - 1) + fewest(J, S);
    if (Best < 0 || T < Best)
      Best = T;
  }
  return Known[{L, S}] = Best;
}

void checkReversal(long N) {
  CHECK_FALSE(TheLog.Wrong);
  CHECK(TheLog.Pending.empty());
  std::vector<long> Want(N);
  for (long I = 0; I < N; ++I)
    Want[I] = N - 1 - I;
  CHECK(TheLog.Reversed == Want);
}

} // namespace

TEST_CASE("checkpoint schedules reverse every step once, last first",
          "[checkpoint]") {
  for (long N : {0L, 1L, 2L, 3L, 7L, 20L, 41L})
    for (long S : {1L, 2L, 3L, 5L, 50L})
      for (int Schedule : {ADCC_REVOLVE, ADCC_INTERVAL}) {
        CAPTURE(N, S, Schedule);
        TheLog = Log();
        adcc_checkpoint_reset_stats();
        long State = 0, DState = 0, Params = 0;
        void *Handle = adcc_steps_record(&Fns, N, &State, &DState,
                                         sizeof State, &Params, nullptr,
                                         sizeof Params, Schedule, S);
        CHECK(State == N); // the forward sweep leaves the final state
        adcc_steps_reverse(Handle, &DState, nullptr);
        checkReversal(N);
        adcc_checkpoint_stats St;
        adcc_checkpoint_get_stats(&St);
        CHECK(St.recorded == static_cast<size_t>(N));
        CHECK(St.snapshots_peak <= static_cast<size_t>(S));
        if (Schedule == ADCC_REVOLVE) {
          CHECK(St.advances == static_cast<size_t>(fewest(N, S)));
          CHECK(St.advances == adcc_revolve_advances(N, S));
          CHECK(St.recorded_live_peak <= 1);
        }
      }
}

TEST_CASE("the online schedule reverses every step once within its budget",
          "[checkpoint]") {
  for (long N : {0L, 1L, 2L, 9L, 33L, 100L})
    for (long S : {1L, 2L, 3L, 4L, 10L}) {
      CAPTURE(N, S);
      TheLog = Log();
      TheLog.Limit = N;
      adcc_checkpoint_reset_stats();
      long State = 0, DState = 0;
      void *Handle = adcc_while_record(&Fns, &State, &DState, sizeof State,
                                       nullptr, nullptr, 0, S);
      CHECK(State == N);
      adcc_steps_reverse(Handle, &DState, nullptr);
      checkReversal(N);
      adcc_checkpoint_stats St;
      adcc_checkpoint_get_stats(&St);
      CHECK(St.snapshots_peak <= static_cast<size_t>(S));
      CHECK(St.recorded_live_peak <= 1);
    }
}

TEST_CASE("revolve's closed form is Griewank's recursion", "[checkpoint]") {
  for (long N = 1; N < 120; ++N)
    for (long S = 1; S < 9; ++S) {
      CAPTURE(N, S);
      CHECK(adcc_revolve_advances(N, S) == static_cast<size_t>(fewest(N, S)));
    }
  CHECK(adcc_revolve_advances(100000, 10) == 832040);
}
