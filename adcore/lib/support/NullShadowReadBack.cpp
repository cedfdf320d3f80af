//===- NullShadowReadBack.cpp - Writes through null shadows read back -----===//
//
// Device code has no scratch shadow behind a null shadow pointer
// (NullShadowGuards.h): a value with a derivative written through one goes
// to a sink, and read back gives zero. These checks find where that may
// happen, conservatively: pointers are named by the held slot they were
// read from (`s->p`: s and p's offset; at -O0, s's stack slot), slots a
// pointer is copied between are one, and what the check cannot follow
// counts as a read back: a pointer copied through more local variables
// than it follows, a pointer handed to a function that may store pointers,
// the struct holding it handed to a function that may read numbers, and
// (at the caller) a function that may write numbers through what it is
// given, read back after the call.
//
//===----------------------------------------------------------------------===//

#include "NullShadowGuards.h"
#include "support/IRMarks.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

#include <limits>

using namespace llvm;

namespace adcore {
namespace {

/// A held slot: the base and the byte offset of the memory a pointer was
/// read from. An offset of AnyOffset stands for every slot of the base.
using Slot = std::pair<const Value *, int64_t>;
constexpr int64_t AnyOffset = std::numeric_limits<int64_t>::min();

/// How far the check follows copies through local pointer variables, and
/// calls into the functions called.
constexpr unsigned LocalCopyDepth = 8, CallDepth = 12;

/// Where a pointer was read from: a held slot (Known), no held slot (an
/// argument, a call's result: None), or a chain of local pointer
/// variables longer than the check follows (Unknown).
struct Held {
  enum Kind { None, Known, Unknown } State = None;
  Slot At{nullptr, 0};
};

Held heldSlot(const Value *Addr, unsigned Depth = LocalCopyDepth);

/// Whether the stack slot \p AI is a local pointer variable that only ever
/// holds pointers read from held slots (`double *q = s->p;` at -O0): a
/// slot of its own, which a copy links to the field it was read from.
Held::Kind holdsHeldPointers(const AllocaInst &AI, unsigned Depth) {
  // (The slot, and its casts: AMDGPU's allocas are in their own address
  // space.)
  SmallVector<const Value *, 2> Slots{&AI};
  for (const User *U : AI.users())
    if (isa<AddrSpaceCastInst, BitCastInst>(U))
      Slots.push_back(U);
  bool Any = false;
  for (const Value *Slot : Slots) {
    for (const User *U : Slot->users()) {
      const auto *St = dyn_cast<StoreInst>(U);
      if (!St || St->getPointerOperand() != Slot)
        continue;
      if (Depth == 0)
        return Held::Unknown;
      Held From = heldSlot(St->getValueOperand(), Depth - 1);
      if (From.State != Held::Known)
        return From.State;
      Any = true;
    }
  }
  return Any ? Held::Known : Held::None;
}

/// The base of held slots that \p Ptr, a pointer into a struct, names
/// (with \p Off, its offset there): the local slot an argument at -O0 is
/// read back from (each access reads it again), else the pointer without
/// constant offsets. \p Local: a local variable's own slot, when Ptr
/// points into one.
const Value *slotBase(const Value *Ptr, const DataLayout &DL, int64_t &Off,
                      const AllocaInst **Local = nullptr) {
  APInt Offset(DL.getIndexTypeSizeInBits(Ptr->getType()), 0);
  const Value *Base = Ptr->stripAndAccumulateConstantOffsets(DL, Offset, true);
  Off = Offset.getSExtValue();
  // (Allocas through their casts: AMDGPU's are in their own address
  // space.)
  if (Local)
    *Local = dyn_cast<AllocaInst>(getUnderlyingObject(Base));
  if (const auto *Slot = dyn_cast<LoadInst>(Base);
      Slot && isa<AllocaInst>(getUnderlyingObject(Slot->getPointerOperand())))
    return getUnderlyingObject(Slot->getPointerOperand());
  return Base;
}

Held heldSlot(const Value *Addr, unsigned Depth) {
  const auto *L = dyn_cast<LoadInst>(getUnderlyingObject(Addr));
  // (Not a load the emitter has not placed yet.)
  if (!L || !L->getParent())
    return {};
  const DataLayout &DL = L->getModule()->getDataLayout();
  int64_t Off;
  const AllocaInst *AI;
  const Value *Base = slotBase(L->getPointerOperand(), DL, Off, &AI);
  if (AI) {
    // (Else a local slot's own pointer: an argument.)
    Held::Kind K = holdsHeldPointers(*AI, Depth);
    return {K, {AI, K == Held::Known ? Off : 0}};
  }
  return {Held::Known, {Base, Off}};
}

/// The slot (as heldSlot names it) that the store address \p Dest writes
/// a pointer into: `t->p` of `t->p = s->p`.
std::optional<Slot> storedSlot(const Value *Dest, const DataLayout &DL) {
  int64_t Off;
  const AllocaInst *AI;
  const Value *Base = slotBase(Dest, DL, Off, &AI);
  if (AI) {
    // (A local pointer variable at -O0 that holds other pointers: no held
    // slot.)
    if (holdsHeldPointers(*AI, LocalCopyDepth) == Held::None)
      return std::nullopt;
    return Slot{AI, Off};
  }
  return Slot{Base, Off};
}

bool matches(ArrayRef<Slot> Same, Slot S) {
  return any_of(Same, [&](const Slot &T) {
    return T.first == S.first &&
           (T.second == S.second || T.second == AnyOffset ||
            S.second == AnyOffset);
  });
}

/// What a function may do to memory other than its own stack.
enum class Effect { StoresPointers, WritesNumbers, ReadsNumbers };

bool outsideFrame(const Value *Ptr) {
  return !isa<AllocaInst>(getUnderlyingObject(Ptr));
}

bool hasPointerArgument(const CallBase &Call) {
  return any_of(Call.args(),
                [](const Use &U) { return U->getType()->isPointerTy(); });
}

bool mayHave(const Function &F, Effect E, unsigned Depth,
             SmallPtrSetImpl<const Function *> &Seen);

/// Whether the call \p Call may have \p E (through the memory its pointer
/// arguments reach; calls without them are not followed).
bool callMayHave(const CallBase &Call, Effect E, unsigned Depth,
                 SmallPtrSetImpl<const Function *> &Seen) {
  if (isa<DbgInfoIntrinsic>(Call) || !hasPointerArgument(Call))
    return false;
  if (const auto *MT = dyn_cast<MemTransferInst>(&Call))
    return E == Effect::ReadsNumbers ? outsideFrame(MT->getSource())
                                     : outsideFrame(MT->getDest());
  // (Other intrinsics: by what they may do to memory; a memset writes
  // constants.)
  if (const auto *II = dyn_cast<IntrinsicInst>(&Call))
    return !II->isLifetimeStartOrEnd() && !isa<MemSetInst>(II) &&
           !II->doesNotAccessMemory() &&
           (E == Effect::ReadsNumbers || !II->onlyReadsMemory());
  const Function *Callee = Call.getCalledFunction();
  if (Callee && !Callee->isDeclaration())
    return Depth == 0 || mayHave(*Callee, E, Depth - 1, Seen);
  if (Call.doesNotAccessMemory())
    return false;
  return E == Effect::ReadsNumbers || !Call.onlyReadsMemory();
}

bool mayHave(const Function &F, Effect E, unsigned Depth,
             SmallPtrSetImpl<const Function *> &Seen) {
  if (!Seen.insert(&F).second)
    return false;
  for (const Instruction &I : instructions(F)) {
    if (const auto *St = dyn_cast<StoreInst>(&I)) {
      Type *Ty = St->getValueOperand()->getType()->getScalarType();
      bool Wanted = E == Effect::StoresPointers  ? Ty->isPointerTy()
                    : E == Effect::WritesNumbers ? Ty->isFloatingPointTy()
                                                 : false;
      if (Wanted && outsideFrame(St->getPointerOperand()))
        return true;
    } else if (const auto *L = dyn_cast<LoadInst>(&I)) {
      if (E == Effect::ReadsNumbers &&
          L->getType()->getScalarType()->isFloatingPointTy() &&
          outsideFrame(L->getPointerOperand()))
        return true;
    } else if (const auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
      if (E != Effect::StoresPointers && RMW->getType()->isFloatingPointTy() &&
          outsideFrame(RMW->getPointerOperand()))
        return true;
    } else if (const auto *Call = dyn_cast<CallBase>(&I)) {
      if (callMayHave(*Call, E, Depth, Seen))
        return true;
    }
  }
  return false;
}

bool callMayHave(const CallBase &Call, Effect E) {
  SmallPtrSet<const Function *, 8> Seen;
  return callMayHave(Call, E, CallDepth, Seen);
}

/// The object \p V points into: its underlying object, or where that is
/// read from a local variable that only ever holds one pointer (at -O0),
/// that pointer's.
const Value *rootObject(const Value *V, unsigned Depth = LocalCopyDepth) {
  const Value *U = getUnderlyingObject(V);
  const auto *L = dyn_cast<LoadInst>(U);
  const auto *AI =
      L ? dyn_cast<AllocaInst>(getUnderlyingObject(L->getPointerOperand()))
        : nullptr;
  if (!AI)
    return U;
  SmallVector<const Value *, 2> Slots{AI};
  for (const User *W : AI->users())
    if (isa<AddrSpaceCastInst, BitCastInst>(W))
      Slots.push_back(W);
  const Value *Only = nullptr;
  for (const Value *Slot : Slots)
    for (const User *W : Slot->users())
      if (const auto *St = dyn_cast<StoreInst>(W);
          St && St->getPointerOperand() == Slot) {
        if (Only && Only != St->getValueOperand())
          return U;
        Only = St->getValueOperand();
      }
  if (!Only || !Only->getType()->isPointerTy() || Depth == 0)
    return U;
  return rootObject(Only, Depth - 1);
}

/// Whether the pointers \p A and \p B may point into the same data: unless
/// both are based on identified objects that differ (allocas, globals,
/// `__restrict__` arguments, which C's rules keep apart from every other
/// pointer where memory is modified through them).
bool mayShareData(const Value *A, const Value *B) {
  const Value *UA = rootObject(A), *UB = rootObject(B);
  return UA == UB || !isIdentifiedObject(UA) || !isIdentifiedObject(UB);
}

/// Whether \p V is a launched kernel's parameter (KernelBodyAttr; of
/// <adcc/kernels.hpp>, the work-item's arguments with shadows, and its
/// group-local memory): the parameter, a member of a struct parameter by
/// value, or the stack copy of such a struct (-O0). \p Launched: only a
/// <<<...>>> launched kernel's (KernelBodyAttr), or the copy of one.
bool isKernelParameter(const Value *V, unsigned Depth = 4,
                       bool Launched = false) {
  if (const auto *A = dyn_cast<Argument>(V)) {
    const Function &F = *A->getParent();
    if (F.hasFnAttribute(KernelBodyAttr) ||
        (!Launched && F.getName().starts_with(KernelsHeaderPrefix) &&
         A->getArgNo() == 1))
      return true;
    return false;
  }
  if (const auto *EV = dyn_cast<ExtractValueInst>(V))
    return !Launched && Depth &&
           isKernelParameter(EV->getAggregateOperand(), Depth - 1);
  // (The header's group-local memory, whose shadow its launch places.)
  if (const auto *Call = dyn_cast<CallBase>(V))
    if (const Function *Callee = Call->getCalledFunction())
      return !Launched && Callee->getName().contains("adcc_kernel_local");
  const auto *AI = dyn_cast<AllocaInst>(V);
  if (!AI || !Depth)
    return false;
  // (Every store into the copy is of the parameter, or a copy of its
  // bytes.)
  bool Any = false;
  SmallVector<const Value *, 2> Slots{AI};
  for (const User *U : AI->users())
    if (isa<AddrSpaceCastInst, BitCastInst>(U))
      Slots.push_back(U);
  for (const Value *Slot : Slots)
    for (const User *U : Slot->users()) {
      const Value *From = nullptr;
      if (const auto *St = dyn_cast<StoreInst>(U);
          St && St->getPointerOperand() == Slot)
        From = St->getValueOperand();
      else if (const auto *MT = dyn_cast<MemTransferInst>(U);
               MT && MT->getRawDest() == Slot && !Launched)
        From = getUnderlyingObject(MT->getRawSource());
      else if (isa<StoreInst, MemIntrinsic>(U))
        return false;
      if (!From)
        continue;
      if (!isKernelParameter(From, Depth - 1, Launched))
        return false;
      Any = true;
    }
  return Any;
}

bool isHeaderFunction(const Function &F) {
  return F.getName().contains(KernelsHeaderPrefix);
}

/// Whether only <adcc/kernels.hpp>'s functions call \p F (a kernel
/// object's call operator that its work-items call).
bool calledByHeaderOnly(const Function &F) {
  return !F.users().empty() && all_of(F.users(), [&](const User *U) {
    const auto *Call = dyn_cast<CallBase>(U);
    return Call && Call->getCalledFunction() == &F &&
           isHeaderFunction(*Call->getFunction());
  });
}

/// Whether \p V (an underlying object) is a pointer argument of a launch
/// whose derivative checks the fields at run time: a parameter of a kernel
/// launched with <<<...>>> (or -O0's copy of one); a parameter of a kernel
/// object's call operator that only <adcc/kernels.hpp>'s work-items call;
/// where that is inlined, a pointer the work-item reads from its argument
/// tuple (its second parameter) at a constant offset.
bool checkedArgument(const Value *V) {
  if (isKernelParameter(V, 4, /*Launched=*/true))
    return true;
  if (const auto *A = dyn_cast<Argument>(V))
    return A->getType()->isPointerTy() &&
           !isHeaderFunction(*A->getParent()) &&
           calledByHeaderOnly(*A->getParent());
  const auto *L = dyn_cast<LoadInst>(V);
  if (!L || !L->getType()->isPointerTy())
    return false;
  const DataLayout &DL = L->getDataLayout();
  APInt Offset(DL.getIndexTypeSizeInBits(L->getPointerOperandType()), 0);
  const auto *Tuple = dyn_cast<Argument>(rootObject(
      L->getPointerOperand()->stripAndAccumulateConstantOffsets(
          DL, Offset, /*AllowNonInbounds=*/true)));
  return Tuple && Tuple->getArgNo() == 1 &&
         isHeaderFunction(*Tuple->getParent());
}

/// Whether the launch's derivative checks the shadow of the pointer \p V
/// at run time (device/LaunchPointers.h): a launched kernel's pointer
/// argument (checkedArgument), or a field, a pointer read from the data
/// of one at a constant offset (`c->a` of `const Ctx *c`, and addresses in
/// what it points to). It stops the program where a field whose shadow is
/// null is written through and read back, or written through and another
/// pointer into the same data read (or the other way round).
bool launchChecked(const Value *V) {
  const Value *Root = rootObject(V);
  if (checkedArgument(Root))
    return true;
  const auto *L = dyn_cast<LoadInst>(Root);
  if (!L || !L->getType()->isPointerTy())
    return false;
  const DataLayout &DL = L->getDataLayout();
  APInt Offset(DL.getIndexTypeSizeInBits(L->getPointerOperandType()), 0);
  const Value *Base = L->getPointerOperand()->stripAndAccumulateConstantOffsets(
      DL, Offset, /*AllowNonInbounds=*/true);
  return isa<Argument, LoadInst>(Base) && checkedArgument(rootObject(Base));
}

/// Whether \p F reads a number through a pointer whose own shadow may be
/// null (one of \p Nullable's, or an address computed from one) and that
/// may point into the data of one of \p Written: a pointer to the same
/// data held in another place (two fields the caller gave the same
/// pointer, `s->p[0] = ...; ... = s->q[0]`; a pointer a call returned; two
/// arguments). A load of a number, or a call given it that may read
/// numbers; \p Skip, a call, does not count.
bool readsThroughOtherPointer(ArrayRef<const Value *> Written,
                              const Function &F,
                              const DenseSet<const Value *> &Nullable,
                              const CallBase *Skip) {
  // (Not in <adcc/kernels.hpp>'s work-items, nor in a kernel object's call
  // operator that only they (or derivatives made of them) call: what their
  // launch gives them has shadows, or the launch stops.)
  if (isHeaderFunction(F) || calledByHeaderOnly(F))
    return false;
  auto InF = [&](const Value *V) {
    if (const auto *I = dyn_cast<Instruction>(V))
      return I->getFunction() == &F;
    const auto *A = dyn_cast<Argument>(V);
    return A && A->getParent() == &F;
  };
  // (Not a launched kernel's pointer parameter, nor a pointer read from
  // its data (a `double **` parameter's, or the argument block a kernel's
  // item reads its parameters from): its launch has a shadow for it, or
  // stops, and the user's shadow data holds shadows.)
  // (A <<<...>>> launch checks its parameters and their fields at run
  // time: launchChecked; and what lies further, pointers read at offsets
  // known only at run time and up to MaxLaunchDepth levels down, walking
  // the kernel's pointer graph: device/LaunchPointers.h.)
  auto OfKernelParameter = [](const Value *W) {
    const Value *Root = rootObject(W);
    for (unsigned Depth = 0; Depth < 4; ++Depth) {
      const auto *L = dyn_cast<LoadInst>(Root);
      if (!L)
        break;
      Root = rootObject(L->getPointerOperand());
    }
    return isKernelParameter(Root);
  };
  SmallVector<const Value *, 4> Through;
  for (const Value *W : Written)
    if (!OfKernelParameter(W))
      Through.push_back(W);
  if (Through.empty())
    return false;
  for (const Value *V : Nullable) {
    // (Not an address in a struct whose pointer's own shadow is there:
    // `&s->k` where s's memory may hold null shadows.)
    if (!V->getType()->isPointerTy() || !InF(V) ||
        !Nullable.contains(rootObject(V)) ||
        none_of(Through, [&](const Value *W) { return mayShareData(V, W); }))
      continue;
    for (const User *U : V->users()) {
      if (const auto *L = dyn_cast<LoadInst>(U);
          L && L->getPointerOperand() == V && L->getType()->isFPOrFPVectorTy())
        return true;
      if (const auto *Call = dyn_cast<CallBase>(U);
          Call && Call != Skip && Call->hasArgument(V) &&
          callMayHave(*Call, Effect::ReadsNumbers))
        return true;
    }
  }
  return false;
}

/// Whether a value written through a pointer held in one of the slots
/// \p Same in \p F may be read back there: through a pointer read from
/// one of them or from a slot a pointer is copied into from one of them
/// (both ways); \p Skip, a call, does not count.
bool readBack(SmallVectorImpl<Slot> &Same, const Function &F,
              const DenseSet<const Value *> &Nullable,
              const CallBase *Skip = nullptr) {
  const DataLayout &DL = F.getDataLayout();
  // Copies between slots: a pointer read from one slot and stored into
  // another (`t->p = s->p`). A pointer handed to a function that may store
  // pointers may end up anywhere: its slot is one with all.
  SmallVector<std::pair<Slot, Slot>, 8> Copies;
  for (const Instruction &J : instructions(F)) {
    if (const auto *St = dyn_cast<StoreInst>(&J);
        St && St->getValueOperand()->getType()->isPointerTy()) {
      Held From = heldSlot(St->getValueOperand());
      if (From.State == Held::Unknown &&
          Nullable.contains(St->getValueOperand()))
        return true;
      if (From.State == Held::Known)
        if (auto To = storedSlot(St->getPointerOperand(), DL))
          Copies.push_back({From.At, *To});
      continue;
    }
    const auto *Call = dyn_cast<CallBase>(&J);
    if (!Call || Call == Skip)
      continue;
    for (const Use &A : Call->args()) {
      if (!Nullable.contains(A.get()))
        continue;
      Held From = heldSlot(A.get());
      if (From.State == Held::None ||
          !callMayHave(*Call, Effect::StoresPointers))
        continue;
      if (From.State == Held::Unknown)
        return true;
      if (!matches(Same, From.At))
        Same.push_back(From.At);
    }
  }
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (auto [From, To] : Copies) {
      bool HasFrom = matches(Same, From), HasTo = matches(Same, To);
      if (HasFrom != HasTo) {
        Same.push_back(HasFrom ? To : From);
        Changed = true;
      }
    }
  }
  for (const Value *V : Nullable) {
    Held H = heldSlot(V);
    if (H.State == Held::None ||
        (H.State == Held::Known && !matches(Same, H.At)))
      continue;
    for (const User *U : V->users()) {
      if (const auto *L = dyn_cast<LoadInst>(U);
          L && L->getPointerOperand() == V && L->getType()->isFPOrFPVectorTy())
        return true;
      // (A callee may read it; a memory copy from it reads it.)
      if (const auto *Call = dyn_cast<CallBase>(U);
          Call && Call != Skip && Call->hasArgument(V) &&
          !isa<DbgInfoIntrinsic>(Call) &&
          !(isa<IntrinsicInst>(Call) &&
            cast<IntrinsicInst>(Call)->isLifetimeStartOrEnd()))
        return true;
    }
  }
  // The struct holding such a pointer handed to a function that may read
  // numbers (`get(s)`, which reads s->p[0]).
  for (const Instruction &J : instructions(F)) {
    const auto *Call = dyn_cast<CallBase>(&J);
    if (!Call || Call == Skip)
      continue;
    for (const Use &A : Call->args()) {
      if (!A->getType()->isPointerTy())
        continue;
      int64_t Off;
      if (matches(Same, {slotBase(A.get(), DL, Off), AnyOffset}) &&
          callMayHave(*Call, Effect::ReadsNumbers))
        return true;
    }
  }
  return false;
}

} // namespace

