//===- analysis/WriteOnlyMemory.cpp - Memory only written ---------------===//

#include "WriteOnlyMemory.h"

#include "GlobalShadows.h"
#include "adcore/MemoryFunctions.h"
#include "rules/CustomRules.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace adcore {
namespace {

/// Whether \p T is or holds a pointer.
bool holdsPointer(const Type *T) {
  if (T->isPtrOrPtrVectorTy())
    return true;
  if (const auto *AT = dyn_cast<ArrayType>(T))
    return holdsPointer(AT->getElementType());
  if (const auto *ST = dyn_cast<StructType>(T))
    return any_of(ST->elements(), holdsPointer);
  return false;
}

/// Whether \p V is a block just allocated (or null): an allocation, a call
/// of a function that returns one (std::allocator's, \p Depth calls deep),
/// a choice between such blocks, or one kept in a local variable at -O0.
bool freshBlock(const Value *V, unsigned Depth = 4) {
  if (isa<ConstantPointerNull>(V))
    return true;
  V = getUnderlyingObject(V);
  if (const auto *Call = dyn_cast<CallBase>(V)) {
    const Function *F = Call->getCalledFunction();
    if (!F)
      return false;
    if (isFreshAllocation(classifyMemoryFunction(*F)))
      return true;
    if (F->isDeclaration() || Depth == 0)
      return false;
    bool Any = false;
    for (const BasicBlock &BB : *F)
      if (const auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator())) {
        if (!Ret->getReturnValue() ||
            !freshBlock(Ret->getReturnValue(), Depth - 1))
          return false;
        Any = true;
      }
    return Any;
  }
  if (Depth == 0)
    return false;
  if (const auto *Phi = dyn_cast<PHINode>(V))
    return all_of(Phi->incoming_values(),
                  [&](const Value *In) { return freshBlock(In, Depth - 1); });
  if (const auto *Sel = dyn_cast<SelectInst>(V))
    return freshBlock(Sel->getTrueValue(), Depth - 1) &&
           freshBlock(Sel->getFalseValue(), Depth - 1);
  if (const auto *LI = dyn_cast<LoadInst>(V)) {
    const auto *AI = dyn_cast<AllocaInst>(LI->getPointerOperand());
    return AI && all_of(AI->users(), [&](const User *U) {
             const auto *SI = dyn_cast<StoreInst>(U);
             return !SI || (SI->getPointerOperand() == AI &&
                            freshBlock(SI->getValueOperand(), Depth - 1));
           });
  }
  return false;
}

/// Whether the integer \p V, read from the memory, stays a number (a
/// length compared, counted, used as an index), not bits of a float
/// carried elsewhere (cast, stored, passed on or returned).
bool staysNumber(const Value *V, unsigned Depth = 4) {
  return all_of(V->users(), [&](const User *U) {
    // (Made a pointer again, `(double *)stash` of a `uintptr_t stash`: an
    // address, whose memory's derivatives were silently lost until
    // 2026-12-07.)
    if (isa<BitCastInst, StoreInst, CallBase, ReturnInst, IntToPtrInst>(U))
      return false;
    if (isa<PHINode, SelectInst, CastInst>(U))
      return Depth > 0 && staysNumber(U, Depth - 1);
    return true;
  });
}

/// Whether the stored integer \p V may be an address's bits: a pointer
/// cast to an integer, or an integer copied from memory (how InstCombine
/// copies a struct that holds pointers); not a number computed.
bool mayBeAddressBits(const Value *V, unsigned Depth = 4) {
  if (!V->getType()->isIntegerTy(64))
    return false;
  if (isa<PtrToIntInst>(V))
    return true;
  const auto *LI = dyn_cast<LoadInst>(V);
  if (LI && Depth == 0)
    return true;
  if (Depth == 0)
    return false;
  if (LI) {
    // (A local variable at -O0 holds what is stored into it.)
    const auto *AI = dyn_cast<AllocaInst>(LI->getPointerOperand());
    return !AI || any_of(AI->users(), [&](const User *U) {
      const auto *SI = dyn_cast<StoreInst>(U);
      if (!SI)
        return !isa<LoadInst>(U) &&
               !cast<Instruction>(U)->isLifetimeStartOrEnd();
      return SI->getValueOperand() == AI ||
             mayBeAddressBits(SI->getValueOperand(), Depth - 1);
    });
  }
  if (const auto *Phi = dyn_cast<PHINode>(V))
    return any_of(Phi->incoming_values(), [&](const Value *In) {
      return mayBeAddressBits(In, Depth - 1);
    });
  if (const auto *Sel = dyn_cast<SelectInst>(V))
    return mayBeAddressBits(Sel->getTrueValue(), Depth - 1) ||
           mayBeAddressBits(Sel->getFalseValue(), Depth - 1);
  return false;
}

/// The pointers into one global's memory, grown from the global through
/// its uses, each with its depth: 0 for the global's own bytes, d + 1 for
/// a block whose address was read from memory of depth d (-1: a local
/// variable that holds the global's address). Fails once a use reads a
/// derivative back.
class Reach {
public:
  Reach(const SmallPtrSetImpl<const Function *> &Reached) : Reached(Reached) {}

