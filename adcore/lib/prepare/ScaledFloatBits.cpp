//===- ScaledFloatBits.cpp - A float's bits with a new exponent ----------===//
//
// Math libraries written on the words of doubles (fdlibm, openlibm, musl,
// Cephes) change a float's exponent in its bits and keep its significand:
// frexp and scalbn (`SET_HIGH_WORD(x, (hx & 0x800fffff) | (k << 20))`),
// log's reduction to [sqrt(2)/2, sqrt(2)), pow's final `hz + (n << 20)`.
// Where every bit of the significand of a bitcast to a float is the same
// bit of one float x (analysis/BitProvenance.h; a phi or select of the
// bits of several floats gives a phi or select of those floats), the
// result y is x scaled by a power of two: within a binade, a change of x
// by one unit in its last place changes y by one in its own. Its
// derivative is
//
//   dy = s * 2^(max(e_y, 1) - max(e_x, 1)) * dx
//
// for the exponent fields e and s = -1 where the sign bits differ. The
// cast is rewritten in the primal as
//
//   select(isfinite(x), y - (s > 0 ? x' - x : x - x') * 2^h * 2^(d - h), y)
//
// with d that exponent difference (in two factors, each finite), x' a
// copy of x without derivative (freeze) and y the bits as before: the same
// value (x' - x is +0), the derivative above. The integer operations on
// the bits then carry no derivative (their bitcasts of floats get
// NoDerivativeMetadata); where the bits also become floats with no
// significand bit at all (2^k from an exponent), those have none either.
// A float whose lowest significand bits constants replace, the others
// copied so (fdlibm's `SET_LOW_WORD(z, 0)`: z is x truncated, a step
// function of x) has a derivative of 0, as floor's: the cast gets
// NoDerivativeMetadata (erf's and pow's splits then carry x's derivative
// in their other part, x - z, computed as a float); so has one built by
// integer arithmetic from the high words of floats only, its low word
// constant (pow's t_h: analysis/HighFloatBits.h). Nothing is rewritten where some of the bits go
// elsewhere (stored, passed, converted as a number, or cast to a float
// with part of its significand cleared by a mask known only at run time:
// floor; errors or floor's zero as before) with a bit of a significand in
// them. A scaled float cut into integer pieces (rem_pio2's z for |x| >=
// 2^20 pi/2, |x| scaled to 2^23 <= z < 2^24) is followed too: the pieces,
// truncations, have a derivative of 0 and the last residual, kept a float,
// carries z's; where the residual is cut too (__kernel_rem_pio2's
// products), the derivative stops there at run time (analysis/
// FloatPieces.h). (Until 2026-12-06 such a cast was not followed: an
// error for every argument of sin.)
//
// Where the scaled bits are also stored as an integer (a pool's block:
// `b->bits[0] = u`, read back as a double), the store stores the float
// (a cast of the bits, rewritten with the others: the same bits) and
// carries its derivative into memory; before 2026-12-07 that store was a
// use that lost it (an error).
//
// The significand's bits may come from several floats that have one
// significand at run time: hypot's high word of x or y (chosen by the
// program's comparison: an integer umax or umin of the words from -O1,
// rewritten as that comparison and a select first) with the low word of
// fabs(x or y), and, for its second scaling, of a phi of the first one's
// result and the unscaled number. The source is then the float of the
// lowest bits. (Until 2026-12-07 hypot's scalings were an error.)
//
//===----------------------------------------------------------------------===//

#include "Prepare.h"

