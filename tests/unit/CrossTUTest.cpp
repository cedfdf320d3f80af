//===- CrossTUTest.cpp - Link-time derivative names and embedded IR -------===//

#include "adcore/CrossTU.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"

#include <catch2/catch.hpp>

using namespace adcore;

namespace {

/// The contents EmbeddedIRSection gets for a one-function module.
std::string sectionOf(llvm::LLVMContext &Ctx, const char *Name) {
  llvm::SMDiagnostic Err;
  std::string Source =
      std::string("define double @") + Name + "(double %x) { ret double %x }";
  auto M = llvm::parseAssemblyString(Source, Err, Ctx);
  REQUIRE(M);
  embedModuleIR(*M, /*ContractDerivatives=*/true);
  for (llvm::GlobalVariable &GV : M->globals())
    if (GV.getSection() == EmbeddedIRSection) {
      auto *Data =
          llvm::cast<llvm::ConstantDataSequential>(GV.getInitializer());
      return Data->getRawDataValues().str();
    }
  FAIL("no embedded IR");
  return "";
}

/// The name of the one function of \p Bitcode.
std::string functionIn(llvm::LLVMContext &Ctx, llvm::StringRef Bitcode) {
  auto M = llvm::parseBitcodeFile(llvm::MemoryBufferRef(Bitcode, "frame"), Ctx);
  REQUIRE(static_cast<bool>(M));
  return (*M)->begin()->getName().str();
}

} // namespace

TEST_CASE("embedded IR: one frame per object, concatenated by ld -r",
          "[crosstu]") {
  llvm::LLVMContext Ctx;
  std::string A = sectionOf(Ctx, "fa"), B = sectionOf(Ctx, "fb");
  REQUIRE(A.size() % 8 == 0);

  auto One = embeddedModules(A);
  REQUIRE(One);
  REQUIRE(One->size() == 1);
  CHECK(functionIn(Ctx, (*One)[0]) == "fa");

  // Two sections one after the other, with and without the zeros a linker
  // may put between them.
  for (const std::string &Joined :
       {A + B, A + std::string(8, '\0') + B + std::string(16, '\0')}) {
    auto Two = embeddedModules(Joined);
    REQUIRE(Two);
    REQUIRE(Two->size() == 2);
    CHECK(functionIn(Ctx, (*Two)[0]) == "fa");
    CHECK(functionIn(Ctx, (*Two)[1]) == "fb");
  }

  CHECK(embeddedModules("")->empty());
  // Not a frame: raw bitcode (what an older adcc wrote), a cut frame, a
  // length past the end.
  CHECK_FALSE(embeddedModules(std::string((*One)[0])));
  CHECK_FALSE(embeddedModules(A.substr(0, A.size() / 2)));
  std::string Long = A;
  Long[8] = '\xff';
  Long[15] = '\x7f';
  CHECK_FALSE(embeddedModules(Long));
}

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