  /// Whether every use of \p G's memory in the reached functions only
  /// writes it; Pointers then holds that memory's pointers.
  bool onlyWritten(const GlobalVariable &G) {
    add(&G, 0);
    while (!Work.empty() && !Fails)
      visitUsers(*Work.pop_back_val());
    if (Fails)
      return false;
    // An address stored into memory of depth d is one of its blocks (depth
    // d + 1), or that memory holds addresses from elsewhere ("foreign": the
    // pointers a log records).
    // A parameter is the memory's only where every call that the
    // derivatives run passes the memory (a vector's method called for
    // another vector too: not followed).
    for (const Argument *A : Parameters)
      for (const User *U : A->getParent()->users()) {
        const auto *Site = dyn_cast<CallBase>(U);
        if (!Site || Site->getCalledOperand() != A->getParent())
          return false;
        if (Reached.contains(Site->getFunction()) &&
            !Pointers.contains(Site->getArgOperand(A->getArgNo())))
          return false;
      }
    for (const MemTransferInst *MT : CopiedOut)
      if (!Pointers.contains(MT->getRawDest()))
        return false;
    for (const StoreInst *SI : Stores) {
      auto It = Pointers.find(SI->getPointerOperand());
      if (It == Pointers.end())
        return false; // (the memory's address escapes)
      const Value *V = SI->getValueOperand();
      if (mayBeAddressBits(V)) {
        Foreign.insert(It->second);
        continue;
      }
      if (!holdsPointer(V->getType()))
        continue;
      auto VIt = Pointers.find(V);
      if (!isa<Constant>(V) &&
          (VIt == Pointers.end() || VIt->second != It->second + 1))
        Foreign.insert(It->second);
    }
    // A write through an address read from memory that holds foreign
    // addresses may write the program's own data (a derivative lost).
    return none_of(WrittenThrough, [&](const Value *P) {
      return Foreign.contains(Pointers.lookup(P) - 1);
    });
  }

  DenseMap<const Value *, int> Pointers;

private:
  void add(const Value *V, int Depth) {
    auto [It, New] = Pointers.try_emplace(V, Depth);
    if (New)
      Work.push_back(V);
    else if (It->second != Depth)
      Fails = true; // (one value, two depths: not followed)
  }

  void visitUsers(const Value &V) {
    for (const Use &U : V.uses()) {
      const User *Usr = U.getUser();
      if (isa<ConstantExpr>(Usr)) {
        add(Usr, Pointers.lookup(&V)); // (a constant GEP or cast of it)
        continue;
      }
      const auto *I = dyn_cast<Instruction>(Usr);
      if (!I) {
        Fails = true;
        return;
      }
      if (!Reached.contains(I->getFunction()))
        continue; // (code no derivative runs: the primal's own reads)
      if (!visit(*I, U)) {
        Fails = true;
        return;
      }
    }
  }

  bool visit(const Instruction &I, const Use &U) {
    int Depth = Pointers.lookup(U.get());
    if (isa<GetElementPtrInst, BitCastInst, AddrSpaceCastInst, PHINode,
            SelectInst, FreezeInst>(I)) {
      if (isa<SelectInst>(I) && U.getOperandNo() == 0)
        return true;
      if (isa<GetElementPtrInst>(I) && U.getOperandNo() != 0)
        return false;
      add(&I, Depth);
      return true;
    }
    if (isa<ICmpInst>(I))
      return true;
    // (An address as a number: a vector's size, its end minus its start.)
    if (isa<PtrToIntInst>(I))
      return none_of(I.users(),
                     [](const User *U) { return isa<IntToPtrInst>(U); });
    if (const auto *LI = dyn_cast<LoadInst>(&I)) {
      if (LI->getType()->isIntOrIntVectorTy())
        return staysNumber(LI); // (a length or a flag: no derivative)
      if (!LI->getType()->isPointerTy())
        return false;
      add(LI, Depth + 1); // (a block the memory points to)
      return true;
    }
    if (const auto *SI = dyn_cast<StoreInst>(&I)) {
      Stores.push_back(SI);
      if (U.getOperandNo() == SI->getPointerOperandIndex()) {
        WrittenThrough.push_back(U.get());
        // (A new block stored into the memory, a vector's grown buffer:
        // the memory's own, from its allocation on.)
        if (const Value *V = SI->getValueOperand();
            V->getType()->isPointerTy() && !isa<Constant>(V) && freshBlock(V))
          addFresh(V, Depth + 1);
        return true;
      }
      // (Kept in a local variable, as -O0 keeps every argument: what is
      // read from it is that memory's address again.)
      if (const auto *AI = dyn_cast<AllocaInst>(SI->getPointerOperand()))
        return holdsAddress(*AI, Depth);
      return true;
    }
    if (isa<ReturnInst>(I)) {
      // (Returned, a reference to a member at -O0: the calls' results.)
      for (const User *CU : I.getFunction()->users()) {
        const auto *Site = dyn_cast<CallBase>(CU);
        if (!Site || Site->getCalledOperand() != I.getFunction())
          return false;
        if (Reached.contains(Site->getFunction()))
          add(Site, Depth);
      }
      return true;
    }
    const auto *Call = dyn_cast<CallBase>(&I);
    if (!Call)
      return false;
    if (Call->isLifetimeStartOrEnd())
      return true;
    if (const auto *MI = dyn_cast<MemIntrinsic>(Call)) {
      if (const auto *MT = dyn_cast<MemTransferInst>(MI);
          MT && &U == &MT->getRawSourceUse()) {
        // (Copied within the memory, a vector's elements moved to its new
        // block, and nowhere else.)
        CopiedOut.push_back(MT);
        return true;
      }
      if (&U != &MI->getRawDestUse())
        return false;
      WrittenThrough.push_back(U.get());
      if (isa<MemTransferInst>(MI))
        Foreign.insert(Depth); // (whatever the copy brings)
      return true;
    }
    if (isa<IntrinsicInst>(Call) || !Call->isArgOperand(&U))
      return false;
    const Function *Callee = Call->getCalledFunction();
    if (!Callee)
      return false;
    switch (classifyMemoryFunction(*Callee)) {
    case MemoryFunctionKind::Free:
      return true;
    case MemoryFunctionKind::Realloc:
      WrittenThrough.push_back(U.get());
      add(Call, Depth); // (the block again, moved)
      return true;
    default:
      break;
    }
    unsigned No = Call->getArgOperandNo(&U);
    if (Callee->isDeclaration() || Callee->isVarArg() ||
        No >= Callee->arg_size() || !Reached.contains(Callee))
      return false;
    add(Callee->getArg(No), Depth);
    Parameters.push_back(Callee->getArg(No));
    return true;
  }

