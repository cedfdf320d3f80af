//===- ThreadAdjoints.cpp - Per-thread adjoints of an OpenMP region -------===//
//
// In the reverse sweep of an OpenMP region, the adjoints of memory that the
// region only reads, at places that do not depend on the iteration (a
// model's parameters, read by every data point: analysis/ParallelMemory.h),
// go into a private copy of the shadow that each thread keeps instead of
// an atomic add per read:
//
//   entry      W = {lo: null, count: 0, copy: null, element: 8}
//   each read  k = rotr(to - W.lo, log2(element))
//              if k < W.count: W.copy[to - W.lo] += d      (plain)
//              else adcc_thread_adjoints_add(&W, to, &d, bytes)
//   exit       adcc_thread_adjoints_add_up(&W)
//
// The runtime grows the window [lo, lo + count * element) to take an
// address outside it, or adds atomically into the shadow where the window
// would pass its limit (runtime/lib/thread_adjoints.c). The region's
// reverse sweep runs once per thread, so its exit is where each thread's
// copy is added in; nothing in the region reads these shadows before.
//
//===----------------------------------------------------------------------===//

#include "ReverseEmitter.h"

#include "support/MemoryScopes.h"

#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;

namespace adcore {
namespace {

/// adcc_thread_adjoints (adcc_runtime.h): lo, count, copy, element.
StructType *windowType(LLVMContext &C) {
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C);
  return StructType::get(C, {Ptr, I64, Ptr, I64});
}

/// The most bytes one access of the copy may have (the copy's padding:
/// ADCC_THREAD_ADJOINTS_PAD).
constexpr uint64_t MaxAccessBytes = 64;

} // namespace

AllocaInst *ReverseEmitter::threadAdjoints(const Value *Object,
                                           uint64_t ElementBytes) {
  auto [It, New] = ThreadWindows.try_emplace(Object, nullptr);
  if (!New)
    return It->second;
  StructType *T = windowType(Rev.getContext());
  IRBuilder<> EB(RevEntry, RevEntry->getFirstInsertionPt());
  AllocaInst *W = EB.CreateAlloca(T, nullptr, "thread.adjoints");
  EB.CreateStore(Constant::getNullValue(T), W);
  EB.CreateStore(EB.getInt64(ElementBytes), EB.CreateStructGEP(T, W, 3));
  It->second = W;
  return W;
}

bool ReverseEmitter::addPerThread(Value *To, Value *D, const Value *Object) {
  const DataLayout &DL = Rev.getParent()->getDataLayout();
  Type *T = D->getType();
  uint64_t Bytes = DL.getTypeStoreSize(T);
  uint64_t Element = DL.getTypeStoreSize(T->getScalarType());
  if (Bytes > MaxAccessBytes || Bytes % Element || !isPowerOf2_64(Element))
    return false;
  LLVMContext &C = Rev.getContext();
  StructType *WT = windowType(C);
  AllocaInst *W = threadAdjoints(Object, Element);
  Type *Ptr = RB.getPtrTy(), *I64 = RB.getInt64Ty();
  Value *Lo = RB.CreateLoad(Ptr, RB.CreateStructGEP(WT, W, 0));
  Value *Count = RB.CreateLoad(I64, RB.CreateStructGEP(WT, W, 1));
  Value *Offset = RB.CreateSub(RB.CreatePtrToInt(To, I64),
                               RB.CreatePtrToInt(Lo, I64));
  // (Rotated right: an offset that is not a whole number of elements, or
  // is negative, becomes larger than any count.)
  Value *Index = RB.CreateIntrinsic(
      Intrinsic::fshr, {I64},
      {Offset, Offset, RB.getInt64(Log2_64(Element))});
  Value *Inside = RB.CreateICmpULT(Index, Count);
  Function *F = RB.GetInsertBlock()->getParent();
  BasicBlock *InCopy = BasicBlock::Create(C, "thread.adjoint", F);
  BasicBlock *Grow = BasicBlock::Create(C, "thread.adjoint.grow", F);
  BasicBlock *After = BasicBlock::Create(C, "thread.adjoint.end", F);
  MDBuilder MDB(C);
  RB.CreateCondBr(Inside, InCopy, Grow, MDB.createLikelyBranchWeights());
  RB.SetInsertPoint(InCopy);
  Value *Copy = RB.CreateLoad(Ptr, RB.CreateStructGEP(WT, W, 2));
  Value *Slot = RB.CreateGEP(RB.getInt8Ty(), Copy, Offset);
  // (The copy starts at a multiple of 64 bytes, as lo: the slot is as
  // aligned as the shadow's element.)
  Align A = commonAlignment(Align(MaxAccessBytes), Element);
  LoadInst *Old = RB.CreateAlignedLoad(T, Slot, A);
  tagMemoryClass(*Old, MemoryClass::Shadow);
  tagMemoryClass(*RB.CreateAlignedStore(sum(Old, D), Slot, A),
                 MemoryClass::Shadow);
  RB.CreateBr(After);
  RB.SetInsertPoint(Grow);
  AllocaInst *&Held = ThreadAdjointValues[T];
  if (!Held)
    Held = IRBuilder<>(RevEntry, RevEntry->getFirstInsertionPt())
               .CreateAlloca(T, nullptr, "thread.adjoint.value");
  RB.CreateStore(D, Held);
  Module &M = *Rev.getParent();
  RB.CreateCall(M.getOrInsertFunction(
                    "adcc_thread_adjoints_add",
                    FunctionType::get(RB.getVoidTy(), {Ptr, Ptr, Ptr, I64},
                                      false)),
                {W, To, Held, RB.getInt64(Bytes)});
  RB.CreateBr(After);
  RB.SetInsertPoint(After);
  return true;
}

void ReverseEmitter::addUpThreadAdjoints() {
  if (ThreadWindows.empty())
    return;
  Module &M = *Rev.getParent();
  FunctionCallee AddUp = M.getOrInsertFunction(
      "adcc_thread_adjoints_add_up",
      FunctionType::get(Type::getVoidTy(M.getContext()),
                        {PointerType::getUnqual(M.getContext())}, false));
  for (BasicBlock &BB : Rev)
    if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator())) {
      IRBuilder<> B(Ret);
      for (auto &[Object, W] : ThreadWindows)
        B.CreateCall(AddUp, {W});
    }
}

} // namespace adcore