#include "analysis/BitProvenance.h"
#include "analysis/HighFloatBits.h"
#include "support/DeferredScaleMark.h"
#include "support/IRMarks.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/FPEnv.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/KnownBits.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace adcore {
namespace {

/// A bitcast of floats to integers whose bits may be followed.
bool isBitsOfFloat(const Value *V) {
  const auto *BC = dyn_cast<BitCastInst>(V);
  return BC && BC->getType()->isIntegerTy() &&
         significandBits(BC->getOperand(0)->getType()) &&
         !isa<Constant>(BC->getOperand(0));
}

/// A bitcast of an integer to a double or float.
bool isFloatOfBits(const Value *V) {
  const auto *BC = dyn_cast<BitCastInst>(V);
  return BC && BC->getOperand(0)->getType()->isIntegerTy() &&
         significandBits(BC->getType());
}

class ScaledBits {
public:
  explicit ScaledBits(Function &F) : F(F), Bits(F.getDataLayout()) {}
  bool run();

private:
  /// The float whose significand \p Cast copies whole, in place (or all
  /// of it but its lowest bits, which constants replace: \p Truncation);
  /// null when it copies a part of it or none (Sources gets the floats
  /// whose bits it copies); nullopt when the cast cannot be followed.
  std::optional<Value *> sourceOf(BitCastInst &Cast,
                                  SmallPtrSetImpl<Value *> &Sources,
                                  bool &Truncation);
  /// The float whose bit \p Pos \p Key holds: \p Key itself, or, for a
  /// phi or select of integers merging copies of that bit of floats, a phi
  /// or select of those floats, made here. Null when a path has no copy.
  Value *materialize(Value *Key, unsigned Pos, Type *T);
  /// Whether every significand bit of \p V is that of \p Of at run time:
  /// \p V is \p Of, an absolute value of such a float, a phi or select of
  /// such floats, or a float whose significand bits copy those of such
  /// floats in place (its exponent another). \p Depth bounds the walk.
  bool sameSignificand(Value *V, Value *Of, Type *T, unsigned Depth = 4);
  /// Adds to \p Sources the floats whose bit \p Pos \p Key may hold.
  void collectFloats(Value *Key, unsigned Pos, SmallPtrSetImpl<Value *> &Sources);
  /// Whether every use of the integers computed from the bits of
  /// \p Leaves, other than the casts \p Casts, may lose its derivative.
  bool usesMayLoseDerivative(ArrayRef<Instruction *> Leaves,
                             const SmallPtrSetImpl<Instruction *> &Casts);
  /// Whether \p V, an integer, may hold copies of significand bits of the
  /// floats whose bits \p Derived holds the integers computed from.
  bool mayCopySignificand(Value *V,
                          const SmallPtrSetImpl<Instruction *> &Derived,
                          SmallPtrSetImpl<Value *> &Visiting, unsigned Depth);
  void rewrite(BitCastInst &Cast, Value *X);
  /// Stores of the bits that a cast to be rewritten makes a float of store
  /// that float (a new cast of the bits, rewritten with the others).
  bool storeBitsAsFloats();
  /// Marks the scalings of the rewrites whose source reverse mode may
  /// scale after its own rule (DeferredScaleMetadata).
  void markDeferredScales();

  /// A rewrite: its source, `x' - x` (a select of two differences) and
  /// the two products by powers of two.
  struct Rewrite {
    Value *X, *Zero, *Half1, *Z;
  };
  SmallVector<Rewrite, 4> Rewritten;

