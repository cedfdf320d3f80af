//===- CrossTUTest.cpp - Names of link-time derivatives ------------------===//

#include "adcore/CrossTU.h"

#include <catch2/catch.hpp>

using namespace adcore;

TEST_CASE("link-time derivative names round-trip", "[crosstu]") {
  CrossTURequest R;
  R.Key.Mode = DerivativeMode::Augmented;
  R.Combined = true;
  R.Key.Width = 2;
  R.Key.ReturnShadow = true;
  R.Key.Args = {ArgActivity::Dup, ArgActivity::Const};
  R.OptLevel = 2;
  R.Primal = "energy";
  std::string Name = crossTUSymbol(R);
  CHECK(llvm::StringRef(Name).starts_with(CrossTUPrefix));
  auto Back = parseCrossTUSymbol(Name);
  REQUIRE(Back);
  CHECK(Back->Combined);
  CHECK(Back->Key.Width == 2);
  CHECK(Back->Key.Args.size() == 2);
  CHECK(Back->OptLevel == 2);
  CHECK(Back->Primal == "energy");
  CHECK_FALSE(parseCrossTUSymbol("energy"));
  CHECK_FALSE(parseCrossTUSymbol("__adcc_xtu.x1.000.d.O2.f"));
  CHECK(Back->Key.NullableShadows == 0);
  CHECK(Back->Key.NullReaching == 0);

  // Arguments whose shadows may be null, or reach memory that may hold
  // null shadows (NullableShadows.h), are part of the name.
  R.Key.NullableShadows = 0x2;
  R.Key.NullReaching = 0x13;
  std::string Guarded = crossTUSymbol(R);
  CHECK(Guarded != Name);
  auto GuardedBack = parseCrossTUSymbol(Guarded);
  REQUIRE(GuardedBack);
  CHECK(GuardedBack->Key.NullableShadows == 0x2);
  CHECK(GuardedBack->Key.NullReaching == 0x13);
  CHECK(GuardedBack->Primal == "energy");
}
