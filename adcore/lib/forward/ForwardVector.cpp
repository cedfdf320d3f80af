//===- ForwardVector.cpp - Vector and aggregate operations ---------------===//
//
// Operations that only move values (extract, insert, shuffle) are linear:
// the tangent applies the same operation to the tangents, with zero for an
// operand that has none.
//
//===----------------------------------------------------------------------===//

#include "ForwardEmitter.h"

using namespace llvm;

namespace adcore {
namespace {

/// Lane \p L of the tangent of \p V, or the primal-typed zero.
Value *laneOrZero(ForwardEmitter &E, Value *T, Value *V, unsigned L,
                  function_ref<Value *(Value *, unsigned)> Lane) {
  return T ? Lane(T, L) : Constant::getNullValue(V->getType());
}

} // namespace

bool ForwardEmitter::visitExtractElementInst(ExtractElementInst &I) {
  Value *TV = tangentOrNull(I.getVectorOperand());
  if (!TV)
    return true;
  setTangent(&I, forEachLane(I.getType(), [&](unsigned L) {
    return B.CreateExtractElement(lane(TV, L), I.getIndexOperand());
  }));
  return true;
}

bool ForwardEmitter::visitInsertElementInst(InsertElementInst &I) {
  Value *Vec = I.getOperand(0), *Elt = I.getOperand(1);
  Value *TVec = tangentOrNull(Vec), *TElt = tangentOrNull(Elt);
  if (!TVec && !TElt)
    return true;
  auto Lane = [&](Value *T, unsigned L) { return lane(T, L); };
  setTangent(&I, forEachLane(I.getType(), [&](unsigned L) {
    return B.CreateInsertElement(laneOrZero(*this, TVec, Vec, L, Lane),
                                 laneOrZero(*this, TElt, Elt, L, Lane),
                                 I.getOperand(2));
  }));
  return true;
}

bool ForwardEmitter::visitShuffleVectorInst(ShuffleVectorInst &I) {
  Value *V1 = I.getOperand(0), *V2 = I.getOperand(1);
  Value *T1 = tangentOrNull(V1), *T2 = tangentOrNull(V2);
  if (!T1 && !T2)
    return true;
  auto Lane = [&](Value *T, unsigned L) { return lane(T, L); };
  setTangent(&I, forEachLane(I.getType(), [&](unsigned L) {
    return B.CreateShuffleVector(laneOrZero(*this, T1, V1, L, Lane),
                                 laneOrZero(*this, T2, V2, L, Lane),
                                 I.getShuffleMask());
  }));
  return true;
}

bool ForwardEmitter::visitExtractValueInst(ExtractValueInst &I) {
  Value *TA = tangentOrNull(I.getAggregateOperand());
  // (An integer member holding a float's bits carries its tangent's bits:
  // a struct returned by value, `{uint64_t bits; int tag;}`.)
  if (!TA || !(canCarryDerivative(I.getType()) ||
               (isAnalyzedActive(&I) && carriesFloatBits(&I))))
    return true;
  setTangent(&I, forEachLane(I.getType(), [&](unsigned L) {
    return B.CreateExtractValue(lane(TA, L), I.getIndices());
  }));
  return true;
}

bool ForwardEmitter::visitInsertValueInst(InsertValueInst &I) {
  Value *Agg = I.getAggregateOperand(), *Val = I.getInsertedValueOperand();
  Value *TA = tangentOrNull(Agg), *TV = tangentOrNull(Val);
  if (!TA && !TV)
    return true;
  auto Lane = [&](Value *T, unsigned L) { return lane(T, L); };
  setTangent(&I, forEachLane(I.getType(), [&](unsigned L) {
    return B.CreateInsertValue(laneOrZero(*this, TA, Agg, L, Lane),
                               laneOrZero(*this, TV, Val, L, Lane),
                               I.getIndices());
  }));
  return true;
}

} // namespace adcore
