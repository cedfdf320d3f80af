//===- SelfAddressLoads.cpp - Local memory linked to itself ---------------===//
//
// Local memory that holds addresses into itself and nothing else (a pool
// of byte blocks linked through their first bytes, on the stack or in a
// block the function allocates): a pointer loaded from it points into it.
// Rooted there, a value with a derivative stored through it makes the
// memory hold derivatives, and the loaded pointers active, as a store
// through the memory's own address does. (Not rooted, such a pointer read
// from memory that held only addresses was constant, and its store had no
// shadow to go to.) Memory whose addresses go anywhere else, or into which
// any other pointer is stored, is left as it was: a pointer loaded from it
// may point anywhere.
//
//===----------------------------------------------------------------------===//

#include "ActivityAnalysis.h"
#include "adcore/MemoryFunctions.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace adcore {
namespace {

/// Whether \p F, defined, stores no pointer anywhere: it stores numbers,
/// calls only functions that access no memory, and copies nothing.
bool storesNoPointers(const Function *F) {
  if (!F || F->isDeclaration())
    return false;
  for (const Instruction &I : instructions(*F)) {
    if (const auto *SI = dyn_cast<StoreInst>(&I)) {
      Type *T = SI->getValueOperand()->getType();
      if (T->isPtrOrPtrVectorTy() || T->isStructTy() || T->isArrayTy() ||
          isa<PtrToIntInst>(SI->getValueOperand()))
        return false;
      continue;
    }
    if (const auto *II = dyn_cast<IntrinsicInst>(&I);
        II && (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II)))
      continue;
    if (const auto *Call = dyn_cast<CallBase>(&I)) {
      if (!Call->doesNotAccessMemory())
        return false;
      continue;
    }
    if (I.mayWriteToMemory())
      return false; // an atomic, a fence
  }
  return true;
}

/// The pointers into the memory \p Root that a walk over their uses finds,
/// loads of pointers from it included, when that memory holds addresses
/// into itself only and none escapes; empty otherwise. \p Holders are the
/// stores of a heap block's address into the local variable that holds it
/// (HeapRoots.cpp), whose loads point into the block too.
SetVector<const Value *>
selfLinkedPointers(const Instruction &Root,
                   const DenseSet<const Value *> &Holders) {
  SetVector<const Value *> Ptrs;
  Ptrs.insert(&Root);
  // Values that must turn out to be pointers into the memory, or null: the
  // pointers stored into it, the incoming values of its phis and selects.
  SmallVector<const Value *, 8> MustBeInside;
  bool LoadsPointer = false;
  for (unsigned I = 0; I < Ptrs.size(); ++I) {
    const Value *P = Ptrs[I];
    for (const User *U : P->users()) {
      if (isa<GetElementPtrInst, BitCastInst, AddrSpaceCastInst>(U)) {
        Ptrs.insert(U);
        continue;
      }
      if (isa<PHINode, SelectInst>(U)) {
        unsigned First = isa<SelectInst>(U) ? 1 : 0;
        if (First && cast<SelectInst>(U)->getCondition() == P)
          return {};
        for (unsigned K = First; K < U->getNumOperands(); ++K)
          MustBeInside.push_back(U->getOperand(K));
        Ptrs.insert(U);
        continue;
      }
      if (const auto *LI = dyn_cast<LoadInst>(U)) {
        Type *T = LI->getType();
        if (T->isPointerTy()) {
          LoadsPointer = true;
          Ptrs.insert(LI);
        } else if (T->isPtrOrPtrVectorTy() || T->isStructTy() ||
                   T->isArrayTy()) {
          return {}; // pointers read some other way
        }
        continue;
      }
      if (const auto *SI = dyn_cast<StoreInst>(U)) {
        const Value *V = SI->getValueOperand();
        if (V == P) {
          // The address stored: into the memory itself, or into the local
          // variable that holds a heap block's address.
          if (Holders.contains(SI)) {
            for (const User *H : SI->getPointerOperand()->users())
              if (isa<LoadInst>(H) && H->getType()->isPointerTy())
                Ptrs.insert(H);
            continue;
          }
          MustBeInside.push_back(SI->getPointerOperand());
          continue;
        }
        Type *T = V->getType();
        if (T->isPointerTy())
          MustBeInside.push_back(V);
        else if (T->isPtrOrPtrVectorTy() || T->isStructTy() ||
                 T->isArrayTy() || isa<PtrToIntInst>(V))
          return {}; // pointers stored some other way
        continue;
      }
      if (isa<ICmpInst>(U) || isa<DbgInfoIntrinsic>(U))
        continue;
      if (const auto *II = dyn_cast<IntrinsicInst>(U))
        if (II->isLifetimeStartOrEnd() ||
            (isa<MemSetInst>(II) && II->getOperand(0) == P))
          continue;
      // (A heap block freed, a block given to a function that keeps no
      // copy of its address (it may compare it with null) and only reads
      // it, or stores no pointer at all: no escape, no other address in
      // it.)
      if (const auto *Call = dyn_cast<CallBase>(U)) {
        const Function *Callee = Call->getCalledFunction();
        if (Callee && isDeallocation(classifyMemoryFunction(*Callee)))
          continue;
        if (all_of(Call->args(), [&](const Use &A) {
              unsigned N = A.getOperandNo();
              return A.get() != P ||
                     (Call->isDataOperand(&A) &&
                      !capturesAnyProvenance(
                          CaptureComponents(Call->getCaptureInfo(N))) &&
                      (Call->onlyReadsMemory(N) || storesNoPointers(Callee)));
            }))
          continue;
      }
      return {}; // a call, a copy, an integer, a return: it escapes
    }
  }
  if (!LoadsPointer)
    return {};
  for (const Value *V : MustBeInside)
    if (!Ptrs.contains(V) && !isa<ConstantPointerNull, UndefValue>(V))
      return {};
  return Ptrs;
}

} // namespace

void ActivityAnalysis::addSelfAddressLoads() {
  SmallVector<const Instruction *, 8> Roots;
  for (Instruction &I : instructions(F))
    if (auto It = StackRoots.find(&I);
        It != StackRoots.end() && It->second.size() == 1 &&
        It->second.front() == &I)
      Roots.push_back(&I);
  for (const Instruction *Root : Roots)
    for (const Value *P : selfLinkedPointers(*Root, HolderStores)) {
      auto &Of = StackRoots[P];
      if (!is_contained(Of, Root))
        Of.push_back(Root);
    }
}

} // namespace adcore
