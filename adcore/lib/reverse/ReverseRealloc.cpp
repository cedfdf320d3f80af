//===- ReverseRealloc.cpp - realloc in reverse mode -----------------------===//
//
// q = realloc(p, n) moves the first min(old size, n) bytes of p's block into
// a block of n bytes and frees p's block. Its derivative:
//
//  augmented sweep  q gets a shadow block of n bytes. The bytes realloc
//                   moves number min(old size, n); the old size is not
//                   known statically: it is the smaller of
//                   malloc_usable_size of the old primal block (read before
//                   realloc frees it) and of the old shadow block. Pointers
//                   in the moved bytes bring their shadows along (a copy
//                   of the old shadow's bytes); floating-point data has no
//                   adjoint yet in this sweep, so its shadow starts at zero.
//                   p's shadow block stays alive: it is freed at the
//                   reverse of its own allocation (a free of a primal block
//                   never frees a shadow). realloc(NULL, n) behaves like
//                   malloc.
//  reverse sweep    the adjoints of the moved bytes, still in q's shadow
//                   block, are added back into p's (element-wise, as
//                   doubles or floats by the type analysis), and q's shadow
//                   block is freed.
//
// A push_back that doubles its buffer keeps every shadow block until the
// reverse sweep: twice the final size at most.
//
//===----------------------------------------------------------------------===//

#include "analysis/SourceTypes.h"
#include "support/CallSites.h"
#include "ReverseEmitter.h"
#include "support/NullShadowGuards.h"
#include "support/PointerShadowMarks.h"

