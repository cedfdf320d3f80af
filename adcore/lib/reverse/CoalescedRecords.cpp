//===- CoalescedRecords.cpp - One tape record for several values ---------===//
//
// Consecutive records of a block that nothing else on the tape separates
// (no call that may push or pop: augmented callees, custom rules, shadow
// stack blocks) share one tape record: the augmented sweep reserves it at
// the first value and stores each value at its offset as it is computed;
// the reverse sweep releases it at the first value it needs (the last one
// recorded) and reads the others from it. One capacity check instead of one
// per value, and one slot for a value several instructions record.
//
//===----------------------------------------------------------------------===//

#include "ReverseEmitter.h"
#include "TapeRecords.h"

#include "adcore/MathRules.h"

#include "llvm/ADT/SCCIterator.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {

CycleBlocks::CycleBlocks(const Function &F) {
  for (auto It = scc_begin(&F); !It.isAtEnd(); ++It)
    if (It.hasCycle())
      Blocks.insert_range(*It);
}

bool ReverseEmitter::separatesRecords(Instruction &I,
                                      const DenseSet<CallInst *> &Pushes) {
  auto *Call = dyn_cast<CallBase>(&I);
  if (!Call)
    return false;
  if (auto *CI = dyn_cast<CallInst>(Call); CI && Pushes.contains(CI))
    return false;
  if (auto *II = dyn_cast<IntrinsicInst>(Call))
    return II->mayHaveSideEffects() && !II->isLifetimeStartOrEnd() &&
           !isa<DbgInfoIntrinsic>(II) && !isa<MemIntrinsic>(II);
  Function *Callee = Call->getCalledFunction();
  return !Callee || !ruleFor(*Callee);
}

void ReverseEmitter::coalesceRecords() {
  const DataLayout &DL = Aug.getParent()->getDataLayout();
  // The live records: PushOf also remembers pushes erased since (values
  // recomputed, hoisted or kept in arrays), which Recorded no longer lists.
  DenseSet<CallInst *> Pushes;
  for (auto &[I, List] : Recorded)
    for (Value *V : List)
      if (CallInst *Push = PushOf.lookup({I, V}))
        Pushes.insert(Push);
  struct Member {
    Instruction *I;
    Value *V;
    CallInst *Push;
  };
  SmallVector<Member, 16> Run;
  // Outside loops a group is pushed at most once per call: in a combined
  // gradient it can live in the frame (CombinedSweeps.cpp), which its tag
  // allows, even for one value.
  bool OutsideLoops = false;
  auto Flush = [&] {
    if (Run.size() > 1 || (Run.size() == 1 && OutsideLoops)) {
      unsigned Group = GroupBytes.size();
      uint64_t Offset = 0;
      IRBuilder<> B(Run.front().Push);
      CallInst *Base = B.CreateCall(
          tapeRecordFunction(*Aug.getParent(), "adcc_tape_push"),
          {AugTape, B.getInt64(0), B.getInt64(RecordGranule)}, "records");
      MDNode *Tag = OutsideLoops ? frameTag() : nullptr;
      Base->setMetadata(EndRecordsMetadata, Tag);
      GroupTags.push_back(Tag);
      // A value recorded by several instructions of the run is stored once.
      DenseMap<Value *, uint64_t> OffsetOf;
      for (Member &M : Run) {
        if (auto It = OffsetOf.find(M.V); It != OffsetOf.end()) {
          eraseRecord(M.Push);
          PushOf[{M.I, M.V}] = nullptr;
          GroupOf[{M.I, M.V}] = {Group, It->second};
          continue;
        }
        OffsetOf[M.V] = Offset;
        B.SetInsertPoint(M.Push);
        Value *Slot = B.CreateConstGEP1_64(B.getInt8Ty(), Base, Offset);
        M.Push->replaceAllUsesWith(Slot);
        bury(M.Push);
        PushOf[{M.I, M.V}] = nullptr;
        GroupOf[{M.I, M.V}] = {Group, Offset};
        Offset += recordBytes(DL, M.V->getType());
      }
      Base->setArgOperand(1, B.getInt64(Offset));
      GroupBytes.push_back(Offset);
    }
    Run.clear();
  };
  CycleBlocks Cycles(Aug);
  for (BasicBlock &BB : Aug) {
    OutsideLoops = !Cycles.contains(BB);
    for (Instruction &I : BB) {
      if (separatesRecords(I, Pushes))
        Flush();
      auto It = Recorded.find(&I);
      if (It == Recorded.end())
        continue;
      for (Value *V : It->second) {
        Type *T = recordType(V->getType());
        CallInst *Push = PushOf.lookup({&I, V});
        if (!Push || DL.getABITypeAlign(T).value() > RecordGranule) {
          Flush();
          continue;
        }
        Run.push_back({&I, V, Push});
      }
    }
    Flush();
  }
}

