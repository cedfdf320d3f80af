//===- ReverseTasks.cpp - OpenMP tasks reversed as tasks ------------------===//
//
// Before differentiation a task without dependences becomes a call of its
// entry on a record in its creator's frame (prepare/OpenMPTasks.cpp). In
// a function that runs in a parallel region, reverse mode makes such a
// call a task again, with a tape of its own (runtime/lib/tasks.c):
//
//   augmented sweep   h = adcc_task_new(level, bytes, rev.task)
//                     adcc_task_copy_record(h, record, shadow record, ...)
//                     t = __kmpc_omp_task_alloc(loc, gtid, tied, 48, 0,
//                                               aug.task); t->h = h
//                     __kmpc_omp_task(loc, gtid, t)          (h recorded)
//                       aug.task: adcc_task_begin(h)   (the task's tape)
//                                 augmented_entry(gtid, copies)
//                                 adcc_task_end(h)
//   reverse sweep     __kmpc_omp_taskwait; adcc_task_copy_back(h, shadow
//                     record); adcc_task_free(h)
//
// and each sync point (taskwait, the end of a taskgroup, a barrier, the
// end of a task or of a thread's part of a region) takes the tasks its
// context created since the last one (a batch, recorded); its mirror
// spawns their reverses, the last created first:
//
//   rev.task(h): adcc_task_begin_reverse(h)
//                spawn the batch h left at its end
//                reverse_entry()
//                adcc_task_end_reverse(h)
//
// The reverse of a task starts after the reverse of everything that came
// after the point that waited for it, and ends before the reverse of its
// creation (which waits for it): what the task computed in parallel with
// its creator, its reverse computes in parallel with its creator's. Its
// adjoint updates of shared memory are atomic (DerivativeKey::Parallel);
// those of its record's copy, its own, are plain. A task whose body (or a
// function it calls) has critical sections or locks, which reverse mode
// may replay in the reverse of the threads' order, runs where it is
// created, as before.
//
//===----------------------------------------------------------------------===//

#include "ReverseEmitter.h"

#include "adcore/EntryPoints.h"

#include "prepare/Prepare.h"
#include "rules/OpenMPRuntime.h"
#include "rules/RuleWrappers.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {
namespace {

// kmp_task_t: shareds, routine, part_id, data1, data2; adcc's tasks keep
// their handle after it.
constexpr uint64_t TaskHeaderBytes = 40, TaskBytes = 48;
constexpr uint64_t TiedFlag = 1;

CallInst *callRuntime(IRBuilder<> &B, StringRef Name, Type *Ret,
                      ArrayRef<Value *> Args) {
  Module &M = *B.GetInsertBlock()->getModule();
  return B.CreateCall(runtimeFunction(M, Name, Ret, Args), Args);
}

/// Whether \p F, or a function of the module it calls, enters a critical
/// section or takes a lock.
bool entersCriticalSections(const Function &F,
                            SmallPtrSetImpl<const Function *> &Seen) {
  if (!Seen.insert(&F).second)
    return false;
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB) {
      const auto *Call = dyn_cast<CallBase>(&I);
      const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
      if (!Callee)
        continue;
      OpenMPCall Kind = classifyOpenMPCall(*Callee);
      if (Kind == OpenMPCall::Critical || Kind == OpenMPCall::EndCritical ||
          Kind == OpenMPCall::Reduce)
        return true;
      if (!Callee->isDeclaration() && entersCriticalSections(*Callee, Seen))
        return true;
    }
  return false;
}

/// ident_t of an unknown location, for the tasks the reverse sweep starts.
Constant *unknownLocation(Module &M) {
  if (GlobalVariable *G = M.getNamedGlobal("adcc.omp.task.loc"))
    return G;
  LLVMContext &C = M.getContext();
  Constant *Name = ConstantDataArray::getString(C, ";unknown;unknown;0;0;;");
  auto *Str = new GlobalVariable(M, Name->getType(), true,
                                 GlobalValue::PrivateLinkage, Name,
                                 "adcc.omp.task.locstr");
  Type *I32 = Type::getInt32Ty(C);
  StructType *Ident = StructType::get(
      C, {I32, I32, I32, I32, PointerType::getUnqual(C)});
  Constant *Init = ConstantStruct::get(
      Ident, {ConstantInt::get(I32, 0), ConstantInt::get(I32, 2),
              ConstantInt::get(I32, 0), ConstantInt::get(I32, 22), Str});
  return new GlobalVariable(M, Ident, true, GlobalValue::PrivateLinkage, Init,
                            "adcc.omp.task.loc");
}

