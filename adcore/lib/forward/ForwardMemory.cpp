//===- ForwardMemory.cpp - Stack, loads, stores, GEPs, mem intrinsics ----===//
//
// Memory that holds derivatives has shadow memory of the same layout: a
// Dup pointer argument's shadow, a shadow alloca beside each active alloca
// (zeroed, unless every write to the alloca writes the shadow too), shadow
// heap blocks (ForwardCalls.cpp). Loads and stores through
// a shadowed pointer repeat on the shadow: the tangent of a loaded value is
// the shadow loaded from the shadow address, a stored value's tangent is
// stored there.
//
//===----------------------------------------------------------------------===//

#include "analysis/ShadowlessStores.h"
#include "support/CallSites.h"
#include "support/FloatsReadFromBits.h"
#include "support/IRMarks.h"
#include "support/MemoryScopes.h"
#include "support/NullShadowGuards.h"
#include "support/ReturnedValues.h"
#include "support/ShadowAlignment.h"
#include "ForwardEmitter.h"
#include "analysis/IntegerAddresses.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {

namespace {

/// True when every write to \p AI's memory also writes its shadow: stores
/// of floating-point values, pointers or aggregates holding them (their
/// tangent, or zero) and memory intrinsics (repeated on the shadow); the
/// rest are loads. Then the shadow needs no zeroing: the primal reads
/// nothing it has not written (reading it would be undefined), and neither
/// does the tangent code.
bool shadowFullyWritten(const AllocaInst &AI) {
  SmallVector<const Value *, 8> Work{&AI};
  SmallPtrSet<const Value *, 8> Seen;
  while (!Work.empty()) {
    const Value *P = Work.pop_back_val();
    if (!Seen.insert(P).second)
      continue;
    for (const Use &U : P->uses()) {
      const auto *I = cast<Instruction>(U.getUser());
      if (isa<GetElementPtrInst, BitCastInst, AddrSpaceCastInst>(I)) {
        Work.push_back(I);
        continue;
      }
      if (const auto *LI = dyn_cast<LoadInst>(I)) {
        if (LI->isSimple())
          continue;
        return false;
      }
      if (const auto *SI = dyn_cast<StoreInst>(I)) {
        if (SI->isSimple() &&
            U.getOperandNo() == SI->getPointerOperandIndex() &&
            canCarryDerivative(SI->getValueOperand()->getType()))
          continue;
        return false;
      }
      if (const auto *MI = dyn_cast<MemIntrinsic>(I)) {
        if (!MI->isVolatile())
          continue;
        return false;
      }
      if (const auto *II = dyn_cast<IntrinsicInst>(I))
        if (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II))
          continue;
      return false; // a call, an escape, a comparison of addresses, ...
    }
  }
  return true;
}

/// True when the bits \p I holds are only compared or index an array,
/// directly or after casts and integer operations (`|x| == 0` on the bits
/// of x, a packet compared as floats; `x[piv[j]]` with the int pivots kept
/// in the block of a workspace whose doubles the type analysis sees at
/// every offset, lmfit's lmmin at -O0): no derivative is needed from them
/// (an index has none, whatever its bits).
bool onlyComparedOrIndexes(const Instruction &I, unsigned Depth = 4) {
  return all_of(I.users(), [&](const User *U) {
    if (isa<CmpInst>(U))
      return true;
    if (const auto *GEP = dyn_cast<GetElementPtrInst>(U))
      return GEP->getPointerOperand() != &I;
    const auto *UI = dyn_cast<Instruction>(U);
    return UI && Depth > 0 &&
           isa<CastInst, BinaryOperator, ShuffleVectorInst, ExtractElementInst>(
               UI) &&
           !isa<FPToSIInst, FPToUIInst, SIToFPInst, UIToFPInst, IntToPtrInst>(
               UI) &&
           onlyComparedOrIndexes(*UI, Depth - 1);
  });
}

} // namespace

