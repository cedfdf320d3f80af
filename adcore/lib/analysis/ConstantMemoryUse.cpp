//===- ConstantMemoryUse.cpp - What a call does with constant memory ------===//
//
// Follows a constant pointer argument through its function: the pointers
// derived from it (offsets, casts, phis and selects, and at -O0 the stack
// slot that holds it), what is loaded and stored through them, and the
// calls they are passed to, differentiated with the activities of the
// call's operands (ScratchShadows.h).
//
//===----------------------------------------------------------------------===//

#include "support/ScratchShadows.h"

#include "ActivityAnalysis.h"
#include "rules/CustomRules.h"
#include "rules/InactiveFunctions.h"
#include "adcore/MemoryFunctions.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace adcore {

namespace {

/// How many calls deep the memory is followed.
constexpr unsigned CallDepth = 4;

struct Findings {
  bool WritesActive = false;
  bool Reads = false;
  bool Unknown = false;
};

class ConstantMemoryWalk {
public:
  ConstantMemoryWalk(const CustomRules &Rules, Findings &Found)
      : Rules(Rules), Found(Found) {}

  void walk(Function &F, ArrayRef<ArgActivity> Args, unsigned ArgNo,
            unsigned Depth);

private:
  /// One pointer into the memory and its users.
  void visitUser(const ActivityAnalysis &AA, const Value &Ptr, User &U,
                 SmallVectorImpl<const Value *> &Work, unsigned Depth);
  void visitCall(const ActivityAnalysis &AA, CallBase &Call, unsigned OpNo,
                 unsigned Depth);

  const CustomRules &Rules;
  Findings &Found;
};

bool holdsPointers(Type *T) {
  if (T->isPtrOrPtrVectorTy())
    return true;
  if (auto *ST = dyn_cast<StructType>(T))
    return any_of(ST->elements(), holdsPointers);
  if (auto *AT = dyn_cast<ArrayType>(T))
    return holdsPointers(AT->getElementType());
  return false;
}

void ConstantMemoryWalk::visitCall(const ActivityAnalysis &AA, CallBase &Call,
                                   unsigned OpNo, unsigned Depth) {
  Function *Callee = Call.getCalledFunction();
  if (!Callee || Call.isBundleOperand(OpNo)) {
    Found.Unknown = true;
    return;
  }
  if (auto *II = dyn_cast<IntrinsicInst>(&Call)) {
    switch (II->getIntrinsicID()) {
    case Intrinsic::lifetime_start:
    case Intrinsic::lifetime_end:
    case Intrinsic::memset:
    case Intrinsic::dbg_declare:
    case Intrinsic::dbg_value:
    case Intrinsic::prefetch:
      return;
    case Intrinsic::memcpy:
    case Intrinsic::memmove:
      // Into the memory: what is copied has a derivative when the source
      // may hold one.
      if (OpNo == 0)
        Found.WritesActive |= AA.mayHoldDerivatives(II->getArgOperand(1)) &&
                              AA.isActive(II->getArgOperand(1));
      else
        Found.Reads = true;
      return;
    default:
      Found.Unknown = true;
      return;
    }
  }
  if (isKnownInactiveFunction(*Callee) || Rules.isInactive(Callee) ||
      classifyMemoryFunction(*Callee) != MemoryFunctionKind::None)
    return;
  if (Callee->isDeclaration() || Callee->isVarArg() || Depth == 0 ||
      OpNo >= Callee->arg_size()) {
    Found.Unknown = true;
    return;
  }
  SmallVector<ArgActivity, 8> Args;
  for (Value *Op : Call.args())
    Args.push_back(AA.isActive(Op) ? ArgActivity::Dup : ArgActivity::Const);
  Args.resize(Callee->arg_size(), ArgActivity::Const);
  Args[OpNo] = ArgActivity::Const;
  walk(*Callee, Args, OpNo, Depth - 1);
}

void ConstantMemoryWalk::visitUser(const ActivityAnalysis &AA,
                                   const Value &Ptr, User &U,
                                   SmallVectorImpl<const Value *> &Work,
                                   unsigned Depth) {
  if (auto *LI = dyn_cast<LoadInst>(&U)) {
    if (holdsPointers(LI->getType()))
      Found.Unknown = true;
    else if (canCarryDerivative(LI->getType()))
      Found.Reads = true;
    return;
  }
  if (auto *SI = dyn_cast<StoreInst>(&U)) {
    Value *V = SI->getValueOperand();
    if (V == &Ptr) {
      // The pointer kept in a stack slot (-O0): what is loaded from it.
      auto *Slot = dyn_cast<AllocaInst>(SI->getPointerOperand());
      if (!Slot) {
        Found.Unknown = true;
        return;
      }
      for (User *SU : Slot->users()) {
        if (auto *Load = dyn_cast<LoadInst>(SU))
          Work.push_back(Load);
        else if (auto *Other = dyn_cast<StoreInst>(SU);
                 Other && Other->getPointerOperand() == Slot &&
                 Other->getValueOperand() == &Ptr)
          continue;
        else if (!isa<IntrinsicInst>(SU))
          Found.Unknown = true;
      }
      return;
    }
    if (holdsPointers(V->getType()))
      Found.Unknown = true;
    else if (AA.isActive(V) && canCarryDerivative(V->getType()))
      Found.WritesActive = true;
    return;
  }
  if (isa<GetElementPtrInst>(U) || isa<CastInst>(U) || isa<PHINode>(U) ||
      isa<SelectInst>(U)) {
    if (isa<PtrToIntInst>(U)) {
      Found.Unknown = true;
      return;
    }
    Work.push_back(&U);
    return;
  }
  if (isa<ICmpInst>(U))
    return;
  if (auto *Call = dyn_cast<CallBase>(&U)) {
    for (Use &Op : Call->args())
      if (Op.get() == &Ptr)
        visitCall(AA, *Call, Op.getOperandNo(), Depth);
    return;
  }
  // Returned, kept in an aggregate, atomics, ...
  Found.Unknown = true;
}

void ConstantMemoryWalk::walk(Function &F, ArrayRef<ArgActivity> Args,
                              unsigned ArgNo, unsigned Depth) {
  if (F.isDeclaration() || ArgNo >= F.arg_size()) {
    Found.Unknown = true;
    return;
  }
  ActivityAnalysis AA(F, Args, &Rules);
  SmallVector<const Value *, 16> Work{F.getArg(ArgNo)};
  SmallPtrSet<const Value *, 16> Seen;
  while (!Work.empty() && !Found.Unknown) {
    const Value *Ptr = Work.pop_back_val();
    if (!Seen.insert(Ptr).second)
      continue;
    for (const User *U : Ptr->users())
      visitUser(AA, *Ptr, *const_cast<User *>(U), Work, Depth);
  }
}

} // namespace

ConstantMemoryUse constantMemoryUse(Function &F, ArrayRef<ArgActivity> Args,
                                    unsigned ArgNo, const CustomRules &Rules) {
  Findings Found;
  ConstantMemoryWalk(Rules, Found).walk(F, Args, ArgNo, CallDepth);
  if (Found.Unknown)
    return ConstantMemoryUse::Unknown;
  if (!Found.WritesActive)
    return ConstantMemoryUse::Clean;
  return Found.Reads ? ConstantMemoryUse::ReadBack
                     : ConstantMemoryUse::WriteOnly;
}

} // namespace adcore
