//===- FrameWrites.cpp - What a region of a function writes --------------===//
//
// Each pointer that an instruction writes through is traced to its
// underlying object, across calls: an argument of a callee stands for what
// the caller passed. The *origin* of a pointer is one of F's static
// allocas, a global variable, a heap block a local pointer variable of F
// holds, memory of the callee's own (its frame, heap it allocated,
// constants), or unknown.
//
//===----------------------------------------------------------------------===//

#include "analysis/FrameWrites.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Demangle/Demangle.h"

#include <set>
#include <vector>

using namespace llvm;

namespace adcore {
namespace {

struct Origin {
  enum Kind { Own, Frame, Global, Heap, Unknown } K = Own;
  const Value *Object = nullptr;
};

/// Functions without a body whose pointer arguments are not program
/// memory that a later iteration reads (allocation, release, output).
constexpr const char *Inert[] = {
    "malloc", "calloc",  "realloc", "free",    "aligned_alloc", "_Znwm",
    "_Znam",  "_ZdlPv",  "_ZdaPv",  "_ZdlPvm", "_ZdaPvm",       "printf",
    "puts",   "fprintf", "fputs",   "putchar", "fputc",         "fflush",
    "fwrite", "vprintf", "vfprintf"};

bool isInert(const Function &F) {
  return is_contained(Inert, F.getName());
}

bool isAllocation(const Value *V) {
  auto *C = dyn_cast<CallBase>(V);
  const Function *F = C ? C->getCalledFunction() : nullptr;
  if (!F)
    return false;
  StringRef N = F->getName();
  return N == "malloc" || N == "calloc" || N == "realloc" ||
         N == "aligned_alloc" || N == "_Znwm" || N == "_Znam";
}

class Walker {
public:
  Walker(Function &F, FrameWrites &W) : F(F), W(W) {}

  void walkRegion(ArrayRef<BasicBlock *> Blocks) {
    for (BasicBlock *BB : Blocks)
      for (Instruction &I : *BB)
        if (!W.Unbounded)
          visit(I, F, {}, &I, 0);
  }

private:
  Origin originOf(const Value *Ptr, const Function &In,
                  ArrayRef<Origin> Args) const {
    const Value *U = getUnderlyingObject(Ptr, /*MaxLookup=*/0);
    if (auto *A = dyn_cast<AllocaInst>(U)) {
      if (&In != &F)
        return {Origin::Own, U};
      return A->isStaticAlloca() ? Origin{Origin::Frame, U}
                                 : Origin{Origin::Unknown, U};
    }
    if (auto *G = dyn_cast<GlobalVariable>(U))
      return G->isConstant() ? Origin{Origin::Own, U} : Origin{Origin::Global, U};
    if (auto *A = dyn_cast<Argument>(U))
      return &In == &F ? Origin{Origin::Unknown, U} : Args[A->getArgNo()];
    if (isa<Constant>(U))
      return {Origin::Own, U};
    if (isAllocation(U) && (&In != &F || InRegion.contains(U)))
      return {Origin::Own, U};
    if (auto *Load = dyn_cast<LoadInst>(U); Load && &In == &F)
      if (auto *Slot = spillSlot(Load->getPointerOperand());
          Slot && Slot->isStaticAlloca() && heapBlockOf(*Slot))
        return {Origin::Heap, Slot};
    if (auto *Load = dyn_cast<LoadInst>(U); Load && &In != &F)
      if (auto *Slot = spillSlot(Load->getPointerOperand()))
        return storedOrigin(*Slot, In, Args);
    if (auto *C = dyn_cast<CallBase>(U))
      if (Function *Callee = C->getCalledFunction();
          Callee && !Callee->isDeclaration())
        return returnedOrigin(*C, *Callee, In, Args);
    return {Origin::Unknown, U};
  }

