//===- FloatSelects.cpp - Floats' bits chosen by an integer select -------===//
//
// InstCombine may choose between the bits of two floats as integers and
// cast the choice back (Eigen's pfrexp with AVX: the input's bits where it
// is zero or infinite, the mantissa's bits elsewhere):
//
//   %s = select <4 x i1> %c, <4 x i64> %bits.a, <4 x i64> %bits.b
//   %f = bitcast <4 x i64> %s to <4 x double>
//
// Each such cast is rewritten in the primal as the select of the two casts,
// `select %c, (bitcast %bits.a), (bitcast %bits.b)`: the same bits, chosen
// as floats, whose operands the sign-mask and exponent rewrites
// (SignMasks.cpp, ExponentBits.cpp) can then read as operations on floats.
// Nested selects are taken apart from the outside in.
//
//===----------------------------------------------------------------------===//

#include "PrimalRewrites.h"

#include "Prepare.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace adcore {

bool sinkFloatCastsIntoSelects(Function &F) {
  SmallVector<BitCastInst *, 16> Work;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *BC = dyn_cast<BitCastInst>(&I))
        Work.push_back(BC);
  bool Changed = false;
  while (!Work.empty()) {
    BitCastInst *Cast = Work.pop_back_val();
    auto *Sel = dyn_cast<SelectInst>(Cast->getOperand(0));
    Type *To = Cast->getType();
    if (!Sel || !To->isFPOrFPVectorTy() ||
        !Sel->getType()->isIntOrIntVectorTy())
      continue;
    IRBuilder<> B(Cast);
    B.SetCurrentDebugLocation(Cast->getDebugLoc());
    Value *T = B.CreateBitCast(Sel->getTrueValue(), To);
    Value *E = B.CreateBitCast(Sel->getFalseValue(), To);
    replaceRewritten(*Cast, B.CreateSelect(Sel->getCondition(), T, E));
    for (Value *V : {T, E})
      if (auto *BC = dyn_cast<BitCastInst>(V))
        Work.push_back(BC);
    Changed = true;
  }
  return Changed;
}

} // namespace adcore
