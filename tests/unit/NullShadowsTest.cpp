// Unit tests of the scratch shadows behind null shadow pointers
// (runtime/lib/null_shadows.c): none outside a session; within one, the
// same primal address always gets the same zeroed scratch, offsets follow
// the primal's, each lane has its own, stripping gives null for them only,
// and the outermost leave releases them (a new session starts from zero).

#include "adcc_runtime.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <thread>

TEST_CASE("null-shadow scratch within sessions", "[runtime]") {
  static double Data[64];
  REQUIRE(adcc_null_shadow(&Data[3], 0) == nullptr);
  adcc_null_shadows_enter();
  auto *S = static_cast<double *>(adcc_null_shadow(&Data[3], 0));
  REQUIRE(S != nullptr);
  CHECK(*S == 0.0);
  CHECK(reinterpret_cast<uintptr_t>(S) % alignof(double) == 0);
  *S = 2.5;
  CHECK(adcc_null_shadow(&Data[3], 0) == S);
  CHECK(adcc_null_shadow(&Data[10], 0) == S + 7);
  CHECK(adcc_null_shadow(&Data[0], 0) == S - 3);
  // Another lane of a batched derivative: its own scratch.
  auto *L1 = static_cast<double *>(adcc_null_shadow(&Data[3], 1));
  REQUIRE(L1 != nullptr);
  CHECK(L1 != S);
  CHECK(*L1 == 0.0);
  // Stripped: null for a scratch shadow, unchanged otherwise.
  CHECK(adcc_null_shadow_strip(S) == nullptr);
  CHECK(adcc_null_shadow_strip(L1) == nullptr);
  CHECK(adcc_null_shadow_strip(&Data[5]) == &Data[5]);
  CHECK(adcc_null_shadow(nullptr, 0) == nullptr);
  // Nested sessions: only the outermost leave releases.
  adcc_null_shadows_enter();
  adcc_null_shadows_leave();
  CHECK(*static_cast<double *>(adcc_null_shadow(&Data[3], 0)) == 2.5);
  adcc_null_shadows_leave();
  CHECK(adcc_null_shadow(&Data[3], 0) == nullptr);
  adcc_null_shadows_enter();
  auto *Again = static_cast<double *>(adcc_null_shadow(&Data[3], 0));
  REQUIRE(Again != nullptr);
  CHECK(*Again == 0.0);
  adcc_null_shadows_leave();
}

TEST_CASE("null-shadow sessions of split mode", "[runtime]") {
  static double Data[16];
  // An augmented sweep's session, kept with its handle.
  adcc_null_shadows_enter();
  auto *S = static_cast<double *>(adcc_null_shadow(&Data[2], 0));
  REQUIRE(S != nullptr);
  *S = 4.0;
  const void *Handle = reinterpret_cast<const void *>(~(uintptr_t(-1) >> 1) |
                                                      uintptr_t(64));
  adcc_null_shadows_suspend(Handle);
  CHECK(adcc_null_shadows_level() == 0);
  CHECK(adcc_null_shadow(&Data[2], 0) == nullptr);
  // A request between the sweeps gets a session of its own.
  adcc_null_shadows_enter();
  auto *Other = static_cast<double *>(adcc_null_shadow(&Data[2], 0));
  REQUIRE(Other != nullptr);
  CHECK(*Other == 0.0);
  adcc_null_shadows_leave();
  // The reverse sweep, given the handle in a tape buffer, meets it again.
  const void *Buffer[1] = {Handle};
  adcc_null_shadows_resume(Buffer);
  CHECK(adcc_null_shadows_level() == 1);
  CHECK(adcc_null_shadow(&Data[2], 0) == S);
  CHECK(*S == 4.0);
  adcc_null_shadows_leave();
  CHECK(adcc_null_shadow(&Data[2], 0) == nullptr);
  // A resume without its suspension: a new session.
  adcc_null_shadows_resume(Handle);
  CHECK(adcc_null_shadow(&Data[2], 0) != nullptr);
  adcc_null_shadows_leave();
  // A derivative that threw: the landing pad restores the count.
  unsigned Before = adcc_null_shadows_level();
  adcc_null_shadows_enter();
  adcc_null_shadows_enter();
  adcc_null_shadows_restore(Before);
  CHECK(adcc_null_shadows_level() == Before);
  CHECK(adcc_null_shadow(&Data[2], 0) == nullptr);
  adcc_null_shadows_restore(~0u);
}

TEST_CASE("null-shadow sessions seen by other threads", "[runtime]") {
  static double Data[16];
  adcc_null_shadows_enter();
  auto *S = static_cast<double *>(adcc_null_shadow(&Data[5], 0));
  REQUIRE(S != nullptr);
  void *Seen = nullptr;
  std::thread Worker([&] { Seen = adcc_null_shadow(&Data[5], 0); });
  Worker.join();
  CHECK(Seen == S);
  adcc_null_shadows_leave();
  std::thread After([&] { Seen = adcc_null_shadow(&Data[5], 0); });
  After.join();
  CHECK(Seen == nullptr);
}
