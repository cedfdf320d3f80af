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

TEST_CASE("link-time derivative names carry the levels", "[crosstu]") {
  // A callee's derivative on the caller's tape level (reverse over reverse)
  // or scratch level (forward over forward) is another function than the
  // same derivative at level 0: two names.
  CrossTURequest R;
  R.Key.Mode = DerivativeMode::Reverse;
  R.Key.Args = {ArgActivity::Dup, ArgActivity::Active};
  R.OptLevel = 1;
  R.Primal = "product";
  std::string Zero = crossTUSymbol(R);
  R.Key.TapeLevel = 1;
  std::string One = crossTUSymbol(R);
  R.Key.TapeLevel = 12;
  R.Key.ScratchLevel = 3;
  R.Key.NullableShadows = 0x1;
  R.Key.NullReaching = 0x3;
  std::string Both = crossTUSymbol(R);
  CHECK(Zero != One);
  CHECK(One != Both);
  for (const std::string &Name : {Zero, One, Both}) {
    auto Back = parseCrossTUSymbol(Name);
    REQUIRE(Back);
    CHECK(crossTUSymbol(*Back) == Name);
  }
  auto Back = parseCrossTUSymbol(Both);
  REQUIRE(Back);
  CHECK(Back->Key.TapeLevel == 12);
  CHECK(Back->Key.ScratchLevel == 3);
  CHECK(Back->Key.NullableShadows == 0x1);
  CHECK(Back->Key.NullReaching == 0x3);
  CHECK(Back->Primal == "product");
  CHECK(parseCrossTUSymbol(One)->Key.TapeLevel == 1);
  CHECK(parseCrossTUSymbol(Zero)->Key.TapeLevel == 0);
  CHECK_FALSE(parseCrossTUSymbol("__adcc_xtu.r1.110tx.da.O1.product"));

  // What a name does not say: such a key is refused before it is named.
  DerivativeKey K = R.Key;
  CHECK(crossTUSymbolCarries(K));
  K.Parallel = true;
  CHECK_FALSE(crossTUSymbolCarries(K));
  K = R.Key;
  K.ErrorEstimate = true;
  CHECK_FALSE(crossTUSymbolCarries(K));
  K = R.Key;
  K.InterleavedArgs = 1;
  CHECK_FALSE(crossTUSymbolCarries(K));
}

TEST_CASE("link-time shadow release names", "[crosstu]") {
  // The function that zeroes a link-time derivative's shadows is named
  // after it, and is no derivative itself (the link step would try to
  // differentiate a function called `z`).
  CrossTURequest R;
  R.Key.Mode = DerivativeMode::Reverse;
  R.Key.Args = {ArgActivity::Active};
  R.Primal = "poly.step";
  std::string Name = crossTUSymbol(R);
  std::string Release = crossTUReleaseSymbol(Name);
  CHECK(llvm::StringRef(Release).starts_with(CrossTUPrefix));
  CHECK(Release != Name);
  CHECK_FALSE(parseCrossTUSymbol(Release));
  auto Of = releasedCrossTUSymbol(Release);
  REQUIRE(Of);
  CHECK(*Of == Name);
  CHECK_FALSE(releasedCrossTUSymbol(Name));
  CHECK_FALSE(releasedCrossTUSymbol("__adcc_xtu.z.not-a-derivative"));
  CHECK_FALSE(releasedCrossTUSymbol("poly"));
}

TEST_CASE("link-time names of a request's marks", "[crosstu]") {
  // The functions that begin and end a request's marks of pointer shadows
  // on the level of a derivative made at link time are named after it,
  // one for each, and are no derivatives themselves.
  CrossTURequest R;
  R.Key.Mode = DerivativeMode::Augmented;
  R.Key.Args = {ArgActivity::Dup, ArgActivity::Dup};
  R.Primal = "pool.take";
  std::string Name = crossTUSymbol(R);
  std::string Begin = crossTUMarksSymbol(Name, true);
  std::string End = crossTUMarksSymbol(Name, false);
  CHECK(llvm::StringRef(Begin).starts_with(CrossTUPrefix));
  CHECK(Begin != End);
  CHECK(Begin != crossTUReleaseSymbol(Name));
  CHECK_FALSE(parseCrossTUSymbol(Begin));
  CHECK_FALSE(parseCrossTUSymbol(End));
  CHECK_FALSE(releasedCrossTUSymbol(Begin));
  auto B = marksCrossTUSymbol(Begin);
  REQUIRE(B);
  CHECK(B->first == Name);
  CHECK(B->second);
  auto E = marksCrossTUSymbol(End);
  REQUIRE(E);
  CHECK(E->first == Name);
  CHECK_FALSE(E->second);
  CHECK_FALSE(marksCrossTUSymbol(Name));
  CHECK_FALSE(marksCrossTUSymbol(crossTUReleaseSymbol(Name)));
  CHECK_FALSE(marksCrossTUSymbol("__adcc_xtu.mb.not-a-derivative"));
}
