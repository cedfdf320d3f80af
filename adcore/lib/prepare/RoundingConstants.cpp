//===- RoundingConstants.cpp - Rounding by adding 1.5 * 2^52 -------------===//
//
// Math libraries round to an integer by adding and subtracting a constant
// whose last place is 1 (fdlibm's rem_pio2, `fn = x * invpio2 + 0x1.8p52;
// fn -= 0x1.8p52`; musl's exp, `kd = x * InvLn2N + Shift`): the sum has no
// fraction left, so it is constant between two integers, as rint(x) is.
// The rule of an addition would give it the derivative of x, and the
// reduction `x - fn * pi/2` a derivative of 0 instead of 1. Each addition
// or subtraction of such a constant (2^52 or 1.5 * 2^52 for double, 2^23
// or 1.5 * 2^23 for float, either sign) carries no derivative
// (NoDerivativeMetadata): it is exact for |x| < 2^51 (2^22), the range
// in which the idiom is used.
//
//===----------------------------------------------------------------------===//

#include "Prepare.h"

#include "analysis/BitProvenance.h"
#include "support/IRMarks.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace adcore {
namespace {

/// Whether \p V is a constant 2^M or 1.5 * 2^M (either sign), M the
/// significand's width of its type.
bool isRoundingConstant(const Value *V) {
  const auto *C = dyn_cast<ConstantFP>(V);
  unsigned M = C ? significandBits(C->getType()) : 0;
  if (!M)
    return false;
  APFloat A = abs(C->getValueAPF());
  APFloat Two(A.getSemantics(), 1);
  Two = scalbn(Two, int(M), APFloat::rmNearestTiesToEven);
  APFloat OneAndHalf = Two;
  OneAndHalf.multiply(APFloat(A.getSemantics(), "1.5"),
                      APFloat::rmNearestTiesToEven);
  return A.bitwiseIsEqual(Two) || A.bitwiseIsEqual(OneAndHalf);
}

} // namespace

bool markRoundingConstants(Function &F) {
  bool Changed = false;
  for (Instruction &I : instructions(F)) {
    if (I.getOpcode() != Instruction::FAdd &&
        I.getOpcode() != Instruction::FSub)
      continue;
    if (!isRoundingConstant(I.getOperand(0)) &&
        !isRoundingConstant(I.getOperand(1)))
      continue;
    I.setMetadata(NoDerivativeMetadata, MDNode::get(F.getContext(), {}));
    Changed = true;
  }
  return Changed;
}

} // namespace adcore
