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

/// The pointers stored into the elements of the local array \p Array, or
/// false where its address goes elsewhere than to its elements' loads and
/// stores (or more than 32 are stored).
bool arrayStores(const AllocaInst &Array,
                 SmallVectorImpl<const Value *> &Out) {
  SmallVector<const Value *, 8> Addresses{&Array};
  while (!Addresses.empty()) {
    const Value *A = Addresses.pop_back_val();
    for (const User *U : A->users()) {
      if (isa<LoadInst>(U))
        continue;
      if (const auto *GEP = dyn_cast<GetElementPtrInst>(U)) {
        Addresses.push_back(GEP);
        continue;
      }
      const auto *SI = dyn_cast<StoreInst>(U);
      if (!SI || SI->getPointerOperand() != A || Out.size() >= 32)
        return false;
      Out.push_back(SI->getValueOperand());
    }
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

bool linkedArgument(const Argument &A, uint64_t LinkedArgs) {
  return A.getArgNo() < LinkedBytesBit && (LinkedArgs >> A.getArgNo() & 1);
}

bool linkedBytesArgument(const Argument &A, uint64_t LinkedArgs) {
  return A.getArgNo() < LinkedBytesBit &&
         (LinkedArgs >> (LinkedBytesBit + A.getArgNo()) & 1);
}

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
      if (linkedArgument(*A, LinkedArgs) || linkedBytesArgument(*A, LinkedArgs))
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

namespace {

/// A pointer read from memory that a store's address is based on (the
/// load), or the parameter it came by (the caller read it: LinkedArgs),
/// and which bytes the store writes from it. Untyped: a pointer whose type
/// says nothing of what it points to (read from a local variable a call
/// wrote, `get(pl, (void **)&o)`; at -O0 from memory of no declared type,
/// a heap array of `void *`; made from an integer): any byte may hold a
/// link.
struct LinkRead {
  const Value *From;
  RecordBytes At;
  bool Untyped = false;
};

/// Adds to \p Out the loads that read from memory the pointers \p Ptr may
/// be based on, with where \p Ptr addresses from each (\p At: the bytes
/// from \p Ptr): at -O0 through the stores into a pointer variable's
/// slot, through phis (at offsets then not constant) and selects, and into
/// the returns of a function of the module whose result it is, \p Depth
/// calls deep; the parameters it may be. Nothing for other pointers.
void linkReads(const Value *Ptr, RecordBytes At, const DataLayout &DL,
               unsigned Depth, SmallPtrSetImpl<const Value *> &Seen,
               SmallVectorImpl<LinkRead> &Out) {
  for (;;) {
    APInt Total(DL.getIndexTypeSizeInBits(Ptr->getType()), 0);
    Ptr = Ptr->stripAndAccumulateConstantOffsets(DL, Total,
                                                 /*AllowNonInbounds=*/true);
    At.Offset += Total.getSExtValue();
    // (`o[i].v`: an index that is not constant.)
    const auto *GEP = dyn_cast<GEPOperator>(Ptr);
    if (!GEP)
      break;
    At.Variable = true;
    Ptr = GEP->getPointerOperand();
  }
  if (!Seen.insert(Ptr).second || Seen.size() > 32)
    return;
  // (`(struct obj *)pl->addr`, a `uintptr_t` round trip.)
  if (isa<IntToPtrInst>(Ptr) ||
      (isa<ConstantExpr>(Ptr) &&
       cast<ConstantExpr>(Ptr)->getOpcode() == Instruction::IntToPtr)) {
    Out.push_back({Ptr, At, /*Untyped=*/true});
    return;
  }
  if (isa<Argument>(Ptr)) {
    Out.push_back({Ptr, At});
    return;
  }
  if (const auto *LI = dyn_cast<LoadInst>(Ptr)) {
    SmallVector<const Value *, 2> Stored;
    const auto *Slot =
        dyn_cast<AllocaInst>(LI->getPointerOperand()->stripPointerCasts());
    if (Slot && slotStores(*Slot, Stored)) {
      for (const Value *V : Stored)
        linkReads(V, At, DL, Depth, Seen, Out);
      return;
    }
    // (An element of a local array of pointers, or a field of a local
    // struct, at -O0: what was stored into any of them; else the load,
    // by the declared type of what it reads.)
    Stored.clear();
    const auto *Array =
        dyn_cast<AllocaInst>(getUnderlyingObject(LI->getPointerOperand()));
    if (Array && arrayStores(*Array, Stored)) {
      for (const Value *V : Stored)
        linkReads(V, At, DL, Depth, Seen, Out);
      return;
    }
    // (A local variable whose address went elsewhere: a call may have
    // stored any pointer there, `get(pl, (void **)&o)`.)
    Out.push_back({LI, At, /*Untyped=*/Array != nullptr});
    return;
  }
  if (const auto *Phi = dyn_cast<PHINode>(Ptr)) {
    At.Variable = true;
    for (const Value *V : Phi->incoming_values())
      linkReads(V, At, DL, Depth, Seen, Out);
    return;
  }
  if (const auto *Sel = dyn_cast<SelectInst>(Ptr)) {
    linkReads(Sel->getTrueValue(), At, DL, Depth, Seen, Out);
    linkReads(Sel->getFalseValue(), At, DL, Depth, Seen, Out);
    return;
  }
  // (A pool's block that a function hands out: what it returns.)
  const auto *Call = dyn_cast<CallBase>(Ptr);
  const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  if (!Callee || Depth == 0 || allocates(*Call))
    return;
  if (std::optional<unsigned> Arg = returnedArgument(*Call)) {
    linkReads(Call->getArgOperand(*Arg), At, DL, Depth, Seen, Out);
    return;
  }
  for (const BasicBlock &BB : *Callee)
    if (const auto *Ret = dyn_cast_or_null<ReturnInst>(BB.getTerminator());
        Ret && Ret->getReturnValue())
      linkReads(Ret->getReturnValue(), At, DL, Depth - 1, Seen, Out);
}

/// At -O0 (no TBAA): what the declared type of the memory the pointer
/// \p LI read says of the bytes \p At from it, where the frontend recorded
/// it: a struct's pointer field, an element of a struct's array of
/// pointers, a global variable that is a pointer or an array of them
/// (elements alike: the first one's entry); nullopt elsewhere.
std::optional<bool> declaredSlotMayHoldPointer(const LoadInst &LI,
                                               RecordBytes At) {
  const Module &M = *LI.getModule();
  const DataLayout &DL = M.getDataLayout();
  if (auto Field = addressedStructField(LI.getPointerOperand(), DL))
    return fieldPointeeMayHoldPointer(M, Field->first, Field->second, At);
  const Value *P = LI.getPointerOperand();
  // (`pl->slots[i]`, `g_slots[i]`: the array the element is of.)
  while (const auto *GEP = dyn_cast<GEPOperator>(P)) {
    if (!GEP->getSourceElementType()->isArrayTy() &&
        !(GEP->getNumIndices() == 1 &&
          GEP->getSourceElementType()->isPointerTy()))
      break;
    P = GEP->getPointerOperand();
  }
  if (const auto *G = dyn_cast<GlobalVariable>(P->stripPointerCasts()))
    return globalPointeeMayHoldPointer(M, G->getName(), At);
  if (auto Field = addressedArrayField(P, DL))
    return fieldPointeeMayHoldPointer(M, Field->first, Field->second, At);
  return std::nullopt;
}

/// What the type \p LI read its pointer as says of the bytes \p At from it
/// where no entry says anything (declaredSlotMayHoldPointer): at -O0 (no
/// access tag), a field declared a pointer to numbers, integers or
/// pointers holds no link; a pointer read from memory of no declared type
/// that an entry records (a heap array of `void *`) may hold one anywhere.
static bool undeclaredSlotMayHoldPointer(const LoadInst &LI) {
  if (LI.getMetadata(LLVMContext::MD_tbaa))
    return false;
  const DataLayout &DL = LI.getModule()->getDataLayout();
  if (auto Field = addressedStructField(LI.getPointerOperand(), DL))
    return declaredPointee(*LI.getModule(), Field->first, Field->second) ==
           DeclaredPointee::Unknown;
  return true;
}

/// Whether the bytes \p At from the pointer that \p LI read may hold a
/// pointer by the type it was read as: a `void *` or `char *`; a record
/// that may hold one there (a pool's block, `struct node { union { float
/// v; struct node *next; }; }`, whatever it is cast to) by the pointer's
/// TBAA type, at -O0 by the declared type of the field it was read from.
/// A record of which the file records no pointer (a struct of numbers) may
/// be one that another file converts a linked record's pointer to: it may
/// hold one anywhere.
bool readLinkMayHoldPointer(const LoadInst &LI, RecordBytes At) {
  const Module &M = *LI.getModule();
  if (pointsToBytesByTBAA(LI))
    return true;
  if (StructType *ST = pointeeStructOfTBAA(LI))
    return recordMayHoldPointer(M, ST, At).value_or(true);
  if (std::optional<bool> Declared = declaredSlotMayHoldPointer(LI, At))
    return *Declared;
  return undeclaredSlotMayHoldPointer(LI);
}

/// Whether \p LI read a pointer to bytes (a `void *` or `char *`), any of
/// which may hold a pointer: by its pointer TBAA type, at -O0 by the
/// declared type of the field it was read from.
bool readAsBytes(const LoadInst &LI) {
  if (pointsToBytesByTBAA(LI))
    return true;
  // (What the entries say of no bytes at all, they say of every byte.)
  if (std::optional<bool> Declared =
          declaredSlotMayHoldPointer(LI, RecordBytes{}))
    return *Declared;
  return undeclaredSlotMayHoldPointer(LI);
}

/// Whether the link \p R, which a store of the function \p F reads, may
/// hold a pointer at its bytes: a parameter of \p F whose caller read it
/// as a pointer to bytes (\p LinkedArgs), or a load (readLinkMayHoldPointer).
bool linkMayHoldPointer(const LinkRead &R, const Function &F,
                        uint64_t LinkedArgs) {
  if (R.Untyped)
    return true;
  if (const auto *A = dyn_cast<Argument>(R.From))
    return A->getParent() == &F && linkedBytesArgument(*A, LinkedArgs);
  return readLinkMayHoldPointer(*cast<LoadInst>(R.From), R.At);
}

} // namespace

bool readAsLinkedBytes(const Value *Ptr, uint64_t LinkedArgs) {
  const auto *I = dyn_cast_or_null<Instruction>(Ptr);
  const auto *A = dyn_cast_or_null<Argument>(Ptr);
  const Function *F = I ? I->getFunction() : A ? A->getParent() : nullptr;
  if (!F)
    return false;
  SmallPtrSet<const Value *, 16> Seen;
  SmallVector<LinkRead, 4> Reads;
  linkReads(Ptr, RecordBytes{}, F->getDataLayout(), 3, Seen, Reads);
  return any_of(Reads, [&](const LinkRead &R) {
    if (R.Untyped)
      return true;
    if (const auto *Arg = dyn_cast<Argument>(R.From))
      return Arg->getParent() == F && linkedBytesArgument(*Arg, LinkedArgs);
    return readAsBytes(*cast<LoadInst>(R.From));
  });
}

/// Whether the pointer that the store \p SI writes through was read as a
/// pointer to bytes that may hold a pointer where it writes: a `void *` or
/// `char *`; a record that may hold a pointer at those bytes (or, at an
/// offset that is not constant, anywhere; beyond the record, in the next
/// ones of an array of them).
static bool linkedRecordBytes(const StoreInst &SI, uint64_t LinkedArgs) {
  const DataLayout &DL = SI.getModule()->getDataLayout();
  RecordBytes At;
  At.Bytes = DL.getTypeStoreSize(SI.getValueOperand()->getType());
  SmallPtrSet<const Value *, 16> Seen;
  SmallVector<LinkRead, 4> Reads;
  linkReads(SI.getPointerOperand(), At, DL, 3, Seen, Reads);
  return any_of(Reads, [&](const LinkRead &R) {
    return linkMayHoldPointer(R, *SI.getFunction(), LinkedArgs);
  });
}

bool mayHoldPointerBytes(const StoreInst &SI, const TypeAnalysis &Types,
                         uint64_t LinkedArgs) {
  if (linkedRecordBytes(SI, LinkedArgs))
    return true;
  if (std::optional<bool> Declared = declaredPointerBytes(SI))
    return *Declared;
  Kind K = Types.memoryKind(SI.getPointerOperand());
  return K != Kind::Float && K != Kind::Double;
}

/// storesNumbersOverPointers (\p AnyBytes: storesNumbers), \p Depth calls
/// deep.
static bool storesOverPointers(const Function &F, bool AnyBytes, unsigned Depth,
                               SmallPtrSetImpl<const Function *> &Seen) {
  if (F.isDeclaration() || !Seen.insert(&F).second)
    return false;
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB) {
      if (const auto *SI = dyn_cast<StoreInst>(&I)) {
        if (SI->getValueOperand()->getType()->isFPOrFPVectorTy() &&
            (AnyBytes || declaredPointerBytes(*SI).value_or(false)))
          return true;
        continue;
      }
      const auto *Call = dyn_cast<CallBase>(&I);
      const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
      if (Callee && Depth > 0 &&
          storesOverPointers(*Callee, AnyBytes, Depth - 1, Seen))
        return true;
    }
  return false;
}

bool storesNumbersOverPointers(const Function &F) {
  SmallPtrSet<const Function *, 8> Seen;
  return storesOverPointers(F, /*AnyBytes=*/false, 3, Seen);
}

bool storesNumbers(const Function &F) {
  SmallPtrSet<const Function *, 8> Seen;
  return storesOverPointers(F, /*AnyBytes=*/true, 3, Seen);
}

/// The most byte ranges parameterNumberStores lists (more: any byte).
static constexpr unsigned MaxParameterStores = 32;

/// Adds to \p Out the bytes, from the parameter \p A, at which its
/// function stores numbers (of a floating-point type), or a function of
/// the module it passes them to does, \p Depth calls deep.
static void parameterNumberStores(const Argument &A, unsigned Depth,
                                  SmallVectorImpl<RecordBytes> &Out) {
  const Function &F = *A.getParent();
  const DataLayout &DL = F.getDataLayout();
  auto Add = [&](RecordBytes At) {
    if (Out.size() < MaxParameterStores)
      Out.push_back(At);
    else
      Out.back().Variable = true;
  };
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB) {
      if (const auto *SI = dyn_cast<StoreInst>(&I)) {
        Type *T = SI->getValueOperand()->getType();
        if (!T->isFPOrFPVectorTy())
          continue;
        RecordBytes At;
        At.Bytes = DL.getTypeStoreSize(T);
        SmallPtrSet<const Value *, 16> Seen;
        SmallVector<LinkRead, 4> Reads;
        linkReads(SI->getPointerOperand(), At, DL, 0, Seen, Reads);
        for (const LinkRead &R : Reads)
          if (R.From == &A)
            Add(R.At);
        continue;
      }
      const auto *Call = dyn_cast<CallBase>(&I);
      const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
      if (!Callee || Callee->isDeclaration() || Depth == 0)
        continue;
      for (unsigned No = 0; No < Call->arg_size() && No < Callee->arg_size();
           ++No) {
        if (!Call->getArgOperand(No)->getType()->isPointerTy())
          continue;
        SmallPtrSet<const Value *, 16> Seen;
        SmallVector<LinkRead, 4> Reads;
        linkReads(Call->getArgOperand(No), RecordBytes{}, DL, 0, Seen, Reads);
        if (none_of(Reads, [&](const LinkRead &R) { return R.From == &A; }))
          continue;
        SmallVector<RecordBytes, 4> Inner;
        parameterNumberStores(*Callee->getArg(No), Depth - 1, Inner);
        for (const LinkRead &R : Reads)
          if (R.From == &A)
            for (RecordBytes In : Inner)
              Add({R.At.Offset + In.Offset, In.Bytes,
                   R.At.Variable || In.Variable});
      }
    }
}