  /// The origin of what \p Callee returns to \p C (a reference that an
  /// accessor returns: the same for every return, or unknown).
  Origin returnedOrigin(const CallBase &C, const Function &Callee,
                        const Function &In, ArrayRef<Origin> Args) const {
    if (ReturnDepth > 16)
      return {Origin::Unknown, &C};
    ++ReturnDepth;
    SmallVector<Origin, 8> Actual;
    for (const Use &U : C.args())
      Actual.push_back(U->getType()->isPointerTy()
                           ? originOf(U.get(), In, Args)
                           : Origin{Origin::Own, nullptr});
    std::optional<Origin> Common;
    for (const BasicBlock &BB : Callee)
      if (auto *R = dyn_cast<ReturnInst>(BB.getTerminator());
          R && R->getReturnValue()) {
        Origin O = originOf(R->getReturnValue(), Callee, Actual);
        if (Common && (Common->K != O.K || Common->Object != O.Object))
          O = {Origin::Unknown, &C};
        Common = O;
      }
    --ReturnDepth;
    return Common ? *Common : Origin{Origin::Unknown, &C};
  }

  /// \p P, when it is an alloca that is only loaded from and stored to
  /// (a callee's pointer argument as Clang keeps it before optimization).
  static const AllocaInst *spillSlot(const Value *P) {
    auto *A = dyn_cast<AllocaInst>(P);
    if (!A)
      return nullptr;
    for (const User *U : A->users()) {
      if (isa<LoadInst>(U))
        continue;
      if (auto *I = dyn_cast<IntrinsicInst>(U); I && I->isLifetimeStartOrEnd())
        continue;
      auto *S = dyn_cast<StoreInst>(U);
      if (!S || S->getValueOperand() == A)
        return nullptr;
    }
    return A;
  }

  /// The block a local pointer variable \p Slot of F holds, when it is
  /// stored once, outside the region, with what an allocation returned
  /// (malloc, calloc, aligned_alloc, new[]; not realloc, which moves it).
  CallBase *heapBlockOf(const AllocaInst &Slot) const {
    const StoreInst *Only = nullptr;
    for (const User *U : Slot.users())
      if (auto *S = dyn_cast<StoreInst>(U)) {
        if (Only || InRegion.contains(S))
          return nullptr;
        Only = S;
      }
    auto *C = Only ? dyn_cast<CallBase>(Only->getValueOperand()) : nullptr;
    const Function *Callee = C ? C->getCalledFunction() : nullptr;
    if (!C || !isAllocation(C) || Callee->getName() == "realloc" ||
        InRegion.contains(C))
      return nullptr;
    return const_cast<CallBase *>(C);
  }

  /// The origin of what is stored into \p Slot: the same for every store,
  /// or unknown.
  Origin storedOrigin(const AllocaInst &Slot, const Function &In,
                      ArrayRef<Origin> Args) const {
    std::optional<Origin> Common;
    for (const User *U : Slot.users()) {
      auto *S = dyn_cast<StoreInst>(U);
      if (!S)
        continue;
      Origin O = originOf(S->getValueOperand(), In, Args);
      if (Common && (Common->K != O.K || Common->Object != O.Object))
        return {Origin::Unknown, &Slot};
      Common = O;
    }
    return Common ? *Common : Origin{Origin::Unknown, &Slot};
  }

  void fail(Instruction *Site, const Twine &Why) {
    if (W.Unbounded)
      return;
    W.Unbounded = Site;
    W.Why = Why.str();
  }

  void write(const Value *Ptr, const Function &In, ArrayRef<Origin> Args,
             Instruction *Site) {
    Origin O = originOf(Ptr, In, Args);
    switch (O.K) {
    case Origin::Own:
      return;
    case Origin::Frame:
      W.Allocas[const_cast<AllocaInst *>(cast<AllocaInst>(O.Object))]
          .push_back(Site);
      return;
    case Origin::Global:
      W.Globals.insert(
          const_cast<GlobalVariable *>(cast<GlobalVariable>(O.Object)));
      return;
    case Origin::Heap: {
      auto *Slot = const_cast<AllocaInst *>(cast<AllocaInst>(O.Object));
      W.HeapBlocks[Slot] = heapBlockOf(*Slot);
      return;
    }
    case Origin::Unknown:
      fail(Site, "writes memory through a pointer that is not a local "
                 "variable or array of '" +
                     demangle(F.getName()) +
                     "' nor a heap block a local pointer variable holds, "
                     "whose extent is unknown");
      return;
    }
  }