void ForwardEmitter::tagShadowAccess(const Instruction &Primal,
                                     Instruction &Shadow, unsigned Lane) {
  // Shadow memory holds what primal memory holds, in the same layout: the
  // primal access's type-based alias information applies to it too.
  if (MDNode *TBAA = Primal.getMetadata(LLVMContext::MD_tbaa))
    Shadow.setMetadata(LLVMContext::MD_tbaa, TBAA);
  tagMemoryClass(Shadow, MemoryClass::Shadow);
  tagLane(Shadow, Lane, Width);
}

bool ForwardEmitter::visitAllocaInst(AllocaInst &I) {
  if (!isAnalyzedActive(&I))
    return true;
  const DataLayout &DL = I.getModule()->getDataLayout();
  Value *Bytes =
      B.CreateMul(B.CreateZExtOrTrunc(I.getArraySize(), B.getInt64Ty()),
                  B.getInt64(DL.getTypeAllocSize(I.getAllocatedType())));
  bool Zero = !shadowFullyWritten(I);
  if (Width > 1 && !Key.Split)
    if (Type *T = interleavedElementType(
            I, DL, [&](const CallBase &C) { return plainUserCall(C); })) {
      setTangent(&I, interleavedAlloca(I, T, Zero));
      return true;
    }
  setTangent(&I, forEachLane(I.getType(), [&](unsigned) {
    AllocaInst *S = B.CreateAlloca(I.getAllocatedType(), I.getAddressSpace(),
                                   I.getArraySize(), I.getName() + ".shadow");
    S->setAlignment(I.getAlign());
    if (Zero)
      B.CreateMemSet(S, B.getInt8(0), Bytes, I.getAlign());
    return S;
  }));
  return true;
}

bool ForwardEmitter::visitLoadInst(LoadInst &I) {
  Value *SP = tangentOrNull(I.getPointerOperand());
  if (!SP)
    return true;
  // (A recorded pointer whose shadow record always holds null: what is
  // read through it has no tangent, as the guards then say at once.)
  if (NullRecordClones.contains(&I)) {
    setTangent(&I, Constant::getNullValue(I.getType()));
    return true;
  }
  // (Floats read out of bits that are also used otherwise, an integer
  // added up: the load gets no tangent, and their tangents would be lost
  // without a word.)
  bool NoTangent = !isAnalyzedActive(&I) ||
                   (I.getType()->isIntOrIntVectorTy() &&
                    primalKind(&I) == Kind::Integer && !loadsAddress(I));
  if (NoTangent && I.getType()->isIntOrIntVectorTy() &&
      !ConstantLoads.contains(&I) &&
      !I.hasMetadata(IntegerRecordMetadata) && floatsReadFromBits(&I))
    return unsupported(I, FloatsInIntegerBitsError);
  if (!isAnalyzedActive(&I)) {
    // An integer holding a float's bits that is then changed by integer
    // operations (sign-bit tricks): its derivative cannot be known. (Not a
    // reverse sweep's integer record, a branch taken, read from an array
    // of records beside doubles that the type analysis sees as doubles.)
    if (I.getType()->isIntOrIntVectorTy() && holdsFloatBits(&I) &&
        !ConstantLoads.contains(&I) && !onlyComparedOrIndexes(I) &&
        !I.hasMetadata(IntegerRecordMetadata))
      return unsupported(I, "an integer holds the bits of a floating-point "
                            "value and is changed by integer operations; "
                            "use floating-point operations (fabs, copysign, "
                            "-x) instead");
    return true;
  }
  // An integer the type analysis knows (a key, a count) copied out of
  // memory that has a shadow: nothing to read there. (The shadow may point
  // nowhere: that of a reference to a constant int, `std::tuple<int &&>`.)
  // (Not an address kept in an integer field and made a pointer again
  // after address arithmetic, `(double *)(c->r + 8 * i)`: its tangent is
  // the shadow struct's field. Its tangent was lost, 0, until 2026-12-06.)
  if (I.getType()->isIntOrIntVectorTy() && primalKind(&I) == Kind::Integer &&
      !loadsAddress(I))
    return true;
  // A pointer whose tangent may be null (one to constant data read back
  // from memory with derivatives; in forward mode over a reverse sweep, one
  // read from a tape record, whose tangent is null where the outer request
  // passed it enzyme_const, as the constant parameters of an objective
  // whose Hessian-vector product is taken): the values read through a null
  // one have no tangent, zeros read from a constant block.
  if (Interleaved.contains(I.getPointerOperand())) {
    setTangent(&I, interleavedLoad(I, SP));
    return true;
  }
  const Align ShadowA =
      shadowAlign(I.getModule()->getDataLayout(), I.getType(), I.getAlign());
  auto Address = [&](unsigned L) {
    Value *A = lane(SP, L);
    return nullable(I.getPointerOperand())
               ? guardedReadAddress(B, A, I.getType(), ShadowA)
               : A;
  };
  setTangent(&I, forEachLane(I.getType(), [&](unsigned L) {
    LoadInst *S = B.CreateAlignedLoad(I.getType(), Address(L), ShadowA,
                                      I.isVolatile(), I.getName() + ".tangent");
    S->setOrdering(I.getOrdering());
    S->setSyncScopeID(I.getSyncScopeID());
    tagShadowAccess(I, *S, L);
    // (A null tangent pointer of a shadow struct the caller zeroed: the
    // scratch shadow of its primal address, where writes and reads meet.)
    if (I.getType()->isPointerTy() && nullable(&I))
      return nullShadowOrScratch(B, S, &I,
                                 forwardScratchLane(L, Key.ScratchLevel));
    return static_cast<Value *>(S);
  }));
  return true;
}