/// Whether the caller, whose own key has \p CallerLinked, read the
/// pointer \p Primal it passes to the parameter \p A as a pointer to a
/// record that may hold a pointer at bytes where the callee stores
/// numbers through it (`init_obj((struct obj *)pl->head, x)`).
static bool passedOverRecordLinks(const Value *Primal, const Argument &A,
                                  uint64_t CallerLinked) {
  const auto *I = dyn_cast<Instruction>(Primal);
  if (!I)
    return false;
  const Function &Caller = *I->getFunction();
  SmallPtrSet<const Value *, 16> Seen;
  SmallVector<LinkRead, 4> Reads;
  linkReads(Primal, RecordBytes{}, Caller.getDataLayout(), 3, Seen, Reads);
  if (none_of(Reads, [](const LinkRead &R) {
        return R.Untyped || isa<LoadInst>(R.From);
      }))
    return false;
  SmallVector<RecordBytes, 4> Stores;
  parameterNumberStores(A, 3, Stores);
  return any_of(Reads, [&](const LinkRead &R) {
    return any_of(Stores, [&](RecordBytes S) {
      LinkRead At{R.From, {R.At.Offset + S.Offset, S.Bytes,
                           R.At.Variable || S.Variable},
                  R.Untyped};
      return linkMayHoldPointer(At, Caller, CallerLinked);
    });
  });
}