bool readsBackThroughNullShadow(const Value *Addr,
                                const DenseSet<const Value *> &Nullable) {
  if (!Addr)
    return true;
  // (Checked by the launch at run time.)
  if (launchChecked(Addr))
    return false;
  Held Written = heldSlot(Addr);
  if (Written.State == Held::Unknown)
    return true;
  // (The write's function; an argument written through at offset 0 is
  // the address itself.)
  const Function *F = nullptr;
  if (const auto *I = dyn_cast<Instruction>(Addr))
    F = I->getFunction();
  else if (const auto *A = dyn_cast<Argument>(Addr))
    F = A->getParent();
  if (!F)
    return Written.State == Held::Known;
  // (Read back through another pointer to the same data, here. What a
  // pointer that is no held slot's, an argument, reaches after this
  // function returns: its callers check the call,
  // callWritesBackThroughNullShadow.)
  if (readsThroughOtherPointer(Addr, *F, Nullable, nullptr))
    return true;
  if (Written.State != Held::Known)
    return false;
  SmallVector<Slot, 4> Same{Written.At};
  return readBack(Same, *F, Nullable);
}

bool callWritesBackThroughNullShadow(const CallBase *CallPtr,
                                     uint64_t NullableArgs,
                                     uint64_t ReachingArgs,
                                     const DenseSet<const Value *> &Nullable) {
  if (!(NullableArgs | ReachingArgs))
    return false;
  if (!CallPtr || !CallPtr->getFunction())
    return true;
  const CallBase &Call = *CallPtr;
  if (!callMayHave(Call, Effect::WritesNumbers))
    return false;
  const DataLayout &DL = Call.getFunction()->getDataLayout();
  SmallVector<Slot, 4> Same;
  SmallVector<const Value *, 4> Written;
  for (unsigned No = 0; No < Call.arg_size() && No < 64; ++No) {
    const Value *A = Call.getArgOperand(No);
    // (Checked by the launch at run time.)
    if (launchChecked(A))
      continue;
    if (NullableArgs >> No & 1) {
      Written.push_back(A);
      Held H = heldSlot(A);
      if (H.State == Held::Unknown)
        return true;
      if (H.State == Held::Known)
        Same.push_back(H.At);
    }
    if (ReachingArgs >> No & 1) {
      int64_t Off;
      Same.push_back({slotBase(A, DL, Off), AnyOffset});
    }
  }
  if (readsThroughOtherPointer(Written, *Call.getFunction(), Nullable, &Call))
    return true;
  return !Same.empty() && readBack(Same, *Call.getFunction(), Nullable, &Call);
}

} // namespace adcore