bool ForwardEmitter::visitStoreInst(StoreInst &I) {
  Value *V = I.getValueOperand();
  Value *SP = tangentOrNull(I.getPointerOperand());
  Value *TV = tangentOrNull(V);
  if (!SP) {
    // (An exception object: what is thrown carries no derivative.)
    const Value *Obj = getUnderlyingObject(I.getPointerOperand());
    // (Or memory that no differentiated code reads derivatives back
    // from: a global log of calls, WriteOnlyMemory.h.)
    if (!TV || Ctx.rules().isInactiveGlobal(Obj) || isExceptionObject(Obj) ||
        Ctx.rules().writeOnlyMemory(PrimalOf.lookup(I.getPointerOperand())))
      return true;
    if (isa<PtrToIntInst>(V) ||
        (isa<BinaryOperator>(V) && V->getType()->isIntOrIntVectorTy()))
      return unsupported(I, AddressInIntegerError);
    // An integer copied into a local integer variable that never becomes
    // a pointer (`long m = std::max(a, b)` at -O0, read through the
    // reference std::max returns), or one too narrow to hold an address
    // (std::swap<int> at -O0): a number, whatever memory it came from.
    const DataLayout &DL = I.getModule()->getDataLayout();
    if (V->getType()->isIntOrIntVectorTy() && !carriesFloatBits(V) &&
        (V->getType()->getScalarSizeInBits() < DL.getPointerSizeInBits() ||
         !mayBecomePointer(I.getPointerOperand(), 4)))
      return true;
    // A number the type analysis knows (a count or a size the function
    // uses as one) that came with a tangent: a caller read it at -O0, with
    // no TBAA, from memory it could not type (`A->p[A->n]` through a
    // `long long *` field) and passed it on. It has no derivative to lose,
    // whatever memory it goes to (OSQP's csc_spalloc stores `nzmax` into
    // its matrix; e2e fwd_untyped_counts.c).
    if (isNumber(V) && !carriesFloatBits(V))
      return true;
    if (V->getType()->isIntOrIntVectorTy() && carriesFloatBits(V))
      return unsupported(I, "the bits of a floating-point value with a "
                            "derivative are stored as an integer into "
                            "memory that holds no derivative (an integer "
                            "variable or field, or a part of the bits); "
                            "adcc cannot follow them there; keep the value "
                            "in a floating-point variable");
    return unsupported(I, shadowlessStoreMessage(
                                  Ctx, *Key.Primal,
                                  isa<GlobalValue>(Obj) ? Obj
                                                        : PrimalOf.lookup(Obj)));
  }
  if (auto *PS = dyn_cast_or_null<StoreInst>(PrimalOf.lookup(&I));
      PS && storesIntoPartOfFloat(*PS))
    return unsupported(I, PartOfFloatStoreError);
  // A value without a derivative still overwrites the shadow with zero
  // (floats, pointers); integers that are not float or pointer bits leave
  // the shadow alone, and so do numbers whatever tangent they were given:
  // the shadow may be the primal's own integer table (a shadow struct
  // sharing the primal's counts), which must see the primal's write only.
  // (An integer without a tangent stored into an integer variable that
  // holds addresses, at -O0: the tangent would keep the address before.)
  // (Not a parameter without one, stored into its -O0 slot: an offset or
  // an alignment that the address arithmetic uses, as Eigen's
  // handmade_aligned_malloc's `alignment`; an address the caller has
  // would have come with its tangent.)
  if (!TV && V->getType()->isIntegerTy() && !isa<Constant>(V) &&
      !isa<Argument>(V) &&
      localHoldsAddresses(PrimalOf.lookup(I.getPointerOperand())))
    return unsupported(I, AddressInIntegerError);
  if ((!TV && !canCarryDerivative(V->getType())) || isNumber(V))
    return true;
  if (Interleaved.contains(I.getPointerOperand())) {
    interleavedStore(I, SP, TV);
    return true;
  }
  // (Through a tangent that may be null in device code, where no scratch
  // shadow stands behind it: lost if read back.)
  if (TV && V->getType()->isFPOrFPVectorTy() &&
      nullable(I.getPointerOperand()) &&
      lacksNullShadowScratch(*I.getModule()) &&
      readsBackThroughNullShadow(PrimalOf.lookup(I.getPointerOperand()),
                                 NullablePrimals))
    return unsupported(I, DeviceNullShadowWriteError);
  const Align ShadowA =
      shadowAlign(I.getModule()->getDataLayout(), V->getType(), I.getAlign());
  // An integer with a tangent that the type analysis cannot tell from a
  // number (no TBAA): where the shadow is the primal's own memory (a shadow
  // struct sharing the primal's count table) it gets the primal's value
  // again, never the tangent (a count copied through a phi of a load with
  // a tangent and one without would store 0 there).
  bool KeepsPrimalInSharedMemory = TV && V->getType()->isIntOrIntVectorTy();
  for (unsigned L = 0; L < Width; ++L) {
    Value *Shadow = TV ? lane(TV, L) : Constant::getNullValue(V->getType());
    if (KeepsPrimalInSharedMemory)
      Shadow = B.CreateSelect(
          B.CreateICmpEQ(lane(SP, L), I.getPointerOperand()), V, Shadow);
    // (Not a scratch shadow: the shadow memory keeps its null pointer.)
    if (TV && V->getType()->isPointerTy() && nullable(V))
      Shadow = strippedNullShadow(B, Shadow);
    // (Through a tangent that may be null: into a sink.)
    Value *To = nullable(I.getPointerOperand())
                    ? guardedWriteAddress(B, lane(SP, L), V->getType(), ShadowA)
                    : lane(SP, L);
    StoreInst *S = B.CreateAlignedStore(Shadow, To, ShadowA, I.isVolatile());
    S->setOrdering(I.getOrdering());
    S->setSyncScopeID(I.getSyncScopeID());
    tagShadowAccess(I, *S, L);
  }
  return true;
}

