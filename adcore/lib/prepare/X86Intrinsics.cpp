//===- X86Intrinsics.cpp - x86 SIMD intrinsics as target-independent IR --===//
//
// With SSE3, SSE4.1, AVX or AVX-512 enabled (-mavx2, -march=native), some
// packet operations stay x86 intrinsics in the IR: Eigen's predux (hadd),
// pselect (blendv), pfloor/pround and its vectorized exp (round,
// rndscale), pmin/pmax (min, max), complex products (addsub), broadcasts
// at -O0 (permd). Each becomes the target-independent IR that computes the
// same bits lane by lane, which the emitters differentiate like any other
// code:
//
//   round(x, imm), rndscale(x, imm)  floor, ceil, roundeven, trunc or
//                                    nearbyint (imm bits 0-1: nearest-even,
//                                    down, up, toward zero; bit 2: the
//                                    current mode); rndscale only without
//                                    scaling (imm bits 4-7 zero), unmasked
//   blendv(a, b, m)                  select(sign bit of m, b, a)
//   min(a, b), max(a, b)             select(a < b, a, b), select(a > b, a, b)
//                                    (x86: b where unordered or equal)
//   addsub(a, b)                     a - b in even lanes, a + b in odd ones
//   hadd(a, b), hsub(a, b)           sums (differences) of adjacent pairs,
//                                    per 128-bit block: a's pairs, then b's
//   permd(a, i), permps(a, i),       shufflevector(a, i), i constant
//   AVX-512 permvar(a, i)
//   vpermilvar(a, i)                 shufflevector within 128-bit blocks
//   rsqrt14(a, p, m), rcp14(a, p, m) select(m, rsqrt14(a, p, all ones), p)
//                                    when m is not all ones; unmasked, the
//                                    approximations have a rule
//                                    (MathRules.cpp: -r^3/2, -r^2)
//
// Scalar forms (min.sd, round.sd, ...) compute lane 0 and pass the other
// lanes of the first operand through. One table row per intrinsic.
//
//===----------------------------------------------------------------------===//

#include "PrimalRewrites.h"

#include "Prepare.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsX86.h"

using namespace llvm;