/// Starts \p Entry (i32 (i32, ptr)) as a tied task whose record holds
/// \p Handle, with the \p DepCount dependences at \p Deps where given.
void startTask(IRBuilder<> &B, Value *Loc, Value *Gtid, Function *Entry,
               Value *Handle, Value *DepCount = nullptr,
               Value *Deps = nullptr) {
  Type *Ptr = B.getPtrTy(), *I32 = B.getInt32Ty(), *I64 = B.getInt64Ty();
  Module &M = *B.GetInsertBlock()->getModule();
  FunctionCallee Alloc = M.getOrInsertFunction(
      "__kmpc_omp_task_alloc",
      FunctionType::get(Ptr, {Ptr, I32, I32, I64, I64, Ptr}, false));
  Value *T = B.CreateCall(Alloc, {Loc, Gtid, B.getInt32(TiedFlag),
                                  B.getInt64(TaskBytes), B.getInt64(0), Entry});
  B.CreateStore(Handle, B.CreateConstGEP1_64(B.getInt8Ty(), T, TaskHeaderBytes));
  if (!DepCount) {
    B.CreateCall(M.getOrInsertFunction(
                     "__kmpc_omp_task",
                     FunctionType::get(I32, {Ptr, I32, Ptr}, false)),
                 {Loc, Gtid, T});
    return;
  }
  // (With no dependences, as __kmpc_omp_task.)
  B.CreateCall(
      M.getOrInsertFunction(
          "__kmpc_omp_task_with_deps",
          FunctionType::get(I32, {Ptr, I32, Ptr, I32, Ptr, I32, Ptr}, false)),
      {Loc, Gtid, T, DepCount, Deps, B.getInt32(0),
       ConstantPointerNull::get(cast<PointerType>(Ptr))});
}

/// A task entry (i32 (i32 gtid, ptr task)) that calls \p Body(gtid, handle).
Function *makeTaskEntry(Module &M, const Twine &Name,
                        function_ref<void(IRBuilder<> &, Value *, Value *)>
                            Body) {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I32 = Type::getInt32Ty(C);
  Function *F = Function::Create(FunctionType::get(I32, {I32, Ptr}, false),
                                 GlobalValue::InternalLinkage, Name, M);
  F->addFnAttr(Attribute::NoUnwind);
  IRBuilder<> B(BasicBlock::Create(C, "entry", F));
  Value *Handle = B.CreateLoad(
      Ptr, B.CreateConstGEP1_64(B.getInt8Ty(), F->getArg(1), TaskHeaderBytes));
  Body(B, F->getArg(0), Handle);
  B.CreateRet(B.getInt32(0));
  return F;
}

/// spawn(h): starts the reverse of the task \p h as a task (one function
/// per module, for adcc_task_spawn).
Function *reverseSpawner(Module &M) {
  if (Function *F = M.getFunction("adcc.omp.task.spawn"))
    return F;
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I32 = Type::getInt32Ty(C);
  Function *Entry = makeTaskEntry(
      M, "adcc.omp.task.reverse", [&](IRBuilder<> &B, Value *, Value *H) {
        callRuntime(B, "adcc_task_run_reverse", B.getVoidTy(), {H});
      });
  Function *F = Function::Create(
      FunctionType::get(Type::getVoidTy(C), {Ptr}, false),
      GlobalValue::InternalLinkage, "adcc.omp.task.spawn", M);
  F->addFnAttr(Attribute::NoUnwind);
  IRBuilder<> B(BasicBlock::Create(C, "entry", F));
  Constant *Loc = unknownLocation(M);
  Value *Gtid = callRuntime(B, "__kmpc_global_thread_num", I32, {Loc});
  // (A task's reverse has the dependences of the task: the batch's
  // reverses start the last created first, so that they order them in
  // reverse, runtime/lib/tasks.c.)
  Value *H = F->getArg(0);
  startTask(B, Loc, Gtid, Entry, H,
            callRuntime(B, "adcc_task_dep_count", I32, {H}),
            callRuntime(B, "adcc_task_deps", Ptr, {H}));
  B.CreateRetVoid();
  return F;
}

