//===- HighFloatBits.cpp - Integers from the high bits of floats ---------===//
//
// See HighFloatBits.h. The walk keeps, for each integer, the bits of it
// that matter to the root (a mask), and passes to each operand the bits of
// the operand that those depend on; a value reached again with new bits
// is walked again (a loop's phis), up to a bound.
//
//===----------------------------------------------------------------------===//

#include "HighFloatBits.h"

#include "BitProvenance.h"

#include "llvm/ADT/APInt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

#include <algorithm>

using namespace llvm;

namespace adcore {
namespace {

class DemandWalk {
public:
  bool run(Value *Root, SmallPtrSetImpl<Value *> &Floats);

private:
  /// Adds \p Bits to what matters of \p V.
  void demand(Value *V, const APInt &Bits);
  /// Passes what matters of \p I to its operands; false where unknown.
  bool visit(Instruction &I, const APInt &D);

  DenseMap<Value *, APInt> Demanded;
  DenseMap<Value *, APInt> FloatBits;
  SmallVector<Value *, 32> Work;
};

void DemandWalk::demand(Value *V, const APInt &Bits) {
  if (!isa<Instruction>(V) || Bits.isZero())
    return;
  auto [It, New] = Demanded.try_emplace(V, Bits);
  if (!New) {
    APInt Old = It->second;
    It->second |= Bits;
    if (It->second == Old)
      return;
  }
  Work.push_back(V);
}

bool DemandWalk::visit(Instruction &I, const APInt &D) {
  unsigned W = D.getBitWidth();
  auto All = [](Value *V) {
    return APInt::getAllOnes(V->getType()->getScalarSizeInBits());
  };
  auto Const = [&](unsigned N) -> const APInt * {
    auto *C = dyn_cast<ConstantInt>(I.getOperand(N));
    return C ? &C->getValue() : nullptr;
  };
  switch (I.getOpcode()) {
  case Instruction::BitCast: {
    Value *Src = I.getOperand(0);
    if (isa<Constant>(Src))
      return true;
    if (!significandBits(Src->getType()) || !I.getType()->isIntegerTy())
      return false;
    auto [It, New] = FloatBits.try_emplace(Src, D);
    if (!New)
      It->second |= D;
    return true;
  }
  case Instruction::Trunc:
    demand(I.getOperand(0), D.zext(I.getOperand(0)->getType()
                                       ->getScalarSizeInBits()));
    return true;
  case Instruction::ZExt:
  case Instruction::SExt: {
    unsigned SW = I.getOperand(0)->getType()->getScalarSizeInBits();
    APInt Op = D.trunc(SW);
    if (I.getOpcode() == Instruction::SExt && D.getActiveBits() > SW)
      Op.setBit(SW - 1);
    demand(I.getOperand(0), Op);
    return true;
  }
  case Instruction::Shl:
  case Instruction::LShr:
  case Instruction::AShr: {
    const APInt *N = Const(1);
    if (!N || N->uge(W)) {
      demand(I.getOperand(0), All(&I));
      demand(I.getOperand(1), All(I.getOperand(1)));
      return true;
    }
    unsigned S = N->getZExtValue();
    APInt Op = I.getOpcode() == Instruction::Shl ? D.lshr(S) : D.shl(S);
    if (I.getOpcode() == Instruction::AShr && D.countl_zero() < S)
      Op.setBit(W - 1);
    demand(I.getOperand(0), Op);
    return true;
  }
  case Instruction::And:
  case Instruction::Or:
    for (unsigned N : {0u, 1u}) {
      if (const APInt *C = Const(1 - N)) {
        demand(I.getOperand(N),
               I.getOpcode() == Instruction::And ? D & *C : D & ~*C);
        return true;
      }
    }
    [[fallthrough]];
  case Instruction::Xor:
  case Instruction::Freeze:
    for (Value *Op : I.operands())
      demand(Op, D);
    return true;
  case Instruction::Add:
  case Instruction::Sub:
  case Instruction::Mul: {
    // (Carries from every bit below the highest that matters.)
    APInt Low = APInt::getLowBitsSet(W, D.getActiveBits());
    // A constant's trailing zeros start no carry (nor borrow): the bits
    // below them pass unchanged, and only those that matter matter. The
    // rounding of a float's word, `(bits + 0x80000000) & ~0x3fffffff`
    // (fdlibm's cbrt at -O0), depends on its bits from 30 up.
    const APInt *C = nullptr;
    unsigned Var = 0;
    if (I.getOpcode() != Instruction::Mul && (C = Const(1)))
      Var = 0;
    else if (I.getOpcode() == Instruction::Add && (C = Const(0)))
      Var = 1;
    if (C) {
      APInt Below = APInt::getLowBitsSet(W, std::min(C->countr_zero(), W));
      demand(I.getOperand(Var), (Low & ~Below) | (D & Below));
      return true;
    }
    for (Value *Op : I.operands())
      demand(Op, Low);
    return true;
  }
  case Instruction::Select:
    demand(I.getOperand(0), APInt(1, 1));
    demand(I.getOperand(1), D);
    demand(I.getOperand(2), D);
    return true;
  case Instruction::PHI: {
    auto &Phi = cast<PHINode>(I);
    for (unsigned N = 0; N < Phi.getNumIncomingValues(); ++N) {
      demand(Phi.getIncomingValue(N), D);
      if (auto *Br = dyn_cast<BranchInst>(Phi.getIncomingBlock(N)
                                              ->getTerminator());
          Br && Br->isConditional())
        demand(Br->getCondition(), APInt(1, 1));
      else if (!isa<BranchInst>(Phi.getIncomingBlock(N)->getTerminator()))
        return false;
    }
    return true;
  }
  case Instruction::ICmp:
    for (Value *Op : I.operands())
      if (Op->getType()->isIntOrIntVectorTy())
        demand(Op, All(Op));
    return true;
  default:
    break;
  }
  // (Loads, calls and conversions of numbers carry no float's bits, as
  // for BitProvenance; other arithmetic needs all of its operands.)
  if (isa<LoadInst, CallBase, FPToSIInst, FPToUIInst, FCmpInst>(I))
    return !isa<IntrinsicInst>(I) ||
           all_of(I.operands(), [](Value *Op) {
             return !Op->getType()->isIntOrIntVectorTy();
           });
  if (!isa<BinaryOperator>(I))
    return false;
  for (Value *Op : I.operands())
    demand(Op, All(Op));
  return true;
}

bool DemandWalk::run(Value *Root, SmallPtrSetImpl<Value *> &Floats) {
  auto *IT = dyn_cast<IntegerType>(Root->getType());
  if (!IT)
    return false;
  demand(Root, APInt::getAllOnes(IT->getBitWidth()));
  for (unsigned Steps = 0; !Work.empty(); ++Steps) {
    if (Steps > 4096)
      return false;
    Value *V = Work.pop_back_val();
    APInt D = Demanded.lookup(V);
    if (!V->getType()->isIntegerTy())
      return false; // (vectors: unknown)
    if (!visit(*cast<Instruction>(V), D))
      return false;
  }
  if (FloatBits.empty())
    return false;
  for (auto &[Float, Bits] : FloatBits) {
    unsigned Half = (significandBits(Float->getType()) + 1) / 2;
    if (!Bits.extractBits(Half, 0).isZero())
      return false;
    Floats.insert(Float);
  }
  return true;
}

} // namespace

bool dependsOnHighFloatBits(Value *Int, SmallPtrSetImpl<Value *> &Floats) {
  return DemandWalk().run(Int, Floats);
}

} // namespace adcore
