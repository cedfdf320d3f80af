//===- X86Rounding.cpp - SSE4.1/AVX rounding as LLVM's rounding ----------===//
//
// With SSE4.1 (-march=native), `_mm_round_pd` and `_mm256_round_pd` stay
// x86 intrinsics (Eigen's pfloor, pceil, print and its vectorized exp use
// them). Their immediate says which rounding they do; each becomes the
// target-independent intrinsic that does the same, lane by lane, and that
// the rule table knows (derivative zero): bits 0-1 select nearest-even,
// down, up or toward zero, and bit 2 the current rounding mode instead
// (nearbyint). One table row per intrinsic.
//
//===----------------------------------------------------------------------===//

#include "adcore/Synthesis.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsX86.h"

using namespace llvm;

namespace adcore {
namespace {

const Intrinsic::ID X86RoundingTable[] = {
    Intrinsic::x86_sse41_round_pd,
    Intrinsic::x86_sse41_round_ps,
    Intrinsic::x86_avx_round_pd_256,
    Intrinsic::x86_avx_round_ps_256,
};

/// The rounding an immediate asks for.
Intrinsic::ID roundingOf(uint64_t Imm) {
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

} // namespace

bool rewriteX86Rounding(Function &F) {
  SmallVector<IntrinsicInst *, 8> Calls;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *II = dyn_cast<IntrinsicInst>(&I);
          II && is_contained(X86RoundingTable, II->getIntrinsicID()) &&
          isa<ConstantInt>(II->getArgOperand(1)))
        Calls.push_back(II);
  for (IntrinsicInst *II : Calls) {
    IRBuilder<> B(II);
    B.SetCurrentDebugLocation(II->getDebugLoc());
    uint64_t Imm = cast<ConstantInt>(II->getArgOperand(1))->getZExtValue();
    Value *R = B.CreateUnaryIntrinsic(roundingOf(Imm), II->getArgOperand(0));
    II->replaceAllUsesWith(R);
    II->eraseFromParent();
  }
  return !Calls.empty();
}

} // namespace adcore
