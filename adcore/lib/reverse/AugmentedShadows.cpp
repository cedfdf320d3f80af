//===- AugmentedShadows.cpp - Shadow pointers in the augmented sweep -----===//
//
// Beside each instruction of the augmented sweep, its shadow in every lane:
// addresses computed from shadowed pointers (GEPs, casts, selects), pointers
// and structs of pointers loaded from shadow memory or assembled from
// shadowed values, and the upkeep of shadow memory (pointers stored,
// copied). Floating-point values get no shadow here: their adjoints live in
// the reverse sweep.
//
//===----------------------------------------------------------------------===//

#include "analysis/ErasedStorage.h"
#include "analysis/IntegerAddresses.h"
#include "analysis/LinkedStores.h"
#include "analysis/PrivateBlocks.h"
#include "analysis/ShadowlessStores.h"
#include "rules/InactiveFunctions.h"
#include "support/FloatsReadFromBits.h"
#include "support/NullShadowGuards.h"
#include "support/PointerShadowMarks.h"
#include "support/ShadowAlignment.h"
#include "support/SweepShadowClears.h"
#include "support/UnreadLinkClears.h"
#include "ReverseEmitter.h"

#include "support/CallSites.h"
#include "support/MemoryScopes.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {

/// True when the primal load \p PL reads a pointer-sized integer that the
/// type analysis knows nothing of, from memory it does not call floats, only
/// to store it again: at -O0 a library function moving the elements of an
/// array of `uintptr_t` (`__val = std::move(*__last)` in std::sort's
/// insertion sort), which may be addresses. Their shadows move with them,
/// as a pointer's would (a wrong derivative without a word until
/// 2026-12-07).
static bool movesUntypedAddress(const LoadInst &PL, const TypeAnalysis &Types) {
  const DataLayout &DL = PL.getModule()->getDataLayout();
  if (PL.getType() != DL.getIntPtrType(PL.getContext()) ||
      Types.kindOf(&PL) != Kind::Unknown || PL.use_empty())
    return false;
  Kind K = Types.memoryKind(PL.getPointerOperand());
  if (K == Kind::Double || K == Kind::Float)
    return false;
  return all_of(PL.users(), [&](const User *U) {
    const auto *SI = dyn_cast<StoreInst>(U);
    return SI && SI->getValueOperand() == &PL;
  });
}

void ReverseEmitter::markStoredPointerShadow(const StoreInst &SI,
                                             Value *Shadow) {
  if (DeviceCode || isPrivateMemoryOf(PrimalOf.lookup(SI.getPointerOperand()),
                                     /*Pointers=*/true))
    return;
  markPointerShadow(
      AB, Shadow,
      SI.getModule()->getDataLayout().getTypeStoreSize(
          SI.getValueOperand()->getType()),
      Key.TapeLevel, /*Recorded=*/true);
  MarkedStores.insert(&SI);
}

Value *ReverseEmitter::aggregateShadowOrZero(Value *V) {
  // (A struct of numbers and pointers whose fields so far are numbers, a
  // chain of insertvalues: no pointer shadows yet, zeros.)
  if (!shadowOrNull(V) && isa<InsertValueInst>(V) &&
      containsFloat(V->getType()))
    return Constant::getNullValue(V->getType());
  return shadowOrZero(V);
}

void ReverseEmitter::storePointerFieldShadows(const StoreInst &SI,
                                              Value *SP, Value *Shadow,
                                              Align A) {
  const DataLayout &DL = SI.getModule()->getDataLayout();
  Type *T = SI.getValueOperand()->getType();
  SmallVector<unsigned, 4> Path;
  // (Depth first through the struct and array members; each pointer field
  // stored at its offset.)
  std::function<void(Type *)> Visit = [&](Type *Member) {
    if (Member->isPtrOrPtrVectorTy()) {
      SmallVector<Value *, 4> Index{AB.getInt32(0)};
      for (unsigned I : Path)
        Index.push_back(AB.getInt32(I));
      uint64_t Offset = DL.getIndexedOffsetInType(T, Index);
      Value *Field =
          AB.CreateInBoundsGEP(T, SP, Index, SP->getName() + ".field");
      Value *S = AB.CreateExtractValue(Shadow, Path);
      if (!isa<Constant>(S) || !cast<Constant>(S)->isNullValue())
        if (!DeviceCode && !isPrivateMemoryOf(PrimalOf.lookup(
                               SI.getPointerOperand()), /*Pointers=*/true))
          markPointerShadow(AB, Field, DL.getTypeStoreSize(Member),
                            Key.TapeLevel);
      tagMemoryClass(*AB.CreateAlignedStore(
                         S, Field, commonAlignment(A, Offset)),
                     MemoryClass::Shadow);
      return;
    }
    unsigned N = 0;
    if (auto *ST = dyn_cast<StructType>(Member))
      N = ST->getNumElements();
    else if (auto *AT = dyn_cast<ArrayType>(Member))
      N = AT->getNumElements();
    for (unsigned I = 0; I < N; ++I) {
      Path.push_back(I);
      Visit(GetElementPtrInst::getTypeAtIndex(Member, I));
      Path.pop_back();
    }
  };
  Visit(T);
}

