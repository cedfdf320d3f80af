//===- BitLoads.cpp - Floats loaded as integers for their bits ------------===//
//
// SIMD code that works on the bits of floating-point data (a mantissa or a
// sign set with masks, Eigen's pfrexp and pabs) reads that data as doubles:
// _mm_loadu_pd. Where nothing but integer operations use the loaded
// packet, InstCombine loads it as integers instead,
//
//   %i = load <2 x i64>, ptr %x                 ; the bits of two doubles
//   %k = and <2 x i64> %i, splat (i64 0x000fffffffffffff)
//   %e = or <2 x i64> %k, splat (i64 0x3fe0000000000000)
//   %m = bitcast <2 x i64> %e to <2 x double>
//
// and the doubles' derivatives vanish with them: no cast of a double is
// left for the rewrites of such idioms (SignMasks.cpp, ExponentBits.cpp,
// LaneMasks.cpp) to read, and the analyses see an integer load. Each such
// load, whose value becomes floats of the same lane width through `and`,
// `or` and `xor` with constant masks, is made a load of those floats and a
// cast of their bits, which gives the same bits. The idioms' rewrites then see
// the cast; what they do not know stays an error ("the bits of a floating-point
// value are changed by integer operations"), never a zero derivative.
//
//===----------------------------------------------------------------------===//

#include "PrimalRewrites.h"

#include "Prepare.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/IRBuilder.h"

using namespace llvm;

namespace adcore {
namespace {

/// The floating-point type with the shape of the integer type \p T (i64 or
/// <N x i64>: double; i32: float), or null.
Type *floatTypeLike(Type *T) {
  Type *S = T->getScalarType();
  Type *F = nullptr;
  if (S->isIntegerTy(64))
    F = Type::getDoubleTy(T->getContext());
  else if (S->isIntegerTy(32))
    F = Type::getFloatTy(T->getContext());
  if (!F)
    return nullptr;
  if (auto *VT = dyn_cast<VectorType>(T))
    return VectorType::get(F, VT->getElementCount());
  return F;
}

/// Whether the bits \p V holds become \p FloatTy through `and`, `or` and
/// `xor` with constants (a cast of the result to FloatTy), within \p Depth
/// operations. (Not with other values: those may be lane masks that
/// comparisons stored, Eigen's pselect, which LaneMasks.cpp reads where
/// they are floats' bits.)
bool becomesFloat(const Value *V, Type *FloatTy, unsigned Depth,
                  SmallPtrSetImpl<const Value *> &Seen) {
  if (!Seen.insert(V).second)
    return false;
  for (const User *U : V->users()) {
    // (At least one operation: a load only cast to floats is a copy of
    // them, IntegerCopies.cpp's and FloatShuffles.cpp's case.)
    if (auto *Cast = dyn_cast<BitCastInst>(U);
        Cast && Cast->getType() == FloatTy && !isa<LoadInst>(V))
      return true;
    auto *BO = dyn_cast<BinaryOperator>(U);
    if (Depth > 0 && BO &&
        (BO->getOpcode() == Instruction::And ||
         BO->getOpcode() == Instruction::Or ||
         BO->getOpcode() == Instruction::Xor) &&
        (isa<Constant>(BO->getOperand(0)) ||
         isa<Constant>(BO->getOperand(1))) &&
        becomesFloat(BO, FloatTy, Depth - 1, Seen))
      return true;
  }
  return false;
}

bool loadBitsAsFloats(LoadInst &LI) {
  Type *FloatTy = floatTypeLike(LI.getType());
  SmallPtrSet<const Value *, 8> Seen;
  if (!FloatTy || !LI.isSimple() || !becomesFloat(&LI, FloatTy, 4, Seen))
    return false;
  IRBuilder<> B(&LI);
  B.SetCurrentDebugLocation(LI.getDebugLoc());
  LoadInst *Floats = B.CreateAlignedLoad(FloatTy, LI.getPointerOperand(),
                                         LI.getAlign(), LI.getName());
  Floats->copyMetadata(LI);
  Floats->setMetadata(LLVMContext::MD_range, nullptr); // (integers only)
  // (Casts of the bits to the floats are the floats.)
  for (User *U : make_early_inc_range(LI.users()))
    if (auto *Cast = dyn_cast<BitCastInst>(U);
        Cast && Cast->getType() == FloatTy) {
      Cast->replaceAllUsesWith(Floats);
      Cast->eraseFromParent();
    }
  LI.replaceAllUsesWith(B.CreateBitCast(Floats, LI.getType()));
  LI.eraseFromParent();
  return true;
}

} // namespace

bool loadFloatBitsAsFloats(Function &F) {
  return rewriteEach<LoadInst>(F, loadBitsAsFloats);
}

} // namespace adcore
