// Tests of the runtime's parallel-region handles (runtime/lib/parallel.c)
// where regions nest: a reverse region run inside another on the same
// system thread, and the tapes of the region's own that the pool threads
// of a nested team record on. The OpenMP teams are played by std::threads
// here (the runtime takes thread numbers and team sizes from its caller).

#include "adcc_runtime.h"

#include <catch2/catch.hpp>

#include <thread>

namespace {

// Runs \p F on a new system thread and waits for it.
template <typename Fn> void onThread(Fn F) { std::thread(F).join(); }

} // namespace

TEST_CASE("a reverse region nested on the same thread gives the outer "
          "region's lent tape back",
          "[parallel]") {
  void *outer = adcc_parallel_new();
  // The augmented region: thread 1 is this thread (whose tape lives on),
  // thread 0 another.
  adcc_tape *recorded = adcc_tape_thread_level(0);
  adcc_parallel_enter(outer, 1, 2, 0);
  onThread([&] { adcc_parallel_enter(outer, 0, 2, 0); });
  // Its reverse: thread 1 is another system thread, which borrows the
  // recorded tape and runs, as thread 0 of a region of its own (nested,
  // one thread), that region's reverse.
  onThread([&] {
    adcc_tape *own = adcc_tape_thread_level(0);
    void *saved = adcc_parallel_resume(outer, 1, 2, 0);
    REQUIRE(adcc_tape_thread_level(0) == recorded);
    void *inner = adcc_parallel_new();
    adcc_parallel_enter(inner, 0, 1, 0); // (notes the borrowed tape)
    void *inner_saved = adcc_parallel_resume(inner, 0, 1, 0);
    adcc_parallel_leave(inner_saved, 0);
    adcc_parallel_free(inner);
    CHECK(adcc_tape_thread_level(0) == recorded);
    adcc_parallel_leave(saved, 0);
    // (Before 2026-12-06 the inner resume overwrote the outer one's saved
    // tape, and the thread kept the other thread's tape.)
    CHECK(adcc_tape_thread_level(0) == own);
  });
  adcc_parallel_free(outer);
}

TEST_CASE("the pool threads of a nested team record on tapes of the "
          "region's own",
          "[parallel]") {
  void *region = adcc_parallel_new();
  adcc_tape *used = nullptr;
  onThread([&] {
    adcc_tape *own = adcc_tape_thread_level(0);
    adcc_parallel_enter_at(region, 1, 2, 2, 0);
    used = adcc_tape_thread_level(0);
    CHECK(used != own);
    adcc_tape_push_f64(used, 2.5);
    adcc_parallel_exit(region, 1, 0);
    CHECK(adcc_tape_thread_level(0) == own);
  });
  onThread([&] { adcc_parallel_enter_at(region, 0, 2, 2, 0); });
  // Another system thread replays thread 1's records from that tape.
  onThread([&] {
    adcc_tape *own = adcc_tape_thread_level(0);
    void *saved = adcc_parallel_resume(region, 1, 2, 0);
    REQUIRE(adcc_tape_thread_level(0) == used);
    CHECK(adcc_tape_pop_f64(used) == 2.5);
    adcc_parallel_leave(saved, 0);
    CHECK(adcc_tape_thread_level(0) == own);
  });
  // At depth 1 a thread records on its own tape.
  void *top = adcc_parallel_new();
  onThread([&] {
    adcc_tape *own = adcc_tape_thread_level(0);
    adcc_parallel_enter_at(top, 1, 2, 1, 0);
    CHECK(adcc_tape_thread_level(0) == own);
    adcc_parallel_exit(top, 1, 0);
    CHECK(adcc_tape_thread_level(0) == own);
  });
  adcc_parallel_free(top);
  adcc_parallel_free(region);
}

TEST_CASE("a region's overlap checks are apart only where every note said "
          "so",
          "[parallel]") {
  void *region = adcc_parallel_new();
  void *outer = adcc_parallel_swap(region, 0);
  // Nothing noted: not apart (the reverse adds atomically).
  CHECK(adcc_parallel_apart(0, 0) == 0);
  // Check 0: two threads note apart; check 1: one notes an overlap.
  adcc_parallel_note_apart(0, 1, 0);
  onThread([&] {
    adcc_parallel_swap(region, 0);
    adcc_parallel_note_apart(0, 1, 0);
    adcc_parallel_note_apart(1, 0, 0);
  });
  adcc_parallel_note_apart(1, 1, 0);
  CHECK(adcc_parallel_apart(0, 0) == 1);
  CHECK(adcc_parallel_apart(1, 0) == 0);
  CHECK(adcc_parallel_apart(2, 0) == 0);
  // Outside any region: not apart.
  adcc_parallel_swap(outer, 0);
  CHECK(adcc_parallel_apart(0, 0) == 0);
  adcc_parallel_free(region);
}
