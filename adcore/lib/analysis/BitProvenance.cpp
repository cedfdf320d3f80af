//===- BitProvenance.cpp - Where an integer's bits come from -------------===//
//
// The sources of an integer's bits, bit by bit: a bitcast of a float
// copies each of its bits; truncations, extensions and shifts by constants
// move them; and/or/xor keep the bits the other operand lets through
// (known ones and zeros: computeKnownBits); an addition keeps the bits
// below the lowest one the other operand may change; a select or phi keeps
// a bit that each of its operands has from the same place (a copy of the
// same bit of one float or another: fdlibm's `x *= two54` for subnormals);
// other arithmetic mixes every bit. Comparisons, loads, calls and
// conversions of numbers are no float's bits.
//
//===----------------------------------------------------------------------===//

#include "BitProvenance.h"

#include "support/IRMarks.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/KnownBits.h"

using namespace llvm;

namespace adcore {

unsigned significandBits(const Type *T) {
  if (T->isDoubleTy())
    return 52;
  if (T->isFloatTy())
    return 23;
  return 0;
}

bool copiesSignificand(const BitSources *S) {
  return !S || llvm::any_of(*S, [](const BitSource &B) {
           return B.K == BitSource::Copy && B.FromSignificand;
         });
}

namespace {

/// A bit computed from \p A and \p B (at one place: bits of their
/// significands from another place make it Moved).
BitSource mix(const BitSource &A, const BitSource &B) {
  if (A.K == BitSource::Unrelated && B.K == BitSource::Unrelated)
    return A;
  BitSource R;
  R.K = BitSource::Computed;
  R.FromSignificand = A.FromSignificand || B.FromSignificand;
  R.Moved = A.Moved || B.Moved;
  bool Placed = false;
  for (const BitSource *X : {&A, &B}) {
    if (!X->FromSignificand || X->Moved)
      continue;
    if (Placed && X->Pos != R.Pos)
      R.Moved = true;
    R.Pos = X->Pos;
    Placed = true;
  }
  return R;
}

/// \p A with a carry from the bits below it, \p Carry.
BitSource withCarry(const BitSource &A, const BitSource &Carry) {
  if (Carry.K == BitSource::Unrelated)
    return A;
  BitSource R = A;
  if (R.K == BitSource::Unrelated) {
    R = Carry;
    R.Moved = Carry.FromSignificand; // (a carry alone: from below)
  }
  R.K = BitSource::Computed;
  R.FromSignificand = A.FromSignificand || Carry.FromSignificand;
  return R;
}

/// A bit that is \p A or \p B, as \p Choice (a select or phi) chooses.
BitSource choose(const BitSource &A, const BitSource &B, Value *Choice) {
  if (A == B)
    return A;
  // (A copy of the same bit of floats the choice chooses between, or a
  // copy where another path has no float's bits, a constant.)
  if (A.K == BitSource::Copy || B.K == BitSource::Copy) {
    const BitSource &C = A.K == BitSource::Copy ? A : B;
    const BitSource &O = A.K == BitSource::Copy ? B : A;
    if (O.K == BitSource::Unrelated ||
        (O.K == BitSource::Copy && O.Pos == C.Pos)) {
      BitSource R = C;
      R.Float = Choice;
      R.MaybeConstant |= O.K == BitSource::Unrelated || O.MaybeConstant;
      return R;
    }
  }
  return mix(A, B);
}

/// A bit of an and (or) of \p A and \p B, one of them known only at run
/// time: a copy that a mask computed from no significand clears (sets) or
/// keeps, as fdlibm's floor clears the bits of the fraction, stays a copy
/// in place or a constant; else the bits are mixed.
BitSource keepOrSet(const BitSource &A, const BitSource &B) {
  auto IsMask = [](const BitSource &M) { return !M.FromSignificand; };
  for (auto [C, M] : {std::pair(&A, &B), std::pair(&B, &A)})
    if (C->K == BitSource::Copy && IsMask(*M)) {
      BitSource R = *C;
      R.MaybeConstant = true;
      return R;
    }
  return mix(A, B);
}

/// Every bit computed from all of \p Ops (moved, where any is of a
/// significand).
BitSources mixAll(ArrayRef<const BitSources *> Ops, unsigned Width) {
  BitSource All;
  for (const BitSources *S : Ops)
    for (const BitSource &B : *S)
      All = mix(All, B);
  All.Moved = All.FromSignificand;
  return BitSources(Width, All);
}

} // namespace

const BitSources *BitProvenance::of(Value *V) {
  auto [It, New] = Memo.try_emplace(V);
  if (!New)
    return It->second ? &*It->second : nullptr; // (or in progress: a cycle)
  std::optional<BitSources> S = compute(V);
  std::optional<BitSources> &Slot = Memo[V];
  Slot = std::move(S);
  return Slot ? &*Slot : nullptr;
}

std::optional<BitSources> BitProvenance::compute(Value *V) {
  auto *IT = dyn_cast<IntegerType>(V->getType());
  if (!IT || IT->getBitWidth() > 64)
    return std::nullopt;
  unsigned W = IT->getBitWidth();
  auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return BitSources(W);
  if (Depth > 64)
    return std::nullopt;
  struct Deeper {
    unsigned &D;
    ~Deeper() { --D; }
  } Guard{++Depth};

  auto Operand = [&](unsigned N) { return of(I->getOperand(N)); };
  switch (I->getOpcode()) {
  case Instruction::BitCast: {
    Value *Src = I->getOperand(0);
    unsigned M = significandBits(Src->getType());
    if (!M || isa<Constant>(Src))
      return BitSources(W);
    BitSources S(W);
    for (unsigned B = 0; B < W; ++B)
      S[B] = {BitSource::Copy, B < M, false, false, uint16_t(B), Src};
    return S;
  }
  case Instruction::Trunc:
  case Instruction::ZExt:
  case Instruction::SExt: {
    const BitSources *Op = Operand(0);
    if (!Op)
      return std::nullopt;
    BitSources S(W);
    for (unsigned B = 0; B < W; ++B)
      S[B] = B < Op->size() ? (*Op)[B]
             : I->getOpcode() == Instruction::SExt ? Op->back()
                                                    : BitSource();
    return S;
  }
  case Instruction::Shl:
  case Instruction::LShr:
  case Instruction::AShr: {
    const BitSources *Op = Operand(0);
    auto *Amount = dyn_cast<ConstantInt>(I->getOperand(1));
    if (!Op)
      return std::nullopt;
    if (!Amount || Amount->getZExtValue() >= W) {
      const BitSources *A = Operand(1);
      if (!A)
        return std::nullopt;
      return mixAll({Op, A}, W);
    }
    unsigned N = Amount->getZExtValue();
    BitSources S(W);
    for (unsigned B = 0; B < W; ++B) {
      if (I->getOpcode() == Instruction::Shl)
        S[B] = B >= N ? (*Op)[B - N] : BitSource();
      else if (B + N < W)
        S[B] = (*Op)[B + N];
      else if (I->getOpcode() == Instruction::AShr)
        S[B] = Op->back();
    }
    return S;
  }
  case Instruction::And:
  case Instruction::Or:
  case Instruction::Xor:
    return bitwise(*I);
  case Instruction::Add:
  case Instruction::Sub:
    return addSub(*I);
  case Instruction::PHI:
    if (holdsNoSignificand(cast<PHINode>(*I)))
      return BitSources(W);
    return merged(*I);
  case Instruction::Select:
    return merged(*I);
  case Instruction::Freeze:
    return Operand(0) ? std::optional<BitSources>(*Operand(0)) : std::nullopt;
  default:
    break;
  }
  // Other arithmetic (and intrinsics: bswap, ctlz, umin, ...) mixes the
  // bits of its integer operands; comparisons, loads, calls and
  // conversions of numbers give no float's bits.
  if (!isa<BinaryOperator>(I) && !isa<IntrinsicInst>(I))
    return BitSources(W);
  SmallVector<const BitSources *, 4> Ops;
  for (Value *Op : I->operands())
    if (Op->getType()->isIntegerTy()) {
      const BitSources *S = of(Op);
      if (!S)
        return std::nullopt;
      Ops.push_back(S);
    }
  return mixAll(Ops, W);
}

bool BitProvenance::holdsNoSignificand(PHINode &Phi) {
  SmallVector<Value *, 32> Work{&Phi};
  SmallPtrSet<Value *, 32> Seen;
  auto FromSignificand = [](const BitSource &B) { return B.FromSignificand; };
  while (!Work.empty()) {
    auto *I = dyn_cast<Instruction>(Work.pop_back_val());
    if (!I || !Seen.insert(I).second)
      continue;
    if (Seen.size() > 256)
      return false;
    if (auto *P = dyn_cast<PHINode>(I)) {
      // (What it holds, and the conditions that choose it: a square root
      // computed bit by bit sets its result's bits where comparisons of
      // the significand say so.)
      append_range(Work, P->incoming_values());
      for (BasicBlock *In : P->blocks())
        if (auto *Br = dyn_cast<BranchInst>(In->getTerminator());
            Br && Br->isConditional())
          Work.push_back(Br->getCondition());
      continue;
    }
    // (Comparisons hold no float's bits for the walk over bits, but decide
    // what the phis hold; comparisons of floats' values are control flow
    // as in any program.)
    if (isa<ICmpInst>(I)) {
      append_range(Work, I->operands());
      continue;
    }
    if (isa<LoadInst, CallBase, FCmpInst, FPToSIInst, FPToUIInst>(I))
      continue;
    if (!I->getType()->isIntegerTy())
      return false;
    // (A select chooses by its condition too: the same square root with
    // its branches made selects.)
    if (auto *Sel = dyn_cast<SelectInst>(I))
      Work.push_back(Sel->getCondition());
    if (const BitSources *S = of(I)) {
      if (any_of(*S, FromSignificand))
        return false;
      continue;
    }
    if (isa<BitCastInst>(I))
      return false;
    append_range(Work, I->operands());
  }
  return true;
}

std::optional<BitSources> BitProvenance::bitwise(Instruction &I) {
  Value *AV = I.getOperand(0), *BV = I.getOperand(1);
  const BitSources *A = of(AV);
  const BitSources *B = A ? of(BV) : nullptr;
  if (!A || !B)
    return std::nullopt;
  KnownBits KA = computeKnownBits(AV, DL), KB = computeKnownBits(BV, DL);
  unsigned W = A->size();
  BitSources S(W);
  for (unsigned Bit = 0; Bit < W; ++Bit) {
    bool AZero = KA.Zero[Bit], BZero = KB.Zero[Bit];
    bool AOne = KA.One[Bit], BOne = KB.One[Bit];
    const BitSource &X = (*A)[Bit], &Y = (*B)[Bit];
    switch (I.getOpcode()) {
    case Instruction::And:
      S[Bit] = AZero || BZero ? BitSource()
               : BOne         ? X
               : AOne         ? Y
                              : keepOrSet(X, Y);
      break;
    case Instruction::Or:
      S[Bit] = AOne || BOne ? BitSource()
               : BZero      ? X
               : AZero      ? Y
                            : keepOrSet(X, Y);
      break;
    default: // Xor: an inverted bit is computed (a sign flipped: fneg).
      S[Bit] = BZero ? X : AZero ? Y : mix(X, Y);
      break;
    }
  }
  return S;
}

std::optional<BitSources> BitProvenance::addSub(Instruction &I) {
  Value *AV = I.getOperand(0), *BV = I.getOperand(1);
  const BitSources *A = of(AV);
  const BitSources *B = A ? of(BV) : nullptr;
  if (!A || !B)
    return std::nullopt;
  KnownBits KA = computeKnownBits(AV, DL), KB = computeKnownBits(BV, DL);
  unsigned W = A->size();
  // (No carry reaches a bit below the lowest that may be set in the other
  // operand: fdlibm's `hx + (k << 20)` keeps the significand.)
  unsigned BLow = KB.countMinTrailingZeros();
  unsigned ALow = I.getOpcode() == Instruction::Add
                      ? KA.countMinTrailingZeros()
                      : 0;
  BitSources S(W);
  BitSource Carry;
  for (unsigned Bit = 0; Bit < W; ++Bit) {
    if (Bit < BLow)
      S[Bit] = (*A)[Bit];
    else if (Bit < ALow)
      S[Bit] = (*B)[Bit];
    else
      S[Bit] = withCarry(mix((*A)[Bit], (*B)[Bit]), Carry);
    Carry = withCarry(mix((*A)[Bit], (*B)[Bit]), Carry);
  }
  return S;
}

std::optional<BitSources> BitProvenance::merged(Instruction &I) {
  SmallVector<Value *, 4> Ins;
  if (auto *Sel = dyn_cast<SelectInst>(&I))
    Ins = {Sel->getTrueValue(), Sel->getFalseValue()};
  else
    for (Value *In : cast<PHINode>(I).incoming_values())
      Ins.push_back(In);
  std::optional<BitSources> S;
  for (Value *In : Ins) {
    const BitSources *From = of(In);
    if (!From)
      return std::nullopt;
    if (!S) {
      S = *From;
      continue;
    }
    for (unsigned Bit = 0; Bit < S->size(); ++Bit)
      (*S)[Bit] = choose((*S)[Bit], (*From)[Bit], &I);
  }
  return S;
}

namespace {

/// Whether the integer \p V is computed from a float's bits, or chosen by
/// conditions on them (a phi's incoming blocks' branches, a select's
/// condition): a square root computed bit by bit in a loop.
bool decidedByFloatBits(Value *V) {
  SmallVector<Value *, 32> Work{V};
  SmallPtrSet<Value *, 32> Seen;
  while (!Work.empty() && Seen.size() < 1024) {
    auto *I = dyn_cast<Instruction>(Work.pop_back_val());
    if (!I || !Seen.insert(I).second)
      continue;
    if (isa<BitCastInst>(I) && significandBits(I->getOperand(0)->getType()) &&
        !isa<Constant>(I->getOperand(0)))
      return true;
    if (isa<LoadInst, CallBase, AllocaInst>(I) || !I->getType()->isIntOrIntVectorTy())
      continue;
    for (Value *Op : I->operands())
      Work.push_back(Op);
    if (auto *Phi = dyn_cast<PHINode>(I))
      for (BasicBlock *In : Phi->blocks())
        if (auto *Br = dyn_cast<BranchInst>(In->getTerminator());
            Br && Br->isConditional())
          Work.push_back(Br->getCondition());
  }
  return false;
}

/// Whether the bitcast \p Cast of an integer to a double or float takes
/// its significand from integer arithmetic on a float's significand.
bool untraceableCast(BitCastInst &Cast, BitProvenance &Bits,
                     const DataLayout &DL) {
  Type *T = Cast.getType();
  unsigned M = significandBits(T);
  Value *Int = Cast.getOperand(0);
  if (!M || !Int->getType()->isIntegerTy())
    return false;
  if (const BitSources *S = Bits.of(Int)) {
    bool Copied = false;
    for (unsigned B = 0; B < M; ++B) {
      const BitSource &Src = (*S)[B];
      // (Carries into bits in place: rounding, as floor's.)
      if (Src.K == BitSource::Computed && Src.FromSignificand &&
          (Src.Moved || Src.Pos != B))
        return true;
      if (Src.K != BitSource::Copy || !Src.FromSignificand)
        continue;
      // (A copy of the same bit of a float of this type, or of one of the
      // floats a phi or select of their bits chooses between.)
      Type *From = Src.Float->getType();
      if (Src.Pos != B || (From->isFloatingPointTy() && From != T))
        return true;
      Copied = true;
    }
    // Copies of the significand in place (a new exponent, a sign): others
    // follow them or say they cannot; no float's significand, known
    // bits only: a power of two made from an exponent.
    if (Copied)
      return false;
  }
  KnownBits K = computeKnownBits(Int, DL);
  if ((K.Zero | K.One).countr_one() >= M)
    return false;
  // A significand computed in a loop (unknown to the provenance) or
  // chosen by conditions on a float's bits.
  return !Bits.of(Int) && decidedByFloatBits(Int);
}

/// Whether the conversion \p Conv of an integer's value to a float
/// converts copies of a float's significand (`(float)i * 0x1p-23 - 127`,
/// a logarithm read from the bits): more than a few of its bits (one is a
/// parity, as lgamma's sin_pi reads it: no derivative).
bool convertsSignificand(CastInst &Conv, BitProvenance &Bits) {
  Value *Int = Conv.getOperand(0);
  if (!Int->getType()->isIntegerTy())
    return false;
  const BitSources *S = Bits.of(Int);
  return S && count_if(*S, [](const BitSource &B) {
                return B.K == BitSource::Copy && B.FromSignificand;
              }) > 8;
}

} // namespace

const Instruction *findUntraceableFloatBits(Function &F) {
  const DataLayout &DL = F.getDataLayout();
  BitProvenance Bits(DL);
  for (BasicBlock &BB : F)
    for (Instruction &I : BB) {
      // (Not one the rewrites of float bits gave no derivative: a step.)
      if (auto *Cast = dyn_cast<BitCastInst>(&I);
          Cast && !Cast->hasMetadata(NoDerivativeMetadata) &&
          (Cast->hasMetadata(UnfollowedBitsMetadata) ||
           untraceableCast(*Cast, Bits, DL)))
        return &I;
      if (isa<SIToFPInst, UIToFPInst>(&I) &&
          convertsSignificand(cast<CastInst>(I), Bits))
        return &I;
    }
  return nullptr;
}

} // namespace adcore