std::optional<bool> ReverseEmitter::copyPointerFields(MemTransferInst &MT,
                                                      const MemTransferInst &Primal,
                                                      Value *SD, Value *SS) {
  const Value *PD = Primal.getRawDest(), *PS = Primal.getRawSource();
  MemoryLayout L = copyLayout(*Types, Primal, PD, PS);
  auto IsFloat = [](Kind K) { return K == Kind::Double || K == Kind::Float; };
  bool AnyFloat = any_of(L, [&](const auto &E) { return IsFloat(E.second); });
  bool AnyPointer =
      any_of(L, [](const auto &E) { return E.second == Kind::Pointer; });
  if (!AnyFloat || !AnyPointer)
    return std::nullopt;
  Module &M = *MT.getModule();
  Type *I64 = AB.getInt64Ty();
  bool Guarded = nullable(MT.getRawDest()) || nullable(MT.getRawSource());
  auto At = [&](Value *P, int64_t Offset) {
    return shadowByteOffset(AB, P, Offset, Guarded);
  };
  unsigned PtrBytes = M.getDataLayout().getPointerSize();
  auto *ConstLen = dyn_cast<ConstantInt>(MT.getLength());
  uint64_t Stride = copyStride(*Types, PD, PS);
  // (A pointer's shadow marked as such: PointerShadowMarks.h.)
  auto CopyBytes = [&](Value *D, Value *S) {
    if (!DeviceCode)
      markPointerShadow(AB, D, PtrBytes, Key.TapeLevel);
    if (Guarded)
      guardedShadowCopy(AB, D, S, AB.getInt64(PtrBytes));
    else
      AB.CreateMemCpy(D, Align(1), S, Align(1), PtrBytes);
  };
  // The pointer fields at \p Offsets, copied one by one. The ranges of a
  // memmove may overlap (`memmove(a + 1, a, ...)` shifting an array of
  // structs): every source field is read into a buffer before the first
  // destination field is written, else a field copied early is read again
  // as the source of a later one.
  auto CopyFields = [&](ArrayRef<int64_t> Offsets) {
    if (!isa<MemMoveInst>(Primal)) {
      for (int64_t Offset : Offsets)
        CopyBytes(At(SD, Offset), At(SS, Offset));
      return;
    }
    Function &F = *AB.GetInsertBlock()->getParent();
    IRBuilder<> EntryB(&F.getEntryBlock(), F.getEntryBlock().begin());
    Value *Staged = EntryB.CreateAlloca(
        ArrayType::get(AB.getPtrTy(), Offsets.size()), nullptr, "moved.shadows");
    for (auto [I, Offset] : enumerate(Offsets))
      CopyBytes(AB.CreateConstGEP1_64(AB.getPtrTy(), Staged, I),
                At(SS, Offset));
    for (auto [I, Offset] : enumerate(Offsets))
      CopyBytes(At(SD, Offset),
                AB.CreateConstGEP1_64(AB.getPtrTy(), Staged, I));
  };
  // (A few structs: field by field.)
  constexpr uint64_t MaxUnrolled = 64;
  if (Stride && !L.count(-1) && ConstLen &&
      ConstLen->getZExtValue() > Stride &&
      ConstLen->getZExtValue() / Stride <= MaxUnrolled) {
    SmallVector<int64_t, 16> Offsets;
    for (uint64_t E = 0; E < ConstLen->getZExtValue() / Stride; ++E)
      for (auto [Offset, K] : L)
        if (K == Kind::Pointer && uint64_t(Offset) + PtrBytes <= Stride)
          Offsets.push_back(int64_t(E * Stride) + Offset);
    CopyFields(Offsets);
    return true;
  }
  if (Stride && !L.count(-1) &&
      (!ConstLen || ConstLen->getZExtValue() > Stride)) {
    // An array of such structs: one strided copy per pointer field.
    StringRef Name = "adcc_shadow_copy_strided_ptr";
    FunctionCallee Copy =
        Guarded ? guardedAdjointCopy(M, Name, /*Strided=*/true)
                : M.getOrInsertFunction(Name, AB.getVoidTy(), AB.getPtrTy(),
                                        AB.getPtrTy(), I64, I64);
    Value *Count = AB.CreateUDiv(AB.CreateZExtOrTrunc(MT.getLength(), I64),
                                 AB.getInt64(Stride), "elements");
    for (auto [Offset, K] : L)
      if (K == Kind::Pointer && uint64_t(Offset) + PtrBytes <= Stride)
        AB.CreateCall(Copy, {At(SD, Offset), At(SS, Offset), Count,
                             AB.getInt64(Stride)});
    return true;
  }
  if (!ConstLen || L.count(-1))
    return unsupported(MT, "a copy of an array of structs that mix "
                           "floating-point fields and pointers, whose element "
                           "size is unknown, is not supported in reverse "
                           "mode; copy the elements one by one");
  SmallVector<int64_t, 4> Offsets;
  for (auto [Offset, K] : L)
    if (K == Kind::Pointer &&
        uint64_t(Offset) + PtrBytes <= ConstLen->getZExtValue())
      Offsets.push_back(Offset);
  CopyFields(Offsets);
  return true;
}

