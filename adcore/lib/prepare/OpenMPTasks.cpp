//===- OpenMPTasks.cpp - OpenMP tasks run where they are created ---------===//
//
// Clang creates an explicit task (`#pragma omp task` without `depend`) by
//
//   t = __kmpc_omp_task_alloc(loc, gtid, flags, size, shareds_size, entry)
//   (stores of the shared variables' addresses into t->shareds, of the
//    firstprivate values into t's privates)
//   __kmpc_omp_task(loc, gtid, t)
//
// and the runtime later calls entry(gtid, t) on some thread of the team.
// Derivatives cannot follow the data through the runtime's task record,
// nor the order in which the tasks ran on which thread. But OpenMP lets an
// implementation run a task at once, on the thread that creates it
// (undeferred): a program whose tasks have no dependences computes the
// same whichever way they run. So before a function is differentiated its
// tied tasks are rewritten to run so:
//
//   t = alloca(size), zeroed; t->shareds = alloca(shareds_size)
//   (the same stores)
//   entry(gtid, t)
//
// (an `if(0)` task: its __kmpc_omp_task_begin_if0 and _complete_if0 calls
// are dropped, the call of its entry stays). The record is then stack
// memory whose shadow the derivatives follow as any other; the task's body
// runs on its creator's tape, in program order, and so does its reverse;
// taskwait, taskgroup and taskyield wait for nothing any more and run as
// in the primal. A call made so is marked (OpenMPTaskMetadata: the
// record's and the shareds' sizes, the location), so that reverse mode
// can run it as a task again where its creator runs in a parallel region
// (reverse/ReverseTasks.cpp). The function's primal runs its tasks undeferred too
// (docs/parallel.md#tasks). Tasks with `depend`, untied tasks, tasks whose
// privates have destructors, detached tasks and taskloops are left as
// they are: errors at their directive.
//
//===----------------------------------------------------------------------===//

#include "Prepare.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/KnownBits.h"

using namespace llvm;