  Function &F;
  BitProvenance Bits;
  DenseMap<std::pair<Value *, unsigned>, Value *> Made;
  /// The cast sourceOf follows (where what materialize makes is used).
  Instruction *At = nullptr;
  SmallVector<Instruction *, 8> Created;
};

/// Whether \p F is fabs(\p Of).
bool isFabsOf(const Value *F, const Value *Of) {
  const auto *Call = dyn_cast<IntrinsicInst>(F);
  return Call && Call->getIntrinsicID() == Intrinsic::fabs &&
         Call->getArgOperand(0) == Of;
}

/// Whether \p U and \p V have one significand: the same float, or one the
/// absolute value of the other.
bool sameFloat(const Value *U, const Value *V) {
  return U == V || isFabsOf(U, V) || isFabsOf(V, U);
}

/// The copy of bit \p Pos of a float in \p S, if any (and whether it is
/// one for sure).
const BitSource *copyOf(const BitSources *S, unsigned Pos) {
  if (!S)
    return nullptr;
  for (const BitSource &B : *S)
    if (B.K == BitSource::Copy && B.Pos == Pos)
      return &B;
  return nullptr;
}

void ScaledBits::collectFloats(Value *Key, unsigned Pos,
                               SmallPtrSetImpl<Value *> &Sources) {
  if (Key->getType()->isFloatingPointTy()) {
    Sources.insert(Key);
    return;
  }
  auto *I = dyn_cast<Instruction>(Key);
  if (!I || !isa<PHINode, SelectInst>(I))
    return;
  for (unsigned N = isa<SelectInst>(I) ? 1 : 0; N < I->getNumOperands(); ++N)
    if (const BitSource *B = copyOf(Bits.of(I->getOperand(N)), Pos))
      if (B->Float != Key)
        collectFloats(B->Float, Pos, Sources);
}

Value *ScaledBits::materialize(Value *Key, unsigned Pos, Type *T) {
  if (Key->getType() == T)
    return Key;
  if (auto It = Made.find({Key, Pos}); It != Made.end())
    return It->second;
  Made[{Key, Pos}] = nullptr; // (a cycle: none)
  auto *I = dyn_cast<Instruction>(Key);
  if (!I || !isa<PHINode, SelectInst>(I))
    return nullptr;
  auto SourceOfIncoming = [&](Value *In) -> Value * {
    const BitSource *B = copyOf(Bits.of(In), Pos);
    return B && !B->MaybeConstant ? materialize(B->Float, Pos, T) : nullptr;
  };
  Instruction *New = nullptr;
  if (auto *Phi = dyn_cast<PHINode>(I)) {
    SmallVector<Value *, 4> Ins;
    for (Value *In : Phi->incoming_values()) {
      Ins.push_back(SourceOfIncoming(In));
      if (!Ins.back())
        return nullptr;
    }
    // (One phi for the words of the same floats, a high and a low word;
    // the program's own where it has one: scalbn's x after `x *= two54`.)
    // (Or one whose incoming floats have those significands: hypot's a,
    // scaled by 2^-600 in its bits on one path, before it is scaled by
    // 2^600 again.)
    for (PHINode &Old : Phi->getParent()->phis())
      if (PHINode *OldPhi = &Old; OldPhi->getType() == T &&
          all_of(seq(Phi->getNumIncomingValues()), [&](unsigned N) {
            return sameSignificand(
                OldPhi->getIncomingValueForBlock(Phi->getIncomingBlock(N)),
                Ins[N], T);
          }))
        return Made[{Key, Pos}] = OldPhi;
    auto *FPhi = PHINode::Create(T, Ins.size(), "bits.of",
                                 Phi->getParent()->begin());
    for (unsigned N = 0; N < Ins.size(); ++N)
      FPhi->addIncoming(Ins[N], Phi->getIncomingBlock(N));
    New = FPhi;
  } else {
    auto *Sel = cast<SelectInst>(I);
    Value *A = SourceOfIncoming(Sel->getTrueValue());
    Value *B = A ? SourceOfIncoming(Sel->getFalseValue()) : nullptr;
    if (!B)
      return nullptr;
    // (The program's own select of the floats where it has one, or of
    // their absolute values, whose significands are theirs: pow's `ax`
    // after `ax *= two53` for subnormals, its low word read from it.)
    for (BasicBlock::iterator It = Sel->getParent()->begin();
         It != Sel->getParent()->end(); ++It)
      if (auto *Old = dyn_cast<SelectInst>(&*It);
          Old && Old->getType() == T &&
          Old->getCondition() == Sel->getCondition() &&
          (Old->getParent() != At->getParent() || Old->comesBefore(At)) &&
          sameFloat(Old->getTrueValue(), A) &&
          sameFloat(Old->getFalseValue(), B))
        return Made[{Key, Pos}] = Old;
    New = SelectInst::Create(Sel->getCondition(), A, B, "bits.of",
                             Sel->getIterator());
  }
  Created.push_back(New);
  return Made[{Key, Pos}] = New;
}

bool ScaledBits::sameSignificand(Value *V, Value *Of, Type *T,
                                 unsigned Depth) {
  if (sameFloat(V, Of))
    return true;
  if (Depth == 0 || V->getType() != T)
    return false;
  // (An absolute value, or a phi or select of floats that each have it:
  // hypot's a, scaled by 2^-600 in its bits on one path, merged with the
  // unscaled a before it is scaled by 2^600 on another.)
  if (auto *Call = dyn_cast<IntrinsicInst>(V);
      Call && Call->getIntrinsicID() == Intrinsic::fabs)
    return sameSignificand(Call->getArgOperand(0), Of, T, Depth - 1);
  if (auto *Phi = dyn_cast<PHINode>(V))
    return all_of(Phi->incoming_values(), [&](Value *In) {
      return sameSignificand(In, Of, T, Depth - 1);
    });
  if (auto *Sel = dyn_cast<SelectInst>(V))
    return sameSignificand(Sel->getTrueValue(), Of, T, Depth - 1) &&
           sameSignificand(Sel->getFalseValue(), Of, T, Depth - 1);
  // (A float made of bits that copy, in place, those of such floats.)
  auto *Cast = dyn_cast<BitCastInst>(V);
  if (!Cast || !isFloatOfBits(Cast))
    return false;
  const BitSources *S = Bits.of(Cast->getOperand(0));
  if (!S)
    return false;
  for (unsigned B = 0; B < significandBits(T); ++B) {
    const BitSource &Src = (*S)[B];
    if (Src.K != BitSource::Copy || Src.MaybeConstant || Src.Pos != B)
      return false;
    Value *F = materialize(Src.Float, B, T);
    if (!F || !sameSignificand(F, Of, T, Depth - 1))
      return false;
  }
  return true;
}

std::optional<Value *>
ScaledBits::sourceOf(BitCastInst &Cast, SmallPtrSetImpl<Value *> &Sources,
                     bool &Truncation) {
  Type *T = Cast.getType();
  unsigned M = significandBits(T);
  const BitSources *S = Bits.of(Cast.getOperand(0));
  if (!S)
    return std::nullopt;
  At = &Cast;
  bool Whole = true;
  Value *X = nullptr;
  // (The low bits set or cleared by constants, the rest copied: fdlibm's
  // `SET_LOW_WORD(z, 0)`, a truncation of x.)
  KnownBits Known = computeKnownBits(Cast.getOperand(0), F.getDataLayout());
  unsigned Low = 0;
  while (Low < M && (*S)[Low].K == BitSource::Unrelated &&
         (Known.Zero[Low] || Known.One[Low]))
    ++Low;
  Truncation = Low > 0;
  for (unsigned B = Low; B < M; ++B) {
    const BitSource &Src = (*S)[B];
    if (Src.K == BitSource::Unrelated || !Src.FromSignificand) {
      Whole = false;
      continue;
    }
    // (Carries into bits in place: floor's rounding, no derivative.)
    if (Src.Moved || Src.Pos != B)
      return std::nullopt; // (an error: findUntraceableFloatBits)
    if (Src.K == BitSource::Copy)
      collectFloats(Src.Float, B, Sources);
    if (Src.K != BitSource::Copy || Src.MaybeConstant) {
      Whole = false;
      continue;
    }
    Value *Bit = Whole ? materialize(Src.Float, B, T) : nullptr;
    // (A float and its absolute value have one significand: hypot's high
    // words read from x and y, its low words from a = fabs(x or y). The
    // rewrite compares the signs at run time.)
    if (!Bit ||
        (X && !sameSignificand(Bit, X, T) && !sameSignificand(X, Bit, T)))
      Whole = false;
    if (!X)
      X = Bit;
  }
  return Whole ? X : nullptr;
}

bool ScaledBits::mayCopySignificand(
    Value *V, const SmallPtrSetImpl<Instruction *> &Derived,
    SmallPtrSetImpl<Value *> &Visiting, unsigned Depth) {
  if (const BitSources *S = Bits.of(V))
    return copiesSignificand(S);
  // (Unknown to BitProvenance: arithmetic on a value carried around a
  // loop, Cephes' `e += pw2` and frexp's exponent count. Its operands:
  // one not computed from these floats' bits holds none of them; one met
  // again around the loop adds nothing the others do not.)
  auto *I = dyn_cast<Instruction>(V);
  if (!I || !Derived.contains(I))
    return false;
  if (!Visiting.insert(I).second)
    return false;
  if (Depth == 0 ||
      !isa<BinaryOperator, CastInst, PHINode, SelectInst, FreezeInst>(I))
    return true;
  for (unsigned N = isa<SelectInst>(I) ? 1 : 0; N < I->getNumOperands(); ++N)
    if (mayCopySignificand(I->getOperand(N), Derived, Visiting, Depth - 1))
      return true;
  return false;
}

bool ScaledBits::usesMayLoseDerivative(
    ArrayRef<Instruction *> Leaves,
    const SmallPtrSetImpl<Instruction *> &Casts) {
  SmallVector<Instruction *, 32> Work(Leaves.begin(), Leaves.end());
  SmallPtrSet<Instruction *, 32> Seen;
  // (Integers that leave, judged once all of those computed from the bits
  // are known.)
  SmallVector<Instruction *, 8> Leaving;
  while (!Work.empty()) {
    Instruction *I = Work.pop_back_val();
    if (!Seen.insert(I).second)
      continue;
    for (User *U : I->users()) {
      auto *UI = cast<Instruction>(U);
      // (Integer intrinsics too: a rotate SimplifyCFG made at -O0.)
      if (isa<BinaryOperator, TruncInst, ZExtInst, SExtInst, FreezeInst,
              PHINode>(UI) ||
          (isa<IntrinsicInst>(UI) && UI->getType()->isIntegerTy()) ||
          (isa<SelectInst>(UI) && UI->getOperand(0) != I)) {
        Work.push_back(UI);
        continue;
      }
      if (isa<ICmpInst, BranchInst, SwitchInst, SelectInst>(UI))
        continue;
      if (Casts.contains(UI))
        continue;
      // A float with no significand bits of a float (a power of two), or
      // anything else that copies none (an exponent stored: frexp's).
      Leaving.push_back(I);
    }
  }
  return none_of(Leaving, [&](Instruction *I) {
    SmallPtrSet<Value *, 16> Visiting;
    return mayCopySignificand(I, Seen, Visiting, /*Depth=*/12);
  });
}

void ScaledBits::rewrite(BitCastInst &Cast, Value *X) {
  Type *T = Cast.getType();
  auto *IT = cast<IntegerType>(Cast.getSrcTy());
  unsigned M = significandBits(T), W = IT->getBitWidth();
  LLVMContext &C = F.getContext();
  MDNode *None = MDNode::get(C, {});
  IRBuilder<> B(Cast.getNextNode());
  B.SetCurrentDebugLocation(Cast.getDebugLoc());
  auto *Frozen = cast<Instruction>(B.CreateFreeze(X, "bits.value"));
  Frozen->setMetadata(NoDerivativeMetadata, None);
  Value *XBits = B.CreateBitCast(Frozen, IT);
  Value *YBits = Cast.getOperand(0);
  auto Exponent = [&](Value *V) {
    Value *E = B.CreateAnd(B.CreateLShr(V, M), (1ull << (W - 1 - M)) - 1);
    E = B.CreateTrunc(E, B.getInt32Ty());
    return B.CreateSelect(B.CreateICmpEQ(E, B.getInt32(0)), B.getInt32(1), E);
  };
  Value *D = B.CreateSub(Exponent(YBits), Exponent(XBits));
  Value *Half = B.CreateAShr(D, 1);
  Value *One = ConstantFP::get(T, 1.0);
  Value *P1 = B.CreateIntrinsic(Intrinsic::ldexp, {T, B.getInt32Ty()},
                                {One, Half});
  Value *P2 = B.CreateIntrinsic(Intrinsic::ldexp, {T, B.getInt32Ty()},
                                {One, B.CreateSub(D, Half)});
  Value *SameSign = B.CreateICmpSGE(B.CreateXor(YBits, XBits),
                                    ConstantInt::get(IT, 0));
  Value *Zero = B.CreateSelect(SameSign, B.CreateFSub(Frozen, X),
                               B.CreateFSub(X, Frozen));
  Value *Half1 = B.CreateFMul(Zero, P1);
  Value *Z = B.CreateFMul(Half1, P2);
  Rewritten.push_back({X, Zero, Half1, Z});
  Value *Finite = B.CreateIntrinsic(Intrinsic::is_fpclass, {T},
                                    {Frozen, B.getInt32(fcFinite)});
  auto *Sub = cast<Instruction>(B.CreateFSub(&Cast, Z));
  auto *New = cast<Instruction>(B.CreateSelect(Finite, Sub, &Cast));
  // (Its tangent is x's times 2^d: past the doubles where a subnormal x,
  // scaled up already, is normalized (pow's ax *= 2^53, then the exponent
  // of [1, 2)). A forward derivative stops there rather than carry inf.)
  std::string Where;
  if (const DebugLoc &DL = Cast.getDebugLoc())
    Where = " (" + sys::path::filename(DL->getFilename()).str() + ":" +
            std::to_string(DL.getLine()) + ")";
  New->setMetadata(
      ScaledTangentMetadata,
      MDNode::get(C, MDString::get(
                         C, "the forward derivative of '" + F.getName().str() +
                                "'" + Where +
                                " overflowed where a float is given a new "
                                "exponent in its bits (a subnormal "
                                "normalized): its tangent is its source's "
                                "times a power of two that no double holds; "
                                "reverse mode computes this derivative")));
  Cast.replaceUsesWithIf(New, [&](Use &U) {
    return U.getUser() != Sub && U.getUser() != New;
  });
  Cast.setMetadata(NoDerivativeMetadata, None);
}

bool ScaledBits::storeBitsAsFloats() {
  SmallVector<std::pair<StoreInst *, Type *>, 4> Stores;
  for (Instruction &I : instructions(F)) {
    if (!isFloatOfBits(&I) || I.hasMetadata(NoDerivativeMetadata))
      continue;
    SmallPtrSet<Value *, 4> From;
    bool Truncation = false;
    std::optional<Value *> X = sourceOf(*cast<BitCastInst>(&I), From,
                                        Truncation);
    // (Not a phi or select of floats made here, which the new cast's
    // rewrite, elsewhere, might not see.)
    if (!X || !*X || isa<Constant>(*X) || Truncation ||
        is_contained(Created, *X))
      continue;
    for (User *U : I.getOperand(0)->users())
      if (auto *SI = dyn_cast<StoreInst>(U);
          SI && SI->getValueOperand() == I.getOperand(0) && SI->isSimple())
        Stores.push_back({SI, I.getType()});
  }
  for (auto [SI, T] : Stores) {
    if (!SI->getValueOperand()->getType()->isIntegerTy())
      continue; // (two casts of the same bits: done)
    IRBuilder<> B(SI);
    B.SetCurrentDebugLocation(SI->getDebugLoc());
    SI->setOperand(0, B.CreateBitCast(SI->getValueOperand(), T, "bits.float"));
  }
  return !Stores.empty();
}

void ScaledBits::markDeferredScales() {
  for (const Rewrite &R : Rewritten) {
    auto *X = dyn_cast<Instruction>(R.X);
    auto *Zero = dyn_cast<SelectInst>(R.Zero);
    auto *Half1 = dyn_cast<Instruction>(R.Half1);
    auto *Z = dyn_cast<Instruction>(R.Z);
    // (Within one block: x's adjoint is then 2^d times the result's for
    // one d, that of the same run of the block.)
    if (!X || !Zero || !Half1 || !Z || X->getParent() != Z->getParent() ||
        !isa<BinaryOperator, UnaryOperator, FPExtInst, FPTruncInst,
             CallBase>(X))
      continue;
    // Nothing else takes x's derivative: its bits as integers, its frozen
    // copy, comparisons; not another rewrite (another d).
    bool Alone = all_of(X->users(), [&](User *U) {
      if (U == Zero->getTrueValue() || U == Zero->getFalseValue())
        return true;
      if (isa<FreezeInst>(U))
        return cast<Instruction>(U)->hasMetadata(NoDerivativeMetadata);
      if (isa<CmpInst>(U))
        return true;
      auto *C = dyn_cast<CastInst>(U);
      return C && C->getType()->isIntOrIntVectorTy();
    });
    if (!Alone)
      continue;
    MDNode *Mark = MDNode::get(F.getContext(), {});
    Half1->setMetadata(DeferredScaleMetadata, Mark);
    Z->setMetadata(DeferredScaleMetadata, Mark);
  }
}

bool ScaledBits::run() {
  bool Expanded = expandFloatBitMinMax(F);
  bool Stored = storeBitsAsFloats();
  SmallVector<std::pair<BitCastInst *, Value *>, 8> Scaled;
  SmallVector<BitCastInst *, 4> Steps;
  SmallPtrSet<Instruction *, 8> Casts;
  SmallPtrSet<Value *, 8> Sources;
  for (Instruction &I : instructions(F)) {
    // (A cast marked without derivative was rewritten already: this
    // function is a derivative, made from the rewritten primal, being
    // differentiated again. Rewritten twice, its value would carry the
    // derivative twice: forward over forward gave f''(y) y'^2 twice.)
    if (!isFloatOfBits(&I) || I.hasMetadata(NoDerivativeMetadata))
      continue;
    auto *Cast = cast<BitCastInst>(&I);
    SmallPtrSet<Value *, 4> From;
    bool Truncation = false;
    std::optional<Value *> X = sourceOf(*Cast, From, Truncation);
    // (A significand cleared in part by a mask known at run time is not
    // followed: an error, or a floor's zero, as before: lit
    // errors/float-bits-mask.c.)
    if (!X || !*X) {
      // (A number built from the high words of floats, its low word
      // constant: pow's t_h, a step function.)
      SmallPtrSet<Value *, 4> High;
      if (dependsOnHighFloatBits(Cast->getOperand(0), High)) {
        Casts.insert(Cast);
        Sources.insert(High.begin(), High.end());
        Steps.push_back(Cast);
      }
      continue;
    }
    Casts.insert(Cast);
    Sources.insert(From.begin(), From.end());
    if (Truncation)
      Steps.push_back(Cast);
    else
      Scaled.push_back({Cast, *X});
  }
  SmallVector<Instruction *, 8> Leaves;
  for (Instruction &I : instructions(F))
    if (isBitsOfFloat(&I) && Sources.contains(I.getOperand(0)))
      Leaves.push_back(&I);
  bool Follow = !Casts.empty() && usesMayLoseDerivative(Leaves, Casts);
  // (Not followed: the casts that copy a float's significand would get a
  // derivative of 0 where nothing else says they cannot be followed.)
  if (!Follow)
    for (auto [Cast, X] : Scaled)
      if (!isa<Constant>(X))
        Cast->setMetadata(UnfollowedBitsMetadata,
                          MDNode::get(F.getContext(), {}));
  if (Follow) {
    for (auto [Cast, X] : Scaled)
      rewrite(*Cast, X);
    markDeferredScales();
    MDNode *None = MDNode::get(F.getContext(), {});
    for (BitCastInst *Step : Steps)
      Step->setMetadata(NoDerivativeMetadata, None);
    for (Instruction *Leaf : Leaves)
      Leaf->setMetadata(NoDerivativeMetadata, None);
  }
  for (Instruction *I : llvm::reverse(Created))
    if (I->use_empty())
      I->eraseFromParent();
  return Follow || Expanded || Stored;
}

} // namespace

bool rewriteScaledFloatBits(Function &F) { return ScaledBits(F).run(); }

} // namespace adcore
