//===- ScaledSeeds.cpp - A tangent retried with smaller seeds ------------===//
//
// See ScaledSeeds.h.
//
//===----------------------------------------------------------------------===//

#include "ScaledSeeds.h"

#include "support/DerivativeStops.h"
#include "support/IRMarks.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/FPEnv.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

#include <cmath>

using namespace llvm;

namespace adcore {
namespace {

/// Whether \p D works on floats' bits: a float made of integer bits whose
/// derivative prepare/ScaledFloatBits.cpp follows or drops.
bool worksOnBits(Function &D) {
  for (Instruction &I : instructions(D)) {
    if (I.hasMetadata(ScaledTangentMetadata))
      return true;
    if (isa<BitCastInst>(I) && I.getType()->isFloatingPointTy() &&
        I.getOperand(0)->getType()->isIntegerTy() &&
        I.hasMetadata(NoDerivativeMetadata))
      return true;
  }
  return false;
}

/// Whether running \p D twice does what running it once does, and its
/// tangents come from its parameters only: no memory but its own frame
/// written, none but its frame and constants read, no call but intrinsics
/// without side effects and the runtime's stop.
bool readsOnlyItsFrame(Function &D) {
  auto Local = [&](const Value *Ptr) {
    const Value *U = getUnderlyingObject(Ptr);
    if (isa<AllocaInst>(U))
      return true;
    auto *G = dyn_cast<GlobalVariable>(U);
    return G && G->isConstant();
  };
  for (Instruction &I : instructions(D)) {
    if (auto *L = dyn_cast<LoadInst>(&I)) {
      if (L->isVolatile() || !Local(L->getPointerOperand()))
        return false;
      continue;
    }
    if (auto *S = dyn_cast<StoreInst>(&I)) {
      if (S->isVolatile() ||
          !isa<AllocaInst>(getUnderlyingObject(S->getPointerOperand())))
        return false;
      continue;
    }
    if (auto *Call = dyn_cast<CallBase>(&I)) {
      Function *Callee = Call->getCalledFunction();
      if (Callee && Callee->getName() == DerivativeStoppedFunction)
        continue;
      if (isa<DbgInfoIntrinsic>(Call) || isa<LifetimeIntrinsic>(Call))
        continue;
      if (!isa<IntrinsicInst>(Call) || Call->mayWriteToMemory() ||
          Call->mayReadFromMemory())
        return false;
      continue;
    }
    if (I.mayReadOrWriteMemory())
      return false;
  }
  return true;
}

} // namespace

Function *retryWithScaledSeeds(Function &D, const DerivativeKey &Key) {
  if (Key.Width != 1 || Key.Split || Key.ErrorEstimate || !Key.ReturnShadow ||
      D.isDeclaration() || D.isVarArg())
    return nullptr;
  // The tangent: the result, or the second of {primal, tangent}.
  Type *RT = D.getReturnType();
  Type *TT = RT;
  if (Key.ReturnPrimal) {
    auto *ST = dyn_cast<StructType>(RT);
    if (!ST || ST->getNumElements() != 2)
      return nullptr;
    TT = ST->getElementType(1);
  }
  if (!TT->isFloatTy() && !TT->isDoubleTy())
    return nullptr;
  // Scalar parameters only (a pointer's shadow memory would not be
  // scaled); the shadows of the active ones, floats of the tangent's type.
  SmallVector<bool, 8> IsShadow;
  unsigned N = 0;
  for (ArgActivity A : Key.Args) {
    if (N >= D.arg_size())
      return nullptr;
    IsShadow.push_back(false);
    ++N;
    if (A == ArgActivity::Const)
      continue;
    if (N >= D.arg_size() || D.getArg(N)->getType() != TT)
      return nullptr;
    IsShadow.push_back(true);
    ++N;
  }
  if (N != D.arg_size())
    return nullptr;
  for (Argument &A : D.args())
    if (!A.getType()->isIntegerTy() && !A.getType()->isFloatingPointTy())
      return nullptr;
  if (!worksOnBits(D) || !readsOnlyItsFrame(D))
    return nullptr;

  // The body moves to Core; D calls it.
  Function *Core = Function::Create(D.getFunctionType(), D.getLinkage(),
                                    D.getName() + ".seeded", D.getParent());
  Core->copyAttributesFrom(&D);
  Core->setSubprogram(D.getSubprogram());
  D.setSubprogram(nullptr);
  Core->splice(Core->begin(), &D);
  for (auto [Old, New] : zip(D.args(), Core->args())) {
    New.takeName(&Old);
    Old.replaceAllUsesWith(&New);
  }
  LLVMContext &C = D.getContext();
  BasicBlock *Entry = BasicBlock::Create(C, "entry", &D);
  BasicBlock *Retry = BasicBlock::Create(C, "retry.scaled", &D);
  BasicBlock *Done = BasicBlock::Create(C, "done", &D);
  IRBuilder<> B(Entry);
  SmallVector<Value *, 8> Args;
  for (Argument &A : D.args())
    Args.push_back(&A);
  CallInst *First = B.CreateCall(Core, Args);
  auto TangentOf = [&](IRBuilder<> &At, Value *R) {
    return Key.ReturnPrimal ? At.CreateExtractValue(R, 1) : R;
  };
  auto Finite = [&](IRBuilder<> &At, Value *V) {
    return At.CreateIntrinsic(Intrinsic::is_fpclass, {V->getType()},
                              {V, At.getInt32(fcFinite)});
  };
  B.CreateCondBr(Finite(B, TangentOf(B, First)), Done, Retry);

  int K = TT->isDoubleTy() ? 512 : 64;
  B.SetInsertPoint(Retry);
  SmallVector<Value *, 8> Scaled;
  for (auto [A, Shadow] : zip(D.args(), IsShadow))
    Scaled.push_back(
        Shadow ? B.CreateFMul(&A, ConstantFP::get(TT, std::ldexp(1.0, -K)))
               : static_cast<Value *>(&A));
  CallInst *Second = B.CreateCall(Core, Scaled);
  Value *T2 = TangentOf(B, Second);
  // (Where the smaller seeds do not help either, the first tangent.)
  Value *Back = B.CreateSelect(
      Finite(B, T2), B.CreateFMul(T2, ConstantFP::get(TT, std::ldexp(1.0, K))),
      TangentOf(B, First));
  Value *Result = Key.ReturnPrimal ? B.CreateInsertValue(First, Back, 1) : Back;
  B.CreateBr(Done);

  B.SetInsertPoint(Done);
  PHINode *Phi = B.CreatePHI(RT, 2);
  Phi->addIncoming(First, Entry);
  Phi->addIncoming(Result, Retry);
  B.CreateRet(Phi);
  return Core;
}

} // namespace adcore
