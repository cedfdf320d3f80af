//===- ZeroedShadows.cpp - Shadows the caller zeroes ----------------------===//
//
// Enzyme's users often pass a struct that holds pointers with a shadow they
// zero (`struct S ds = {0}`, memset, calloc): a pointer field of the shadow
// is then null while the primal's points at data, data the user takes as
// constant. Enzyme uses the shadow pointer as given and crashes when the
// function reads a value with a derivative through it. adcc reads such a
// null shadow as "no derivative" (analysis/NullableShadows.h: an adjoint
// added there is dropped, a tangent read there is zero), but guards only
// the arguments whose shadow the calling function visibly zeroes, or
// fills with a null pointer: the guards cost a compare and a select per
// access, which a shadow made of real pointers (a std::vector's, filled by
// its constructor) does not need.
//
//===----------------------------------------------------------------------===//

#include "EnzymeCalls.h"

#include "adcore/MemoryFunctions.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace adcore {
namespace {

/// Whether the constant \p C, stored into memory, may leave a null pointer
/// there: a null pointer, an integer or vector zero (a memset of a few
/// bytes turned into a wide store), an aggregate holding one.
bool mayBeNullPointer(const Constant *C) {
  Type *T = C->getType();
  if (T->isFPOrFPVectorTy())
    return false;
  if (T->isPointerTy() || T->isIntOrIntVectorTy())
    return C->isNullValue();
  if (T->isAggregateType()) {
    if (isa<ConstantAggregateZero>(C))
      return true;
    for (unsigned K = 0, N = C->getNumOperands(); K < N; ++K)
      if (const auto *E = dyn_cast<Constant>(C->getOperand(K));
          E && mayBeNullPointer(E))
        return true;
  }
  return false;
}

/// Whether \p Source, copied into memory, may leave a null pointer there:
/// a constant global's initializer that holds one (the initializer of a
/// local struct).
bool copiesNullPointer(const Value *Source) {
  const auto *G = dyn_cast<GlobalVariable>(getUnderlyingObject(Source));
  return G && G->isConstant() && G->hasDefinitiveInitializer() &&
         mayBeNullPointer(G->getInitializer());
}

/// The value of the only store into the local slot \p Slot, whose other
/// uses are loads (a pointer variable at -O0).
const Value *onlyStoredValue(const Value *Slot) {
  const auto *AI = dyn_cast<AllocaInst>(Slot->stripPointerCasts());
  if (!AI)
    return nullptr;
  const Value *Stored = nullptr;
  for (const User *U : AI->users()) {
    if (isa<LoadInst>(U))
      continue;
    const auto *SI = dyn_cast<StoreInst>(U);
    if (!SI || SI->getPointerOperand() != AI || Stored)
      return nullptr;
    Stored = SI->getValueOperand();
  }
  return Stored;
}

/// The memory \p V points into, through pointer variables (\p Depth deep).
const Value *objectOf(const Value *V, unsigned Depth = 4) {
  const Value *O = getUnderlyingObject(V);
  if (const auto *LI = dyn_cast<LoadInst>(O); LI && Depth > 0)
    if (const Value *Stored = onlyStoredValue(LI->getPointerOperand()))
      return objectOf(Stored, Depth - 1);
  return O;
}

/// Whether some instruction writes zeros or a null pointer into the object
/// \p Object (through addresses computed from it, and pointer variables
/// that hold one).
bool zeroedByWrites(const Value *Object) {
  SmallVector<const Value *, 8> Work{Object};
  SmallPtrSet<const Value *, 16> Seen{Object};
  while (!Work.empty()) {
    const Value *P = Work.pop_back_val();
    for (const User *U : P->users()) {
      if (isa<GetElementPtrInst, BitCastInst, AddrSpaceCastInst, PHINode,
              SelectInst>(U)) {
        if (Seen.insert(U).second)
          Work.push_back(U);
        continue;
      }
      if (const auto *SI = dyn_cast<StoreInst>(U)) {
        const auto *C = dyn_cast<Constant>(SI->getValueOperand());
        if (SI->getPointerOperand() == P && C && mayBeNullPointer(C))
          return true;
        // (Kept in a pointer variable: what is loaded from it.)
        if (SI->getValueOperand() == P &&
            onlyStoredValue(SI->getPointerOperand()) == P)
          for (const User *L : SI->getPointerOperand()->users())
            if (isa<LoadInst>(L) && Seen.insert(L).second)
              Work.push_back(L);
        continue;
      }
      if (const auto *MS = dyn_cast<MemSetInst>(U)) {
        const auto *V = dyn_cast<ConstantInt>(MS->getValue());
        if (MS->getRawDest() == P && V && V->isZero())
          return true;
        continue;
      }
      if (const auto *MT = dyn_cast<MemTransferInst>(U))
        if (MT->getRawDest() == P && copiesNullPointer(MT->getRawSource()))
          return true;
    }
  }
  return false;
}

} // namespace

bool shadowMayHoldNullPointers(const Value *Shadow) {
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Shadow, Objects);
  return any_of(Objects, [](const Value *O) {
    O = objectOf(O);
    if (const auto *G = dyn_cast<GlobalVariable>(O))
      if (G->hasInitializer() && mayBeNullPointer(G->getInitializer()))
        return true;
    if (const auto *Call = dyn_cast<CallBase>(O))
      if (const Function *F = Call->getCalledFunction();
          F && classifyMemoryFunction(*F) == MemoryFunctionKind::Calloc)
        return true;
    return zeroedByWrites(O);
  });
}

} // namespace adcore
