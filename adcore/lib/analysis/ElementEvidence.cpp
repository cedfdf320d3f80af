//===- ElementEvidence.cpp - Elements of arrays that no access names ------===//
//
// Inside a template instance of the standard library, an array's elements
// may be touched only by what the instance needs: std::stable_sort's merge
// loop reads the int field its comparator compares, copies elements whole
// (a memcpy Clang tags with the struct's fields, !tbaa.struct) and moves
// the rest of a run with a memmove of `last - first` bytes. The type
// analysis then knows the int and nothing of the doubles the memmove
// carries. Two facts of the instance say more:
//  - a copy of one aggregate with !tbaa.struct: the fields it lists are
//    at both ends (what Clang knows of the copied type);
//  - a pointer difference divided exactly by S (`(last - first) / sizeof
//    (T)`, `sdiv exact`, or an exact shift by log2 S): both pointers point
//    into an array of S-byte elements.
//
//===----------------------------------------------------------------------===//

#include "TypeAnalysis.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace adcore {
namespace {

/// The element size that the exact division \p BO of a pointer difference
/// divides by, and the two pointers; 0 when \p BO is not one.
uint64_t dividedDifference(const BinaryOperator &BO, const Value *&A,
                           const Value *&B) {
  if (!isa<PossiblyExactOperator>(BO) || !BO.isExact())
    return 0;
  const auto *C = dyn_cast<ConstantInt>(BO.getOperand(1));
  if (!C || C->isNegative() || C->getValue().getActiveBits() > 16)
    return 0;
  uint64_t S = 0;
  switch (BO.getOpcode()) {
  case Instruction::SDiv:
  case Instruction::UDiv:
    S = C->getZExtValue();
    break;
  case Instruction::AShr:
  case Instruction::LShr:
    S = C->getZExtValue() < 16 ? uint64_t(1) << C->getZExtValue() : 0;
    break;
  default:
    return 0;
  }
  const auto *Sub = dyn_cast<BinaryOperator>(BO.getOperand(0));
  if (S < 2 || !Sub || Sub->getOpcode() != Instruction::Sub)
    return 0;
  const auto *PA = dyn_cast<PtrToIntOperator>(Sub->getOperand(0));
  const auto *PB = dyn_cast<PtrToIntOperator>(Sub->getOperand(1));
  if (!PA || !PB)
    return 0;
  A = PA->getPointerOperand();
  B = PB->getPointerOperand();
  return S;
}

} // namespace

bool TypeAnalysis::joinElementEvidence(const Instruction &I) {
  bool Changed = false;
  if (const auto *BO = dyn_cast<BinaryOperator>(&I)) {
    const Value *A = nullptr, *B = nullptr;
    if (uint64_t S = dividedDifference(*BO, A, B)) {
      Changed |= joinStride(A, S);
      Changed |= joinStride(B, S);
    }
    return Changed;
  }
  const auto *MT = dyn_cast<MemTransferInst>(&I);
  if (!MT || !MT->getMetadata(LLVMContext::MD_tbaa_struct))
    return false;
  const auto *Len = dyn_cast<ConstantInt>(MT->getLength());
  if (!Len)
    return false;
  for (auto [Offset, K] : copiedFields(*MT)) {
    if (Offset < 0 || uint64_t(Offset) >= Len->getZExtValue())
      continue;
    Changed |= joinMemory(MT->getRawDest(), Offset, K);
    Changed |= joinMemory(MT->getRawSource(), Offset, K);
  }
  return Changed;
}

} // namespace adcore
