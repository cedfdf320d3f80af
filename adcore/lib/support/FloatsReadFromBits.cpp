//===- FloatsReadFromBits.cpp - Floats read out of an integer ------------===//

#include "FloatsReadFromBits.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace adcore {

bool floatsReadFromBits(const Value *V, unsigned Depth) {
  for (const User *U : V->users()) {
    auto *I = dyn_cast<Instruction>(U);
    if (!I || I->getOperand(0) != V)
      continue;
    switch (I->getOpcode()) {
    case Instruction::BitCast:
      if (I->getType()->isFPOrFPVectorTy())
        return true;
      [[fallthrough]];
    case Instruction::Trunc:
    case Instruction::ZExt:
      break;
    case Instruction::LShr:
    case Instruction::AShr:
      if (!isa<ConstantInt>(I->getOperand(1)))
        continue;
      break;
    default:
      continue;
    }
    if (Depth && I->getType()->isIntOrIntVectorTy() &&
        floatsReadFromBits(I, Depth - 1))
      return true;
  }
  return false;
}

} // namespace adcore