MDNode *ReverseEmitter::endRecordsTag() {
  return MDNode::get(Aug.getContext(), ValueAsMetadata::get(&Aug));
}

MDNode *ReverseEmitter::frameTag() {
  LLVMContext &C = Aug.getContext();
  return MDNode::get(
      C, {ValueAsMetadata::get(&Aug), ConstantAsMetadata::get(ConstantInt::get(
                                          Type::getInt32Ty(C), FrameTags++))});
}

uint64_t ReverseEmitter::pushTogether(IRBuilder<> &B, ArrayRef<Value *> Values,
                                      MDNode *Tag) {
  const DataLayout &DL = Aug.getParent()->getDataLayout();
  bool Small = all_of(Values, [&](Value *V) {
    return DL.getABITypeAlign(recordType(V->getType())).value() <=
           RecordGranule;
  });
  // (A tagged record may be kept in the frame: worth a group of one.)
  if (Values.empty() || (Values.size() < 2 && !Tag) || !Small) {
    for (Value *V : Values)
      pushRecord(B, AugTape, V);
    return 0;
  }
  CallInst *Base = B.CreateCall(
      tapeRecordFunction(*Aug.getParent(), "adcc_tape_push"),
      {AugTape, B.getInt64(0), B.getInt64(RecordGranule)}, "records");
  if (Tag)
    Base->setMetadata(EndRecordsMetadata, Tag);
  uint64_t Offset = 0;
  for (Value *V : Values) {
    storeRecord(B, V, B.CreateConstGEP1_64(B.getInt8Ty(), Base, Offset));
    Offset += recordBytes(DL, V->getType());
  }
  Base->setArgOperand(1, B.getInt64(Offset));
  return Offset;
}

void ReverseEmitter::popTogether(ArrayRef<Value *> Values, uint64_t Bytes,
                                 SmallVectorImpl<Value *> &Out, MDNode *Tag) {
  Out.clear();
  if (!Bytes) {
    // Recorded one by one: read back newest first.
    Out.resize(Values.size());
    for (size_t I = Values.size(); I-- > 0;)
      Out[I] = popRecord(RB, RevTape, Values[I]->getType());
    return;
  }
  const DataLayout &DL = Rev.getParent()->getDataLayout();
  CallInst *Base = RB.CreateCall(
      tapeRecordFunction(*Rev.getParent(), "adcc_tape_pop"),
      {RevTape, RB.getInt64(Bytes), RB.getInt64(RecordGranule)}, "records");
  if (Tag)
    Base->setMetadata(EndRecordsMetadata, Tag);
  uint64_t Offset = 0;
  for (Value *V : Values) {
    Out.push_back(loadRecord(
        RB, V->getType(), RB.CreateConstGEP1_64(RB.getInt8Ty(), Base, Offset)));
    Offset += recordBytes(DL, V->getType());
  }
}

Value *ReverseEmitter::readRecord(Instruction &I, Value *V,
                                  DenseMap<unsigned, Value *> &Bases) {
  auto It = GroupOf.find({&I, V});
  if (It == GroupOf.end())
    return popRecord(RB, RevTape, V->getType());
  auto [Group, Offset] = It->second;
  Value *&Base = Bases[Group];
  if (!Base) {
    CallInst *Pop = RB.CreateCall(
        tapeRecordFunction(*Rev.getParent(), "adcc_tape_pop"),
        {RevTape, RB.getInt64(GroupBytes[Group]), RB.getInt64(RecordGranule)},
        "records");
    Pop->setMetadata(EndRecordsMetadata, GroupTags[Group]);
    Base = Pop;
  }
  return loadRecord(RB, V->getType(),
                    RB.CreateConstGEP1_64(RB.getInt8Ty(), Base, Offset));
}

} // namespace adcore
