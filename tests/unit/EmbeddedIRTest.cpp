//===- EmbeddedIRTest.cpp - The IR carried in object files ---------------===//

#include "adcore/EmbeddedIR.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Compression.h"
#include "llvm/Support/SourceMgr.h"

#include <catch2/catch.hpp>

using namespace adcore;

namespace {

std::unique_ptr<llvm::Module> parse(llvm::LLVMContext &Ctx,
                                    const std::string &Source) {
  llvm::SMDiagnostic Err;
  auto M = llvm::parseAssemblyString(Source, Err, Ctx);
  REQUIRE(M);
  return M;
}

/// The contents EmbeddedIRSection gets for \p M; empty when it gets none.
std::string sectionOf(llvm::Module &M, const Options &Opts = Options()) {
  embedModuleIR(M, Opts);
  for (llvm::GlobalVariable &GV : M.globals())
    if (GV.getSection() == EmbeddedIRSection) {
      auto *Data =
          llvm::cast<llvm::ConstantDataSequential>(GV.getInitializer());
      return Data->getRawDataValues().str();
    }
  return "";
}

/// The section of a module with one function named \p Name.
std::string sectionOf(llvm::LLVMContext &Ctx, const char *Name) {
  auto M = parse(Ctx, std::string("define double @") + Name +
                          "(double %x) { ret double %x }");
  return sectionOf(*M);
}

/// The one module that \p Section carries.
std::unique_ptr<llvm::Module> carried(llvm::LLVMContext &Ctx,
                                      const std::string &Section) {
  auto Frames = embeddedModules(Section);
  REQUIRE(static_cast<bool>(Frames));
  REQUIRE(Frames->size() == 1);
  auto M = llvm::parseBitcodeFile(
      llvm::MemoryBufferRef((*Frames)[0], "frame"), Ctx);
  REQUIRE(static_cast<bool>(M));
  return std::move(*M);
}

/// The name of the first function that \p Section carries.
std::string functionIn(llvm::LLVMContext &Ctx, llvm::StringRef Bitcode) {
  auto M = llvm::parseBitcodeFile(llvm::MemoryBufferRef(Bitcode, "frame"), Ctx);
  REQUIRE(static_cast<bool>(M));
  return (*M)->begin()->getName().str();
}

bool fails(llvm::StringRef Section) {
  auto Frames = embeddedModules(Section);
  if (Frames)
    return false;
  llvm::consumeError(Frames.takeError());
  return true;
}

} // namespace

TEST_CASE("embedded IR: one frame per object, concatenated by ld -r",
          "[embeddedir]") {
  llvm::LLVMContext Ctx;
  std::string A = sectionOf(Ctx, "fa"), B = sectionOf(Ctx, "fb");
  REQUIRE(A.size() % 8 == 0);

  auto One = embeddedModules(A);
  REQUIRE(static_cast<bool>(One));
  REQUIRE(One->size() == 1);
  CHECK(functionIn(Ctx, (*One)[0]) == "fa");

  // Two sections one after the other, with and without the zeros a linker
  // may put between them.
  for (const std::string &Joined :
       {A + B, A + std::string(8, '\0') + B + std::string(16, '\0')}) {
    auto Two = embeddedModules(Joined);
    REQUIRE(static_cast<bool>(Two));
    REQUIRE(Two->size() == 2);
    CHECK(functionIn(Ctx, (*Two)[0]) == "fa");
    CHECK(functionIn(Ctx, (*Two)[1]) == "fb");
  }

  auto None = embeddedModules("");
  REQUIRE(static_cast<bool>(None));
  CHECK(None->empty());
  // Not a frame: raw bitcode (what an early adcc wrote), a cut frame, a
  // length past the end, a compressed frame with a corrupt length.
  CHECK(fails((*One)[0]));
  CHECK(fails(A.substr(0, A.size() / 2)));
  std::string Long = A;
  Long[8] = '\xff';
  Long[15] = '\x7f';
  CHECK(fails(Long));
  if (llvm::StringRef(A).starts_with("ADCC.IRZ") ||
      llvm::StringRef(A).starts_with("ADCC.IRL")) {
    std::string Huge = A;
    Huge[16 + 7] = '\x7f';
    CHECK(fails(Huge));
  }
}

