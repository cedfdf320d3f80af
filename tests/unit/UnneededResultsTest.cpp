//===- UnneededResultsTest.cpp - DupNoNeed outputs' primal writes --------===//

#include "../../adcore/lib/support/UnneededResults.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"

#include <catch2/catch.hpp>

using namespace adcore;

namespace {

/// %out and %out2 only written, %io read and written; %mixed selects %out
/// or %io.
const char *Source = R"(
declare void @llvm.memset.p0.i64(ptr writeonly, i8, i64, i1)
declare void @callee(ptr writeonly captures(none))
declare void @reader(ptr)

define void @f(ptr writeonly captures(none) %out,
               ptr writeonly captures(none) %out2, ptr %io, i1 %c, i64 %n) {
entry:
  call void @llvm.memset.p0.i64(ptr %out, i8 0, i64 16, i1 false)
  %v = load double, ptr %io
  store double %v, ptr %io
  br label %loop
loop:
  %p = phi ptr [ %out, %entry ], [ %next, %loop ]
  store double %v, ptr %p
  %next = getelementptr inbounds double, ptr %p, i64 1
  %done = icmp eq ptr %next, %out2
  br i1 %done, label %exit, label %loop
exit:
  %either = select i1 %c, ptr %out, ptr %out2
  store double %v, ptr %either
  %mixed = select i1 %c, ptr %out, ptr %io
  store double %v, ptr %mixed
  store volatile double %v, ptr %out
  call void @callee(ptr %out2)
  call void @reader(ptr %out2)
  ret void
}
)";

struct Parsed {
  llvm::LLVMContext Ctx;
  std::unique_ptr<llvm::Module> M;
  llvm::Function *F = nullptr;

  Parsed() {
    llvm::SMDiagnostic Err;
    M = llvm::parseAssemblyString(Source, Err, Ctx);
    REQUIRE(M);
    F = M->getFunction("f");
  }
  llvm::Argument &arg(unsigned I) { return *F->getArg(I); }
  llvm::Value *named(llvm::StringRef Name) {
    for (llvm::BasicBlock &BB : *F)
      for (llvm::Instruction &I : BB)
        if (I.getName() == Name)
          return &I;
    FAIL("no value " << Name.str());
    return nullptr;
  }
  unsigned writes() {
    unsigned N = 0;
    for (llvm::BasicBlock &BB : *F)
      for (llvm::Instruction &I : BB)
        N += llvm::isa<llvm::StoreInst, llvm::MemIntrinsic>(I);
    return N;
  }
};

/// The results with activities \p Out, \p Out2 and \p IO for %out, %out2
/// and %io, noted on f itself (as on a derivative's clone of it).
UnneededResults noted(Parsed &P, ArgActivity Out, ArgActivity Out2,
                      ArgActivity IO) {
  UnneededResults U;
  ArgActivity As[] = {Out, Out2, IO};
  for (unsigned I = 0; I < 3; ++I)
    U.note(P.arg(I), As[I], P.arg(I));
  return U;
}

} // namespace

TEST_CASE("unneeded results: only DupNoNeed parameters written through only",
          "[unneeded]") {
  Parsed P;
  UnneededResults Dup =
      noted(P, ArgActivity::Dup, ArgActivity::Dup, ArgActivity::DupNoNeed);
  // Dup outputs, and a DupNoNeed parameter the function reads: nothing.
  CHECK_FALSE(Dup.pointsInto(&P.arg(0)));
  CHECK_FALSE(Dup.pointsInto(&P.arg(2)));
  Dup.collectWrites(*P.F);
  Dup.dropWrites();
  CHECK(P.writes() == 6);
}

TEST_CASE("unneeded results: addresses through GEPs, phis and selects",
          "[unneeded]") {
  Parsed P;
  UnneededResults U = noted(P, ArgActivity::DupNoNeed, ArgActivity::DupNoNeed,
                            ArgActivity::Dup);
  CHECK(U.pointsInto(&P.arg(0)));
  CHECK(U.pointsInto(P.named("p")));
  CHECK(U.pointsInto(P.named("next")));
  CHECK(U.pointsInto(P.named("either")));
  CHECK_FALSE(U.pointsInto(P.named("mixed")));
  CHECK_FALSE(U.pointsInto(&P.arg(2)));
  // A defined callee's writeonly parameter only: @callee is a declaration.
  CHECK(U.calleeActivity(&P.arg(1), P.M->getFunction("callee"), 0) ==
        ArgActivity::Dup);
  CHECK(U.calleeActivity(&P.arg(1), P.M->getFunction("reader"), 0) ==
        ArgActivity::Dup);
  CHECK(U.calleeActivity(&P.arg(1), P.F, 2) == ArgActivity::Dup);
  CHECK(U.calleeActivity(&P.arg(1), P.F, 1) == ArgActivity::DupNoNeed);
  CHECK(U.calleeActivity(&P.arg(2), P.F, 1) == ArgActivity::Dup);
}

TEST_CASE("unneeded results: the memset and plain stores are dropped, the "
          "volatile store and the stores that may reach %io stay",
          "[unneeded]") {
  Parsed P;
  UnneededResults U = noted(P, ArgActivity::DupNoNeed, ArgActivity::DupNoNeed,
                            ArgActivity::Dup);
  REQUIRE(P.writes() == 6);
  U.collectWrites(*P.F);
  // One recorded write is replaced meanwhile (as derivative code may do).
  llvm::StoreInst *Either = nullptr;
  for (llvm::User *Usr : P.named("either")->users())
    Either = llvm::cast<llvm::StoreInst>(Usr);
  REQUIRE(Either);
  Either->eraseFromParent();
  U.dropWrites();
  // Left: the store to %io, the one through %mixed, the volatile one.
  CHECK(P.writes() == 3);
  for (llvm::BasicBlock &BB : *P.F)
    for (llvm::Instruction &I : BB)
      if (auto *S = llvm::dyn_cast<llvm::StoreInst>(&I))
        CHECK((S->isVolatile() || S->getPointerOperand() == &P.arg(2) ||
               S->getPointerOperand() == P.named("mixed")));
}
