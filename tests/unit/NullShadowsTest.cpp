// Unit tests of the scratch shadows behind null shadow pointers
// (runtime/lib/null_shadows.c): none outside a session; within one, the
// same primal address always gets the same zeroed scratch, offsets follow
// the primal's, each lane has its own, stripping gives null for them only,
// and the outermost leave releases them (a new session starts from zero).

#include "adcc_runtime.h"

#include <catch2/catch.hpp>

#include <cstdint>

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