TEST_CASE("embedded IR is compressed, and uncompressed frames still read",
          "[embeddedir]") {
  llvm::LLVMContext Ctx;
  // A module whose bitcode compresses: many similar functions.
  std::string Source;
  for (int I = 0; I < 64; ++I)
    Source += "define double @f" + std::to_string(I) +
              "(double %x) {\n  %a = fmul double %x, %x\n"
              "  %b = fadd double %a, " +
              std::to_string(I) + ".0\n  ret double %b\n}\n";
  auto M = parse(Ctx, Source);
  llvm::SmallVector<char, 0> Bitcode;
  llvm::raw_svector_ostream OS(Bitcode);
  llvm::WriteBitcodeToFile(*M, OS);
  llvm::StringRef Raw(Bitcode.data(), Bitcode.size());

  std::string Packed = packBitcode(Raw);
  if (llvm::compression::zstd::isAvailable())
    CHECK(llvm::StringRef(Packed).starts_with("ADCC.IRZ"));
  if (llvm::compression::zstd::isAvailable() ||
      llvm::compression::zlib::isAvailable())
    CHECK(Packed.size() < Raw.size());
  CHECK(Packed == packBitcode(Raw));
  auto Back = embeddedModules(Packed);
  REQUIRE(static_cast<bool>(Back));
  REQUIRE(Back->size() == 1);
  CHECK((*Back)[0] == Raw.str());

  // The frame adcc wrote before compression, alone and after a compressed
  // one (ld -r of objects of two versions).
  std::string Old = frameBitcode(Raw);
  CHECK(llvm::StringRef(Old).starts_with("ADCC.IR1"));
  auto Both = embeddedModules(Packed + Old);
  REQUIRE(static_cast<bool>(Both));
  REQUIRE(Both->size() == 2);
  CHECK((*Both)[1] == Raw.str());
}

TEST_CASE("embedded IR: what other files can reach, paths mapped",
          "[embeddedir]") {
  llvm::LLVMContext Ctx;
  auto M = parse(Ctx, R"(
source_filename = "/build/one/src/model.c"
@table = internal constant [2 x double] [double 1.0, double 2.0]
@unused_table = internal constant [2 x double] [double 3.0, double 4.0]
define internal double @helper(double %x) {
  %p = getelementptr [2 x double], ptr @table, i64 0, i64 1
  %t = load double, ptr %p
  %r = fmul double %x, %t
  ret double %r
}
define internal double @dead(double %x) {
  %p = getelementptr [2 x double], ptr @unused_table, i64 0, i64 1
  %t = load double, ptr %p
  ret double %t
}
define double @energy(double %x) {
  %r = call double @helper(double %x)
  ret double %r
}
)");
  Options Opts;
  Opts.PathPrefixes = {{"/build/one", "/src"}, {"/build", "/other"}};
  std::string Section = sectionOf(*M, Opts);
  // The object keeps its own module as it was.
  CHECK(M->getFunction("dead"));
  CHECK(M->getSourceFileName() == "/build/one/src/model.c");

  auto C = carried(Ctx, Section);
  CHECK(C->getFunction("energy"));
  CHECK(C->getFunction("helper"));
  CHECK(C->getGlobalVariable("table", /*AllowInternal=*/true));
  CHECK_FALSE(C->getFunction("dead"));
  CHECK_FALSE(C->getGlobalVariable("unused_table", /*AllowInternal=*/true));
  // The first prefix that matches applies.
  CHECK(C->getSourceFileName() == "/src/src/model.c");
  CHECK(remapPath("/build/two/a.c", Opts.PathPrefixes) == "/other/two/a.c");
  CHECK(remapPath("/elsewhere/a.c", Opts.PathPrefixes) == "/elsewhere/a.c");
}

TEST_CASE("embedded IR: nothing for a module that defines nothing others "
          "can reach",
          "[embeddedir]") {
  llvm::LLVMContext Ctx;
  auto M = parse(Ctx, R"(
define internal double @alone(double %x) { ret double %x }
declare double @elsewhere(double)
)");
  CHECK(sectionOf(*M).empty());
  // A variable other files can read is something to carry.
  auto V = parse(Ctx, "@scale = constant double 2.0\n");
  CHECK_FALSE(sectionOf(*V).empty());
}
