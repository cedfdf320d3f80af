//===- FloatShuffles.cpp - Float data shuffled as integers ---------------===//
//
// SIMD code moves doubles with integer shuffles: Eigen broadcasts a double
// of a packet with `_mm_shuffle_epi32`, which InstCombine turns into
//
//   %v = load <4 x i32>, ptr %p
//   %s = shufflevector <4 x i32> %v, poison, <0, 1, 0, 1>
//   %d = bitcast <4 x i32> %s to <2 x double>
//
// The integers only move whole doubles (each pair of lanes stays together,
// in order), so the shuffle is one of doubles: `shufflevector <2 x double>
// %v', poison, <0, 0>` of `%v' = load <2 x double>, ptr %p`. Rewriting the
// primal that way before it is differentiated lets both modes treat the
// data as what it is; the values computed are the same bits.
//
// A shuffle is rewritten when all its users are bitcasts to one vector type
// of elements k times as wide as its own (floats, or integers holding the
// floats its operand was cast from, as at -O0), or stores of it into stack
// slots of such a vector of floats (an __m256d argument passed in memory),
// and its mask keeps aligned groups of k lanes in order. A load of integers
// whose users are then all bitcasts to one floating-point type becomes a load
// of that type. At -O0 the shuffled __m128i also passes through a local
// variable: a stack slot of integer vectors whose stores all store floats' bits
// and whose loads are all read as those floats gets the floats' type. Whole
// floats taken out of a vector of them as an integer (the half of an AVX packet
// as an i128, by a shift and truncation of an i256 or a lane of <2 x i128>) and
// cast back to floats are a shuffle of floats too; an address taken out
// of a loaded vector of floats becomes a load of the pointer; a lane of
// floats cast to integers is the cast of the lane, and a store of a float
// cast to an integer stores the float.
//
//===----------------------------------------------------------------------===//

#include "PrimalRewrites.h"

#include "Prepare.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

