//===- FloatPieces.cpp - A float cut into integer pieces -----------------===//
//
// See FloatPieces.h. A truncation is `(double)(int)(c * z)` (a conversion
// to an integer and back, its operand and result possibly multiplied by
// constants); its residual is `z - t`, `z - t * c` or `fma(t, -c, z)`. The
// error is a conversion to an integer of a residual that nothing else
// uses: rem_pio2's own cut (`tx[i] = (int)z; z = (z - tx[i]) * 0x1p24`)
// keeps its last residual as a float, whose derivative then carries x's,
// and is no error; a floor's fraction that goes on as a float is none
// either.
//
//===----------------------------------------------------------------------===//

#include "FloatPieces.h"
#include "support/DerivativeStops.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/Path.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

namespace adcore {
namespace {

/// The constant \p V is multiplied by in \p Product (`V * c`, `c * V`,
/// `V / c`), or null.
const ConstantFP *constantFactor(const Value *Product, const Value *&V) {
  const auto *I = dyn_cast<BinaryOperator>(Product);
  if (!I)
    return nullptr;
  const Value *A = I->getOperand(0), *B = I->getOperand(1);
  if (I->getOpcode() == Instruction::FMul) {
    if (const auto *C = dyn_cast<ConstantFP>(B)) {
      V = A;
      return C;
    }
    if (const auto *C = dyn_cast<ConstantFP>(A)) {
      V = B;
      return C;
    }
  }
  if (I->getOpcode() == Instruction::FDiv)
    if (const auto *C = dyn_cast<ConstantFP>(B)) {
      V = A;
      return C;
    }
  return nullptr;
}

/// \p V without its multiplications by constants.
const Value *unscaled(const Value *V) {
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    const Value *Inner = nullptr;
    if (!constantFactor(V, Inner))
      break;
    V = Inner;
  }
  return V;
}

/// The float \p T is a truncation of (`(double)(int)(c * z)`, scaled:
/// z), or null.
const Value *truncationOf(const Value *T) {
  T = unscaled(T);
  if (!isa<SIToFPInst, UIToFPInst>(T))
    return nullptr;
  const Value *Int = cast<CastInst>(T)->getOperand(0);
  while (isa<SExtInst, ZExtInst, TruncInst>(Int))
    Int = cast<CastInst>(Int)->getOperand(0);
  if (!isa<FPToSIInst, FPToUIInst>(Int))
    return nullptr;
  const Value *Z = unscaled(cast<CastInst>(Int)->getOperand(0));
  return isa<Constant>(Z) ? nullptr : Z;
}

/// Whether \p T, scaled by a negative constant (-t * c), is a truncation
/// of \p Z.
bool negatedTruncationOf(const Value *T, const Value *Z) {
  const Value *Inner = nullptr;
  const ConstantFP *C = constantFactor(T, Inner);
  return C && C->isNegative() && truncationOf(Inner) == unscaled(Z);
}

/// Whether \p R is the residual of a truncation of the value it is
/// computed from: `z - t`, `z + t * -c`, `fma(t, -c, z)`.
bool isResidual(const Value *R) {
  if (const auto *I = dyn_cast<BinaryOperator>(R)) {
    const Value *A = I->getOperand(0), *B = I->getOperand(1);
    if (I->getOpcode() == Instruction::FSub)
      return truncationOf(B) && truncationOf(B) == unscaled(A);
    if (I->getOpcode() == Instruction::FAdd)
      return negatedTruncationOf(B, A) || negatedTruncationOf(A, B);
    return false;
  }
  const auto *Fma = dyn_cast<IntrinsicInst>(R);
  if (!Fma || (Fma->getIntrinsicID() != Intrinsic::fma &&
               Fma->getIntrinsicID() != Intrinsic::fmuladd))
    return false;
  const Value *Z = Fma->getArgOperand(2);
  for (unsigned N : {0u, 1u}) {
    const auto *C = dyn_cast<ConstantFP>(Fma->getArgOperand(1 - N));
    if (C && C->isNegative() &&
        truncationOf(Fma->getArgOperand(N)) == unscaled(Z))
      return true;
  }
  return false;
}

/// Whether every use of \p R, through multiplications by constants, is a
/// conversion to an integer.
bool onlyTruncated(const Value *R) {
  SmallVector<const Value *, 8> Work{R};
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const User *U : V->users()) {
      if (isa<FPToSIInst, FPToUIInst>(U))
        continue;
      const Value *Inner = nullptr;
      if (constantFactor(U, Inner) && Inner == V && Work.size() < 8) {
        Work.push_back(U);
        continue;
      }
      return false;
    }
  }
  return true;
}