std::optional<uint64_t> calleeLinkedArgs(const Function &Callee,
                                         ArrayRef<const Value *> Primals,
                                         uint64_t CallerLinked) {
  uint64_t Linked = 0;
  std::optional<bool> OverPointers, Numbers;
  for (unsigned No = 0; No < Primals.size(); ++No) {
    const Value *Primal = Primals[No];
    if (!Primal)
      continue;
    if (!OverPointers)
      OverPointers = storesNumbersOverPointers(Callee);
    // (Bit 0: the link bit; bit 1: the bytes bit.)
    unsigned Bits = 0;
    if (*OverPointers && reachedThroughLink(Primal, CallerLinked))
      Bits |= 1;
    if (readAsLinkedBytes(Primal, CallerLinked)) {
      if (!Numbers)
        Numbers = storesNumbers(Callee);
      if (*Numbers)
        Bits |= 3;
    } else if (No < Callee.arg_size() &&
               passedOverRecordLinks(Primal, *Callee.getArg(No),
                                     CallerLinked)) {
      // (A record's link where the callee stores a number: every number
      // it stores through the argument starts from zero.)
      Bits |= 3;
    }
    if (!Bits)
      continue;
    // (No bit to say it by.)
    if (No >= LinkedBytesBit)
      return std::nullopt;
    Linked |= uint64_t(Bits & 1) << No;
    Linked |= uint64_t(Bits >> 1) << (LinkedBytesBit + No);
  }
  return Linked;
}

} // namespace adcore