bool ForwardEmitter::visitGetElementPtrInst(GetElementPtrInst &I) {
  Value *SP = tangentOrNull(I.getPointerOperand());
  if (!SP)
    return true;
  if (auto It = Interleaved.find(I.getPointerOperand());
      It != Interleaved.end()) {
    setTangent(&I, interleavedGEP(I, SP, It->second));
    return true;
  }
  SmallVector<Value *, 4> Indices(I.indices());
  bool KeepNull = nullable(I.getPointerOperand());
  setTangent(&I, forEachLane(I.getType(), [&](unsigned L) {
    if (KeepNull)
      return nullKeepingGEP(B, I.getSourceElementType(), lane(SP, L), Indices,
                            I.getName() + ".shadow", I.getNoWrapFlags());
    return B.CreateGEP(I.getSourceElementType(), lane(SP, L), Indices,
                       I.getName() + ".shadow", I.getNoWrapFlags());
  }));
  return true;
}

bool ForwardEmitter::visitMemTransferInst(MemTransferInst &I) {
  Value *SD = tangentOrNull(I.getRawDest());
  Value *SS = tangentOrNull(I.getRawSource());
  // (Integers have no tangents; the source's shadow may not exist: an
  // Eigen nullary expression, a struct of two longs, is not active.)
  auto *PrimalCopy = dyn_cast_or_null<MemTransferInst>(PrimalOf.lookup(&I));
  if ((SD || SS) && PrimalCopy && copiesOnlyIntegers(types(), *PrimalCopy)) {
    // (Addresses kept as integers move with their shadows: std::sort's
    // insertion sort of `uintptr_t` at -O0 moves them with memmove, whose
    // shadow stayed unsorted, a wrong tangent without a word, until
    // 2026-12-07. Not into a shadow that is the primal: numbers.)
    if (SD && SS && mayCopyIntegerAddresses(*PrimalCopy))
      for (unsigned L = 0; L < Width; ++L)
        guardedShadowCopy(B, lane(SD, L), lane(SS, L),
                          lengthUnlessPrimal(B, I.getRawDest(), lane(SD, L),
                                             I.getLength()));
    return true;
  }
  if (!SD) {
    // (Into memory that no differentiated code reads derivatives back
    // from: WriteOnlyMemory.h.)
    if (!SS || Ctx.rules().writeOnlyMemory(PrimalOf.lookup(I.getRawDest())))
      return true;
    return unsupported(I, "derivatives are copied into memory that has no "
                          "shadow");
  }
  bool Guarded = nullable(I.getRawDest()) || nullable(I.getRawSource());
  // (Bytes that may be numbers: not into a shadow that is the primal.)
  bool MayBeShared = PrimalCopy &&
                     !holdsFloatingPoint(types(), PrimalCopy->getRawDest(),
                                         PrimalCopy->getLength()) &&
                     !holdsFloatingPoint(types(), PrimalCopy->getRawSource(),
                                         PrimalCopy->getLength());
  for (unsigned L = 0; L < Width; ++L) {
    Value *Len = MayBeShared ? lengthUnlessPrimal(B, I.getRawDest(),
                                                  lane(SD, L), I.getLength())
                             : I.getLength();
    if (Guarded) {
      // (Either tangent may be null: a null source copies zeros.)
      if (SS)
        guardedShadowCopy(B, lane(SD, L), lane(SS, L), Len);
      else
        guardedShadowClear(B, lane(SD, L), Len);
      continue;
    }
    if (!SS) {
      // Copying from memory without derivatives: the shadow becomes zero.
      B.CreateMemSet(lane(SD, L), B.getInt8(0), Len,
                     shadowAlign(I.getDestAlign()), I.isVolatile());
      continue;
    }
    if (isa<MemMoveInst>(I))
      B.CreateMemMove(lane(SD, L), shadowAlign(I.getDestAlign()), lane(SS, L),
                      shadowAlign(I.getSourceAlign()), Len, I.isVolatile());
    else
      B.CreateMemCpy(lane(SD, L), shadowAlign(I.getDestAlign()), lane(SS, L),
                     shadowAlign(I.getSourceAlign()), Len, I.isVolatile());
  }
  return true;
}