/// adcc_task_spawn(\p Batch, spawn) at \p B's position.
void spawnBatch(IRBuilder<> &B, Value *Batch) {
  Module &M = *B.GetInsertBlock()->getModule();
  Type *Ptr = B.getPtrTy();
  B.CreateCall(M.getOrInsertFunction(
                   "adcc_task_spawn",
                   FunctionType::get(B.getVoidTy(), {Ptr, Ptr}, false)),
               {Batch, reverseSpawner(M)});
}

/// The task entry running \p AugEntry on a task's tape, and the function
/// running \p RevEntry on it (after spawning the reverses of the tasks
/// the task left at its end).
void makeTaskSweeps(Module &M, Function *AugEntry, Function *RevEntry,
                    uint64_t Bytes, Function *&AugTask, Function *&RevTask) {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  AugTask = makeTaskEntry(
      M, AugEntry->getName() + ".task",
      [&](IRBuilder<> &B, Value *Gtid, Value *H) {
        callRuntime(B, "adcc_task_begin", B.getVoidTy(), {H});
        Value *Copies = callRuntime(B, "adcc_task_records", Ptr, {H});
        B.CreateCall(AugEntry,
                     {Gtid, Copies,
                      B.CreateConstGEP1_64(B.getInt8Ty(), Copies, Bytes)});
        callRuntime(B, "adcc_task_end", B.getVoidTy(), {H});
      });
  RevTask = Function::Create(FunctionType::get(Type::getVoidTy(C), {Ptr}, false),
                             GlobalValue::InternalLinkage,
                             RevEntry->getName() + ".task", M);
  RevTask->addFnAttr(Attribute::NoUnwind);
  IRBuilder<> B(BasicBlock::Create(C, "entry", RevTask));
  Value *H = RevTask->getArg(0);
  callRuntime(B, "adcc_task_begin_reverse", B.getVoidTy(), {H});
  spawnBatch(B, callRuntime(B, "adcc_task_last", Ptr, {H}));
  B.CreateCall(RevEntry, {});
  callRuntime(B, "adcc_task_end_reverse", B.getVoidTy(), {H});
  B.CreateRetVoid();
}

/// Whether \p F, or a function of the module it calls, asks for a
/// derivative or calls one (\p Generated).
bool reachesDerivatives(const Function &F,
                        function_ref<bool(const Function &)> Generated,
                        SmallPtrSetImpl<const Function *> &Seen) {
  if (!Seen.insert(&F).second)
    return false;
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB) {
      const auto *Call = dyn_cast<CallBase>(&I);
      const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
      if (!Callee)
        continue;
      if (Generated(*Callee) || classifyEntryPoint(Callee->getName()))
        return true;
      if (!Callee->isDeclaration() &&
          reachesDerivatives(*Callee, Generated, Seen))
        return true;
    }
  return false;
}

/// Whether a request of \p M differentiates code that asks for (or calls)
/// derivatives itself: a Hessian by forward over reverse mode, whose
/// forward sweep of the gradient cannot follow tasks started by the
/// runtime. Tasks then run where they are created.
bool differentiatesDerivatives(
    Module &M, function_ref<bool(const Function &)> Generated) {
  for (const Function &F : M) {
    if (!F.isDeclaration() || !classifyEntryPoint(F.getName()))
      continue;
    for (const User *U : F.users()) {
      const auto *Call = dyn_cast<CallBase>(U);
      if (!Call || Call->getCalledFunction() != &F || !Call->arg_size())
        continue;
      const auto *Target =
          dyn_cast<Function>(Call->getArgOperand(0)->stripPointerCasts());
      SmallPtrSet<const Function *, 16> Seen;
      if (Target && !Target->isDeclaration() &&
          reachesDerivatives(*Target, Generated, Seen))
        return true;
    }
  }
  return false;
}

/// The error for a task with dependences that would run where it is
/// created, for the reason \p Why.
std::string dependentTaskError(StringRef Why) {
  return ("an OpenMP task with a depend clause that runs where it is "
          "created in reverse mode (" +
          Why +
          ") in a function whose other tasks run as tasks: its reverse "
          "would race with theirs; drop the depend clause, or make the task "
          "deferred")
      .str();
}

} // namespace

bool ReverseEmitter::runsTasks() {
  return moduleRunsTasks() && Key.Parallel && Width == 1 && !DeviceCode;
}

