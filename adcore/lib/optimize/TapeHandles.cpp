//===- TapeHandles.cpp - One tape handle per function ---------------------===//
//
// Each sweep asks the runtime for the thread's tape (adcc_tape_thread, or
// adcc_tape_thread_level for a nesting level) before it pushes or pops. Once
// sweeps are inlined into one function (the combined gradient, a callee's
// sweeps inlined there once per call site), the function asks again for
// every copy, and in every iteration of a loop that calls a callee's sweeps:
// LLVM cannot merge the calls, since the slow paths of the pushes and pops
// between them are calls of the runtime that may, for all it knows, write
// what adcc_tape_thread reads. They do not: only the parallel regions'
// functions of the runtime change a thread's tape. Where every other call
// of the function is one that cannot reach them, all its calls for one
// level are replaced by one, placed where it dominates them all.
//
//===----------------------------------------------------------------------===//

#include "optimize/Optimize.h"
#include "support/TapeLevels.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace adcore {

/// Whether \p Call cannot change which tape the thread's calls of
/// adcc_tape_thread* return (adcc_rt_exchange_thread_tape, which only the
/// runtime's parallel regions call).
static bool keepsThreadTape(const CallBase &Call) {
  if (isTapeThreadCall(&Call))
    return true;
  const Function *F = Call.getCalledFunction();
  if (!F)
    return false;
  // (The runtime's own tape operations.)
  bool TapeOperation = StringSwitch<bool>(F->getName())
                           .Cases({"adcc_tape_push", "adcc_tape_pop",
                                   "adcc_tape_push_ptr", "adcc_tape_pop_ptr",
                                   "adcc_tape_push_shadow",
                                   "adcc_tape_pop_shadow", "adcc_tape_top"},
                                  true)
                           .Default(false);
  if (TapeOperation || F->isIntrinsic() ||
      F->hasFnAttribute(Attribute::AllocKind))
    return true;
  // Anything else: only what can write no memory beyond its arguments (and
  // errno), which cannot reach the runtime's thread-local tapes.
  MemoryEffects ME = Call.getMemoryEffects();
  return !isModSet(ME.getModRef(IRMemLocation::Other)) &&
         !isModSet(ME.getModRef(IRMemLocation::InaccessibleMem));
}

/// The level of the tape \p Call asks for, if it is a call of
/// adcc_tape_thread* with a constant level.
static std::optional<int> constantLevel(const Instruction &I) {
  const auto *Call = dyn_cast<CallInst>(&I);
  if (!Call || !isTapeThreadCall(Call) ||
      (Call->arg_size() == 1 && !isa<ConstantInt>(Call->getArgOperand(0))))
    return std::nullopt;
  return tapeLevelOf(Call);
}

/// All calls of each level replaced by one where they dominate them all:
/// when no call of \p F may change the thread's tape.
static bool hoistHandles(Function &F) {
  MapVector<int, SmallVector<CallInst *, 4>> ByLevel;
  for (Instruction &I : instructions(F)) {
    auto *Call = dyn_cast<CallBase>(&I);
    if (Call && !keepsThreadTape(*Call))
      return false;
    if (std::optional<int> Level = constantLevel(I))
      ByLevel[*Level].push_back(cast<CallInst>(&I));
  }
  bool Changed = false;
  std::optional<DominatorTree> DT;
  for (auto &[Level, Calls] : ByLevel) {
    if (Calls.size() < 2)
      continue;
    if (!DT)
      DT.emplace(F);
    // (Calls in unreachable blocks are left alone.)
    erase_if(Calls, [&](CallInst *Call) {
      return !DT->isReachableFromEntry(Call->getParent());
    });
    if (Calls.size() < 2)
      continue;
    BasicBlock *At = Calls.front()->getParent();
    for (CallInst *Call : drop_begin(Calls))
      At = DT->findNearestCommonDominator(At, Call->getParent());
    // The first of the calls in that block, else a new one at its end.
    CallInst *Kept = nullptr;
    for (CallInst *Call : Calls)
      if (Call->getParent() == At && (!Kept || Call->comesBefore(Kept)))
        Kept = Call;
    if (!Kept) {
      IRBuilder<> B(At->getTerminator());
      Kept = createTapeThreadCall(B, unsigned(Level));
    }
    for (CallInst *Call : Calls)
      if (Call != Kept) {
        Call->replaceAllUsesWith(Kept);
        Call->eraseFromParent();
      }
    Changed = true;
  }
  return Changed;
}

/// Otherwise, each call replaced by the one that ran before it on every
/// path, with no call between that may change the tape (the handles
/// available at a block's entry: the same call on all its predecessors,
/// none across a back edge).
static bool reuseAvailableHandles(Function &F) {
  using Handles = SmallDenseMap<int, CallInst *, 2>;
  DenseMap<BasicBlock *, Handles> AtExit;
  ReversePostOrderTraversal<Function *> RPO(&F);
  bool Changed = false;
  for (BasicBlock *BB : RPO) {
    Handles Avail;
    bool First = true;
    for (BasicBlock *Pred : predecessors(BB)) {
      auto It = AtExit.find(Pred);
      if (It == AtExit.end()) { // a back edge, or unreachable
        Avail.clear();
        break;
      }
      if (First) {
        Avail = It->second;
        First = false;
        continue;
      }
      Handles Both;
      for (auto [Level, Call] : Avail) {
        auto Other = It->second.find(Level);
        if (Other != It->second.end() && Other->second == Call)
          Both[Level] = Call;
      }
      Avail = std::move(Both);
    }
    for (Instruction &I : make_early_inc_range(*BB)) {
      if (std::optional<int> Level = constantLevel(I)) {
        auto *Call = cast<CallInst>(&I);
        if (CallInst *Earlier = Avail.lookup(*Level)) {
          Call->replaceAllUsesWith(Earlier);
          Call->eraseFromParent();
          Changed = true;
        } else {
          Avail[*Level] = Call;
        }
        continue;
      }
      if (auto *Call = dyn_cast<CallBase>(&I); Call && !keepsThreadTape(*Call))
        Avail.clear();
    }
    AtExit[BB] = std::move(Avail);
  }
  return Changed;
}

bool shareTapeHandles(Function &F) {
  if (F.isDeclaration())
    return false;
  return hoistHandles(F) || reuseAvailableHandles(F);
}

} // namespace adcore