/// True when the integer \p V is the address of a pointer with a
/// derivative, possibly offset or masked (`(uintptr_t)p + 8`), within
/// \p Depth operations. (Not a difference of two addresses: a number.)
bool ReverseEmitter::holdsActiveAddress(const Value *V, unsigned Depth) const {
  if (auto *P2I = dyn_cast<PtrToIntInst>(V))
    return Active.contains(P2I->getOperand(0));
  // (One read from an integer variable that holds an address, at -O0.)
  if (auto *LI = dyn_cast<LoadInst>(V))
    return Active.contains(LI) && loadsAddress(*LI);
  auto *BO = dyn_cast<BinaryOperator>(V);
  if (!BO || Depth == 0)
    return false;
  switch (BO->getOpcode()) {
  case Instruction::Sub:
    return holdsActiveAddress(BO->getOperand(0), Depth - 1) &&
           !holdsActiveAddress(BO->getOperand(1), Depth - 1);
  case Instruction::Add:
  case Instruction::And:
  case Instruction::Or:
  case Instruction::Xor:
    return holdsActiveAddress(BO->getOperand(0), Depth - 1) ||
           holdsActiveAddress(BO->getOperand(1), Depth - 1);
  default:
    return false;
  }
}

/// True when the integer \p V is a phi, a select or a shuffle of (through
/// more of them, and casts between integer types) bits loaded from memory
/// that has a shadow: a copy of data that may carry derivatives, whatever
/// the activity analysis made of the integer. (A load stored straight back
/// is IntegerCopies.cpp's case, and bits made from floats, such as a sign
/// mask, the analysis decides.)
/// True when the integer \p V is computed by integer operations (\p Depth
/// deep) from bits loaded from memory that has a shadow: a float's bits
/// changed as an integer (`0x5f3759df - (bits >> 1)` at -O0).
bool ReverseEmitter::changesShadowedBits(Value *V, unsigned Depth) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth == 0 || !isa<BinaryOperator, CastInst>(I) ||
      isa<FPToSIInst, FPToUIInst>(I))
    return false;
  return any_of(I->operands(), [&](const Use &Op) {
    auto *LI = dyn_cast<LoadInst>(Op.get());
    if (LI && LI->getType()->isIntOrIntVectorTy() &&
        shadowOrNull(LI->getPointerOperand()))
      return true;
    return changesShadowedBits(Op.get(), Depth - 1);
  });
}

bool ReverseEmitter::copiesShadowedBits(Value *V) {
  if (!isa<PHINode, SelectInst, ShuffleVectorInst, InsertElementInst,
           ExtractElementInst>(V))
    return false;
  SmallPtrSet<Value *, 8> Seen;
  SmallVector<Value *, 8> Work{V};
  while (!Work.empty()) {
    Value *X = Work.pop_back_val();
    if (!Seen.insert(X).second || Seen.size() > 64)
      continue;
    if (auto *LI = dyn_cast<LoadInst>(X)) {
      if (shadowOrNull(LI->getPointerOperand()))
        return true;
    } else if (auto *Phi = dyn_cast<PHINode>(X)) {
      append_range(Work, Phi->incoming_values());
    } else if (auto *Sel = dyn_cast<SelectInst>(X)) {
      Work.append({Sel->getTrueValue(), Sel->getFalseValue()});
    } else if (isa<ShuffleVectorInst, InsertElementInst>(X)) {
      Work.append({cast<Instruction>(X)->getOperand(0),
                   cast<Instruction>(X)->getOperand(1)});
    } else if (isa<ExtractElementInst, BitCastInst>(X)) {
      Work.push_back(cast<Instruction>(X)->getOperand(0));
    }
  }
  return false;
}