bool ReverseEmitter::moduleRunsTasks() {
  if (!RunsTasksKnown) {
    RunsTasksKnown = true;
    Module &M = *Aug.getParent();
    RunsTasks = any_of(M, [](const Function &F) {
                  return F.getName().starts_with(".omp_task_entry.");
                }) &&
                !differentiatesDerivatives(
                    M, [&](const Function &F) { return Ctx.isGenerated(F); });
  }
  return RunsTasks;
}

void ReverseEmitter::spawnTasks(IRBuilder<> &B, Value *Batch) {
  spawnBatch(B, Batch);
}

bool ReverseEmitter::augmentTaskCall(CallBase &Call, bool &Replaced) {
  MDNode *Facts = Call.getMetadata(OpenMPTaskMetadata);
  Function *Entry = Call.getCalledFunction();
  if (!Facts || !Entry || !runsTasks() || Call.arg_size() != 2 ||
      Facts->getNumOperands() < 2)
    return true;
  Value *Record = Call.getArgOperand(1);
  Value *ShadowRecord = shadowOrNull(Record);
  CallBase *Wait = taskDependences(Call);
  if (Call.getMetadata(OpenMPTaskDepsMetadata) && !Wait)
    return unsupported(Call, "internal error: the dependences of an OpenMP "
                             "task were lost");
  // (A task with dependences run where it is created would have its
  // reverse run there too, after the reverses of the tasks it waited for
  // started: they would race with it.)
  if (!ShadowRecord)
    return !Wait ? true
                 : unsupported(Call, dependentTaskError("its record has no "
                                                        "derivatives"));
  SmallPtrSet<const Function *, 8> Seen;
  if (entersCriticalSections(*Entry, Seen))
    return !Wait ? true // (run where it is created)
                 : unsupported(Call,
                               dependentTaskError("its body enters a critical "
                                                  "section or takes a lock"));
  auto Size = [&](unsigned K) {
    return mdconst::extract<ConstantInt>(Facts->getOperand(K))->getZExtValue();
  };
  uint64_t Bytes = Size(0), SharedsBytes = Size(1);
  Module &M = *Aug.getParent();
  Value *Loc = Facts->getNumOperands() > 2
                   ? mdconst::extract<Constant>(Facts->getOperand(2))
                   : unknownLocation(M);

  DerivativeKey K;
  K.Primal = Entry;
  K.Mode = DerivativeMode::Augmented;
  K.TapeLevel = Key.TapeLevel;
  K.Parallel = true;
  K.Args = {ArgActivity::Const, ArgActivity::Dup};
  // (The record's copy is the task's own.)
  K.PrivateArgs = uint64_t(1) << 1;
  K.ReturnPrimal = !Call.getType()->isVoidTy();
  K.ReturnShadow = false;
  Function *AugEntry = Ctx.getOrCreate(K);
  if (!AugEntry)
    return false;
  DerivativeKey RK = K;
  RK.Mode = DerivativeMode::Reverse;
  Function *RevEntry = Ctx.cache().lookup(RK);
  if (!RevEntry || RevEntry->arg_size() != 0)
    return unsupported(Call, "internal error: the reverse sweep of an OpenMP "
                             "task has an unexpected form");

  Type *Ptr = AB.getPtrTy(), *I64 = AB.getInt64Ty();
  Value *Level = AB.getInt32(Key.TapeLevel);
  // (One pair of task functions per entry's sweeps, whichever call makes
  // them first.)
  Function *AugTask = M.getFunction((AugEntry->getName() + ".task").str());
  Function *RevTask = M.getFunction((RevEntry->getName() + ".task").str());
  if (!AugTask || !RevTask)
    makeTaskSweeps(M, AugEntry, RevEntry, Bytes, AugTask, RevTask);

  // (The task's sweeps record on the level the entry needs: TapeLevels.h.)
  Value *TaskLevel =
      AB.getInt32(std::max(Key.TapeLevel, Ctx.tapeLevelFor(*Entry)));
  Type *I32 = AB.getInt32Ty();
  Value *H = AB.CreateCall(
      M.getOrInsertFunction(
          "adcc_task_new", FunctionType::get(Ptr, {I32, I32, I64, Ptr}, false)),
      {Level, TaskLevel, AB.getInt64(2 * (Bytes + SharedsBytes)), RevTask},
      "task");
  callRuntime(AB, "adcc_task_copy_record", AB.getVoidTy(),
              {H, Record, ShadowRecord, AB.getInt64(Bytes),
               AB.getInt64(SharedsBytes)});
  Value *DepCount = nullptr, *Deps = nullptr;
  if (Wait) {
    // (The task waits for its dependences as a task, not at its creation.)
    DepCount = Wait->getArgOperand(2);
    Deps = Wait->getArgOperand(3);
    callRuntime(AB, "adcc_task_set_deps", AB.getVoidTy(), {H, DepCount, Deps});
    Dead.push_back(Wait);
  }
  startTask(AB, Loc, Call.getArgOperand(0), AugTask, H, DepCount, Deps);
  auto *Started = cast<CallInst>(&*std::prev(AB.GetInsertPoint()));
  TaskSites[Started] = {H, ShadowRecord, Loc, Bytes};
  record(*Started, {H, ShadowRecord});
  if (!Call.getType()->isVoidTy())
    Call.replaceAllUsesWith(Constant::getNullValue(Call.getType()));
  Dead.push_back(&Call);
  Replaced = true;
  return true;
}

