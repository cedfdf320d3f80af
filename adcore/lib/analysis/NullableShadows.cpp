//===- NullableShadows.cpp - Shadows that may be null at run time --------===//
//
// A fixed point over the function (adcore/NullableShadows.h): pointers
// whose shadow may be null, and the memory that may hold such shadows.
//  - a pointer without a shadow (not a constant: constants have shadows
//    of their own) stored into memory leaves a null shadow there; so does
//    a pointer whose shadow may be null; memory that receives the address
//    of such memory reaches null shadows too (what is loaded from it is
//    treated alike: its shadow, or memory reached through it);
//  - a call given such a pointer, or memory that may hold null shadows,
//    may store them into any memory it may write through its arguments;
//  - a pointer loaded from memory that may hold null shadows, or through
//    a pointer whose shadow may be null, may have a null shadow; so may
//    an address computed from one, a phi or select with one (or with a
//    pointer without shadow), and what a call given one returns.
//
//===----------------------------------------------------------------------===//

#include "adcore/NullableShadows.h"
#include "adcore/ActivityAnalysis.h"

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace adcore {

NullableShadows::NullableShadows(const Function &F,
                                 const ActivityAnalysis &Activity,
                                 uint64_t ArgBits,
                                 ArrayRef<const Value *> Seeds)
    : Activity(Activity) {
  Nullable.insert_range(Seeds);
  for (const Argument &A : F.args())
    if (A.getArgNo() < 64 && (ArgBits >> A.getArgNo() & 1) &&
        A.getType()->isPointerTy())
      Nullable.insert(&A);
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (const Instruction &I : instructions(F))
      Changed |= update(I);
  }
}

/// The blocks that guarded accesses read zeros from or write into instead
/// of a null shadow (NullShadowGuards.h): a reverse sweep differentiated
/// again has no tangent for them.
static bool isGuardBlock(const Value *V) {
  const auto *G = dyn_cast<GlobalVariable>(V);
  return G && (G->getName().starts_with("adcc.shadow.sink.") ||
               G->getName().starts_with("adcc.zero.tangents."));
}

bool NullableShadows::leavesNull(const Value *V) const {
  return V->getType()->isPointerTy() &&
         (Nullable.contains(V) || isGuardBlock(V) ||
          (!Activity.isActive(V) && !isa<Constant>(V)));
}

bool NullableShadows::mayHoldNull(const Value *Ptr) const {
  if (AnyTainted || Nullable.contains(Ptr))
    return true;
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects);
  return any_of(Objects, [&](const Value *O) {
    return Tainted.contains(O) || Nullable.contains(O);
  });
}

bool NullableShadows::taint(const Value *Ptr) {
  bool Changed = false;
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects);
  for (const Value *O : Objects) {
    Changed |= Tainted.insert(O).second;
    // (Other pointers may reach memory not known to be this object's
    // alone: any memory may then hold null shadows.)
    if (!isa<AllocaInst>(O) && !isNoAliasCall(O) && !AnyTainted) {
      AnyTainted = true;
      Changed = true;
    }
  }
  return Changed;
}

uint64_t NullableShadows::calleeBits(const CallBase &Call) const {
  uint64_t Bits = 0;
  for (const Use &U : Call.args()) {
    unsigned No = Call.getArgOperandNo(&U);
    const Value *A = U.get();
    if (No < 64 && A->getType()->isPointerTy() && Activity.isActive(A) &&
        (Nullable.contains(A) || mayHoldNull(A)))
      Bits |= uint64_t(1) << No;
  }
  return Bits;
}

bool NullableShadows::update(const Value &V) {
  auto Add = [&](bool If) { return If && Nullable.insert(&V).second; };
  const auto *I = dyn_cast<Instruction>(&V);
  if (!I)
    return false;
  if (isa<GetElementPtrInst, BitCastInst, AddrSpaceCastInst, FreezeInst>(I))
    return Add(I->getType()->isPointerTy() &&
               Nullable.contains(I->getOperand(0)));
  if (isa<PHINode, SelectInst>(I)) {
    if (!I->getType()->isPointerTy() || !Activity.isActive(I))
      return false;
    unsigned First = isa<SelectInst>(I) ? 1 : 0;
    for (unsigned K = First; K < I->getNumOperands(); ++K)
      if (leavesNull(I->getOperand(K)))
        return Add(true);
    return false;
  }
  if (const auto *LI = dyn_cast<LoadInst>(I))
    return Add(LI->getType()->isPointerTy() && Activity.isActive(LI) &&
               mayHoldNull(LI->getPointerOperand()));
  if (const auto *SI = dyn_cast<StoreInst>(I)) {
    // (Also the address of memory that may hold null shadows: a stepper
    // holding a reference to a closure that holds a constant pointer.)
    const Value *V = SI->getValueOperand();
    if ((leavesNull(V) || (V->getType()->isPointerTy() &&
                           Activity.isActive(V) && mayHoldNull(V))) &&
        Activity.isActive(SI->getPointerOperand()))
      return taint(SI->getPointerOperand());
    return false;
  }
  if (const auto *MT = dyn_cast<MemTransferInst>(I)) {
    if (Activity.isActive(MT->getRawDest()) &&
        mayHoldNull(MT->getRawSource()))
      return taint(MT->getRawDest());
    return false;
  }
  const auto *Call = dyn_cast<CallBase>(I);
  if (!Call || isa<IntrinsicInst>(Call))
    return false;
  bool Given = any_of(Call->args(), [&](const Use &U) {
    return leavesNull(U.get()) ||
           (U->getType()->isPointerTy() && Activity.isActive(U.get()) &&
            mayHoldNull(U.get()));
  });
  if (!Given)
    return false;
  bool Changed = Add(Call->getType()->isPointerTy() && Activity.isActive(Call));
  for (const Use &U : Call->args())
    if (U->getType()->isPointerTy() && Activity.isActive(U.get()) &&
        !Call->onlyReadsMemory(Call->getArgOperandNo(&U)))
      Changed |= taint(U.get());
  return Changed;
}

} // namespace adcore
