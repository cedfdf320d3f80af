//===- CloneOriginsTest.cpp - The primal value of each clone -------------===//
//
// A derivative's clone deleted while the derivative is made leaves no entry
// behind: the reverse sweep once took a branch made later at the address of
// a deleted return for the return's clone (issue found by the reproducible
// build test: one compile in some hundreds gave another object). The
// emitters' other maps keep their keys: instructions they delete while
// emitting are buried, their addresses not reused until the emitter ends.

#include "../../adcore/lib/support/BuriedInstructions.h"
#include "../../adcore/lib/support/CloneOrigins.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <catch2/catch.hpp>

using namespace adcore;
using namespace llvm;

namespace {

const char *Source = R"(
define double @f(double %x) {
entry:
  %y = fmul double %x, %x
  ret double %y
}
)";

struct Cloned {
  LLVMContext Ctx;
  std::unique_ptr<Module> M;
  Function *Primal = nullptr, *Clone = nullptr;
  CloneOrigins Origins;

  Cloned() {
    SMDiagnostic Err;
    M = parseAssemblyString(Source, Err, Ctx);
    REQUIRE(M);
    Primal = M->getFunction("f");
    ValueToValueMapTy VMap;
    Clone = CloneFunction(Primal, VMap);
    for (const auto &[Orig, New] : VMap)
      Origins[New] = Orig;
  }
  Instruction &primal(unsigned No) {
    return *std::next(Primal->getEntryBlock().begin(), No);
  }
  Instruction &clone(unsigned No) {
    return *std::next(Clone->getEntryBlock().begin(), No);
  }
};

} // namespace

TEST_CASE("each clone maps to the primal value it copies", "[clones]") {
  Cloned C;
  CHECK(C.Origins.lookup(&C.clone(0)) == &C.primal(0));
  CHECK(C.Origins.lookup(&C.clone(1)) == &C.primal(1));
  CHECK(C.Origins.lookup(C.Clone->getArg(0)) == C.Primal->getArg(0));
  CHECK(C.Origins.lookup(&C.primal(0)) == nullptr);
  CHECK_FALSE(C.Origins.try_emplace(&C.clone(0), &C.primal(1)));
  CHECK(C.Origins.lookup(&C.clone(0)) == &C.primal(0));
}

TEST_CASE("a deleted clone leaves no entry", "[clones]") {
  Cloned C;
  Instruction &Ret = C.clone(1);
  CHECK(C.Origins.contains(&Ret));
  const Value *Key = &Ret;
  Value *Y = &C.clone(0);
  ReturnInst *New = ReturnInst::Create(C.Ctx, Y, Ret.getIterator());
  Ret.eraseFromParent();
  CHECK_FALSE(C.Origins.contains(Key));
  CHECK_FALSE(C.Origins.contains(New));
  // Values made after the deletion, whatever their address, are no clones.
  for (int K = 0; K < 64; ++K) {
    BasicBlock *BB = BasicBlock::Create(C.Ctx, "mid", C.Clone);
    Instruction *Br = BranchInst::Create(BB, BB);
    CHECK(C.Origins.lookup(Br) == nullptr);
  }
}

TEST_CASE("replacing a clone's uses leaves its entry", "[clones]") {
  Cloned C;
  Instruction &Mul = C.clone(0);
  Value *X = C.Clone->getArg(0);
  Mul.replaceAllUsesWith(X);
  CHECK(C.Origins.lookup(&Mul) == &C.primal(0));
  CHECK(C.Origins.lookup(X) == C.Primal->getArg(0));
  CHECK(C.Origins.erase(&Mul));
  CHECK_FALSE(C.Origins.contains(&Mul));
}

TEST_CASE("a buried instruction keeps its address until the end",
          "[clones]") {
  Cloned C;
  Instruction &Mul = C.clone(0);
  Value *X = C.Clone->getArg(0);
  const Value *Key = &Mul;
  {
    BuriedInstructions Graveyard;
    Mul.replaceAllUsesWith(X);
    Graveyard.bury(&Mul);
    // Out of the function, its operands dropped: the argument is no longer
    // used by it, and the function verifies without it.
    CHECK(Mul.getParent() == nullptr);
    CHECK(X->getNumUses() == 1); // (the return's)
    CHECK(C.Clone->getEntryBlock().size() == 1);
    // Values made while the graveyard lives never get its address.
    for (int K = 0; K < 64; ++K) {
      BasicBlock *BB = BasicBlock::Create(C.Ctx, "mid", C.Clone);
      Instruction *Br = BranchInst::Create(BB, BB);
      CHECK(static_cast<const Value *>(Br) != Key);
      CHECK(static_cast<const Value *>(BB) != Key);
    }
    // A buried instruction that used another buried one is deleted too.
    Instruction *Neg = BinaryOperator::CreateFMul(X, X, "square");
    Instruction *Twice = BinaryOperator::CreateFAdd(Neg, Neg, "twice");
    Graveyard.bury(Twice);
    Graveyard.bury(Neg);
  }
}
