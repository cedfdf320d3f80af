//===- analysis/TableLookups.cpp - Tables indexed by a float --------------===//
//
// See TableLookups.h.
//
//===----------------------------------------------------------------------===//

#include "TableLookups.h"
#include "ActivityAnalysis.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Metadata.h"

using namespace llvm;

namespace adcore {
namespace {

/// Marks a conversion already reported (the forward and the reverse
/// derivative of one function, or several derivatives of it, report it
/// once).
constexpr StringLiteral ReportedMetadata = "adcc.table.reported";

/// The loads of what \p S stores, when it stores into a local variable
/// (code at -O0 keeps every value in one).
SmallVector<const LoadInst *, 2> reloads(const StoreInst &S) {
  SmallVector<const LoadInst *, 2> Loads;
  if (const auto *Slot = dyn_cast<AllocaInst>(S.getPointerOperand()))
    for (const User *U : Slot->users())
      if (const auto *L = dyn_cast<LoadInst>(U))
        Loads.push_back(L);
  return Loads;
}

/// The loads of floating-point values from addresses indexed by \p Index
/// (an integer), through integer arithmetic on it.
SmallVector<const LoadInst *, 4> tableLoads(const Instruction &Index) {
  SmallVector<const LoadInst *, 4> Loads;
  SmallVector<const Value *, 8> Work{&Index};
  SmallPtrSet<const Value *, 16> Seen{&Index};
  auto Push = [&](const Value *V) {
    if (Seen.insert(V).second)
      Work.push_back(V);
  };
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const User *U : V->users()) {
      if (const auto *L = dyn_cast<LoadInst>(U)) {
        if (L->getPointerOperand() == V && L->getType()->isFPOrFPVectorTy())
          Loads.push_back(L);
        continue;
      }
      if (const auto *S = dyn_cast<StoreInst>(U)) {
        if (S->getValueOperand() == V)
          for (const LoadInst *L : reloads(*S))
            Push(L);
        continue;
      }
      if (const auto *GEP = dyn_cast<GetElementPtrInst>(U)) {
        // An address indexed by the integer, or computed from one.
        Push(GEP);
        continue;
      }
      if (isa<CastInst, BinaryOperator, PHINode, SelectInst>(U) &&
          !U->getType()->isFPOrFPVectorTy()) {
        Push(U);
        continue;
      }
      if (const auto *II = dyn_cast<IntrinsicInst>(U))
        if (II->getType()->isIntegerTy() &&
            (II->getIntrinsicID() == Intrinsic::smin ||
             II->getIntrinsicID() == Intrinsic::smax ||
             II->getIntrinsicID() == Intrinsic::umin ||
             II->getIntrinsicID() == Intrinsic::umax))
          Push(II);
    }
  }
  return Loads;
}

/// Whether \p L, read without a derivative, becomes \p F's result or is
/// stored into memory with derivatives, as values without derivatives
/// computed from it (a phi of table entries, a conversion).
bool reachesDerivatives(const LoadInst &L, const Function &F,
                        const ActivityAnalysis &Activity) {
  if (Activity.isActive(&L))
    return false;
  SmallVector<const Value *, 8> Work{&L};
  SmallPtrSet<const Value *, 16> Seen{&L};
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const User *U : V->users()) {
      if (isa<ReturnInst>(U) && F.getReturnType()->isFPOrFPVectorTy())
        return true;
      if (const auto *S = dyn_cast<StoreInst>(U)) {
        if (S->getValueOperand() == V &&
            Activity.isActive(S->getPointerOperand()) &&
            Activity.mayHoldDerivatives(S->getPointerOperand()))
          return true;
        if (S->getValueOperand() == V)
          for (const LoadInst *R : reloads(*S))
            if (Seen.insert(R).second)
              Work.push_back(R);
        continue;
      }
      if (isa<PHINode, SelectInst, FPExtInst, FPTruncInst, UnaryOperator>(U) &&
          !Activity.isActive(U) && Seen.insert(U).second)
        Work.push_back(U);
    }
  }
  return false;
}

} // namespace

void warnTableLookups(Function &F, const ActivityAnalysis &Activity) {
  for (Instruction &I : instructions(F)) {
    if (!isa<FPToSIInst, FPToUIInst>(I) || I.hasMetadata(ReportedMetadata) ||
        !Activity.isActive(I.getOperand(0)))
      continue;
    if (!any_of(tableLoads(I), [&](const LoadInst *L) {
          return reachesDerivatives(*L, F, Activity);
        }))
      continue;
    I.setMetadata(ReportedMetadata, MDNode::get(F.getContext(), {}));
    F.getContext().diagnose(DiagnosticInfoUnsupported(
        F,
        "the derivative through this conversion to an integer is 0: it "
        "indexes a table of floating-point values, and what is read there "
        "has no derivative (a step function of the converted value); give "
        "the function a custom derivative (__enzyme_register_derivative_*, "
        "__enzyme_register_gradient_*) for the derivative of what the table "
        "holds",
        I.getDebugLoc(), DS_Warning));
  }
}

} // namespace adcore
