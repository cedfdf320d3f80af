//===- LoopArrays.cpp - Per-iteration records in arrays ------------------===//
//
// A counted loop whose trip count is known when it is entered keeps the
// records of its iterations in one block of the tape, pushed on entry and
// sized by the trip count: iteration k stores its records at
// base + k * stride + offset, plain stores the vectorizer can work with,
// and the reverse sweep reads them back from its iteration counter. The
// block's address and length are recorded at the loop's exits (beside the
// trip count); the reverse sweep releases the block when it leaves the
// loop. Records of inner loops stay on the tape, between the block and
// the exit records, which keeps the tape LIFO.
//
//===----------------------------------------------------------------------===//

#include "ReverseEmitter.h"
#include "TapeRecords.h"
#include "device/DeviceCode.h"

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

using namespace llvm;

namespace adcore {
namespace {

bool fitsGranule(const DataLayout &DL, Type *T) {
  return T->isSized() && DL.getTypeAllocSize(T) <= RecordGranule &&
         DL.getABITypeAlign(T).value() <= RecordGranule && !T->isVectorTy();
}

} // namespace

bool ReverseEmitter::deviceArrayFits(ScalarEvolution &SE, const Loop &L,
                                     ArrayRef<Instruction *> Insts) {
  SmallPtrSet<Value *, 8> Values;
  for (Instruction *I : Insts)
    Values.insert(Recorded[I].begin(), Recorded[I].end());
  auto *Max = dyn_cast<SCEVConstant>(SE.getConstantMaxBackedgeTakenCount(&L));
  if (!Max || Max->getAPInt().getActiveBits() > 32)
    return false;
  return (Max->getAPInt().getZExtValue() + 1) * Values.size() *
             RecordGranule <=
         MaxThreadTape;
}

void ReverseEmitter::planLoopArrays() {
  Module &M = *Aug.getParent();
  const DataLayout &DL = M.getDataLayout();
  // The instructions of each counted loop (not of its inner loops) that
  // record, in program order.
  MapVector<BasicBlock *, SmallVector<Instruction *, 8>> Users;
  for (BasicBlock &BB : Aug) {
    Loop *L = AugLoops->getLoopFor(&BB);
    if (!L || !CountedLoops.count(L->getHeader()))
      continue;
    for (Instruction &I : BB) {
      auto It = Recorded.find(&I);
      if (It == Recorded.end() || It->second.empty() ||
          !all_of(It->second,
                  [&](Value *V) { return fitsGranule(DL, V->getType()); }))
        continue;
      Users[L->getHeader()].push_back(&I);
    }
  }
  if (Users.empty())
    return;

  ScalarEvolution &SE = augmentedSCEV();
  // (Without LCSSA phis: one would replace a pointer used after the loop
  // by a phi that has no shadow.)
  SCEVExpander Expander(SE, "adcc.trips", /*PreserveLCSSA=*/false);
  for (auto &[H, Insts] : Users) {
    Loop *L = AugLoops->getLoopFor(H);
    // (Device code, whose tape has a bound: a loop whose array could pass
    // a thread's tape keeps one record per iteration, each of known size,
    // which a tape slot checks one by one; DeviceTape.cpp.)
    if (DeviceCode && !deviceArrayFits(SE, *L, Insts))
      continue;
    // A value several instructions record takes one slot of the row: it
    // is the same wherever the iteration records it (each stores it, as
    // not every one may run). Each slot takes its value's size, not a
    // granule: a row of one i32 is 4 bytes.
    DenseMap<Value *, uint64_t> OffsetOf;
    uint64_t End = 0, Align = 1;
    for (Instruction *I : Insts)
      for (Value *V : Recorded[I])
        if (!OffsetOf.count(V))
          OffsetOf[V] = placeInRow(DL, V->getType(), End, Align);
    LoopArray *A = makeLoopArray(H, alignTo(End, Align), SE, Expander);
    if (!A)
      continue;
    A->Align = Align;
    CountedLoop &CL = CountedLoops[H];
    IRBuilder<> B(A->Base->getContext());
    for (Instruction *I : Insts) {
      for (Value *V : Recorded[I]) {
        uint64_t Offset = OffsetOf.lookup(V);
        CallInst *Push = PushOf.lookup({I, V});
        B.SetInsertPoint(Push);
        storeRecord(B, V, arrayRow(B, H, CL.Count, Offset));
        dropRecord(I, V);
        ArrayRecords[I].push_back({H, V, Offset});
      }
      Recorded[I].clear();
    }
  }
  Expander.clear();
}

ReverseEmitter::LoopArray *
ReverseEmitter::makeLoopArray(BasicBlock *H, uint64_t Stride,
                              ScalarEvolution &SE, SCEVExpander &Expander) {
  Loop *L = AugLoops->getLoopFor(H);
  CountedLoop &CL = CountedLoops[H];
  const SCEV *Taken = SE.getBackedgeTakenCount(L);
  Instruction *At = CL.Entering->getTerminator();
  if (isa<SCEVCouldNotCompute>(Taken) || !SE.isLoopInvariant(Taken, L) ||
      !Expander.isSafeToExpandAt(Taken, At))
    return nullptr;
  Type *I64 = Type::getInt64Ty(Aug.getContext());
  const SCEV *Trips =
      SE.getAddExpr(SE.getTruncateOrZeroExtend(Taken, I64), SE.getOne(I64));
  LoopArray &A = LoopArrays[H];
  // (A trip count known before the loop nest gives the length: only the
  // address is recorded per run.)
  // (So does a count the reverse sweep rebuilds.)
  auto Invariant = InvariantTrips.find(H);
  Value *Rebuilt = RebuiltTrips.lookup(H);
  if (Invariant != InvariantTrips.end())
    A.Length = IRBuilder<>(At).CreateAdd(Invariant->second.second,
                                         ConstantInt::get(I64, 1), "trips");
  else if (Rebuilt)
    A.Length =
        IRBuilder<>(At).CreateAdd(Rebuilt, ConstantInt::get(I64, 1), "trips");
  else
    A.Length = Expander.expandCodeFor(Trips, I64, At);
  A.Stride = Stride;
  IRBuilder<> B(At);
  Module &M = *Aug.getParent();
  A.Base = B.CreateCall(tapeRecordFunction(M, "adcc_tape_push"),
                        {AugTape, B.CreateMul(A.Length, B.getInt64(A.Stride)),
                         B.getInt64(RecordGranule)},
                        "iters.records");
  // (Of constant length and outside loops, it runs once per call: a
  // combined gradient may keep it in its frame.)
  if (isa<ConstantInt>(A.Length) && !AugLoops->getLoopFor(CL.Entering) &&
      !DeviceCode) {
    A.Tag = frameTag();
    cast<CallInst>(A.Base)->setMetadata(EndRecordsMetadata, A.Tag);
  }
  InvariantRecords[H].insert(A.Base);
  if (Invariant == InvariantTrips.end() && !Rebuilt &&
      !isa<Constant>(A.Length))
    InvariantRecords[H].insert(A.Length);
  return &A;
}

Value *ReverseEmitter::arrayRow(IRBuilder<> &B, BasicBlock *H, Value *Iter,
                                uint64_t Offset) {
  LoopArray &A = LoopArrays[H];
  Value *Row = B.CreateMul(Iter, B.getInt64(A.Stride));
  if (auto *I = dyn_cast<Instruction>(Row))
    A.Rows.push_back(I);
  return B.CreateGEP(B.getInt8Ty(), A.Base,
                     B.CreateAdd(Row, B.getInt64(Offset)));
}

void ReverseEmitter::widenLoopArray(BasicBlock *H, ArrayRef<Value *> Values,
                                    SmallVectorImpl<uint64_t> &Offsets) {
  const DataLayout &DL = Aug.getParent()->getDataLayout();
  LoopArray &A = LoopArrays[H];
  // (The rows' records so far keep their offsets; the stride stays a
  // multiple of the row's alignment.)
  uint64_t End = A.Stride;
  for (Value *V : Values)
    Offsets.push_back(placeInRow(DL, V->getType(), End, A.Align));
  A.Stride = alignTo(End, A.Align);
  // The rows the augmented sweep addresses so far, and the push's size.
  for (Instruction *Row : A.Rows)
    Row->setOperand(1, ConstantInt::get(Row->getType(), A.Stride));
  auto *Push = cast<CallInst>(A.Base);
  IRBuilder<> B(Push);
  Value *Old = Push->getArgOperand(1);
  Push->setArgOperand(1, B.CreateMul(A.Length, B.getInt64(A.Stride)));
  if (auto *OldI = dyn_cast<Instruction>(Old); OldI && OldI->use_empty())
    OldI->eraseFromParent();
}

ScalarEvolution &ReverseEmitter::augmentedSCEV() {
  if (!AugSE) {
    AugTLII = std::make_unique<TargetLibraryInfoImpl>(
        Triple(Aug.getParent()->getTargetTriple()));
    AugTLI = std::make_unique<TargetLibraryInfo>(*AugTLII);
    AugAC = std::make_unique<AssumptionCache>(Aug);
    AugSE = std::make_unique<ScalarEvolution>(Aug, *AugTLI, *AugAC, *AugDT,
                                              *AugLoops);
  }
  return *AugSE;
}

void ReverseEmitter::placeLoopArrays() {
  for (auto &[H, A] : LoopArrays)
    cast<Instruction>(A.Base)->moveBefore(
        CountedLoops[H].Entering->getTerminator()->getIterator());
}

Value *ReverseEmitter::arrayRecord(const ArrayRecord &R) {
  const LoopArray &A = LoopArrays[R.Header];
  Value *Base = RB.CreateLoad(RB.getPtrTy(), hoistSlot(R.Header, A.Base));
  Value *Row = RB.CreateMul(reverseIteration(R.Header), RB.getInt64(A.Stride));
  Value *Addr = RB.CreateGEP(RB.getInt8Ty(), Base,
                             RB.CreateAdd(Row, RB.getInt64(R.Offset)));
  return loadRecord(RB, R.V->getType(), Addr);
}

void ReverseEmitter::releaseLoopArray(BasicBlock *Header) {
  auto It = LoopArrays.find(Header);
  if (It == LoopArrays.end())
    return;
  const LoopArray &A = It->second;
  Value *Length;
  if (isa<Constant>(A.Length)) {
    // (A constant length: the pop's size is the push's, as the frame slot
    // of a combined gradient needs.)
    Length = A.Length;
  } else if (auto Inv = InvariantTrips.find(Header);
             Inv != InvariantTrips.end()) {
    auto [Outer, Count] = Inv->second;
    Length =
        RB.CreateAdd(RB.CreateLoad(RB.getInt64Ty(), hoistSlot(Outer, Count)),
                     RB.getInt64(1), "trips");
  } else if (Value *Rebuilt = RebuiltTrips.lookup(Header)) {
    // (Kept where the reverse sweep entered the loop: readInvariantTrips.)
    Length =
        RB.CreateAdd(RB.CreateLoad(RB.getInt64Ty(), hoistSlot(Header, Rebuilt)),
                     RB.getInt64(1), "trips");
  } else {
    Length =
        RB.CreateLoad(RB.getInt64Ty(), hoistSlot(Header, A.Length), "trips");
  }
  RB.CreateCall(tapeRecordFunction(*Rev.getParent(), "adcc_tape_pop"),
                {RevTape, RB.CreateMul(Length, RB.getInt64(A.Stride)),
                 RB.getInt64(RecordGranule)})
      ->setMetadata(EndRecordsMetadata, A.Tag);
}

} // namespace adcore