namespace adcore {
namespace {

/// The mask of \p SV over elements \p K times as wide, or nothing when a
/// group of K lanes does not take one aligned group in order.
std::optional<SmallVector<int, 8>> widenedMask(ShuffleVectorInst &SV,
                                               unsigned K) {
  ArrayRef<int> Mask = SV.getShuffleMask();
  if (Mask.size() % K)
    return std::nullopt;
  SmallVector<int, 8> Wide;
  for (unsigned G = 0; G < Mask.size(); G += K) {
    ArrayRef<int> Group = Mask.slice(G, K);
    if (all_of(Group, [](int M) { return M < 0; })) {
      Wide.push_back(-1);
      continue;
    }
    if (Group[0] < 0 || Group[0] % K)
      return std::nullopt;
    for (unsigned J = 1; J < K; ++J)
      if (Group[J] != Group[0] + int(J))
        return std::nullopt;
    Wide.push_back(Group[0] / int(K));
  }
  return Wide;
}

/// The one vector type every user of \p V is bitcast to, or null.
FixedVectorType *castType(Value &V) {
  FixedVectorType *To = nullptr;
  for (User *U : V.users()) {
    auto *BC = dyn_cast<BitCastInst>(U);
    auto *T = BC ? dyn_cast<FixedVectorType>(BC->getType()) : nullptr;
    if (!T || (To && T != To))
      return nullptr;
    To = T;
  }
  return To;
}

/// castType(V) when its elements are floating-point, or null.
FixedVectorType *floatCastType(Value &V) {
  FixedVectorType *T = castType(V);
  return T && T->getElementType()->isFloatingPointTy() ? T : nullptr;
}

/// The floating-point type of \p Bits bits that \p V was bitcast from (at
/// -O0, `_mm_castpd_si128` then a cast to <4 x i32>), or null.
Type *floatSourceElement(Value *V, unsigned Bits) {
  while (auto *BC = dyn_cast<BitCastInst>(V))
    V = BC->getOperand(0);
  Type *E = V->getType()->getScalarType();
  return V->getType()->isVectorTy() && E->isFloatingPointTy() &&
                 E->getPrimitiveSizeInBits() == Bits
             ? E
             : nullptr;
}

/// Replaces the bitcasts that are all the users of \p I with \p New (of
/// their type) and erases them and \p I.
void replaceCasts(Instruction &I, Value *New) {
  for (User *U : make_early_inc_range(I.users())) {
    auto *BC = cast<Instruction>(U);
    BC->replaceAllUsesWith(New);
    BC->eraseFromParent();
  }
  I.eraseFromParent();
}

/// \p V as a \p To: the value it was bitcast from when that has the type
/// (no chain of casts for the emitters to follow), else a bitcast.
Value *castFrom(IRBuilder<> &B, Value *V, Type *To) {
  for (Value *S = V; S->getType() != To;) {
    auto *BC = dyn_cast<BitCastInst>(S);
    if (!BC)
      return B.CreateBitCast(V, To);
    S = BC->getOperand(0);
    if (S->getType() == To)
      return S;
  }
  return V;
}

/// A vector of floats and the bit offset in it where the integer \p V's
/// bits start: \p V is those bits cast to an integer, shifted right and
/// truncated, or a wide integer lane of them (`extractelement` of a cast to
/// <2 x i128>).
struct BitSlice {
  Value *Floats = nullptr;
  uint64_t Offset = 0;
};

std::optional<BitSlice> bitSlice(Value *V, unsigned Depth = 4) {
  if (auto *BC = dyn_cast<BitCastInst>(V)) {
    auto *SrcTy = dyn_cast<FixedVectorType>(BC->getSrcTy());
    if (SrcTy && SrcTy->getElementType()->isFloatingPointTy())
      return BitSlice{BC->getOperand(0), 0};
    // (Through a cast between integer types, the bits stay in place.)
    if (Depth > 0 && BC->getSrcTy()->isIntOrIntVectorTy())
      return bitSlice(BC->getOperand(0), Depth - 1);
    return std::nullopt;
  }
  // A packet loaded as integers (InstCombine's load for a sign mask):
  // its bits, in memory. (A scalar integer holding floats is one of the
  // copies IntegerCopies.cpp follows.)
  if (auto *LI = dyn_cast<LoadInst>(V); LI && LI->isSimple() &&
                                        LI->getType()->isIntOrIntVectorTy() &&
                                        LI->getType()->isVectorTy())
    return BitSlice{LI, 0};
  // (Shifts and truncations of whole integers only: on vectors they act
  // lane by lane.)
  if (Depth == 0 || V->getType()->isVectorTy())
    return std::nullopt;
  if (auto *TI = dyn_cast<TruncInst>(V))
    return bitSlice(TI->getOperand(0), Depth - 1);
  if (auto *BO = dyn_cast<BinaryOperator>(V);
      BO && BO->getOpcode() == Instruction::LShr) {
    auto *C = dyn_cast<ConstantInt>(BO->getOperand(1));
    std::optional<BitSlice> S =
        C ? bitSlice(BO->getOperand(0), Depth - 1) : std::nullopt;
    if (S)
      S->Offset += C->getZExtValue();
    return S;
  }
  if (auto *EE = dyn_cast<ExtractElementInst>(V)) {
    auto *C = dyn_cast<ConstantInt>(EE->getIndexOperand());
    std::optional<BitSlice> S =
        C ? bitSlice(EE->getVectorOperand(), Depth - 1) : std::nullopt;
    if (S)
      S->Offset += C->getZExtValue() * EE->getType()->getPrimitiveSizeInBits();
    return S;
  }
  return std::nullopt;
}

/// Rewrites \p Cast, a bitcast to floats (or to integers as wide: the
/// operand of a sign mask) of whole floats' bits taken out of a vector of
/// them as an integer (the halves of an AVX packet, `lshr` and `trunc` of
/// an i256 or `extractelement` of <2 x i128>, as InstCombine writes
/// `_mm256_extractf128_pd`), as the shuffle or extractelement taking those
/// floats (cast to the integers); returns whether it did.
bool rewriteBitSlice(BitCastInst &Cast) {
  Type *To = Cast.getType();
  if (!Cast.getSrcTy()->isIntegerTy())
    return false;
  std::optional<BitSlice> S = bitSlice(Cast.getOperand(0));
  if (!S)
    return false;
  // A packet loaded as integers is read as the floats the cast takes.
  auto *IntLoad = dyn_cast<LoadInst>(S->Floats);
  if (IntLoad && !IntLoad->getType()->isIntOrIntVectorTy())
    IntLoad = nullptr;
  Type *Elt =
      IntLoad ? To->getScalarType() : S->Floats->getType()->getScalarType();
  if (!Elt->isFloatingPointTy() || !S->Floats->getType()->isVectorTy())
    return false;
  unsigned Bits = Elt->getPrimitiveSizeInBits();
  unsigned Total = S->Floats->getType()->getPrimitiveSizeInBits();
  // Floats, or integers as wide (the operand of a sign mask), which stay a
  // cast of the floats.
  Type *ToElt = To->getScalarType();
  if (ToElt != Elt &&
      (!ToElt->isIntegerTy() || ToElt->getPrimitiveSizeInBits() != Bits))
    return false;
  unsigned Per = To->getPrimitiveSizeInBits() / Bits;
  if (Total % Bits || S->Offset % Bits || S->Offset / Bits + Per > Total / Bits)
    return false;
  unsigned First = S->Offset / Bits;
  IRBuilder<> B(&Cast);
  B.SetCurrentDebugLocation(Cast.getDebugLoc());
  Value *Floats = S->Floats;
  if (IntLoad) {
    IRBuilder<> LB(IntLoad->getNextNode());
    LoadInst *F = LB.CreateAlignedLoad(FixedVectorType::get(Elt, Total / Bits),
                                       IntLoad->getPointerOperand(),
                                       IntLoad->getAlign(), IntLoad->getName());
    F->copyMetadata(*IntLoad);
    Floats = F;
  }
  Value *New;
  if (To->isVectorTy()) {
    SmallVector<int, 8> Mask;
    for (unsigned L = 0; L < Per; ++L)
      Mask.push_back(First + L);
    New = B.CreateShuffleVector(Floats, Mask);
  } else {
    New = B.CreateExtractElement(Floats, uint64_t(First));
  }
  replaceRewritten(Cast, B.CreateBitCast(New, To)); // (no cast for floats)
  return true;
}

/// Rewrites \p I2P, an address taken out of a vector of floats just
/// loaded (InstCombine's reading of a small struct {double, ..., T *} kept
/// in a vector-typed slot: `inttoptr (extractelement (bitcast (load <4 x
/// double>)), 2)`), as a load of the pointer from its place in that memory;
/// returns whether it did. Derivatives of floats are not the shadows of
/// pointers: only a pointer load gives the pointer's shadow.
bool rewritePointerLane(IntToPtrInst &I2P) {
  auto *EE = dyn_cast<ExtractElementInst>(I2P.getOperand(0));
  auto *Index = EE ? dyn_cast<ConstantInt>(EE->getIndexOperand()) : nullptr;
  auto *Cast = EE ? dyn_cast<BitCastInst>(EE->getVectorOperand()) : nullptr;
  auto *LI = Cast ? dyn_cast<LoadInst>(Cast->getOperand(0)) : nullptr;
  if (!Index || !LI || !LI->isSimple() ||
      !LI->getType()->getScalarType()->isFloatingPointTy())
    return false;
  const DataLayout &DL = I2P.getDataLayout();
  if (EE->getType()->getPrimitiveSizeInBits() !=
      DL.getPointerSizeInBits(I2P.getType()->getPointerAddressSpace()))
    return false;
  uint64_t Offset = Index->getZExtValue() * DL.getTypeStoreSize(EE->getType());
  IRBuilder<> B(LI->getNextNode());
  B.SetCurrentDebugLocation(I2P.getDebugLoc());
  Value *At = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(),
                                           LI->getPointerOperand(), Offset);
  LoadInst *P = B.CreateAlignedLoad(I2P.getType(), At,
                                    commonAlignment(LI->getAlign(), Offset));
  replaceRewritten(I2P, P);
  return true;
}

/// Rewrites \p EE, a lane of floats cast to a vector of integers of the
/// same width (`extractelement (bitcast <4 x double> to <4 x i64>), 0`), as
/// the cast of that float; returns whether it did.
bool rewriteIntegerLane(ExtractElementInst &EE) {
  auto *Cast = dyn_cast<BitCastInst>(EE.getVectorOperand());
  auto *SrcTy = Cast ? dyn_cast<FixedVectorType>(Cast->getSrcTy()) : nullptr;
  auto *DstTy = Cast ? dyn_cast<FixedVectorType>(Cast->getDestTy()) : nullptr;
  if (!SrcTy || !DstTy || !SrcTy->getElementType()->isFloatingPointTy() ||
      SrcTy->getNumElements() != DstTy->getNumElements())
    return false;
  IRBuilder<> B(&EE);
  B.SetCurrentDebugLocation(EE.getDebugLoc());
  Value *Lane =
      B.CreateExtractElement(Cast->getOperand(0), EE.getIndexOperand());
  replaceRewritten(EE, B.CreateBitCast(Lane, EE.getType()));
  return true;
}

/// Rewrites \p SI, a store of a float's bits cast to an integer, as a store
/// of the float; returns whether it did.
bool rewriteIntegerStore(StoreInst &SI) {
  auto *Cast = dyn_cast<BitCastInst>(SI.getValueOperand());
  if (!Cast || !SI.isSimple() || !Cast->getDestTy()->isIntOrIntVectorTy() ||
      !Cast->getSrcTy()->isFPOrFPVectorTy())
    return false;
  SI.setOperand(0, Cast->getOperand(0));
  RecursivelyDeleteTriviallyDeadInstructions(Cast);
  return true;
}

/// The vector of floats every user of \p V stores it into: each user a
/// store of \p V into a stack slot of that type (the by-value argument of
/// a call that passes __m256d in memory: -fno-inline with AVX code in a
/// file built for SSE2), or null.
FixedVectorType *slotFloatType(Value &V) {
  FixedVectorType *To = nullptr;
  for (User *U : V.users()) {
    auto *SI = dyn_cast<StoreInst>(U);
    auto *Slot = SI ? dyn_cast<AllocaInst>(SI->getPointerOperand()) : nullptr;
    auto *T =
        Slot ? dyn_cast<FixedVectorType>(Slot->getAllocatedType()) : nullptr;
    if (!T || SI->getValueOperand() != &V || !SI->isSimple() ||
        !T->getElementType()->isFloatingPointTy() ||
        T->getPrimitiveSizeInBits() != V.getType()->getPrimitiveSizeInBits() ||
        (To && T != To))
      return nullptr;
    To = T;
  }
  return To;
}

/// Rewrites \p SV as a shuffle of floats; returns whether it did.
bool rewriteShuffle(ShuffleVectorInst &SV) {
  auto *InTy = dyn_cast<FixedVectorType>(SV.getOperand(0)->getType());
  if (!InTy || !InTy->getElementType()->isIntegerTy() || SV.use_empty())
    return false;
  // The users read whole elements of FloatBits bits: floats, or integers
  // that hold them (the __m128i of a broadcast at -O0); or they store the
  // shuffle into slots of floats.
  FixedVectorType *To = castType(SV);
  FixedVectorType *Slot = To ? nullptr : slotFloatType(SV);
  if (Slot)
    To = Slot;
  if (!To)
    return false;
  unsigned IntBits = InTy->getScalarSizeInBits();
  unsigned FloatBits = To->getScalarSizeInBits();
  Type *Elt = To->getElementType();
  if (!Elt->isFloatingPointTy())
    Elt = floatSourceElement(SV.getOperand(0), FloatBits);
  if (!Elt || FloatBits < IntBits || FloatBits % IntBits ||
      InTy->getNumElements() % (FloatBits / IntBits))
    return false;
  unsigned K = FloatBits / IntBits;
  auto Wide = widenedMask(SV, K);
  if (!Wide)
    return false;
  auto *WideIn = FixedVectorType::get(Elt, InTy->getNumElements() / K);
  IRBuilder<> B(&SV);
  B.SetCurrentDebugLocation(SV.getDebugLoc());
  Value *A = castFrom(B, SV.getOperand(0), WideIn);
  Value *C = castFrom(B, SV.getOperand(1), WideIn);
  Value *New = B.CreateShuffleVector(A, C, *Wide, SV.getName());
  if (!Slot) {
    replaceCasts(SV, B.CreateBitCast(New, To));
    return true;
  }
  Value *Floats = B.CreateBitCast(New, To);
  for (User *U : make_early_inc_range(SV.users()))
    cast<StoreInst>(U)->setOperand(0, Floats);
  SV.eraseFromParent();
  return true;
}

/// Rewrites a load of integers whose users all reinterpret it as one
/// floating-point vector type as a load of that type.
bool rewriteLoad(LoadInst &LI) {
  if (!LI.getType()->isIntOrIntVectorTy() || LI.use_empty() || !LI.isSimple())
    return false;
  FixedVectorType *To = floatCastType(LI);
  if (!To ||
      To->getPrimitiveSizeInBits() != LI.getType()->getPrimitiveSizeInBits())
    return false;
  IRBuilder<> B(&LI);
  LoadInst *New = B.CreateAlignedLoad(To, LI.getPointerOperand(), LI.getAlign(),
                                      LI.getName());
  New->copyMetadata(LI);
  replaceCasts(LI, New);
  return true;
}

/// Gives a stack slot of integer vectors whose stores all store floats'
/// bits and whose loads are all read as those floats the floats' type
/// (the __m128i locals of SIMD code at -O0).
bool retypeSlot(AllocaInst &AI) {
  auto *IntTy = dyn_cast<FixedVectorType>(AI.getAllocatedType());
  if (!IntTy || !IntTy->getElementType()->isIntegerTy() ||
      AI.isArrayAllocation())
    return false;
  Type *FloatTy = nullptr;
  auto Agree = [&](Type *T) {
    if (!T || !T->isFPOrFPVectorTy() ||
        T->getPrimitiveSizeInBits() != IntTy->getPrimitiveSizeInBits() ||
        (FloatTy && T != FloatTy))
      return false;
    FloatTy = T;
    return true;
  };
  SmallVector<StoreInst *, 4> Stores;
  SmallVector<LoadInst *, 4> Loads;
  for (User *U : AI.users()) {
    if (auto *SI = dyn_cast<StoreInst>(U)) {
      auto *BC = dyn_cast<BitCastInst>(SI->getValueOperand());
      if (SI->getPointerOperand() != &AI || !SI->isSimple() || !BC ||
          !Agree(BC->getOperand(0)->getType()))
        return false;
      Stores.push_back(SI);
    } else if (auto *LI = dyn_cast<LoadInst>(U)) {
      if (LI->getType() != IntTy || !LI->isSimple() || LI->use_empty() ||
          !all_of(LI->users(), [&](User *LU) {
            return isa<BitCastInst>(LU) && Agree(LU->getType());
          }))
        return false;
      Loads.push_back(LI);
    } else if (auto *II = dyn_cast<IntrinsicInst>(U);
               !II || !II->isLifetimeStartOrEnd()) {
      return false;
    }
  }
  if (!FloatTy)
    return false;
  AI.setAllocatedType(FloatTy);
  for (StoreInst *SI : Stores) {
    auto *BC = cast<BitCastInst>(SI->getValueOperand());
    SI->setOperand(0, BC->getOperand(0));
    if (BC->use_empty())
      BC->eraseFromParent();
  }
  for (LoadInst *LI : Loads)
    rewriteLoad(*LI);
  return true;
}

} // namespace

bool canonicalizeFloatShuffles(Function &F) {
  bool Changed = rewriteEach<IntToPtrInst>(F, rewritePointerLane);
  // (After the pointers, which read lanes of such casts too.)
  Changed |= rewriteEach<ExtractElementInst>(F, rewriteIntegerLane);
  Changed |= rewriteEach<StoreInst>(F, rewriteIntegerStore);
  bool Shuffled = rewriteEach<ShuffleVectorInst>(F, rewriteShuffle);
  if (Shuffled)
    rewriteEach<AllocaInst>(F, retypeSlot);
  // Integer loads read only as floats, from the shuffles or as they were
  // (a packet InstCombine loaded as integers for a sign mask).
  return rewriteEach<LoadInst>(F, rewriteLoad) || Shuffled || Changed;
}

bool rewriteFloatBitSlices(Function &F) {
  return rewriteEach<BitCastInst>(F, rewriteBitSlice);
}

} // namespace adcore