#include "llvm/IR/DataLayout.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {
namespace {

bool isFloatKind(Kind K) { return K == Kind::Double || K == Kind::Float; }

FunctionCallee libcFunction(Module &M, StringRef Name, Type *Ret,
                            ArrayRef<Type *> Params) {
  return M.getOrInsertFunction(Name, FunctionType::get(Ret, Params, false));
}

/// A pointer-sized slot of memory named without runtime values: a base, a
/// constant byte offset, and whether the base is the pointer held in a
/// stack slot (an argument spilled at -O0) rather than the slot itself.
struct Slot {
  const Value *Base = nullptr;
  bool Held = false;
  int64_t Offset = 0;
  bool operator==(const Slot &O) const {
    return Base == O.Base && Held == O.Held && Offset == O.Offset;
  }
};

/// Whether the stack slot \p AI is only loaded from and stored into once.
bool storedOnce(const AllocaInst &AI) {
  unsigned Stores = 0;
  for (const User *U : AI.users()) {
    if (auto *SI = dyn_cast<StoreInst>(U)) {
      if (SI->getValueOperand() == &AI)
        return false;
      ++Stores;
    } else if (!isa<LoadInst>(U)) {
      return false;
    }
  }
  return Stores == 1;
}

std::optional<Slot> slotOf(const Value *Addr, const DataLayout &DL) {
  APInt Offset(DL.getIndexTypeSizeInBits(Addr->getType()), 0);
  const Value *Base = Addr->stripAndAccumulateConstantOffsets(
      DL, Offset, /*AllowNonInbounds=*/true);
  Slot S;
  S.Offset = Offset.getSExtValue();
  if (auto *LI = dyn_cast<LoadInst>(Base)) {
    auto *AI = dyn_cast<AllocaInst>(LI->getPointerOperand());
    if (!AI || !storedOnce(*AI))
      return std::nullopt;
    S.Base = AI;
    S.Held = true;
    return S;
  }
  if (!isa<AllocaInst, Argument>(Base))
    return std::nullopt;
  S.Base = Base;
  return S;
}

/// Whether \p A and \p B compute the same address the same way: the same
/// GEP of the same values, or of values loaded from the same places (at
/// -O0 the spilled `this` and index). Stores between the loads are not
/// looked at: the answer only lets a parameter's C++ type name what a
/// reallocated block holds.
bool sameAddress(const Value *A, const Value *B, unsigned Depth) {
  if (A == B)
    return true;
  if (Depth > 6)
    return false;
  auto *IA = dyn_cast<Instruction>(A), *IB = dyn_cast<Instruction>(B);
  if (!IA || !IB || IA->getOpcode() != IB->getOpcode() ||
      IA->getType() != IB->getType() ||
      IA->getNumOperands() != IB->getNumOperands())
    return false;
  if (auto *LA = dyn_cast<LoadInst>(IA)) {
    return sameAddress(LA->getPointerOperand(),
                       cast<LoadInst>(IB)->getPointerOperand(), Depth + 1);
  }
  if (auto *GA = dyn_cast<GetElementPtrInst>(IA)) {
    if (GA->getSourceElementType() !=
        cast<GetElementPtrInst>(IB)->getSourceElementType())
      return false;
  } else if (!isa<CastInst>(IA)) {
    return false;
  }
  for (unsigned I = 0; I < IA->getNumOperands(); ++I)
    if (!sameAddress(IA->getOperand(I), IB->getOperand(I), Depth + 1))
      return false;
  return true;
}

/// What a parameter's C++ type says of the block realloc returned, where
/// the function hands it out through that parameter (LIBSVM's
/// Cache::get_data(int, float **data, int) reallocs a row it then stores
/// into *data): \p Handed are the block's pointers (the new one, the old
/// one, reloads of them).
MemoryLayout handedOutLayout(const CallBase &Call,
                             SmallVector<const Value *, 8> Handed) {
  MemoryLayout L;
  SignatureSeeds Seeds = seedsFromSignature(*Call.getFunction());
  if (Seeds.PointeesOfPointees.empty())
    return L;
  const DataLayout &DL = Call.getModule()->getDataLayout();
  // (Reloads of the block's pointer from the place it came from or went
  // to, addressed by a variable index: `rows[i]` at -O0.)
  SmallVector<const Value *, 2> Places;
  if (auto *LI = dyn_cast<LoadInst>(Handed[1]))
    Places.push_back(LI->getPointerOperand());
  for (const User *U : Call.users())
    if (auto *SI = dyn_cast<StoreInst>(U); SI && SI->getValueOperand() == &Call)
      Places.push_back(SI->getPointerOperand());
  for (const Instruction &I : instructions(*Call.getFunction()))
    if (auto *LI = dyn_cast<LoadInst>(&I); LI && LI->getType()->isPointerTy())
      if (any_of(Places, [&](const Value *P) {
            return sameAddress(P, LI->getPointerOperand(), 0);
          }))
        Handed.push_back(LI);
  // (From -O1 a phi of the new and the old pointer.)
  for (const Value *V : ArrayRef<const Value *>(Handed).take_front(2))
    for (const User *U : V->users())
      if (isa<PHINode, SelectInst>(U))
        Handed.push_back(U);
  for (const Value *V : Handed)
    for (const User *U : V->users()) {
      auto *SI = dyn_cast<StoreInst>(U);
      if (!SI || SI->getValueOperand() != V)
        continue;
      // (At -O0 the parameter is reloaded from the slot it was spilled to.)
      const Value *Out = SI->getPointerOperand()->stripPointerCasts();
      // (Debug intrinsics may use the slot too, with -g.)
      if (auto *Reload = dyn_cast<LoadInst>(Out))
        if (auto *AI = dyn_cast<AllocaInst>(
                Reload->getPointerOperand()->stripPointerCasts())) {
          const Value *Spilled = nullptr;
          unsigned Stores = 0;
          for (const User *W : AI->users())
            if (auto *Spill = dyn_cast<StoreInst>(W)) {
              ++Stores;
              if (Spill->getPointerOperand() == AI)
                Spilled = Spill->getValueOperand();
            }
          if (Stores == 1 && Spilled)
            Out = Spilled;
        }
      auto *A = dyn_cast<Argument>(Out);
      for (auto [ArgNo, K] : Seeds.PointeesOfPointees)
        if (A && A->getArgNo() == ArgNo) {
          L.emplace(0, K);
          L.emplace(-1, K);
        }
    }
  return L;
}

/// What the block realloc moves holds: what the old and the new block
/// hold, and, when the pointers live in memory (a struct field, a variable
/// at -O0), what the pointers loaded from the same place point to; else
/// what the parameter it is handed out through says.
MemoryLayout reallocLayout(const CallBase &Call, const TypeAnalysis &Types) {
  const DataLayout &DL = Call.getModule()->getDataLayout();
  MemoryLayout L;
  auto Add = [&](const Value *Ptr) {
    for (auto [Offset, K] : Types.layout(Ptr))
      L.emplace(Offset, K);
  };
  const Value *Old = Call.getArgOperand(0);
  Add(&Call);
  Add(Old);
  if (!L.empty())
    return L;
  SmallVector<Slot, 2> Places;
  auto AddPlace = [&](const Value *Addr) {
    if (std::optional<Slot> S = slotOf(Addr, DL))
      Places.push_back(*S);
  };
  if (auto *LI = dyn_cast<LoadInst>(Old))
    AddPlace(LI->getPointerOperand());
  for (const User *U : Call.users())
    if (auto *SI = dyn_cast<StoreInst>(U); SI && SI->getValueOperand() == &Call)
      AddPlace(SI->getPointerOperand());
  SmallVector<const Value *, 8> Handed{&Call, Old};
  if (!Places.empty())
    for (const Instruction &I : instructions(*Call.getFunction()))
      if (auto *LI = dyn_cast<LoadInst>(&I); LI && LI->getType()->isPointerTy())
        if (std::optional<Slot> S = slotOf(LI->getPointerOperand(), DL);
            S && is_contained(Places, *S)) {
          Add(LI);
          Handed.push_back(LI);
        }
  if (!L.empty())
    return L;
  return handedOutLayout(Call, std::move(Handed));
}

} // namespace