namespace adcore {
namespace {

enum class X86Op {
  Round,        ///< (x, imm)
  RoundLow,     ///< (a, x, imm): lane 0 rounded from x, the rest from a
  RndScale,     ///< (x, imm, passthru, mask[, rounding])
  Blendv,       ///< (a, b, mask)
  Min,          ///< (a, b[, rounding])
  Max,          ///< (a, b[, rounding])
  MinLow,       ///< (a, b): lane 0 only
  MaxLow,       ///< (a, b): lane 0 only
  AddSub,       ///< (a, b)
  HAdd,         ///< (a, b)
  HSub,         ///< (a, b)
  Permute,      ///< (a, index vector): any lane of a
  PermuteIn128, ///< (a, index vector): a lane of the same 128-bit block
  MaskedApprox, ///< (a, passthru, mask): AVX-512 rsqrt14/rcp14
};

struct X86Row {
  Intrinsic::ID ID;
  X86Op Op;
};

const X86Row X86Table[] = {
    {Intrinsic::x86_sse41_round_pd, X86Op::Round},
    {Intrinsic::x86_sse41_round_ps, X86Op::Round},
    {Intrinsic::x86_avx_round_pd_256, X86Op::Round},
    {Intrinsic::x86_avx_round_ps_256, X86Op::Round},
    {Intrinsic::x86_sse41_round_sd, X86Op::RoundLow},
    {Intrinsic::x86_sse41_round_ss, X86Op::RoundLow},
    {Intrinsic::x86_avx512_mask_rndscale_pd_128, X86Op::RndScale},
    {Intrinsic::x86_avx512_mask_rndscale_pd_256, X86Op::RndScale},
    {Intrinsic::x86_avx512_mask_rndscale_pd_512, X86Op::RndScale},
    {Intrinsic::x86_avx512_mask_rndscale_ps_128, X86Op::RndScale},
    {Intrinsic::x86_avx512_mask_rndscale_ps_256, X86Op::RndScale},
    {Intrinsic::x86_avx512_mask_rndscale_ps_512, X86Op::RndScale},
    {Intrinsic::x86_sse41_blendvpd, X86Op::Blendv},
    {Intrinsic::x86_sse41_blendvps, X86Op::Blendv},
    {Intrinsic::x86_avx_blendv_pd_256, X86Op::Blendv},
    {Intrinsic::x86_avx_blendv_ps_256, X86Op::Blendv},
    {Intrinsic::x86_sse2_min_pd, X86Op::Min},
    {Intrinsic::x86_sse_min_ps, X86Op::Min},
    {Intrinsic::x86_avx_min_pd_256, X86Op::Min},
    {Intrinsic::x86_avx_min_ps_256, X86Op::Min},
    {Intrinsic::x86_avx512_min_pd_512, X86Op::Min},
    {Intrinsic::x86_avx512_min_ps_512, X86Op::Min},
    {Intrinsic::x86_sse2_max_pd, X86Op::Max},
    {Intrinsic::x86_sse_max_ps, X86Op::Max},
    {Intrinsic::x86_avx_max_pd_256, X86Op::Max},
    {Intrinsic::x86_avx_max_ps_256, X86Op::Max},
    {Intrinsic::x86_avx512_max_pd_512, X86Op::Max},
    {Intrinsic::x86_avx512_max_ps_512, X86Op::Max},
    {Intrinsic::x86_sse2_min_sd, X86Op::MinLow},
    {Intrinsic::x86_sse_min_ss, X86Op::MinLow},
    {Intrinsic::x86_sse2_max_sd, X86Op::MaxLow},
    {Intrinsic::x86_sse_max_ss, X86Op::MaxLow},
    {Intrinsic::x86_sse3_addsub_pd, X86Op::AddSub},
    {Intrinsic::x86_sse3_addsub_ps, X86Op::AddSub},
    {Intrinsic::x86_avx_addsub_pd_256, X86Op::AddSub},
    {Intrinsic::x86_avx_addsub_ps_256, X86Op::AddSub},
    {Intrinsic::x86_sse3_hadd_pd, X86Op::HAdd},
    {Intrinsic::x86_sse3_hadd_ps, X86Op::HAdd},
    {Intrinsic::x86_avx_hadd_pd_256, X86Op::HAdd},
    {Intrinsic::x86_avx_hadd_ps_256, X86Op::HAdd},
    {Intrinsic::x86_sse3_hsub_pd, X86Op::HSub},
    {Intrinsic::x86_sse3_hsub_ps, X86Op::HSub},
    {Intrinsic::x86_avx_hsub_pd_256, X86Op::HSub},
    {Intrinsic::x86_avx_hsub_ps_256, X86Op::HSub},
    {Intrinsic::x86_avx2_permd, X86Op::Permute},
    {Intrinsic::x86_avx2_permps, X86Op::Permute},
    {Intrinsic::x86_avx512_permvar_df_256, X86Op::Permute},
    {Intrinsic::x86_avx512_permvar_df_512, X86Op::Permute},
    {Intrinsic::x86_avx512_permvar_di_256, X86Op::Permute},
    {Intrinsic::x86_avx512_permvar_di_512, X86Op::Permute},
    {Intrinsic::x86_avx512_permvar_sf_512, X86Op::Permute},
    {Intrinsic::x86_avx512_permvar_si_512, X86Op::Permute},
    {Intrinsic::x86_avx_vpermilvar_pd, X86Op::PermuteIn128},
    {Intrinsic::x86_avx_vpermilvar_pd_256, X86Op::PermuteIn128},
    {Intrinsic::x86_avx_vpermilvar_ps, X86Op::PermuteIn128},
    {Intrinsic::x86_avx_vpermilvar_ps_256, X86Op::PermuteIn128},
    {Intrinsic::x86_avx512_rsqrt14_pd_128, X86Op::MaskedApprox},
    {Intrinsic::x86_avx512_rsqrt14_pd_256, X86Op::MaskedApprox},
    {Intrinsic::x86_avx512_rsqrt14_pd_512, X86Op::MaskedApprox},
    {Intrinsic::x86_avx512_rsqrt14_ps_128, X86Op::MaskedApprox},
    {Intrinsic::x86_avx512_rsqrt14_ps_256, X86Op::MaskedApprox},
    {Intrinsic::x86_avx512_rsqrt14_ps_512, X86Op::MaskedApprox},
    {Intrinsic::x86_avx512_rcp14_pd_128, X86Op::MaskedApprox},
    {Intrinsic::x86_avx512_rcp14_pd_256, X86Op::MaskedApprox},
    {Intrinsic::x86_avx512_rcp14_pd_512, X86Op::MaskedApprox},
    {Intrinsic::x86_avx512_rcp14_ps_128, X86Op::MaskedApprox},
    {Intrinsic::x86_avx512_rcp14_ps_256, X86Op::MaskedApprox},
    {Intrinsic::x86_avx512_rcp14_ps_512, X86Op::MaskedApprox},
};

const X86Row *rowOf(const IntrinsicInst &II) {
  for (const X86Row &Row : X86Table)
    if (Row.ID == II.getIntrinsicID())
      return &Row;
  return nullptr;
}

/// The rounding an immediate asks for, or none when it also scales
/// (rndscale's bits 4-7).
std::optional<Intrinsic::ID> roundingOf(const Value *ImmV) {
  auto *C = dyn_cast<ConstantInt>(ImmV);
  if (!C)
    return std::nullopt;
  uint64_t Imm = C->getZExtValue();
  if (Imm & 0xf0)
    return std::nullopt;
  if (Imm & 4)
    return Intrinsic::nearbyint;
  switch (Imm & 3) {
  case 0:
    return Intrinsic::roundeven;
  case 1:
    return Intrinsic::floor;
  case 2:
    return Intrinsic::ceil;
  default:
    return Intrinsic::trunc;
  }
}

unsigned numLanes(const Value *V) {
  return cast<FixedVectorType>(V->getType())->getNumElements();
}

/// Lanes per 128-bit block of \p V's vector type.
unsigned lanesPer128(const Value *V) {
  auto *Ty = cast<FixedVectorType>(V->getType());
  return 128 / Ty->getElementType()->getPrimitiveSizeInBits();
}

/// \p Lane0 in lane 0 of \p A (the other lanes of \p A unchanged).
Value *intoLow(IRBuilder<> &B, Value *A, Value *Lane0) {
  return B.CreateInsertElement(A, Lane0, uint64_t(0));
}

Value *low(IRBuilder<> &B, Value *A) {
  return B.CreateExtractElement(A, uint64_t(0));
}

/// x86 min and max: the first operand where the comparison holds, else the
/// second (also where they are unordered or equal).
Value *minMax(IRBuilder<> &B, bool IsMax, Value *A, Value *Bv) {
  Value *Keep = IsMax ? B.CreateFCmpOGT(A, Bv) : B.CreateFCmpOLT(A, Bv);
  return B.CreateSelect(Keep, A, Bv);
}

/// hadd/hsub: in each 128-bit block, the pairs of \p A, then those of \p Bv.
Value *horizontal(IRBuilder<> &B, bool IsSub, Value *A, Value *Bv) {
  unsigned N = numLanes(A), PerBlock = lanesPer128(A), Half = PerBlock / 2;
  SmallVector<int, 16> Left, Right;
  for (unsigned Lane = 0; Lane < N; ++Lane) {
    unsigned Block = Lane / PerBlock * PerBlock, J = Lane % PerBlock;
    unsigned FromB = J >= Half ? N : 0; // shuffle index of b's lanes
    unsigned Pair = Block + 2 * (J % Half);
    Left.push_back(FromB + Pair);
    Right.push_back(FromB + Pair + 1);
  }
  Value *L = B.CreateShuffleVector(A, Bv, Left);
  Value *R = B.CreateShuffleVector(A, Bv, Right);
  return IsSub ? B.CreateFSub(L, R) : B.CreateFAdd(L, R);
}

/// A shuffle of \p A by the constant index vector \p Index, each index
/// taken modulo the lanes it may choose from (all, or its 128-bit block);
/// vpermilvar.pd reads bit 1 of each index.
Value *permute(IRBuilder<> &B, IntrinsicInst &II, Value *A, Value *Index,
               bool In128) {
  // (At -O0 the index vector is built in a local variable.)
  Constant *C = evaluateConstant(Index, 40);
  if (!C)
    return nullptr;
  unsigned N = numLanes(A), PerBlock = In128 ? lanesPer128(A) : N;
  bool PdControl = II.getIntrinsicID() == Intrinsic::x86_avx_vpermilvar_pd ||
                   II.getIntrinsicID() == Intrinsic::x86_avx_vpermilvar_pd_256;
  SmallVector<int, 16> Mask;
  for (unsigned Lane = 0; Lane < N; ++Lane) {
    auto *E = dyn_cast_or_null<ConstantInt>(C->getAggregateElement(Lane));
    if (!E)
      return nullptr;
    uint64_t I = E->getZExtValue();
    if (PdControl)
      I >>= 1;
    Mask.push_back(Lane / PerBlock * PerBlock + I % PerBlock);
  }
  return B.CreateShuffleVector(A, Mask);
}

/// True when the mask \p M (an integer, one bit per lane) keeps every one
/// of \p Lanes lanes.
bool allLanes(const Value *M, unsigned Lanes) {
  auto *C = dyn_cast<ConstantInt>(M);
  return C && C->getValue().countr_one() >= Lanes;
}

/// An AVX-512 approximation under a mask that is not all ones: the same
/// intrinsic without mask where the mask's bit is set, the passthrough
/// elsewhere (the approximation's rule, in MathRules.cpp, knows only
/// unmasked calls). Null when there is nothing to do.
Value *unmaskApproximation(IRBuilder<> &B, IntrinsicInst &II) {
  Value *A = II.getArgOperand(0), *Pass = II.getArgOperand(1),
        *Mask = II.getArgOperand(2);
  unsigned N = numLanes(A);
  if (allLanes(Mask, N))
    return nullptr;
  unsigned Bits = Mask->getType()->getIntegerBitWidth();
  Value *Lanes =
      B.CreateBitCast(Mask, FixedVectorType::get(B.getInt1Ty(), Bits));
  if (Bits != N) {
    SmallVector<int, 16> First;
    for (unsigned L = 0; L < N; ++L)
      First.push_back(L);
    Lanes = B.CreateShuffleVector(Lanes, First);
  }
  Value *All = ConstantInt::get(Mask->getType(), APInt::getAllOnes(Bits));
  Value *Unmasked = B.CreateCall(II.getCalledFunction(), {A, Pass, All});
  return B.CreateSelect(Lanes, Unmasked, Pass);
}

/// The IR computing what \p II computes, or null when it cannot be said
/// (a rounding mode or mask known only at run time).
Value *rewrite(IRBuilder<> &B, IntrinsicInst &II, X86Op Op) {
  auto Arg = [&](unsigned I) { return II.getArgOperand(I); };
  switch (Op) {
  case X86Op::Round:
    if (std::optional<Intrinsic::ID> R = roundingOf(Arg(1)))
      return B.CreateUnaryIntrinsic(*R, Arg(0));
    return nullptr;
  case X86Op::RoundLow:
    if (std::optional<Intrinsic::ID> R = roundingOf(Arg(2)))
      return intoLow(B, Arg(0), B.CreateUnaryIntrinsic(*R, low(B, Arg(1))));
    return nullptr;
  case X86Op::RndScale: {
    // Unmasked only: every mask bit of the lanes set. (The optional fifth
    // operand, the rounding control of the 512-bit form, only suppresses
    // exceptions here.)
    if (!allLanes(Arg(3), numLanes(Arg(0))))
      return nullptr;
    if (std::optional<Intrinsic::ID> R = roundingOf(Arg(1)))
      return B.CreateUnaryIntrinsic(*R, Arg(0));
    return nullptr;
  }
  case X86Op::Blendv: {
    auto *VecTy = cast<FixedVectorType>(Arg(2)->getType());
    Type *IntTy = VectorType::getInteger(VecTy);
    Value *Bits = B.CreateBitCast(Arg(2), IntTy);
    Value *Sign = B.CreateICmpSLT(Bits, Constant::getNullValue(IntTy));
    return B.CreateSelect(Sign, Arg(1), Arg(0));
  }
  case X86Op::Min:
  case X86Op::Max:
    return minMax(B, Op == X86Op::Max, Arg(0), Arg(1));
  case X86Op::MinLow:
  case X86Op::MaxLow:
    return intoLow(
        B, Arg(0),
        minMax(B, Op == X86Op::MaxLow, low(B, Arg(0)), low(B, Arg(1))));
  case X86Op::AddSub: {
    Value *Sub = B.CreateFSub(Arg(0), Arg(1));
    Value *Add = B.CreateFAdd(Arg(0), Arg(1));
    unsigned N = numLanes(Arg(0));
    SmallVector<int, 16> Mask;
    for (unsigned Lane = 0; Lane < N; ++Lane)
      Mask.push_back(Lane % 2 ? N + Lane : Lane);
    return B.CreateShuffleVector(Sub, Add, Mask);
  }
  case X86Op::HAdd:
  case X86Op::HSub:
    return horizontal(B, Op == X86Op::HSub, Arg(0), Arg(1));
  case X86Op::Permute:
  case X86Op::PermuteIn128:
    return permute(B, II, Arg(0), Arg(1), Op == X86Op::PermuteIn128);
  case X86Op::MaskedApprox:
    return unmaskApproximation(B, II);
  }
  return nullptr;
}

} // namespace

StringRef unsupportedIntrinsicAdvice(const Function &Callee) {
  StringRef Name = Callee.getName();
  // (The packed approximations have a rule; the scalar ones, which pass
  // the other lanes of another operand through, do not.)
  if (Name.starts_with("llvm.x86.") &&
      (Name.contains(".rsqrt") || Name.contains(".rcp")))
    return "; of the approximate reciprocals, only the packed forms "
           "(_mm_rsqrt_ps, _mm512_rsqrt14_pd, ...) have a derivative";
  if (Name.starts_with("llvm.x86.avx512.mask."))
    return "; masked AVX-512 operations have no derivative in adcc yet";
  return "";
}

bool rewriteX86Intrinsics(Function &F) {
  return rewriteEach<IntrinsicInst>(F, [](IntrinsicInst &II) {
    const X86Row *Row = rowOf(II);
    if (!Row)
      return false;
    IRBuilder<> B(&II);
    B.SetCurrentDebugLocation(II.getDebugLoc());
    Value *R = rewrite(B, II, Row->Op);
    if (!R)
      return false; // left for the emitters to report
    replaceRewritten(II, R);
    return true;
  });
}

} // namespace adcore