  void visitCall(CallBase &C, const Function &In, ArrayRef<Origin> Args,
                 Instruction *Site, unsigned Depth) {
    if (auto *M = dyn_cast<MemIntrinsic>(&C)) {
      write(M->getDest(), In, Args, Site);
      return;
    }
    if (isa<IntrinsicInst>(C))
      return;
    Function *Callee = C.getCalledFunction();
    if (!Callee) {
      fail(Site, "calls a function through a pointer, whose writes are "
                 "unknown");
      return;
    }
    if (isInert(*Callee) || Callee->onlyReadsMemory())
      return;
    SmallVector<Origin, 8> Actual;
    for (Use &U : C.args())
      Actual.push_back(U->getType()->isPointerTy()
                           ? originOf(U.get(), In, Args)
                           : Origin{Origin::Own, nullptr});
    if (Callee->isDeclaration()) {
      for (unsigned I = 0; I < C.arg_size(); ++I)
        if (C.getArgOperand(I)->getType()->isPointerTy() &&
            !C.onlyReadsMemory(I))
          write(C.getArgOperand(I), In, Args, Site);
      return;
    }
    if (Depth > 32) {
      fail(Site, "calls functions nested too deeply to follow");
      return;
    }
    // (Each callee once per origin of its arguments: recursion ends.)
    std::vector<const void *> Key{Callee};
    for (const Origin &O : Actual) {
      Key.push_back(reinterpret_cast<const void *>(O.K));
      Key.push_back(O.Object);
    }
    if (!Seen.insert(Key).second)
      return;
    for (Instruction &I : instructions(*Callee))
      visit(I, *Callee, Actual, Site, Depth + 1);
  }

  void visit(Instruction &I, const Function &In, ArrayRef<Origin> Args,
             Instruction *Site, unsigned Depth) {
    if (W.Unbounded)
      return;
    if (auto *S = dyn_cast<StoreInst>(&I)) {
      if (S->getValueOperand()->getType()->isPointerTy() &&
          originOf(S->getValueOperand(), In, Args).K == Origin::Frame &&
          !(&In != &F && spillSlot(S->getPointerOperand())))
        fail(Site, "keeps the address of a local variable of '" +
                       demangle(F.getName()) + "' in memory");
      write(S->getPointerOperand(), In, Args, Site);
    } else if (auto *A = dyn_cast<AtomicRMWInst>(&I)) {
      write(A->getPointerOperand(), In, Args, Site);
    } else if (auto *X = dyn_cast<AtomicCmpXchgInst>(&I)) {
      write(X->getPointerOperand(), In, Args, Site);
    } else if (auto *C = dyn_cast<CallBase>(&I)) {
      visitCall(*C, In, Args, Site, Depth);
    } else if (isa<PtrToIntInst>(I) &&
               originOf(I.getOperand(0), In, Args).K == Origin::Frame) {
      fail(Site, "converts the address of a local variable of '" +
                     demangle(F.getName()) + "' to an integer");
    }
  }

  Function &F;
  FrameWrites &W;
  mutable unsigned ReturnDepth = 0;
  SmallPtrSet<const Value *, 32> InRegion;
  std::set<std::vector<const void *>> Seen;

public:
  void noteRegion(ArrayRef<BasicBlock *> Blocks) {
    for (BasicBlock *BB : Blocks)
      for (Instruction &I : *BB)
        InRegion.insert(&I);
  }
};

} // namespace

FrameWrites findFrameWrites(Function &F, ArrayRef<BasicBlock *> Blocks) {
  FrameWrites W;
  Walker Walk(F, W);
  Walk.noteRegion(Blocks);
  Walk.walkRegion(Blocks);
  return W;
}

} // namespace adcore
