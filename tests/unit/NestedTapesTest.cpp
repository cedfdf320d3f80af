// Tests of the runtime's entry points for nested derivatives (reverse over
// reverse): per-thread tapes of nesting levels, shadow records, split-mode
// marks on a level.

#include "adcc_runtime.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <thread>

namespace {

std::string lastError;
int errorCount = 0;
void recordError(const char *message) {
  ++errorCount;
  lastError = message;
}

class ErrorCatcher {
public:
  ErrorCatcher() : previous_(adcc_set_error_handler(recordError)) {
    errorCount = 0;
    lastError.clear();
  }
  ~ErrorCatcher() { adcc_set_error_handler(previous_); }

private:
  adcc_error_handler previous_;
};

size_t liveBytes(const adcc_tape *t) {
  adcc_tape_stats s;
  adcc_tape_get_stats(t, &s);
  return s.live_bytes;
}

} // namespace

TEST_CASE("each nesting level has its own tape per thread", "[nested]") {
  adcc_tape *level0 = adcc_tape_thread_level(0);
  adcc_tape *level1 = adcc_tape_thread_level(1);
  adcc_tape *level2 = adcc_tape_thread_level(2);
  CHECK(level0 == adcc_tape_thread());
  CHECK(level1 != nullptr);
  CHECK(level1 != level0);
  CHECK(level2 != level1);
  CHECK(adcc_tape_thread_level(1) == level1);
  // Records on one level do not move the others.
  adcc_tape_push_f64(level1, 2.5);
  CHECK(liveBytes(level0) == 0);
  CHECK(adcc_tape_pop_f64(level1) == 2.5);
  // Another thread's level-1 tape is another tape, freed at its exit.
  adcc_runtime_stats before;
  adcc_runtime_get_stats(&before);
  adcc_tape *other = nullptr;
  std::thread([&] {
    other = adcc_tape_thread_level(1);
    adcc_tape_push_f64(other, 1.0);
    adcc_tape_pop_f64(other);
  }).join();
  CHECK(other != level1);
  adcc_runtime_stats after;
  adcc_runtime_get_stats(&after);
  CHECK(after.tape_count == before.tape_count);
}

TEST_CASE("a level beyond the last is reported", "[nested][error]") {
  ErrorCatcher errors;
  CHECK(adcc_tape_thread_level(ADCC_TAPE_LEVELS) == nullptr);
  CHECK(errorCount == 1);
  CHECK(lastError.find("tape level 8 requested") != std::string::npos);
}

TEST_CASE("shadow records pair with their records", "[nested]") {
  adcc_tape *t = adcc_tape_create();
  void *record = adcc_tape_push(t, 24, 8);
  auto *shadow =
      static_cast<double *>(adcc_tape_push_shadow(t, 24, 8));
  REQUIRE(shadow != nullptr);
  CHECK(reinterpret_cast<uintptr_t>(shadow) % alignof(double) == 0);
  CHECK((shadow[0] == 0 && shadow[1] == 0 && shadow[2] == 0));
  void *inner = adcc_tape_push(t, 8, 8);
  auto *innerShadow = static_cast<char *>(adcc_tape_push_shadow(t, 0, 64));
  REQUIRE(innerShadow != nullptr);
  CHECK(reinterpret_cast<uintptr_t>(innerShadow) % 64 == 0);
  // LIFO: each shadow's address is popped before its record.
  CHECK(adcc_tape_pop_shadow(t) == innerShadow);
  CHECK(adcc_tape_pop(t, 8, 8) == inner);
  CHECK(adcc_tape_pop_shadow(t) == shadow);
  CHECK(adcc_tape_pop(t, 24, 8) == record);
  CHECK(liveBytes(t) == 0);
  std::free(innerShadow);
  std::free(shadow);
  adcc_tape_destroy(t);
}

TEST_CASE("a bad shadow record alignment is reported", "[nested][error]") {
  ErrorCatcher errors;
  adcc_tape *t = adcc_tape_create();
  CHECK(adcc_tape_push_shadow(t, 8, 24) == nullptr);
  CHECK(errorCount == 1);
  CHECK(liveBytes(t) == 0);
  adcc_tape_destroy(t);
}

TEST_CASE("split marks on a level", "[nested]") {
  ErrorCatcher errors;
  adcc_tape *level1 = adcc_tape_thread_level(1);
  adcc_tape_push_f64(level1, 1.0);
  void *handle = adcc_split_mark_level(1);
  adcc_split_check_level(handle, 1);
  CHECK(errorCount == 0);
  adcc_tape_push_f64(level1, 2.0);
  adcc_split_check_level(handle, 1);
  CHECK(errorCount == 1);
  adcc_tape_pop_f64(level1);
  adcc_tape_pop_f64(level1);
}
