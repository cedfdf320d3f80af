//===- LinkedStores.cpp - Floats stored over a caller's links -------------===//
//
// See LinkedStores.h.
//
//===----------------------------------------------------------------------===//

#include "LinkedStores.h"
#include "TypeAnalysis.h"

#include "adcore/DeclaredPointees.h"
#include "adcore/MemoryFunctions.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

#include <optional>

using namespace llvm;

namespace adcore {
namespace {

/// Whether a pointer of the type \p T lies within its bytes [Lo, Hi).
bool pointerWithin(Type *T, uint64_t Lo, uint64_t Hi, const DataLayout &DL) {
  if (Lo >= DL.getTypeStoreSize(T))
    return false;
  if (T->isPtrOrPtrVectorTy())
    return true;
  if (auto *ST = dyn_cast<StructType>(T)) {
    const StructLayout *SL = DL.getStructLayout(ST);
    for (unsigned I = 0; I < ST->getNumElements(); ++I) {
      uint64_t Offset = SL->getElementOffset(I);
      if (Offset >= Hi)
        break;
      if (pointerWithin(ST->getElementType(I), Lo > Offset ? Lo - Offset : 0,
                        Hi - Offset, DL))
        return true;
    }
    return false;
  }
  if (auto *AT = dyn_cast<ArrayType>(T)) {
    Type *E = AT->getElementType();
    uint64_t Size = DL.getTypeAllocSize(E);
    if (!Size)
      return false;
    // (Every element alike: the first one the bytes touch, and the next.)
    uint64_t First = Lo / Size;
    for (uint64_t I = First; I < AT->getNumElements() && I * Size < Hi &&
                             I < First + 2;
         ++I)
      if (pointerWithin(E, Lo > I * Size ? Lo - I * Size : 0, Hi - I * Size,
                        DL))
        return true;
  }
  return false;
}

/// The values stored into the local slot \p Slot (a variable at -O0), or
/// false where its address goes elsewhere (a call may write it).
bool slotStores(const AllocaInst &Slot, SmallVectorImpl<const Value *> &Out) {
  for (const User *U : Slot.users()) {
    if (isa<LoadInst>(U))
      continue;
    const auto *SI = dyn_cast<StoreInst>(U);
    if (!SI || SI->getPointerOperand() != &Slot)
      return false;
    Out.push_back(SI->getValueOperand());
  }
  return true;
}

bool allocates(const CallBase &Call) {
  const Function *F = Call.getCalledFunction();
  if (!F)
    return false;
  switch (classifyMemoryFunction(*F)) {
  case MemoryFunctionKind::Malloc:
  case MemoryFunctionKind::Calloc:
  case MemoryFunctionKind::Realloc:
  case MemoryFunctionKind::AlignedAlloc:
  case MemoryFunctionKind::AllocationLike:
    return true;
  default:
    return false;
  }
}

} // namespace

bool reachedThroughLink(const Value *Ptr, uint64_t LinkedArgs) {
  if (!Ptr)
    return false;
  SmallVector<const Value *, 8> Work{Ptr};
  SmallPtrSet<const Value *, 16> Seen;
  while (!Work.empty()) {
    const Value *V = getUnderlyingObject(Work.pop_back_val(), 0);
    if (!Seen.insert(V).second)
      continue;
    // (A parameter: the caller's seeds live there, unless the caller
    // passed a link. Local and global variables, constants: nothing the
    // caller linked.)
    if (const auto *A = dyn_cast<Argument>(V)) {
      if (A->getArgNo() < 64 && (LinkedArgs >> A->getArgNo() & 1))
        return true;
      continue;
    }
    if (isa<AllocaInst, Constant>(V))
      continue;
    if (const auto *Phi = dyn_cast<PHINode>(V)) {
      append_range(Work, Phi->incoming_values());
      continue;
    }
    if (const auto *Sel = dyn_cast<SelectInst>(V)) {
      Work.push_back(Sel->getTrueValue());
      Work.push_back(Sel->getFalseValue());
      continue;
    }
    if (const auto *LI = dyn_cast<LoadInst>(V)) {
      // (A pointer variable at -O0: what was stored into it.)
      const auto *Slot =
          dyn_cast<AllocaInst>(LI->getPointerOperand()->stripPointerCasts());
      if (Slot && slotStores(*Slot, Work))
        continue;
      return true;
    }
    if (const auto *Call = dyn_cast<CallBase>(V)) {
      if (allocates(*Call))
        continue;
      if (std::optional<unsigned> Arg = returnedArgument(*Call)) {
        Work.push_back(Call->getArgOperand(*Arg));
        continue;
      }
      return true;
    }
    // (An address made from an integer, a struct's field extracted: of no
    // known origin.)
    return true;
  }
  return false;
}

/// What the declared type of the bytes the store \p SI writes says: they may
/// hold a pointer (true), only numbers (false), or nothing is said.
static std::optional<bool> declaredPointerBytes(const StoreInst &SI) {
  Type *T = SI.getValueOperand()->getType();
  const DataLayout &DL = SI.getModule()->getDataLayout();
  uint64_t Bytes = DL.getTypeStoreSize(T);
  // (A scalar access tag names the number's type; "omnipotent char" is a
  // union member's or bytes'.)
  if (SI.getMetadata(LLVMContext::MD_tbaa)) {
    Kind K = kindOfTBAA(SI);
    return K != Kind::Float && K != Kind::Double;
  }
  // (At -O0: the member a struct's address computation names.)
  if (const auto *GEP = dyn_cast<GEPOperator>(SI.getPointerOperand());
      GEP && GEP->hasAllConstantIndices() && GEP->getNumIndices() > 1 &&
      GEP->getSourceElementType()->isAggregateType()) {
    Type *Member = GEP->getResultElementType();
    if (Member->isAggregateType())
      return pointerWithin(Member, 0, Bytes, DL);
    if (Member->isFPOrFPVectorTy())
      return false;
  }
  return std::nullopt;
}

/// The load that read the pointer \p Ptr is based on from memory (at -O0
/// through a pointer variable's one store), with the constant byte offset
/// of \p Ptr from it in \p Offset; null where there is none such.
static const LoadInst *linkLoad(const Value *Ptr, int64_t &Offset) {
  const DataLayout &DL = cast<Instruction>(Ptr)->getModule()->getDataLayout();
  APInt Total(DL.getIndexTypeSizeInBits(Ptr->getType()), 0);
  for (unsigned Steps = 0; Steps < 8; ++Steps) {
    const auto *LI = dyn_cast<LoadInst>(
        Ptr->stripAndAccumulateConstantOffsets(DL, Total,
                                               /*AllowNonInbounds=*/true));
    if (!LI)
      return nullptr;
    SmallVector<const Value *, 2> Stored;
    const auto *Slot =
        dyn_cast<AllocaInst>(LI->getPointerOperand()->stripPointerCasts());
    if (!Slot) {
      Offset = Total.getSExtValue();
      return LI;
    }
    if (!slotStores(*Slot, Stored) || Stored.size() != 1)
      return nullptr;
    Ptr = Stored.front();
  }
  return nullptr;
}

/// Whether the record that the pointer the store \p SI writes through was
/// read as is declared to hold a pointer at the bytes it writes (a block
/// of a pool, `struct node { union { float v; struct node *next; }; }`,
/// cast to `struct obj { float v; }`): by the pointer's TBAA type, at -O0
/// by the declared type of the field it was read from.
static bool linkedRecordBytes(const StoreInst &SI) {
  if (!isa<Instruction>(SI.getPointerOperand()))
    return false;
  int64_t Offset = 0;
  const LoadInst *LI = linkLoad(SI.getPointerOperand(), Offset);
  if (!LI || Offset < 0)
    return false;
  const Module &M = *SI.getModule();
  uint64_t Lo = uint64_t(Offset),
           Hi = Lo + M.getDataLayout().getTypeStoreSize(
                         SI.getValueOperand()->getType());
  if (StructType *ST = pointeeStructOfTBAA(*LI))
    return recordMayHoldPointer(M, ST, Lo, Hi).value_or(false);
  if (auto Field =
          addressedStructField(LI->getPointerOperand(), M.getDataLayout()))
    return fieldPointeeMayHoldPointer(M, Field->first, Field->second, Lo, Hi)
        .value_or(false);
  return false;
}

bool mayHoldPointerBytes(const StoreInst &SI, const TypeAnalysis &Types) {
  if (linkedRecordBytes(SI))
    return true;
  if (std::optional<bool> Declared = declaredPointerBytes(SI))
    return *Declared;
  Kind K = Types.memoryKind(SI.getPointerOperand());
  return K != Kind::Float && K != Kind::Double;
}

/// storesNumbersOverPointers, \p Depth calls deep.
static bool storesOverPointers(const Function &F, unsigned Depth,
                               SmallPtrSetImpl<const Function *> &Seen) {
  if (F.isDeclaration() || !Seen.insert(&F).second)
    return false;
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB) {
      if (const auto *SI = dyn_cast<StoreInst>(&I)) {
        if (SI->getValueOperand()->getType()->isFPOrFPVectorTy() &&
            declaredPointerBytes(*SI).value_or(false))
          return true;
        continue;
      }
      const auto *Call = dyn_cast<CallBase>(&I);
      const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
      if (Callee && Depth > 0 && storesOverPointers(*Callee, Depth - 1, Seen))
        return true;
    }
  return false;
}

bool storesNumbersOverPointers(const Function &F) {
  SmallPtrSet<const Function *, 8> Seen;
  return storesOverPointers(F, 3, Seen);
}

} // namespace adcore
