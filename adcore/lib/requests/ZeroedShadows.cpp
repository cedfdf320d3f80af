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

#include "support/SlotValues.h"
#include "adcore/MemoryFunctions.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

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

/// Whether memory is copied into the stack slot \p O from an argument of
/// its function (memcpy), or -O0's store of one.
bool copiedFromArgument(const Value *O) {
  if (!isa<AllocaInst>(O))
    return false;
  SmallVector<const Value *, 4> Work{O};
  SmallPtrSet<const Value *, 8> Seen{O};
  while (!Work.empty())
    for (const User *U : Work.pop_back_val()->users()) {
      if (isa<BitCastInst, AddrSpaceCastInst>(U) && Seen.insert(U).second)
        Work.push_back(U);
      else if (const auto *MT = dyn_cast<MemTransferInst>(U);
               MT && Seen.contains(MT->getRawDest()) &&
               isa<Argument>(getUnderlyingObject(MT->getRawSource())))
        return true;
    }
  return false;
}

/// The memory \p V points into, through pointer variables (\p Depth deep).
const Value *objectOf(const Value *V, unsigned Depth = 4) {
  const Value *O = getUnderlyingObject(V);
  if (const auto *LI = dyn_cast<LoadInst>(O); LI && Depth > 0)
    if (const Value *Stored = onlyStoredValue(LI->getPointerOperand()))
      return objectOf(Stored, Depth - 1);
  return O;
}

/// The 8-byte slots of an object that the calling function zeroes, and
/// those it fills with other values: a pointer field left null is a slot
/// zeroed and never filled. (A C++ constructor nulls a std::vector's
/// pointers before it stores the allocated ones: no null is left.)
struct Slots {
  DenseSet<int64_t> Zeroed, Filled;
  /// Something wrote the object where its offset or contents are not known
  /// (a call given its address, a store at a variable index).
  bool Unknown = false;

  void mark(DenseSet<int64_t> &Set, int64_t Offset, uint64_t Bytes) {
    for (int64_t K = Offset / 8; K * 8 < Offset + int64_t(Bytes); ++K)
      Set.insert(K);
  }
  bool leavesNull() const {
    return !Unknown &&
           any_of(Zeroed, [&](int64_t K) { return !Filled.contains(K); });
  }
};

/// Scans the writes into the object \p Object (through constant offsets,
/// and pointer variables that hold its address) other than by \p Request.
void scanWrites(const Value *Object, const CallBase &Request,
                const SynthesisContext &Ctx, Slots &Out) {
  const DataLayout &DL = Request.getModule()->getDataLayout();
  SmallVector<std::pair<const Value *, int64_t>, 8> Work{{Object, 0}};
  SmallPtrSet<const Value *, 16> Seen{Object};
  auto Push = [&](const Value *V, int64_t Offset) {
    if (Seen.insert(V).second)
      Work.push_back({V, Offset});
  };
  while (!Work.empty() && !Out.Unknown) {
    auto [P, Offset] = Work.pop_back_val();
    for (const User *U : P->users()) {
      if (const auto *GEP = dyn_cast<GEPOperator>(U)) {
        APInt C(DL.getIndexTypeSizeInBits(GEP->getType()), 0);
        if (GEP->getPointerOperand() != P ||
            !GEP->accumulateConstantOffset(DL, C)) {
          Out.Unknown = true;
          break;
        }
        Push(GEP, Offset + C.getSExtValue());
      } else if (isa<BitCastInst, AddrSpaceCastInst>(U)) {
        Push(U, Offset);
      } else if (const auto *SI = dyn_cast<StoreInst>(U)) {
        const Value *V = SI->getValueOperand();
        if (SI->getPointerOperand() == P) {
          uint64_t Bytes = DL.getTypeStoreSize(V->getType());
          const auto *C = dyn_cast<Constant>(V);
          Out.mark(C && mayBeNullPointer(C) ? Out.Zeroed : Out.Filled, Offset,
                   Bytes);
        } else if (onlyStoredValue(SI->getPointerOperand()) == P) {
          // (Kept in a pointer variable: what is loaded from it.)
          for (const User *L : SI->getPointerOperand()->users())
            if (isa<LoadInst>(L))
              Push(L, Offset);
        } else {
          Out.Unknown = true; // the address escapes
        }
      } else if (const auto *MI = dyn_cast<MemIntrinsic>(U)) {
        const auto *Len = dyn_cast<ConstantInt>(MI->getLength());
        if (MI->getRawDest() != P)
          continue; // read from
        if (!Len) {
          Out.Unknown = true;
          break;
        }
        bool Zero = false;
        if (const auto *MS = dyn_cast<MemSetInst>(MI)) {
          const auto *V = dyn_cast<ConstantInt>(MS->getValue());
          Zero = V && V->isZero();
        } else if (const auto *MT = dyn_cast<MemTransferInst>(MI)) {
          Zero = copiesNullPointer(MT->getRawSource());
        }
        Out.mark(Zero ? Out.Zeroed : Out.Filled, Offset, Len->getZExtValue());
      } else if (const auto *Call = dyn_cast<CallBase>(U)) {
        const auto *II = dyn_cast<IntrinsicInst>(Call);
        const Function *F = Call->getCalledFunction();
        // (Not free, nor another request or the derivative one became:
        // they leave the shadow's pointers as they are, but for those the
        // function stores.)
        bool Ignored =
            F && (classifyMemoryFunction(*F) == MemoryFunctionKind::Free ||
                  F->getName().contains("__enzyme_") ||
                  Ctx.isGenerated(*F));
        if (Call != &Request && !Ignored &&
            !(II && II->isLifetimeStartOrEnd()) && !Call->onlyReadsMemory())
          Out.Unknown = true; // it may fill the object
      } else if (isa<PHINode, SelectInst>(U)) {
        Out.Unknown = true;
      }
    }
  }
}