namespace adcore {
namespace {

// Clang's flags of __kmpc_omp_task_alloc.
constexpr uint64_t TiedFlag = 0x1, DestructorsFlag = 0x8, DetachableFlag = 0x40;

bool calls(const User *U, StringRef Name) {
  const auto *Call = dyn_cast<CallBase>(U);
  const Function *F = Call ? Call->getCalledFunction() : nullptr;
  return F && F->getName() == Name;
}

/// The task an allocation makes, when it can run undeferred: the calls
/// that start it (__kmpc_omp_task) and those of an if(0) task.
struct Task {
  CallBase *Alloc;
  Function *Entry;
  uint64_t Size, SharedsSize;
  SmallVector<CallBase *, 2> Starts, IfZero;
};

bool undeferrable(CallBase &Alloc, Task &T) {
  if (Alloc.arg_size() != 6)
    return false;
  auto *Size = dyn_cast<ConstantInt>(Alloc.getArgOperand(3));
  auto *Shareds = dyn_cast<ConstantInt>(Alloc.getArgOperand(4));
  auto *Entry = dyn_cast<Function>(Alloc.getArgOperand(5)->stripPointerCasts());
  if (!Size || !Shareds || !Entry || Entry->isDeclaration() ||
      Entry->arg_size() != 2)
    return false;
  // (The flags are computed where final() has a condition: the tied bit
  // must be known. A detachable task's record goes to
  // __kmpc_task_allow_completion_event, a use refused below; destructors
  // of privates: destroyedPrivates.)
  KnownBits Flags = computeKnownBits(Alloc.getArgOperand(2),
                                     Alloc.getModule()->getDataLayout());
  if (!(Flags.One.getZExtValue() & TiedFlag))
    return false;
  if (auto *Known = dyn_cast<ConstantInt>(Alloc.getArgOperand(2));
      Known && (Known->getZExtValue() & (DestructorsFlag | DetachableFlag)))
    return false;
  T.Alloc = &Alloc;
  T.Entry = Entry;
  T.Size = Size->getZExtValue();
  T.SharedsSize = Shareds->getZExtValue();
  for (User *U : Alloc.users()) {
    if ((calls(U, "__kmpc_omp_task") ||
         (calls(U, "__kmpc_omp_task_with_deps") &&
          cast<CallBase>(U)->arg_size() == 7)) &&
        cast<CallBase>(U)->getArgOperand(2) == &Alloc) {
      T.Starts.push_back(cast<CallBase>(U));
      continue;
    }
    if (calls(U, "__kmpc_omp_task_begin_if0") ||
        calls(U, "__kmpc_omp_task_complete_if0")) {
      T.IfZero.push_back(cast<CallBase>(U));
      continue;
    }
    // (The record's fields, the shareds, the privates; the entry's call
    // of an if(0) task.)
    if (isa<GetElementPtrInst, LoadInst>(U) ||
        (isa<StoreInst>(U) && cast<StoreInst>(U)->getValueOperand() != &Alloc))
      continue;
    // (A taskloop chunk's record is given to the loop's task_dup function:
    // prepare/OpenMPTaskloops.cpp.)
    if (auto *Call = dyn_cast<CallBase>(U);
        Call && Call->getCalledFunction() &&
        (Call->getCalledFunction() == Entry ||
         Call->getCalledFunction()->getName().starts_with(".omp_task_dup.")))
      continue;
    return false; // (depend, detach, taskloop, or a use adcc does not know)
  }
  return !T.Starts.empty() || !T.IfZero.empty();
}

/// In a task's entry at -O0, Clang keeps the function that finds the
/// task's privates (.omp_task_privates_map.) in a stack slot and calls it
/// through the slot: forwards it, so that the call is direct (through a
/// pointer, forward mode would consider every function of its type).
bool forwardPrivatesMap(Function &F) {
  if (!F.getName().starts_with(".omp_task_entry."))
    return false;
  bool Changed = false;
  for (Instruction &I : make_early_inc_range(F.getEntryBlock())) {
    auto *Slot = dyn_cast<AllocaInst>(&I);
    if (!Slot)
      continue;
    StoreInst *Store = nullptr;
    SmallVector<LoadInst *, 2> Loads;
    bool Simple = true;
    for (User *U : Slot->users()) {
      if (auto *SI = dyn_cast<StoreInst>(U);
          SI && SI->getPointerOperand() == Slot && !Store &&
          isa<Function>(SI->getValueOperand()))
        Store = SI;
      else if (auto *LI = dyn_cast<LoadInst>(U);
               LI && LI->getType() == Slot->getAllocatedType())
        Loads.push_back(LI);
      else
        Simple = false;
    }
    if (!Simple || !Store)
      continue;
    for (LoadInst *LI : Loads) {
      LI->replaceAllUsesWith(Store->getValueOperand());
      LI->eraseFromParent();
    }
    Store->eraseFromParent();
    Slot->eraseFromParent();
    Changed = true;
  }
  return Changed;
}

/// Whether \p F creates tasks whose privates have destructors (Clang
/// stores a .omp_task_destructor. function into their records).
bool destroyedPrivates(const Function &F) {
  for (const Instruction &I : instructions(F))
    if (const auto *SI = dyn_cast<StoreInst>(&I))
      if (const auto *D =
              dyn_cast<Function>(SI->getValueOperand()->stripPointerCasts());
          D && D->getName().starts_with(".omp_task_destructor."))
        return true;
  return false;
}

} // namespace

FunctionCallee waitDeps(Module &M) {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I32 = Type::getInt32Ty(C);
  return M.getOrInsertFunction("__kmpc_omp_wait_deps",
                               FunctionType::get(Type::getVoidTy(C),
                                                 {Ptr, I32, I32, Ptr, I32, Ptr},
                                                 false));
}

CallBase *taskDependences(CallBase &Run) {
  if (!Run.getMetadata(OpenMPTaskDepsMetadata))
    return nullptr;
  // (The nearest wait before it: what derivatives emit for the call lies
  // between them.)
  for (Instruction *I = Run.getPrevNode(); I; I = I->getPrevNode()) {
    auto *Call = dyn_cast<CallBase>(I);
    if (!Call)
      continue;
    if (calls(Call, "__kmpc_omp_wait_deps"))
      return Call->arg_size() == 6 ? Call : nullptr;
    if (Call->getMetadata(OpenMPTaskMetadata))
      return nullptr;
  }
  return nullptr;
}

bool runOpenMPTasksUndeferred(Function &F) {
  bool Forwarded = forwardPrivatesMap(F);
  if (destroyedPrivates(F))
    return Forwarded;
  SmallVector<Task, 4> Tasks;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallBase>(&I);
        Call && calls(Call, "__kmpc_omp_task_alloc")) {
      Task T;
      if (undeferrable(*Call, T))
        Tasks.push_back(T);
    }
  if (Tasks.empty())
    return Forwarded;
  LLVMContext &C = F.getContext();
  Type *I8 = Type::getInt8Ty(C);
  IRBuilder<> Entry(&*F.getEntryBlock().getFirstInsertionPt());
  for (Task &T : Tasks) {
    // (Stack records in the entry block: a task created in a loop runs
    // before the next one is created.)
    AllocaInst *Record =
        Entry.CreateAlloca(ArrayType::get(I8, std::max<uint64_t>(T.Size, 8)),
                           nullptr, "omp.task.record");
    Record->setAlignment(Align(16));
    AllocaInst *Shareds = Entry.CreateAlloca(
        ArrayType::get(I8, std::max<uint64_t>(T.SharedsSize, 1)), nullptr,
        "omp.task.shareds");
    Shareds->setAlignment(Align(16));
    IRBuilder<> B(T.Alloc);
    B.CreateMemSet(Record, B.getInt8(0), T.Size, Align(16));
    // (kmp_task_t starts with its shareds pointer.)
    B.CreateStore(Shareds, Record);
    T.Alloc->replaceAllUsesWith(Record);
    T.Alloc->eraseFromParent();
    for (CallBase *Start : T.Starts) {
      IRBuilder<> S(Start);
      Value *Gtid = Start->getArgOperand(1);
      // (A task with dependences first waits for the earlier sibling tasks
      // it depends on, as an if(0) task does; the call right before the
      // entry's, where the derivatives find the dependences.)
      if (Start->arg_size() == 7)
        S.CreateCall(waitDeps(*F.getParent()),
                     {Start->getArgOperand(0), Gtid, Start->getArgOperand(3),
                      Start->getArgOperand(4), Start->getArgOperand(5),
                      Start->getArgOperand(6)});
      CallInst *Run =
          S.CreateCall(T.Entry->getFunctionType(), T.Entry, {Gtid, Record});
      // (Where the creator runs in a parallel region, reverse mode runs the
      // task's sweeps as tasks again: reverse/ReverseTasks.cpp.)
      Type *I64 = Type::getInt64Ty(C);
      Value *Loc = Start->getArgOperand(0);
      SmallVector<Metadata *, 3> Facts = {
          ConstantAsMetadata::get(ConstantInt::get(I64, T.Size)),
          ConstantAsMetadata::get(ConstantInt::get(I64, T.SharedsSize))};
      if (auto *L = dyn_cast<Constant>(Loc))
        Facts.push_back(ConstantAsMetadata::get(L));
      Run->setMetadata(OpenMPTaskMetadata, MDNode::get(C, Facts));
      if (Start->arg_size() == 7)
        Run->setMetadata(OpenMPTaskDepsMetadata, MDNode::get(C, {}));
      Start->replaceAllUsesWith(ConstantInt::get(Start->getType(), 0));
      Start->eraseFromParent();
    }
    for (CallBase *Call : T.IfZero)
      Call->eraseFromParent();
  }
  return true;
}

} // namespace adcore