bool ReverseEmitter::augmentShadow(Instruction &I) {
  const DataLayout &DL = Aug.getParent()->getDataLayout();
  if (auto *GEP = dyn_cast<GetElementPtrInst>(&I)) {
    if (Value *S = shadowOrNull(GEP->getPointerOperand())) {
      SmallVector<Value *, 4> Idx(GEP->indices());
      shadows()[GEP] =
          nullable(GEP->getPointerOperand())
              ? nullKeepingGEP(AB, GEP->getSourceElementType(), S, Idx,
                               GEP->getName() + ".shadow",
                               GEP->getNoWrapFlags())
              : AB.CreateGEP(GEP->getSourceElementType(), S, Idx,
                             GEP->getName() + ".shadow", GEP->getNoWrapFlags());
    }
  } else if (isa<BitCastInst, AddrSpaceCastInst>(I) &&
             I.getType()->isPointerTy()) {
    if (Value *S = shadowOrNull(I.getOperand(0)))
      shadows()[&I] =
          AB.CreateCast(cast<CastInst>(I).getOpcode(), S, I.getType());
  } else if (isa<PtrToIntInst, IntToPtrInst>(I) && Active.contains(&I)) {
    // An address offset or aligned as an integer (Eigen's aligned alloca
    // at -O0): the shadow is computed the same way.
    if (Value *S = shadowOrNull(I.getOperand(0)))
      shadows()[&I] = AB.CreateCast(cast<CastInst>(I).getOpcode(), S,
                                    I.getType(), I.getName() + ".shadow");
  } else if (auto *BO = dyn_cast<BinaryOperator>(&I);
             BO && BO->getType()->isIntegerTy() && Active.contains(BO) &&
             isAddressArithmetic(*BO)) {
    Value *SA = shadowOrNull(BO->getOperand(0));
    Value *SB = shadowOrNull(BO->getOperand(1));
    if (SA && !SB)
      shadows()[BO] = AB.CreateBinOp(BO->getOpcode(), SA, BO->getOperand(1),
                                     BO->getName() + ".shadow");
    else if (SB && !SA && BO->getOpcode() != Instruction::Sub)
      shadows()[BO] = AB.CreateBinOp(BO->getOpcode(), BO->getOperand(0), SB,
                                     BO->getName() + ".shadow");
  } else if (auto *IV = dyn_cast<InsertValueInst>(&I)) {
    // Structs of pointers (std::pair<iterator, bool>) carry shadows too;
    // so do structs of pointers and numbers, whose numbers' places in the
    // shadow hold zeros.
    // (A struct built field by field whose first fields are numbers: no
    // shadow yet, zeros.)
    Value *Inserted = IV->getInsertedValueOperand();
    Value *Agg = IV->getAggregateOperand();
    if (IV->getType()->isAggregateType() &&
        carriesPointerShadow(IV->getType()) &&
        (shadowOrNull(Agg) || shadowOrNull(Inserted)))
      shadows()[IV] = AB.CreateInsertValue(
          aggregateShadowOrZero(Agg),
          carriesPointerShadow(Inserted->getType())
              ? shadowOrZero(Inserted)
              : Constant::getNullValue(Inserted->getType()),
          IV->getIndices(), IV->getName() + ".shadow");
  } else if (auto *EV = dyn_cast<ExtractValueInst>(&I)) {
    if (carriesPointerShadow(EV->getType()))
      if (Value *S = shadowOrNull(EV->getAggregateOperand()))
        shadows()[EV] = AB.CreateExtractValue(S, EV->getIndices(),
                                              EV->getName() + ".shadow");
  } else if (auto *EE = dyn_cast<ExtractElementInst>(&I)) {
    // A lane of a vector of addresses (a GEP with a vector index).
    if (EE->getType()->isPointerTy())
      if (Value *S = shadowOrNull(EE->getVectorOperand()))
        shadows()[EE] = AB.CreateExtractElement(S, EE->getIndexOperand(),
                                                EE->getName() + ".shadow");
  } else if (isa<InsertElementInst, ShuffleVectorInst>(I)) {
    // Vectors of addresses assembled lane by lane: the same on the shadows
    // (an undefined vector operand stays undefined).
    auto Shadow = [&](Value *V) {
      return isa<UndefValue>(V) ? V : shadowOrZero(V);
    };
    Value *A = I.getOperand(0), *B = I.getOperand(1);
    if (I.getType()->isPtrOrPtrVectorTy() &&
        (shadowOrNull(A) || shadowOrNull(B))) {
      if (auto *IE = dyn_cast<InsertElementInst>(&I))
        shadows()[IE] = AB.CreateInsertElement(
            Shadow(A), Shadow(B), IE->getOperand(2), IE->getName() + ".shadow");
      else
        shadows()[&I] = AB.CreateShuffleVector(
            Shadow(A), Shadow(B), cast<ShuffleVectorInst>(I).getShuffleMask(),
            I.getName() + ".shadow");
    }
  } else if (auto *FI = dyn_cast<FreezeInst>(&I)) {
    // (UBSan's pointer checks freeze the pointers they test.)
    if (carriesPointerShadow(FI->getType()))
      if (Value *S = shadowOrNull(FI->getOperand(0)))
        shadows()[FI] = AB.CreateFreeze(S, FI->getName() + ".shadow");
  } else if (auto *Sel = dyn_cast<SelectInst>(&I)) {
    if ((carriesPointerShadow(Sel->getType()) ||
         isIntegerAddress(*Sel)) &&
        (shadowOrNull(Sel->getTrueValue()) ||
         shadowOrNull(Sel->getFalseValue())))
      shadows()[Sel] = AB.CreateSelect(
          Sel->getCondition(), aggregateShadowOrZero(Sel->getTrueValue()),
          aggregateShadowOrZero(Sel->getFalseValue()));
  } else if (auto *LI = dyn_cast<LoadInst>(&I)) {
    Value *SP = shadowOrNull(LI->getPointerOperand());
    if (SP && LI->getType()->isIntegerTy())
      if (Type *View = floatViewOf(*LI))
        FloatView[LI] = View;
    // (Floats read out of bits that are also used otherwise, an integer
    // added up: their adjoints would be lost without a word.)
    if (SP && LI->getType()->isIntegerTy() && !FloatView.count(LI) &&
        floatsReadFromBits(LI))
      return unsupported(I, FloatsInIntegerBitsError);
    // (Also a pointer read as an integer, to be stored again: how the
    // optimizer copies a struct that holds a reference, such as an Eigen
    // expression passed by value.)
    const Value *PL = PrimalOf.lookup(LI);
    bool PointerBits =
        LI->getType()->isIntegerTy() && !FloatView.count(LI) &&
        ((PL && Types->kindOf(PL) == Kind::Pointer) || loadsAddress(*LI) ||
         (isa_and_nonnull<LoadInst>(PL) &&
          movesUntypedAddress(*cast<LoadInst>(PL), *Types)));
    if (SP &&
        (carriesPointerShadow(LI->getType()) || PointerBits) &&
        Active.contains(LI)) {
      // (Zeros through a recorded pointer without derivatives; through a
      // shadow that may be null, a null shadow.)
      Value *IsNull;
      const Align LoadA = shadowAlign(DL, LI->getType(), LI->getAlign());
      if (LoadInst *Base = recordedBase(LI->getPointerOperand()))
        SP = guardRecorded(AB, LI->getPointerOperand(), SP, shadowOrNull(Base),
                           DL.getTypeStoreSize(LI->getType()), true, IsNull);
      else if (nullable(LI->getPointerOperand()))
        SP = guardedReadAddress(AB, SP, LI->getType(), LoadA);
      LoadInst *S = AB.CreateAlignedLoad(LI->getType(), SP, LoadA,
                                         LI->getName() + ".shadow");
      tagMemoryClass(*S, MemoryClass::Shadow);
      // (A pointer read from memory: its shadow bytes hold a pointer's
      // shadow, maybe one the caller stored before the call, never marked.
      // A number's store over them later puts back zero. Not the shadow
      // read here, which the derivative may not use: see
      // markLoadedPointerShadow.)
      if (!DeviceCode && LI->getType()->isPointerTy() &&
          !isPrivateMemoryOf(PrimalOf.lookup(LI->getPointerOperand()),
                            /*Pointers=*/true))
        markLoadedPointerShadow(AB, SP, LI->getPointerOperand(),
                                DL.getTypeStoreSize(LI->getType()),
                                Key.TapeLevel);
      // (A null shadow pointer of a shadow struct the caller zeroed: the
      // scratch shadow of its primal address, where writes and reads meet.)
      shadows()[LI] = LI->getType()->isPointerTy() && nullable(LI)
                          ? nullShadowOrScratch(
                                AB, S, LI,
                                reverseScratchLane(Lane, Key.TapeLevel))
                          : S;
    }
  } else if (auto *SI = dyn_cast<StoreInst>(&I)) {
    Value *SP = shadowOrNull(SI->getPointerOperand());
    Value *V = SI->getValueOperand();
    const Align StoreA = shadowAlign(DL, V->getType(), SI->getAlign());
    // (Through a shadow that may be null: into a sink. In device code,
    // where no scratch shadow stands behind it, lost if read back.)
    if (SP && nullable(SI->getPointerOperand()) &&
        V->getType()->isFPOrFPVectorTy() && Active.contains(V) &&
        lacksNullShadowScratch(*SI->getModule()) &&
        readsBackThroughNullShadow(PrimalOf.lookup(SI->getPointerOperand()),
                                   NullablePrimals))
      return unsupported(*SI, DeviceNullShadowWriteError);
    if (SP && nullable(SI->getPointerOperand()))
      SP = guardedWriteAddress(AB, SP, V->getType(), StoreA);
    if (auto *PS = dyn_cast_or_null<StoreInst>(PrimalOf.lookup(SI));
        SP && PS && storesIntoPartOfFloat(*PS))
      return unsupported(*SI, PartOfFloatStoreError);
    if (SP && V->getType()->isIntOrIntVectorTy() && !FloatView.count(V)) {
      Kind K = Types->memoryKind(PrimalOf.lookup(SI->getPointerOperand()));
      const Value *PV = PrimalOf.lookup(V);
      // (The store's TBAA too: where the integer is also compared, the type
      // analysis may not call that memory a double.)
      Kind Says = kindOfTBAA(*SI);
      bool FloatBits = K == Kind::Double || K == Kind::Float ||
                       Says == Kind::Double || Says == Kind::Float ||
                       (PV && Types->isFloatBits(PV));
      // (Constant bits, a sign mask at -O0: the memory's derivative is
      // zero. Not bits copied from memory with a shadow.)
      if (FloatBits && !Active.contains(V) && changesShadowedBits(V, 4))
        return unsupported(I, "an integer holds the bits of a floating-point "
                              "value and is changed by integer operations; "
                              "use floating-point operations (fabs, "
                              "copysign, -x) instead");
      if (FloatBits && !Active.contains(V) && !copiesShadowedBits(V)) {
        tagMemoryClass(*AB.CreateAlignedStore(
                           Constant::getNullValue(V->getType()), SP, StoreA),
                       MemoryClass::Shadow);
        return true;
      }
      if (FloatBits)
        return unsupported(I, "a floating-point value is copied as an "
                              "integer (integer loads and stores of its "
                              "bits, or SIMD integer shuffles of it); this "
                              "is not supported yet in reverse mode; copy "
                              "the values as floating-point numbers (with "
                              "Eigen at -O0: -DEIGEN_DONT_VECTORIZE)");
      // Bits moved where nothing says whether they are a double's (an
      // untyped 8-byte memcpy through a `void *`, as an i64): its adjoint
      // would be lost without a word.
      if (movesUntypedBits(*SI))
        return unsupported(I, "a memory copy whose contents cannot be "
                              "typed (8 or 4 bytes moved as an integer "
                              "through a pointer that says nothing of "
                              "them, such as a `void *`); copy the values "
                              "through a pointer of their type");
      // A pointer stored as an integer (how InstCombine copies a struct
      // holding a reference, such as an Eigen expression): its shadow is
      // stored the same way, or a load of the field as a pointer would
      // find no shadow there.
      if (auto *P2I = dyn_cast<PtrToIntInst>(V);
          P2I && Active.contains(P2I->getOperand(0))) {
        markStoredPointerShadow(*SI, SP);
        tagMemoryClass(*AB.CreateAlignedStore(
                           AB.CreatePtrToInt(shadowOrZero(P2I->getOperand(0)),
                                             V->getType()),
                           SP, StoreA),
                       MemoryClass::Shadow);
      } else if (Value *Shadow = shadows().lookup(V)) {
        // A pointer read as an integer and stored again: its shadow too.
        markStoredPointerShadow(*SI, SP);
        tagMemoryClass(*AB.CreateAlignedStore(Shadow, SP, StoreA),
                       MemoryClass::Shadow);
      } else if (holdsActiveAddress(V, 4)) {
        return unsupported(I, "the address of memory with derivatives is "
                              "stored as an integer computed from it; this "
                              "is not supported yet in reverse mode");
      } else if (!isa<Constant>(V) && !isa<Argument>(V) &&
                 localHoldsAddresses(PrimalOf.lookup(SI->getPointerOperand()))) {
        // (Not a parameter without a shadow stored into its -O0 slot: an
        // offset or alignment, as Eigen's handmade_aligned_malloc's.)
        // An integer without a shadow stored into an integer variable
        // that holds addresses: its shadow would keep the address before.
        return unsupported(I, AddressInIntegerError);
      }
    }
    const Value *Obj = getUnderlyingObject(SI->getPointerOperand());
    // (Memory that no differentiated code reads derivatives back from: a
    // global log of calls, WriteOnlyMemory.h.)
    bool Lost = !SP && Active.contains(V) &&
                !Ctx.rules().isInactiveGlobal(Obj) && !isExceptionObject(Obj) &&
                !Ctx.rules().writeOnlyMemory(
                    PrimalOf.lookup(SI->getPointerOperand()));
    if (Lost && canCarryDerivative(V->getType()))
      return unsupported(I, shadowlessStoreMessage(
                                  Ctx, *Key.Primal,
                                  isa<GlobalValue>(Obj) ? Obj
                                                        : PrimalOf.lookup(Obj)));
    if (Lost && holdsActiveAddress(V, 4) &&
        mayBecomePointer(SI->getPointerOperand(), 4))
      return unsupported(I, AddressInIntegerError);
    // A shadow global adcc made (GlobalShadows.h) starts the reverse sweep
    // at zero after the global's last store: what an earlier call left
    // there (a forward derivative's tangent) is no adjoint.
    Type *VT = V->getType();
    // A number with a derivative stored over bytes that may have held a
    // pointer's shadow: those bytes get back what they held before it
    // (zero, or a caller's seed; PointerShadowMarks.h).
    // (Not a struct stored whole, whose pointer fields' shadows may be
    // marked.)
    // (`y[i]` in a loop: one check before the loop where it may be,
    // SweepShadowClears.h.)
    if (SP && !DeviceCode && Active.contains(V) &&
        (VT->isFPOrFPVectorTy() || FloatView.count(V)) &&
        !isPrivateMemoryOf(PrimalOf.lookup(SI->getPointerOperand()),
                          /*Pointers=*/false)) {
      Value *Bytes = AB.getInt64(DL.getTypeStoreSize(VT));
      if (isArgumentArraySweep(PrimalOf.lookup(SI->getPointerOperand())))
        deferSweepShadowClear(AB, SP, Bytes, Key.TapeLevel);
      else
        clearPointerShadows(AB, SP, Bytes, AB.getInt32(Key.TapeLevel));
      // (Over a caller's link that the request never read, which no mark
      // names: its adjoint starts from zero, not from the link's shadow.
      // After the marks' restore, which a later pointer's record reads.)
      auto *PS = dyn_cast_or_null<StoreInst>(PrimalOf.lookup(SI));
      // (Where the bytes read as a link, not as a caller's seed:
      // UnreadLinkClears.h.)
      if (PS && reachedThroughLink(PS->getPointerOperand(), Key.LinkedArgs) &&
          mayHoldPointerBytes(*PS, *Types, Key.LinkedArgs))
        clearUnreadLink(AB, *SI, SP, StoreA);
    }
    auto *G = dyn_cast<GlobalVariable>(Obj);
    if (SP && G && !Ctx.rules().namedShadow(G) &&
        (VT->isFPOrFPVectorTy() || FloatView.count(V) ||
         (VT->isAggregateType() && canCarryDerivative(VT))))
      tagMemoryClass(
          *AB.CreateAlignedStore(Constant::getNullValue(VT), SP, StoreA),
          MemoryClass::Shadow);
    if (SP && carriesPointerShadow(V->getType())) {
      Value *IsNull;
      if (LoadInst *Base = recordedBase(SI->getPointerOperand()))
        SP = guardRecorded(AB, SI->getPointerOperand(), SP, shadowOrNull(Base),
                           DL.getTypeStoreSize(V->getType()), false, IsNull);
      // (A struct of pointers and numbers: its pointers' shadows alone.
      // The numbers' shadow bytes hold adjoints, a caller's seed among
      // them, which the reverse sweep takes.)
      if (containsFloat(V->getType())) {
        storePointerFieldShadows(*SI, SP, shadowOrZero(V), StoreA);
        return true;
      }
      // (Not a scratch shadow: the shadow memory keeps its null pointer.)
      Value *Stored = shadowOrZero(V);
      if (V->getType()->isPointerTy() && nullable(V))
        Stored = strippedNullShadow(AB, Stored);
      // (Null: no bits to mistake for an adjoint.)
      if (auto *C = dyn_cast<Constant>(Stored); !C || !C->isNullValue())
        markStoredPointerShadow(*SI, SP);
      tagMemoryClass(*AB.CreateAlignedStore(Stored, SP, StoreA),
                     MemoryClass::Shadow);
    }
  } else if (auto *MT = dyn_cast<MemTransferInst>(&I)) {
    Value *SD = shadowOrNull(MT->getRawDest());
    Value *SS = shadowOrNull(MT->getRawSource());
    Kind K = Types->memoryKind(PrimalOf.lookup(MT->getRawDest()));
    if (K == Kind::Unknown)
      K = Types->memoryKind(PrimalOf.lookup(MT->getRawSource()));
    // (Integers have no shadow to copy; the source's may not exist: an
    // Eigen nullary expression, a struct of two longs, is not active.)
    auto *PrimalCopy = dyn_cast_or_null<MemTransferInst>(PrimalOf.lookup(MT));
    // (Characters, a std::string's copy inlined: no shadows to move, as a
    // call of char_traits<char>::copy moves none.)
    if (isInlinedCharacterCode(PrimalCopy ? *PrimalCopy : *MT))
      return true;
    // A move of std::function's untyped storage (ErasedMoves.cpp): all its
    // shadow bytes move with it, a pointer's shadow or a closure's
    // adjoints, which the reverse sweep moves back (CopyAdjoints.cpp).
    if (SD && SS && isErasedMove(*MT, PrimalCopy)) {
      if (nullable(MT->getRawDest()) || nullable(MT->getRawSource()))
        guardedShadowCopy(AB, SD, SS, MT->getLength());
      else
        AB.CreateMemMove(SD, Align(1), SS, Align(1), MT->getLength());
      return true;
    }
    // Numbers with derivatives copied into memory without a shadow (a
    // buffer a constant struct points to, a struct assignment into it)
    // lose their adjoints, as a store of one does: the same error (forward
    // mode's visitMemTransferInst). (Memory nothing reads derivatives back
    // from: WriteOnlyMemory.h.)
    if (!SD && SS && !(PrimalCopy && copiesOnlyIntegers(*Types, *PrimalCopy))) {
      const Value *Obj = getUnderlyingObject(MT->getRawDest());
      if (!Ctx.rules().isInactiveGlobal(Obj) && !isExceptionObject(Obj) &&
          !Ctx.rules().writeOnlyMemory(PrimalOf.lookup(MT->getRawDest())))
        return unsupported(I, shadowlessStoreMessage(
                                  Ctx, *Key.Primal,
                                  isa<GlobalValue>(Obj) ? Obj
                                                        : PrimalOf.lookup(Obj)));
    }
    // Floating-point fields next to pointers (a struct of a number and a
    // pointer, copied whole at -O0): the pointers' shadows only. The
    // floating-point shadows hold adjoints, which move in the reverse
    // sweep; copied now, an adjoint the caller's shadow already holds
    // would be counted twice.
    if (SD && SS && PrimalCopy)
      if (std::optional<bool> Done = copyPointerFields(*MT, *PrimalCopy, SD, SS))
        return *Done;
    // (Numbers only, copied over bytes that may have held a pointer's
    // shadow: as for a store. Not a copy that also moves pointers, whose
    // shadows, read from a source that may overlap, must stay.)
    if (SD && !DeviceCode && (K == Kind::Double || K == Kind::Float) &&
        !isPrivateMemoryOf(PrimalOf.lookup(MT->getRawDest()),
                          /*Pointers=*/false)) {
      if (isArgumentArraySweep(PrimalOf.lookup(MT->getRawDest())))
        deferSweepShadowClear(AB, SD, MT->getLength(), Key.TapeLevel);
      else
        clearPointerShadows(AB, SD, MT->getLength(),
                            AB.getInt32(Key.TapeLevel));
    }
    // (Integers too where they may be addresses kept as integers, which
    // move with their shadows: std::sort's insertion sort of `uintptr_t`
    // at -O0 moves them with memmove; until 2026-12-07 the shadow array
    // stayed unsorted and each value got another's derivative.)
    if (SD && SS && K != Kind::Double && K != Kind::Float &&
        !(PrimalCopy && copiesOnlyIntegers(*Types, *PrimalCopy) &&
          !mayCopyIntegerAddresses(*PrimalCopy))) {
      // Pointers (and bytes of unknown kind) carry their shadows along.
      // (Not into a shadow that is the primal's own memory: numbers.)
      Value *Len =
          lengthUnlessPrimal(AB, MT->getRawDest(), SD, MT->getLength());
      if (nullable(MT->getRawDest()) || nullable(MT->getRawSource()))
        guardedShadowCopy(AB, SD, SS, Len);
      else if (isa<MemMoveInst>(MT))
        AB.CreateMemMove(SD, shadowAlign(MT->getDestAlign()), SS,
                         shadowAlign(MT->getSourceAlign()), Len);
      else
        AB.CreateMemCpy(SD, shadowAlign(MT->getDestAlign()), SS,
                        shadowAlign(MT->getSourceAlign()), Len);
    }
  }
  return true;
}

} // namespace adcore