/// Whether a value of the declared type \p T may hold a pointer (not an
/// array of doubles: `double dx[n] = {0}` needs no guard).
bool holdsPointers(const Type *T) {
  if (T->isPointerTy() || T->isIntegerTy(64))
    return true;
  if (const auto *AT = dyn_cast<ArrayType>(T))
    return holdsPointers(AT->getElementType());
  if (const auto *ST = dyn_cast<StructType>(T))
    return any_of(ST->elements(), holdsPointers);
  return false;
}

/// Whether the function reads pointers from the memory its parameter \p P
/// points to (through constant or variable offsets), or passes it (or an
/// address within it) to a call: a shadow of it given by another function
/// may hold null pointers that matter. (`double *` parameters only read
/// and stored elsewhere need no guard.)
bool readsPointersThrough(const Argument &P) {
  SmallVector<const Value *, 8> Work{&P};
  SmallPtrSet<const Value *, 16> Seen{&P};
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const User *U : V->users()) {
      if (const auto *LI = dyn_cast<LoadInst>(U)) {
        if (LI->getPointerOperand() == V && !LI->getType()->isFPOrFPVectorTy())
          return true;
      } else if (isa<GEPOperator, BitCastInst, AddrSpaceCastInst, PHINode,
                     SelectInst>(U)) {
        if (Seen.insert(U).second)
          Work.push_back(U);
      } else if (const auto *Call = dyn_cast<CallBase>(U)) {
        const auto *II = dyn_cast<IntrinsicInst>(Call);
        if (!(II && II->isLifetimeStartOrEnd()))
          return true;
      } else if (const auto *SI = dyn_cast<StoreInst>(U)) {
        // (Kept in a local variable at -O0: what is loaded from it.)
        if (SI->getValueOperand() == V)
          if (const auto *AI = dyn_cast<AllocaInst>(SI->getPointerOperand()))
            for (const User *L : AI->users())
              if (isa<LoadInst>(L) && Seen.insert(L).second)
                Work.push_back(L);
      }
    }
  }
  return false;
}

} // namespace

bool shadowMayHoldNullPointers(const Value *Shadow, const CallBase &Request,
                               const Argument &Param,
                               const SynthesisContext &Ctx) {
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Shadow, Objects);
  return any_of(Objects, [&](const Value *O) {
    O = objectOf(O);
    // (A shadow the function's caller gives it: zeroed there, perhaps; so
    // a local copy of one, as HIP's kernels copy a struct argument from
    // the kernel's arguments: guarded as CUDA's, which use it in place.)
    if (isa<Argument>(O) || copiedFromArgument(O))
      return readsPointersThrough(Param);
    // (A variable of a type without pointers holds none.)
    if (const auto *AI = dyn_cast<AllocaInst>(O);
        AI && !holdsPointers(AI->getAllocatedType()))
      return false;
    if (const auto *G = dyn_cast<GlobalVariable>(O);
        G && !holdsPointers(G->getValueType()))
      return false;
    if (const auto *G = dyn_cast<GlobalVariable>(O))
      if (G->hasInitializer() && mayBeNullPointer(G->getInitializer()))
        return true;
    Slots S;
    if (const auto *Call = dyn_cast<CallBase>(O))
      if (const Function *F = Call->getCalledFunction();
          F && classifyMemoryFunction(*F) == MemoryFunctionKind::Calloc) {
        const auto *N = dyn_cast<ConstantInt>(Call->getArgOperand(0));
        const auto *Size = dyn_cast<ConstantInt>(Call->getArgOperand(1));
        if (!N || !Size)
          return true;
        S.mark(S.Zeroed, 0, N->getZExtValue() * Size->getZExtValue());
      }
    scanWrites(O, Request, Ctx, S);
    return S.leavesNull();
  });
}

} // namespace adcore
