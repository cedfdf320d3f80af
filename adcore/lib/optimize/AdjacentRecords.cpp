//===- AdjacentRecords.cpp - Records popped right after their push --------===//
//
// Once a combined gradient's sweeps are inlined into one function, the last
// records of its augmented sweep may be pushed just before the reverse
// sweep pops them: nothing else touches the tape between the two calls.
// keepRecordsInFrame (CombinedSweeps.cpp) finds such pairs by their tags,
// but the sweeps' own simplification may have merged the tagged calls of
// two branches' arms into one (SimplifyCFG sinks the identical pushes at
// the loops' exits of both arms into the block where they join, and hoists
// the pops out of the reverse sweep's arms), dropping the tags: the trip
// count and records' array of a short loop in each arm of a branch stayed
// a push and a pop through the runtime per call (BA's Rodrigues rotation
// under -fno-unroll-loops). Such a pop returns what its push did whatever
// their tags: both reserve the same constant size on the same tape, and
// the tape's stack order makes the pop's record the push's. The pair
// becomes a stack slot, which SROA and GVN turn into registers
// (inlineCombinedSweeps looks for them once it kept the tagged records).
//
//===----------------------------------------------------------------------===//

#include "optimize/Optimize.h"
#include "support/TapeLevels.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace adcore {
namespace {

/// The largest record that becomes a stack slot, and how far (in
/// instructions) a pop is looked for after its push.
constexpr uint64_t MaxSlotBytes = 2048;
constexpr unsigned MaxDistance = 4096;

bool isCallOf(const Instruction &I, StringRef Name) {
  auto *Call = dyn_cast<CallInst>(&I);
  const Function *F = Call ? Call->getCalledFunction() : nullptr;
  return F && F->getName() == Name;
}

/// Whether \p Call can push or pop records of this thread's tape: any call
/// but intrinsics, the thread's tape handle, and functions that write no
/// memory beyond their arguments (and errno).
bool mayUseTape(const CallBase &Call) {
  if (isTapeThreadCall(&Call))
    return false;
  if (const Function *F = Call.getCalledFunction(); F && F->isIntrinsic())
    return false;
  MemoryEffects ME = Call.getMemoryEffects();
  return isModSet(ME.getModRef(IRMemLocation::Other)) ||
         isModSet(ME.getModRef(IRMemLocation::InaccessibleMem));
}

/// Whether \p A and \p B are the same thread's tape: one value, or two
/// calls of adcc_tape_thread (of one level) with nothing between the push
/// and the pop that could change the thread's tape (mayUseTape).
bool sameTape(Value *A, Value *B) {
  if (A == B)
    return true;
  auto *CA = dyn_cast<CallInst>(A), *CB = dyn_cast<CallInst>(B);
  if (!CA || !CB || !isTapeThreadCall(CA) || !isTapeThreadCall(CB) ||
      CA->getCalledOperand() != CB->getCalledOperand() ||
      CA->arg_size() != CB->arg_size())
    return false;
  for (unsigned I = 0; I < CA->arg_size(); ++I)
    if (CA->getArgOperand(I) != CB->getArgOperand(I))
      return false;
  return true;
}

/// The pop of \p Push's record when it follows the push on its only path,
/// with no instruction between them that may touch the tape: in the same
/// block, or in the blocks that unconditional branches lead to, each
/// reached from the one before only.
CallInst *popRightAfter(CallInst &Push) {
  Value *Tape = Push.getArgOperand(0);
  Value *Bytes = Push.getArgOperand(1), *Alignment = Push.getArgOperand(2);
  Instruction *I = Push.getNextNode();
  for (unsigned Steps = 0; I && Steps < MaxDistance; ++Steps) {
    if (auto *Br = dyn_cast<BranchInst>(I)) {
      BasicBlock *Next = Br->isConditional() ? nullptr : Br->getSuccessor(0);
      if (!Next || Next->getSinglePredecessor() != Br->getParent())
        return nullptr;
      I = &Next->front();
      continue;
    }
    if (I->isTerminator())
      return nullptr;
    if (auto *Call = dyn_cast<CallBase>(I)) {
      if (isCallOf(*I, "adcc_tape_pop")) {
        bool Same = sameTape(Call->getArgOperand(0), Tape) &&
                    Call->getArgOperand(1) == Bytes &&
                    Call->getArgOperand(2) == Alignment;
        return Same ? cast<CallInst>(Call) : nullptr;
      }
      if (mayUseTape(*Call))
        return nullptr;
    }
    I = I->getNextNode();
  }
  return nullptr;
}

} // namespace

uint64_t keepAdjacentRecordsInFrame(Function &F) {
  SmallVector<std::pair<CallInst *, CallInst *>, 4> Pairs;
  for (Instruction &I : instructions(F)) {
    if (!isCallOf(I, "adcc_tape_push"))
      continue;
    auto &Push = cast<CallInst>(I);
    auto *Bytes = dyn_cast<ConstantInt>(Push.getArgOperand(1));
    auto *Alignment = dyn_cast<ConstantInt>(Push.getArgOperand(2));
    if (!Bytes || !Alignment || Bytes->isZero() ||
        Bytes->getZExtValue() > MaxSlotBytes ||
        !isPowerOf2_64(Alignment->getZExtValue()))
      continue;
    if (CallInst *Pop = popRightAfter(Push))
      Pairs.push_back({&Push, Pop});
  }
  uint64_t Bytes = 0;
  for (auto [Push, Pop] : Pairs) {
    Bytes += cast<ConstantInt>(Push->getArgOperand(1))->getZExtValue();
    IRBuilder<> B(&*F.getEntryBlock().getFirstInsertionPt());
    AllocaInst *Slot = B.CreateAlloca(B.getInt8Ty(), Push->getArgOperand(1),
                                      "adjacent.records");
    Slot->setAlignment(
        Align(cast<ConstantInt>(Push->getArgOperand(2))->getZExtValue()));
    Value *At = Slot;
    if (Slot->getType() != Push->getType())
      At = B.CreateAddrSpaceCast(Slot, Push->getType());
    Push->replaceAllUsesWith(At);
    Pop->replaceAllUsesWith(At);
    Value *Tapes[] = {Push->getArgOperand(0), Pop->getArgOperand(0)};
    if (Tapes[1] == Tapes[0])
      Tapes[1] = nullptr;
    Push->eraseFromParent();
    Pop->eraseFromParent();
    // The thread's tape handles these records used are dead now: they go
    // too (device code has no host tape to ask for, and -O0 keeps them).
    for (Value *Tape : Tapes)
      if (auto *Handle = dyn_cast_or_null<CallInst>(Tape);
          Handle && Handle->use_empty() && isTapeThreadCall(Handle))
        Handle->eraseFromParent();
  }
  return Bytes;
}

} // namespace adcore
