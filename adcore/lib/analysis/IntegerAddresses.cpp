//===- analysis/IntegerAddresses.cpp - Pointers without shadows ---------===//

#include "IntegerAddresses.h"
#include "ActivityAnalysis.h"
#include "rules/CustomRules.h"
#include "rules/InactiveFunctions.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {

const char *const ShadowlessIntegerAccessError =
    "a floating-point value is read or written through a pointer made from "
    "an integer (`(double *)u`) that may hold the address of memory with "
    "derivatives but whose derivative adcc cannot follow (an integer "
    "returned by a function, passed as a parameter, kept in memory, or "
    "changed by other than address arithmetic); keep the address in a "
    "pointer, or declare the function that returns it inactive "
    "(`__enzyme_inactivefn`) if it points to constant data";

namespace {

/// How many values back the integer's sources are looked for.
constexpr unsigned SourceSteps = 64;

/// True when the integer \p X may hold the address of memory with
/// derivatives: see the file comment.
bool mayHoldActiveAddress(const Value *X, const ActivityAnalysis &Activity) {
  SmallVector<const Value *, 16> Work{X};
  SmallPtrSet<const Value *, 16> Seen;
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    if (Seen.size() > SourceSteps)
      return true;
    if (isa<Constant>(V)) {
      // (`(uintptr_t)&table[0]` of a global folded into a constant.)
      if (const auto *CE = dyn_cast<ConstantExpr>(V);
          CE && CE->getOpcode() == Instruction::PtrToInt &&
          Activity.isActive(CE->getOperand(0)))
        return true;
      continue;
    }
    if (isa<Argument>(V))
      return true;
    if (const auto *P2I = dyn_cast<PtrToIntInst>(V)) {
      if (Activity.isActive(P2I->getPointerOperand()))
        return true;
      continue;
    }
    if (const auto *LI = dyn_cast<LoadInst>(V)) {
      // (Read from a constant global: a table of addresses of constants.)
      const auto *GV = dyn_cast<GlobalVariable>(
          getUnderlyingObject(LI->getPointerOperand()));
      if (GV && GV->isConstant())
        continue;
      return true;
    }
    if (const auto *Call = dyn_cast<CallBase>(V)) {
      // A function's result may be the address it was given, as a pointer
      // or an integer (`lookup(x)`); not one of memory with derivatives
      // where it is given none (`table_of(k)`: a constant table's). (A
      // function declared inactive returns none.)
      const Function *Callee = Call->getCalledFunction();
      if (Callee && (isKnownInactiveFunction(*Callee) ||
                     (Activity.rules() && Activity.rules()->isInactive(Callee))))
        continue;
      for (const Value *Arg : Call->args()) {
        if (Arg->getType()->isPtrOrPtrVectorTy() && Activity.isActive(Arg))
          return true;
        if (Arg->getType()->isIntOrIntVectorTy())
          Work.push_back(Arg);
      }
      continue;
    }
    if (const auto *Phi = dyn_cast<PHINode>(V)) {
      append_range(Work, Phi->incoming_values());
      continue;
    }
    if (const auto *Sel = dyn_cast<SelectInst>(V)) {
      Work.append({Sel->getTrueValue(), Sel->getFalseValue()});
      continue;
    }
    if (isa<BinaryOperator, ZExtInst, SExtInst, TruncInst, FreezeInst,
            BitCastInst>(V)) {
      const auto *I = cast<Instruction>(V);
      // (Only integers: a float's bits made an integer are no address.)
      for (const Value *Op : I->operands())
        if (Op->getType()->isIntOrIntVectorTy())
          Work.push_back(Op);
      continue;
    }
    // A part of an aggregate, which may hold an address: not followed,
    // taken for one. Anything else (a number converted from a float, a
    // comparison's result) is a number.
    if (isa<ExtractValueInst, ExtractElementInst>(V))
      return true;
  }
  return false;
}

/// The inttoptrs without shadows that \p Ptr may be computed from (through
/// GEPs, casts, phis and selects, and at -O0 the local pointer variables
/// that hold it, \p Depth deep).
void shadowlessIntegerBases(const Value *Ptr, const ActivityAnalysis &Activity,
                            SmallVectorImpl<const IntToPtrInst *> &Out,
                            unsigned Depth = 4) {
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects);
  for (const Value *O : Objects) {
    if (const auto *I2P = dyn_cast<IntToPtrInst>(O)) {
      if (!Activity.isActive(I2P))
        Out.push_back(I2P);
      continue;
    }
    // (`double *p = (double *)u;` at -O0: what is stored into p.)
    const auto *LI = dyn_cast<LoadInst>(O);
    const auto *Slot =
        LI ? dyn_cast<AllocaInst>(LI->getPointerOperand()) : nullptr;
    if (!Slot || Depth == 0)
      continue;
    for (const User *U : Slot->users())
      if (const auto *SI = dyn_cast<StoreInst>(U);
          SI && SI->getPointerOperand() == Slot &&
          SI->getValueOperand()->getType()->isPointerTy())
        shadowlessIntegerBases(SI->getValueOperand(), Activity, Out,
                               Depth - 1);
  }
}

} // namespace

const Instruction *shadowlessIntegerAccess(const Function &F,
                                           const ActivityAnalysis &Activity) {
  for (const Instruction &I : instructions(F)) {
    const Value *Ptr = nullptr;
    if (const auto *LI = dyn_cast<LoadInst>(&I);
        LI && LI->getType()->isFPOrFPVectorTy())
      Ptr = LI->getPointerOperand();
    else if (const auto *SI = dyn_cast<StoreInst>(&I);
             SI && SI->getValueOperand()->getType()->isFPOrFPVectorTy())
      Ptr = SI->getPointerOperand();
    if (!Ptr || Activity.isActive(Ptr))
      continue;
    SmallVector<const IntToPtrInst *, 2> Bases;
    shadowlessIntegerBases(Ptr, Activity, Bases);
    for (const IntToPtrInst *I2P : Bases)
      if (mayHoldActiveAddress(I2P->getOperand(0), Activity))
        return &I;
  }
  return nullptr;
}

bool mayCopyIntegerAddresses(const MemTransferInst &Copy) {
  const DataLayout &DL = Copy.getModule()->getDataLayout();
  uint64_t Size = DL.getPointerSize();
  if (Copy.getDestAlign().valueOrOne().value() < Size ||
      Copy.getSourceAlign().valueOrOne().value() < Size)
    return false;
  const auto *Len = dyn_cast<ConstantInt>(Copy.getLength());
  if (!Len)
    return true;
  uint64_t Bytes = Len->getZExtValue();
  return Bytes >= Size && Bytes % Size == 0;
}

} // namespace adcore