const Instruction *findIn(Function &F) {
  for (Instruction &I : instructions(F)) {
    if (!isa<FPToSIInst, FPToUIInst>(&I))
      continue;
    const Value *R = unscaled(I.getOperand(0));
    if (isResidual(R) && onlyTruncated(R))
      return &I;
  }
  return nullptr;
}

/// Whether \p F has what a cut into pieces needs: two conversions to
/// integers and one back.
bool mayCut(Function &F) {
  unsigned ToInt = 0, ToFloat = 0;
  for (Instruction &I : instructions(F)) {
    ToInt += isa<FPToSIInst, FPToUIInst>(&I);
    ToFloat += isa<SIToFPInst, UIToFPInst>(&I);
  }
  return ToInt >= 2 && ToFloat >= 1;
}

/// What the cut's conversions lose, for the messages.
constexpr const char *CutWhy =
    "a floating-point value is cut into integer pieces that together hold "
    "all its bits (a truncation, and the residual truncated too, as "
    "fdlibm's __kernel_rem_pio2 cuts an argument |x| >= 2^20 pi/2 of sin "
    "or cos), whose derivatives are 0 where the value's is not";

} // namespace

void stopAtFloatCut(Instruction &Cut, const Instruction &At,
                    StringRef Function) {
  std::string Where;
  if (const DebugLoc &DL = At.getDebugLoc())
    Where = " (" + sys::path::filename(DL->getFilename()).str() + ":" +
            std::to_string(DL.getLine()) + ")";
  std::string Message = "the derivative of " + Function.str() + Where +
                        " reached a path without one: " + CutWhy +
                        "; give the function that reduces the argument a "
                        "custom derivative";
  if (!markDerivativeStop(Cut, Message))
    return;
  At.getContext().diagnose(DiagnosticInfoUnsupported(
      *At.getFunction(),
      "the derivative of " + Function + " stops the program where this " +
          "runs: " + CutWhy +
          "; paths that do not reach it are differentiated (keep the last "
          "residual a float, or give the function a custom derivative)",
      At.getDebugLoc(), DS_Warning));
}

const Instruction *findFloatCutIntoPieces(Function &F) {
  if (F.isDeclaration() || !mayCut(F))
    return nullptr;
  if (const Instruction *I = findIn(F))
    return I;
  // (-O0: the values pass through local variables. A copy with them
  // promoted, the answer mapped back.)
  SmallVector<AllocaInst *, 16> Slots;
  for (Instruction &I : F.getEntryBlock())
    if (auto *A = dyn_cast<AllocaInst>(&I); A && isAllocaPromotable(A))
      Slots.push_back(A);
  if (Slots.empty())
    return nullptr;
  ValueToValueMapTy Map;
  Function *Copy = CloneFunction(&F, Map);
  DenseMap<const Value *, const Instruction *> Back;
  for (const auto &[From, To] : Map)
    if (const auto *I = dyn_cast<Instruction>(From))
      Back[To] = I;
  SmallVector<AllocaInst *, 16> CopySlots;
  for (AllocaInst *A : Slots)
    CopySlots.push_back(cast<AllocaInst>(Map[A]));
  {
    DominatorTree DT(*Copy);
    PromoteMemToReg(CopySlots, DT);
  }
  const Instruction *Found = findIn(*Copy);
  const Instruction *Original = Found ? Back.lookup(Found) : nullptr;
  Copy->eraseFromParent();
  return Original;
}

} // namespace adcore
