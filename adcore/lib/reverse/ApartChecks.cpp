//===- ApartChecks.cpp - Run-time overlap checks of a region's arrays ----===//
//
// An iteration's own element x[i] of a worksharing loop that also reads
// y[i] through another pointer argument, which may point into the same
// array, is a Checked update (analysis/ParallelMemory.h). The reverse
// sweep adds the adjoints of those reads into the shadows of x and y, so
// the shadows decide: in the augmented sweep, where the loop is entered
// (its preheader), the region tests whether the byte ranges of the
// shadows its whole iteration space updates through each base are
// pairwise apart,
//
//   [s + lower * stride, s + upper * stride + bytes)   (s: b's shadow)
//
// and notes the answer in the region (adcc_parallel_note_apart: every
// thread that enters the loop computes the same; one that finds an overlap
// marks the check for good). The reverse region reads it once per thread
// (adcc_parallel_apart): apart, the adjoint updates of those elements are
// plain loads and stores; overlapping, or never noted (a base without a
// shadow there), atomic adds.
//
//===----------------------------------------------------------------------===//

#include "ReverseEmitter.h"

#include "llvm/IR/Dominators.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {

void ReverseEmitter::noteApartChecks(ValueToValueMapTy &VMap) {
  if (!Key.Parallel || DeviceCode)
    return;
  auto Clone = [&](const Value *V) -> Value * {
    if (isa<Constant>(V))
      return const_cast<Value *>(V);
    return VMap.lookup(V);
  };
  for (const ApartCheck &Check : sharedMemory().checks()) {
    ApartValues &Vals = ApartChecksAt.emplace_back();
    Vals.At = Clone(Check.At);
    Vals.Lower = Clone(Check.Lower);
    Vals.Upper = Clone(Check.Upper);
    for (const ApartCheck::Array &A : Check.Arrays)
      Vals.Bases.push_back(Clone(A.Base));
  }
}

void ReverseEmitter::emitApartChecks() {
  Module &M = *Aug.getParent();
  LLVMContext &C = M.getContext();
  Type *I32 = Type::getInt32Ty(C), *I64 = Type::getInt64Ty(C);
  FunctionCallee Note = M.getOrInsertFunction(
      "adcc_parallel_note_apart", Type::getVoidTy(C), I32, I32, I32);
  ArrayRef<ApartCheck> Checks = sharedMemory().checks();
  if (ApartChecksAt.empty())
    return;
  DominatorTree DT(Aug);
  for (unsigned K = 0; K < ApartChecksAt.size(); ++K) {
    const ApartValues &Vals = ApartChecksAt[K];
    auto *At = dyn_cast_or_null<Instruction>(Vals.At);
    if (!At || !Vals.Lower || !Vals.Upper || At->getFunction() != &Aug)
      continue; // (never noted: the reverse adds atomically)
    // The shadows of the bases, where the reverse adds.
    SmallVector<Value *, 4> Shadows;
    for (const WeakTrackingVH &Base : Vals.Bases) {
      Value *S = Base ? shadowOrNull(Base) : nullptr;
      auto *SI = dyn_cast_or_null<Instruction>(S);
      if (!S || (SI && !DT.dominates(SI, At)))
        break;
      Shadows.push_back(S);
    }
    if (Shadows.size() != Vals.Bases.size())
      continue;
    IRBuilder<> B(At);
    auto Widen = [&](Value *V) {
      return Checks[K].Unsigned ? B.CreateZExtOrTrunc(V, I64)
                                : B.CreateSExtOrTrunc(V, I64);
    };
    Value *Lower = Widen(Vals.Lower), *Upper = Widen(Vals.Upper);
    SmallVector<std::pair<Value *, Value *>, 4> Ranges;
    for (unsigned A = 0; A < Vals.Bases.size(); ++A) {
      const ApartCheck::Array &Array = Checks[K].Arrays[A];
      Value *Base = B.CreatePtrToInt(Shadows[A], I64);
      Value *Stride = B.getInt64(Array.Stride);
      Value *Start = B.CreateAdd(Base, B.CreateMul(Lower, Stride));
      Value *End = B.CreateAdd(B.CreateAdd(Base, B.CreateMul(Upper, Stride)),
                               B.getInt64(Array.Bytes));
      Ranges.push_back({Start, End});
    }
    Value *Apart = B.getTrue();
    for (unsigned A = 0; A < Ranges.size(); ++A)
      for (unsigned O = A + 1; O < Ranges.size(); ++O)
        Apart = B.CreateAnd(
            Apart,
            B.CreateOr(B.CreateICmpULE(Ranges[A].second, Ranges[O].first),
                       B.CreateICmpULE(Ranges[O].second, Ranges[A].first)));
    B.CreateCall(Note, {B.getInt32(K), B.CreateZExt(Apart, I32),
                        B.getInt32(Key.TapeLevel)});
  }
}

Value *ReverseEmitter::apartFlag(int K) {
  if (Value *Flag = ApartFlags.lookup(K))
    return Flag;
  Module &M = *Rev.getParent();
  LLVMContext &C = M.getContext();
  Type *I32 = Type::getInt32Ty(C);
  FunctionCallee Read =
      M.getOrInsertFunction("adcc_parallel_apart", I32, I32, I32);
  BasicBlock &Entry = Rev.getEntryBlock();
  IRBuilder<> B(&Entry, Entry.getFirstNonPHIOrDbgOrAlloca());
  Value *Flag = B.CreateICmpNE(
      B.CreateCall(Read, {B.getInt32(K), B.getInt32(Key.TapeLevel)}),
      B.getInt32(0), "arrays.apart");
  ApartFlags[K] = Flag;
  return Flag;
}

} // namespace adcore