bool ForwardEmitter::visitMemSetInst(MemSetInst &I) {
  Value *SD = tangentOrNull(I.getRawDest());
  if (!SD)
    return true;
  // Numbers (list heads set to -1) leave their shadow alone, which may be
  // the primal's own table.
  auto *PrimalSet = dyn_cast_or_null<MemSetInst>(PrimalOf.lookup(&I));
  if (PrimalSet && holdsOnlyIntegers(types(), PrimalSet->getRawDest(),
                                     PrimalSet->getLength()))
    return true;
  // Whatever the bytes, memory set from a constant has a zero derivative.
  if (Interleaved.contains(I.getRawDest())) {
    interleavedClear(I, SD);
    return true;
  }
  // (Bytes that may be numbers: not into a shadow that is the primal.)
  bool MayBeShared =
      PrimalSet && !holdsFloatingPoint(types(), PrimalSet->getRawDest(),
                                       PrimalSet->getLength());
  for (unsigned L = 0; L < Width; ++L) {
    Value *Len = MayBeShared ? lengthUnlessPrimal(B, I.getRawDest(),
                                                  lane(SD, L), I.getLength())
                             : I.getLength();
    if (nullable(I.getRawDest()))
      guardedShadowClear(B, lane(SD, L), Len);
    else
      B.CreateMemSet(lane(SD, L), B.getInt8(0), Len,
                     shadowAlign(I.getDestAlign()), I.isVolatile());
  }
  return true;
}

