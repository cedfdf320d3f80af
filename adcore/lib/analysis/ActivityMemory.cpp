//===- ActivityMemory.cpp - Local memory that holds derivatives ----------===//
//
// Which allocas and heap blocks allocated here (HeapRoots.cpp) each
// pointer may point into, and which of them may hold derivatives: an
// active value stored or copied into them, or their address escaped (a
// call that keeps the slot's contents, CleanSlots.cpp, or stores only
// constants into it, InactiveSlotWrites.cpp, does not count). A load from
// a slot that holds none is constant.
//
//===----------------------------------------------------------------------===//

#include "ActivityAnalysis.h"
#include "rules/InactiveFunctions.h"
#include "adcore/MemoryFunctions.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/CommandLine.h"

using namespace llvm;

namespace adcore {
namespace {

cl::opt<bool> CleanSlots(
    "adcc-clean-slots", cl::init(true), cl::Hidden,
    cl::desc("Take stack slots passed only to functions that keep their "
             "contents (an iterator's members) for slots without "
             "derivatives"));

} // namespace

void ActivityAnalysis::addRoot(const Instruction &Root, FollowUser More) {
  SmallVector<const Value *, 8> Work{&Root};
  DenseSet<const Value *> Seen;
  while (!Work.empty()) {
    const Value *P = Work.pop_back_val();
    if (!Seen.insert(P).second)
      continue;
    StackRoots[P].push_back(&Root);
    for (const User *U : P->users()) {
      if (isa<GetElementPtrInst, BitCastInst, AddrSpaceCastInst, PHINode,
              SelectInst>(U))
        Work.push_back(U);
      else if (More)
        More(*U, Work);
    }
  }
}

void ActivityAnalysis::findStackPointers() {
  for (Instruction &I : instructions(F))
    if (isa<AllocaInst>(I))
      addRoot(I, nullptr);
  addHeapRoots();
  addSelfAddressLoads();
  // A phi or select that also takes a pointer to other memory (an argument,
  // a global, a heap block) may point there: it is not stack-only.
  SmallVector<const Value *, 8> Work;
  for (const auto &[P, Roots] : StackRoots) {
    const auto *Merge = dyn_cast<Instruction>(P);
    if (!isa_and_nonnull<PHINode, SelectInst>(Merge))
      continue;
    unsigned First = isa<SelectInst>(Merge) ? 1 : 0;
    for (unsigned K = First; K < Merge->getNumOperands(); ++K) {
      const Value *In = Merge->getOperand(K);
      if (!StackRoots.count(In) && !isa<ConstantPointerNull, UndefValue>(In))
        Work.push_back(Merge);
    }
  }
  while (!Work.empty()) {
    const Value *P = Work.pop_back_val();
    if (!Mixed.insert(P).second)
      continue;
    for (const User *U : P->users())
      if (isa<GetElementPtrInst, BitCastInst, AddrSpaceCastInst, PHINode,
              SelectInst>(U))
        Work.push_back(U);
  }
}

bool ActivityAnalysis::cleanStackPointer(const Value *Ptr) const {
  if (!CleanSlots)
    return false;
  auto It = StackRoots.find(Ptr);
  return It != StackRoots.end() && !Mixed.contains(Ptr) &&
         none_of(It->second,
                 [&](const Instruction *R) { return Dirty.contains(R); });
}

bool ActivityAnalysis::mayHoldDerivatives(const Value *Ptr) const {
  if (Mixed.contains(Ptr))
    return true;
  auto It = StackRoots.find(Ptr);
  if (It == StackRoots.end())
    return true; // not (only) stack memory: anything may be there
  return any_of(It->second,
                [&](const Instruction *R) { return Dirty.contains(R); });
}

bool ActivityAnalysis::updateDirtyAllocas() {
  bool Changed = false;
  auto MarkDirty = [&](const Value *Ptr) {
    auto It = StackRoots.find(Ptr);
    if (It == StackRoots.end())
      return;
    for (const Instruction *R : It->second)
      Changed |= Dirty.insert(R).second;
  };
  // An object's own address stored into it (std::string's pointer to its
  // local buffer) neither escapes nor brings a derivative.
  auto SelfReference = [&](const StoreInst &S) {
    auto V = StackRoots.find(S.getValueOperand());
    auto D = StackRoots.find(S.getPointerOperand());
    return V != StackRoots.end() && D != StackRoots.end() &&
           !Mixed.contains(V->first) && !Mixed.contains(D->first) &&
           V->second == D->second;
  };
  // (The roots of objects that hold their own address: a callee that
  // stores through an address read from one stores into it.)
  SmallPtrSet<const Instruction *, 8> HoldOwnAddress;
  for (const auto &[P, Roots] : StackRoots)
    for (const User *U : P->users())
      if (auto *S = dyn_cast<StoreInst>(U);
          S && S->getPointerOperand() == P && SelfReference(*S))
        HoldOwnAddress.insert(Roots.begin(), Roots.end());
  for (const auto &[P, Roots] : StackRoots) {
    bool HoldsOwnAddress = any_of(Roots, [&](const Instruction *R) {
      return HoldOwnAddress.contains(R);
    });
    for (const User *U : P->users()) {
      if (auto *S = dyn_cast<StoreInst>(U)) {
        if (SelfReference(*S))
          continue;
        // (Not into the local variable that holds a heap block's address:
        // HeapRoots.cpp.)
        if (S->getValueOperand() == P) {
          if (!HolderStores.contains(S))
            MarkDirty(P); // the address escapes into memory
        } else if (Active.contains(S->getValueOperand())) {
          MarkDirty(P);
        }
        continue;
      }
      if (isa<LoadInst, GetElementPtrInst, BitCastInst, AddrSpaceCastInst,
              PHINode, SelectInst, ICmpInst>(U))
        continue;
      if (auto *MT = dyn_cast<MemTransferInst>(U)) {
        if (MT->getRawDest() == P && Active.contains(MT->getRawSource()) &&
            mayHoldDerivatives(MT->getRawSource()))
          MarkDirty(P);
        continue;
      }
      if (isa<MemSetInst>(U) || isa<DbgInfoIntrinsic>(U))
        continue;
      if (auto *II = dyn_cast<IntrinsicInst>(U))
        if (II->isLifetimeStartOrEnd())
          continue;
      // A library function without derivatives (std::string's members,
      // output) writes no derivative into what it is given; nor does a
      // function that only moves what the slot holds (an iterator's
      // operator++: CleanSlots.cpp).
      if (auto *Call = dyn_cast<CallBase>(U))
        if (const Function *Callee = Call->getCalledFunction()) {
          if (isKnownInactiveFunction(*Callee) ||
              isDeallocation(classifyMemoryFunction(*Callee)))
            continue;
          // (Not when it returns the slot's address to be used here:
          // stores through that would not be seen.)
          if (CleanSlots && all_of(Call->args(), [&](const Use &Arg) {
                bool Returns = false;
                return Arg.get() != P ||
                       (keepsPointeeClean(*Callee, Arg.getOperandNo(),
                                          CleanCallDepth, Returns,
                                          HoldsOwnAddress) &&
                        (!Returns || Call->use_empty()));
              }))
            continue;
          // Nor one that, with the activity its arguments have here, stores
          // only constants into the slot (InactiveSlotWrites.cpp; in a slot
          // that holds its own address, through the pointers read from it
          // too).
          if (callKeepsSlotClean(*Call, P, HoldsOwnAddress))
            continue;
        }
      MarkDirty(P); // passed to a call, converted to an integer, returned...
    }
  }
  return Changed;
}

} // namespace adcore