bool ReverseEmitter::emitTaskAdjoint(CallBase &Started,
                                     DenseMap<Value *, Value *> &Popped) {
  const TaskSite &Site = TaskSites[&Started];
  Value *H = revValue(Site.Handle, Popped);
  Value *Shadow = revValue(Site.ShadowRecord, Popped);
  if (!H || !Shadow)
    return unsupported(Started, "internal error: the handle of an OpenMP "
                                "task was not recorded");
  Type *I32 = RB.getInt32Ty(), *I64 = RB.getInt64Ty();
  // (Its reverse, spawned at the mirror of the point that waited for it,
  // ends before the reverse of what came before its creation.)
  Value *Gtid = callRuntime(RB, "__kmpc_global_thread_num", I32, {Site.Loc});
  callRuntime(RB, "__kmpc_omp_taskwait", I32, {Site.Loc, Gtid});
  callRuntime(RB, "adcc_task_copy_back", RB.getVoidTy(),
              {H, Shadow, ConstantInt::get(I64, Site.Bytes),
               ConstantInt::get(I64, TaskHeaderBytes)});
  callRuntime(RB, "adcc_task_free", RB.getVoidTy(), {H});
  return true;
}

bool ReverseEmitter::checkDependenceWait(CallBase &Call) {
  Function *F = Call.getCalledFunction();
  if (!F || F->getName() != "__kmpc_omp_wait_deps" || !runsTasks())
    return true;
  // (The wait of a task prepare/OpenMPTasks.cpp ran where it was created,
  // which augmentTaskCall starts as a task, or refuses.)
  for (Instruction *I = Call.getNextNode(); I; I = I->getNextNode())
    if (auto *Next = dyn_cast<CallBase>(I);
        Next && Next->getMetadata(OpenMPTaskDepsMetadata)) {
      if (taskDependences(*Next) == &Call)
        return true;
      break;
    }
  return unsupported(Call, dependentTaskError("if(0)"));
}

void ReverseEmitter::augmentTaskSync(CallBase &Call) {
  Function *F = Call.getCalledFunction();
  if (!F || !runsTasks())
    return;
  StringRef Name = F->getName();
  if (Name != "__kmpc_omp_taskwait" && Name != "__kmpc_end_taskgroup" &&
      classifyOpenMPCall(*F) != OpenMPCall::Barrier)
    return;
  Value *Batch = callRuntime(AB, "adcc_task_sync", AB.getPtrTy(),
                             {AB.getInt32(Key.TapeLevel)});
  TaskSyncs[&Call] = Batch;
  record(Call, {Batch});
}

bool ReverseEmitter::mirrorsTaskSync(Instruction &I,
                                     DenseMap<Value *, Value *> &Popped) {
  auto It = TaskSyncs.find(&I);
  if (It == TaskSyncs.end())
    return false;
  // (A barrier first runs again: the tasks' reverses start after the
  // reverse of what every thread did after it.)
  if (auto *Call = dyn_cast<CallBase>(&I);
      Call && Call->getCalledFunction() &&
      classifyOpenMPCall(*Call->getCalledFunction()) == OpenMPCall::Barrier)
    mirrorsOpenMPSync(I, Popped);
  Value *Batch = revValue(It->second, Popped);
  if (!Batch)
    return unsupported(I, "internal error: the tasks of a sync point were "
                          "not recorded");
  spawnTasks(RB, Batch);
  return true;
}

} // namespace adcore
