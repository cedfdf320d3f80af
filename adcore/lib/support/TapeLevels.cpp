//===- TapeLevels.cpp - Tapes of nested reverse derivatives --------------===//

#include "TapeLevels.h"
#include "CallSites.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {

/// Declared to read memory the program cannot see (and to write none), so
/// that calls whose result goes unused are deleted and repeated ones merged
/// (the sweeps of a combined gradient, once inlined together).
static FunctionCallee tapeThreadFunction(Module &M, bool Leveled) {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  FunctionCallee F =
      Leveled ? M.getOrInsertFunction(
                    "adcc_tape_thread_level",
                    FunctionType::get(Ptr, {Type::getInt32Ty(C)}, false))
              : M.getOrInsertFunction("adcc_tape_thread",
                                      FunctionType::get(Ptr, {}, false));
  if (auto *Fn = dyn_cast<Function>(F.getCallee())) {
    Fn->setMemoryEffects(MemoryEffects::inaccessibleMemOnly(ModRefInfo::Ref));
    Fn->setDoesNotThrow();
    Fn->setWillReturn();
  }
  return F;
}

CallInst *createTapeThreadCall(IRBuilder<> &B, unsigned Level) {
  Module &M = *B.GetInsertBlock()->getModule();
  if (Level == 0)
    return B.CreateCall(tapeThreadFunction(M, false), {}, "tape");
  return B.CreateCall(tapeThreadFunction(M, true), {B.getInt32(Level)},
                      "tape" + Twine(Level));
}

bool isTapeThreadCall(const Value *V) {
  const auto *Call = dyn_cast<CallBase>(V);
  const Function *F = Call ? Call->getCalledFunction() : nullptr;
  return F && (F->getName() == "adcc_tape_thread" ||
               F->getName() == "adcc_tape_thread_level");
}

int tapeLevelOf(const Value *V) {
  const auto *Call = dyn_cast<CallBase>(V);
  const Function *F = Call ? Call->getCalledFunction() : nullptr;
  if (!F)
    return -1;
  if (F->getName() == "adcc_tape_thread" ||
      F->getName() == "adcc_split_mark" || F->getName() == "adcc_split_check")
    return 0;
  StringRef Name = F->getName();
  if (Name != "adcc_tape_thread_level" && Name != "adcc_split_mark_level" &&
      Name != "adcc_split_check_level")
    return -1;
  const auto *Level = dyn_cast<ConstantInt>(Call->getArgOperand(
      Name == "adcc_split_check_level" ? 1 : 0));
  // (A level computed at run time: the highest there is.)
  return Level ? int(Level->getZExtValue()) : int(TapeLevels - 1);
}

bool isSplitMark(const Function &F) {
  return F.getName() == "adcc_split_mark" ||
         F.getName() == "adcc_split_mark_level";
}

/// Follows the values holding the handle \p Start within its function.
static bool handleReachesCheck(const Function &F, const Value &Start,
                               unsigned Depth) {
  SmallVector<const Value *, 16> Work{&Start};
  SmallPtrSet<const Value *, 16> Seen;
  // Memory the handle was stored into: what is loaded from it holds it.
  SmallPtrSet<const Value *, 4> Holders;
  auto FollowLoads = [&](const Value *Obj) {
    if (!Holders.insert(Obj).second)
      return;
    for (const Instruction &I : instructions(F))
      if (const auto *LI = dyn_cast<LoadInst>(&I);
          LI && getUnderlyingObject(LI->getPointerOperand()) == Obj)
        Work.push_back(LI);
  };
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    for (const User *U : V->users()) {
      if (const auto *SI = dyn_cast<StoreInst>(U)) {
        if (SI->getValueOperand() == V)
          FollowLoads(getUnderlyingObject(SI->getPointerOperand()));
        continue;
      }
      const auto *Call = dyn_cast<CallBase>(U);
      if (!Call) {
        Work.push_back(U);
        continue;
      }
      const Function *Callee = Call->getCalledFunction();
      if (!Callee)
        continue;
      if (Callee->getName().starts_with("adcc_split_check"))
        return true;
      if (Callee->isDeclaration() || Depth == 0)
        continue;
      for (const Use &Op : Call->args())
        if (Op.get() == V && Op.getOperandNo() < Callee->arg_size() &&
            !Callee->getArg(Op.getOperandNo())->use_empty() &&
            handleReachesCheck(*Callee, *Callee->getArg(Op.getOperandNo()),
                               Depth - 1))
          return true;
      // (What the call returns may be the handle, or hold it.)
      Work.push_back(Call);
    }
  }
  return false;
}

bool splitHandleChecked(const CallBase &Mark, unsigned Depth) {
  return handleReachesCheck(*Mark.getFunction(), Mark, Depth);
}

const TapeLevelFinder::Facts &TapeLevelFinder::factsOf(Function &F) {
  auto [It, New] = Known.try_emplace(&F);
  if (!New)
    return It->second;
  Facts Found;
  // (Each signature's targets looked up once: the lookup reads the module.)
  SmallPtrSet<FunctionType *, 4> Indirect;
  for (Instruction &I : instructions(F)) {
    auto *Call = dyn_cast<CallBase>(&I);
    if (!Call || Call->isInlineAsm())
      continue;
    Found.Own = std::max(Found.Own, LevelOf(Call));
    if (Function *Callee = Call->getCalledFunction())
      Found.Callees.push_back(Callee);
    else if (Indirect.insert(Call->getFunctionType()).second)
      append_range(Found.Callees, possibleCallTargets(*F.getParent(),
                                                      Call->getFunctionType()));
  }
  // (The map may have grown: look the entry up again.)
  return Known[&F] = std::move(Found);
}

unsigned TapeLevelFinder::levelFor(Function &F) {
  if (auto It = Levels.find(&F); It != Levels.end())
    return It->second;
  int Highest = -1;
  SmallPtrSet<Function *, 32> Seen;
  SmallVector<Function *, 32> Work{&F};
  while (!Work.empty()) {
    Function *G = Work.pop_back_val();
    if (!Seen.insert(G).second || G->isDeclaration())
      continue;
    // (What a function already walked reaches is known in full.)
    if (auto It = Levels.find(G); It != Levels.end() && G != &F) {
      Highest = std::max(Highest, int(It->second) - 1);
      continue;
    }
    const Facts &Of = factsOf(*G);
    Highest = std::max(Highest, Of.Own);
    append_range(Work, Of.Callees);
  }
  return Levels[&F] = unsigned(Highest + 1);
}

} // namespace adcore