bool ForwardEmitter::visitAtomicRMWInst(AtomicRMWInst &I) {
  Value *SP = tangentOrNull(I.getPointerOperand());
  Value *TV = tangentOrNull(I.getValOperand());
  if (!SP && !TV)
    return true;
  // An integer counter (a reference count, a lock) in memory that has a
  // shadow: as for integer stores, the shadow is left alone.
  if (I.getType()->isIntegerTy() && !TV && !holdsFloatBits(&I))
    return true;
  if (!SP || (I.getOperation() != AtomicRMWInst::FAdd &&
              I.getOperation() != AtomicRMWInst::FSub))
    return unsupported(I, "this atomic read-modify-write on derivatives");
  if (Key.ErrorEstimate)
    return unsupported(I, "an atomic floating-point update has no error "
                          "estimation rule in adcc");
  // The old value's tangent is the shadow's old value: what the same
  // operation on the shadow returns (adding -0.0 when the value added has
  // no tangent, which leaves the shadow as it is).
  // (Returned, where the caller takes no tangent of the result: CUDA's
  // and HIP's atomicAdd(p, v) at -O0, whose result the program drops.)
  bool Wanted = isAnalyzedActive(&I) && !I.use_empty() &&
                (Key.ReturnShadow || !onlyReturned(I));
  // (Through a shadow that may be null, an update nobody reads back goes
  // to a sink then.)
  bool Guarded = nullable(I.getPointerOperand());
  if (Guarded && Wanted)
    return unsupported(I, "an atomic update through a pointer read back "
                          "from memory that may also hold pointers to "
                          "constant data (enzyme_const), whose tangent may "
                          "be null; pass the constant data as a duplicated "
                          "argument (enzyme_dup with a zero shadow)");
  if (!TV && !Wanted)
    return true;
  Value *Old = forEachLane(I.getType(), [&](unsigned L) -> Value * {
    Value *D = TV ? lane(TV, L) : ConstantFP::getNegativeZero(I.getType());
    Value *To = Guarded ? guardedWriteAddress(B, lane(SP, L), I.getType(),
                                              I.getAlign())
                        : lane(SP, L);
    return B.CreateAtomicRMW(TV ? I.getOperation() : AtomicRMWInst::FAdd,
                             To, D, I.getAlign(), I.getOrdering(),
                             I.getSyncScopeID());
  });
  if (Wanted)
    setTangent(&I, Old);
  return true;
}

bool ForwardEmitter::visitAtomicCmpXchgInst(AtomicCmpXchgInst &I) {
  // An integer compare-and-swap (a reference count taken only while it is
  // not zero, std::weak_ptr::lock; a lock) that exchanges no float's bits:
  // as for integer stores, the shadow is left alone and the result has no
  // tangent.
  Value *New = I.getNewValOperand(), *Cmp = I.getCompareOperand();
  if (New->getType()->isIntegerTy() && !tangentOrNull(New) &&
      !tangentOrNull(Cmp) && !holdsFloatBits(New) && !holdsFloatBits(Cmp))
    return true;
  return visitInstruction(I);
}

} // namespace adcore