  /// Adds the fresh block \p V (freshBlock) at \p Depth: the allocation
  /// itself, and the variable that holds it at -O0.
  void addFresh(const Value *V, int Depth) {
    add(V, Depth);
    const Value *O = getUnderlyingObject(V);
    if (O != V)
      add(O, Depth);
    if (const auto *LI = dyn_cast<LoadInst>(O))
      if (const auto *AI = dyn_cast<AllocaInst>(LI->getPointerOperand()))
        for (const User *U : AI->users())
          if (const auto *SI = dyn_cast<StoreInst>(U);
              SI && !isa<Constant>(SI->getValueOperand()))
            addFresh(SI->getValueOperand(), Depth);
  }

  /// Adds the local variable \p AI, only stored into and read, holding
  /// addresses of depth \p Depth, and what is read from it.
  bool holdsAddress(const AllocaInst &AI, int Depth) {
    for (const User *U : AI.users()) {
      if (const auto *SI = dyn_cast<StoreInst>(U)) {
        if (SI->getValueOperand() == &AI)
          return false;
        Stores.push_back(SI);
        continue;
      }
      if (const auto *Call = dyn_cast<CallBase>(U);
          Call && Call->isLifetimeStartOrEnd())
        continue;
      const auto *LI = dyn_cast<LoadInst>(U);
      if (!LI || !LI->getType()->isPointerTy())
        return false;
      add(LI, Depth);
    }
    // (The variable is memory one level above what it holds.)
    Pointers.try_emplace(&AI, Depth - 1);
    return true;
  }

  const SmallPtrSetImpl<const Function *> &Reached;
  SmallVector<const Value *, 16> Work;
  SmallVector<const StoreInst *, 8> Stores;
  SmallVector<const MemTransferInst *, 4> CopiedOut;
  SmallVector<const Argument *, 8> Parameters;
  SmallVector<const Value *, 8> WrittenThrough;
  SmallDenseSet<int, 4> Foreign;
  bool Fails = false;
};

} // namespace

DenseSet<const Value *>
collectWriteOnlyMemory(ArrayRef<const Function *> Reached,
                       const CustomRules &Rules) {
  DenseSet<const Value *> WriteOnly;
  SmallPtrSet<const Function *, 32> Set(Reached.begin(), Reached.end());
  SmallPtrSet<const GlobalVariable *, 8> Globals;
  for (const Function *F : Reached)
    for (const BasicBlock &BB : *F)
      for (const Instruction &I : BB)
        for (const Value *Op : I.operands())
          if (const auto *G =
                  dyn_cast<GlobalVariable>(Op->stripPointerCastsAndAliases()))
            Globals.insert(G);
          else if (const auto *CE = dyn_cast<ConstantExpr>(Op))
            if (const auto *G =
                    dyn_cast<GlobalVariable>(getUnderlyingObject(CE)))
              Globals.insert(G);
  for (const GlobalVariable *G : Globals) {
    if (G->isConstant() || G->isDeclaration() || G->isThreadLocal() ||
        hasShadowGlobal(*G, &Rules) || Rules.isInactiveGlobal(G))
      continue;
    Reach R(Set);
    if (R.onlyWritten(*G))
      for (const auto &[P, Depth] : R.Pointers)
        WriteOnly.insert(P);
  }
  return WriteOnly;
}

} // namespace adcore