bool ReverseEmitter::augmentRealloc(CallBase &Call) {
  Module &M = *Aug.getParent();
  Type *Ptr = AB.getPtrTy(), *I64 = AB.getInt64Ty();
  Value *Old = Call.getArgOperand(0);
  ReallocSite Site;
  Site.OldShadow = shadowOrNull(Old);
  if (Site.OldShadow && isa<Constant>(Site.OldShadow) &&
      cast<Constant>(Site.OldShadow)->isNullValue())
    Site.OldShadow = nullptr;
  // (A shadow that may be a scratch shadow behind a null shadow pointer,
  // which no allocator gave: read as null, its size 0.)
  if (Site.OldShadow && nullable(Old)) {
    IRBuilder<> Before(&Call);
    Site.OldShadow = strippedNullShadow(Before, Site.OldShadow);
  }

  if (Site.OldShadow) {
    MemoryLayout L =
        reallocLayout(*cast<CallBase>(PrimalOf.lookup(&Call)), *Types);
    bool AnyFloat =
        any_of(L, [](const auto &E) { return isFloatKind(E.second); });
    if (L.empty())
      return unsupported(Call, "a realloc whose contents cannot be typed "
                               "(neither floating-point nor pointer data by "
                               "the accesses to the memory); read or write "
                               "the block through typed pointers in this "
                               "function");
    if (AnyFloat) {
      Kind First = L.begin()->second;
      if (!all_of(L, [&](const auto &E) { return E.second == First; }))
        return unsupported(Call, "a realloc of an array of structs that mix "
                                 "floating-point and other fields is not "
                                 "supported yet in reverse mode");
      Site.Data = First;
    }
  }

  // The old primal block is gone once realloc returns: its size is read
  // before.
  Value *PrimalBytes = nullptr;
  if (Site.OldShadow) {
    IRBuilder<> Before(&Call);
    Before.SetCurrentDebugLocation(Call.getDebugLoc());
    PrimalBytes =
        Before.CreateCall(libcFunction(M, "malloc_usable_size", I64, {Ptr}),
                          {Old}, Old->getName() + ".size");
  }
  positionAfterCall(AB, Call);
  AB.SetCurrentDebugLocation(Call.getDebugLoc());
  Value *N = AB.CreateZExtOrTrunc(Call.getArgOperand(1), I64);
  CallInst *S = AB.CreateCall(libcFunction(M, "malloc", Ptr, {I64}), {N},
                              Call.getName() + ".shadow");
  // (Freed by the reverse sweep: PointerShadowMarks.h.)
  if (!DeviceCode)
    ownPointerShadowBlock(AB, S, N);
  Value *Moved = AB.getInt64(0);
  if (Site.OldShadow) {
    Value *ShadowBytes =
        AB.CreateCall(libcFunction(M, "malloc_usable_size", I64, {Ptr}),
                      {Site.OldShadow}, "shadow.size");
    Moved = AB.CreateBinaryIntrinsic(
        Intrinsic::umin,
        AB.CreateBinaryIntrinsic(Intrinsic::umin, PrimalBytes, ShadowBytes), N,
        nullptr, "moved");
    Site.Bytes = Moved;
  }
  // Floating-point data has zero adjoints in the augmented sweep: the new
  // block's shadow starts at zero, and the old block's bytes past its
  // requested size (malloc_usable_size counts them) are never copied in.
  // Pointers carry their shadows along.
  if (isFloatKind(Site.Data)) {
    AB.CreateMemSet(S, AB.getInt8(0), N, MaybeAlign());
  } else {
    if (Site.OldShadow)
      AB.CreateMemCpy(S, MaybeAlign(), Site.OldShadow, MaybeAlign(), Moved);
    AB.CreateMemSet(AB.CreateGEP(AB.getInt8Ty(), S, Moved), AB.getInt8(0),
                    AB.CreateSub(N, Moved), MaybeAlign());
  }
  shadows()[&Call] = S;
  if (!isFloatKind(Site.Data))
    Site = ReallocSite(); // nothing to give back: only the block to free
  reallocSites()[&Call] = Site;
  return true;
}

void ReverseEmitter::emitReallocAdjoint(CallBase &Call,
                                        DenseMap<Value *, Value *> &Popped) {
  Module &M = *Rev.getParent();
  Type *Ptr = RB.getPtrTy(), *I64 = RB.getInt64Ty();
  const ReallocSite &Site = reallocSites().find(&Call)->second;
  Value *S = revValue(shadows().lookup(&Call), Popped);
  if (isFloatKind(Site.Data))
    RB.CreateCall(
        libcFunction(M,
                     Site.Data == Kind::Double ? "adcc_adjoint_copy_f64"
                                               : "adcc_adjoint_copy_f32",
                     RB.getVoidTy(), {Ptr, Ptr, I64}),
        {S, revValue(Site.OldShadow, Popped), revValue(Site.Bytes, Popped)});
  RB.CreateCall(libcFunction(M, "free", RB.getVoidTy(), {Ptr}), {S});
}

} // namespace adcore
