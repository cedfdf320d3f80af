//===- OpenMPTaskloops.cpp - taskloop as a loop of tasks ------------------===//
//
// Clang lowers `#pragma omp taskloop` over the loop's normalized iteration
// space (lower bound 0, stride 1) to one task record and
//
//   __kmpc_taskloop(loc, gtid, t, if, &t->lb, &t->ub, st, nogroup,
//                   sched, grainsize or num_tasks, reductions)
//
// which splits [lb, ub] into chunks and starts a copy of t per chunk. Before
// a function is differentiated such a call (without task reductions, and
// without private or firstprivate data in the record) becomes that loop in
// the function itself:
//
//   for (c = 0; c < n; c += chunk) {
//     t->lb = lb + c * st; t->ub = lb + (min(c + chunk, n) - 1) * st;
//     t->liter = (the chunk holds the last iteration);
//     __kmpc_omp_task(loc, gtid, t)
//   }
//
// whose tasks prepare/OpenMPTasks.cpp then runs where they are created
// (and the derivatives as tasks again: reverse/ReverseTasks.cpp). The
// chunk is the grainsize, n / num_tasks rounded up, or, with neither
// clause, n / (10 threads) as libomp chooses; a runtime call with
// nogroup 0 gets the taskgroup it would have made. Other forms
// (__kmpc_taskloop_5, task reductions, private or firstprivate data, a
// record adcc does not know) stay errors at the directive.
//
//===----------------------------------------------------------------------===//

#include "Prepare.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {
namespace {

// kmp_task_t's fields of a taskloop: lb, ub, st (i64), liter (i32).
constexpr uint64_t LiterOffset = 64, TaskloopRecordBytes = 80;
// __kmpc_taskloop's schedules.
constexpr uint64_t GrainSize = 1, NumTasks = 2;

bool calls(const CallBase &Call, StringRef Name) {
  const Function *F = Call.getCalledFunction();
  return F && F->getName() == Name;
}

/// Whether \p Call is a __kmpc_taskloop that can become a loop of tasks.
bool splittable(const CallBase &Call) {
  if (!calls(Call, "__kmpc_taskloop") || Call.arg_size() != 11 ||
      !isa<ConstantPointerNull>(Call.getArgOperand(10)))
    return false;
  const auto *Alloc = dyn_cast<CallBase>(Call.getArgOperand(2));
  if (!Alloc || !calls(*Alloc, "__kmpc_omp_task_alloc") ||
      Alloc->arg_size() != 6)
    return false;
  // (Private and firstprivate data follow kmp_task_t in the record. The
  // chunks' tasks would share the one copy the creator makes, and their
  // reverses' adjoints of it would not add up: such taskloops stay
  // errors.)
  const auto *Size = dyn_cast<ConstantInt>(Alloc->getArgOperand(3));
  return Size && Size->getZExtValue() == TaskloopRecordBytes;
}

void splitTaskloop(CallBase &Call) {
  Function &F = *Call.getFunction();
  LLVMContext &C = F.getContext();
  Value *Loc = Call.getArgOperand(0), *Gtid = Call.getArgOperand(1),
        *Task = Call.getArgOperand(2), *LbPtr = Call.getArgOperand(4),
        *UbPtr = Call.getArgOperand(5), *St = Call.getArgOperand(6),
        *NoGroup = Call.getArgOperand(7), *Sched = Call.getArgOperand(8),
        *Grain = Call.getArgOperand(9);
  Module &M = *F.getParent();
  Type *I32 = Type::getInt32Ty(C), *I64 = Type::getInt64Ty(C),
       *Ptr = PointerType::getUnqual(C);
  BasicBlock *Pre = Call.getParent();
  BasicBlock *Exit = Pre->splitBasicBlock(Call.getIterator(), "taskloop.end");
  BasicBlock *Head = BasicBlock::Create(C, "taskloop.chunk", &F, Exit);
  Pre->getTerminator()->eraseFromParent();
  bool Group = isa<ConstantInt>(NoGroup) && cast<ConstantInt>(NoGroup)->isZero();

  IRBuilder<> B(Pre);
  B.SetCurrentDebugLocation(Call.getDebugLoc());
  if (Group)
    B.CreateCall(M.getOrInsertFunction(
                     "__kmpc_taskgroup",
                     FunctionType::get(B.getVoidTy(), {Ptr, I32}, false)),
                 {Loc, Gtid});
  Value *Lb = B.CreateLoad(I64, LbPtr, "taskloop.lb");
  Value *Ub = B.CreateLoad(I64, UbPtr, "taskloop.ub");
  // (Iterations: (ub - lb) / st + 1, none where ub < lb; a stride that
  // is not positive, which Clang's normalized loops never have: one
  // chunk.)
  Value *Positive = B.CreateICmpSGT(St, B.getInt64(0));
  Value *Step = B.CreateSelect(Positive, St, B.getInt64(1));
  Value *Count = B.CreateSelect(
      B.CreateICmpSLT(Ub, Lb), B.getInt64(0),
      B.CreateAdd(B.CreateSDiv(B.CreateSub(Ub, Lb), Step), B.getInt64(1)));
  Count = B.CreateSelect(Positive, Count,
                         B.CreateSelect(B.CreateICmpEQ(Ub, Lb),
                                        B.getInt64(1), B.getInt64(0)));
  auto Ceil = [&](Value *N, Value *D) {
    D = B.CreateSelect(B.CreateICmpSGT(D, B.getInt64(0)), D, B.getInt64(1));
    return B.CreateSDiv(B.CreateAdd(N, B.CreateSub(D, B.getInt64(1))), D);
  };
  Value *Threads = B.CreateSExt(
      B.CreateCall(M.getOrInsertFunction("omp_get_num_threads",
                                         FunctionType::get(I32, false))),
      I64);
  Value *Sched64 = B.CreateZExt(Sched, I64);
  Value *Chunk = B.CreateSelect(
      B.CreateICmpEQ(Sched64, B.getInt64(GrainSize)), Grain,
      B.CreateSelect(B.CreateICmpEQ(Sched64, B.getInt64(NumTasks)),
                     Ceil(Count, Grain),
                     Ceil(Count, B.CreateMul(Threads, B.getInt64(10)))));
  Chunk = B.CreateSelect(B.CreateICmpSGT(Chunk, B.getInt64(0)), Chunk,
                         B.getInt64(1));
  // (A stride that is not positive: the whole range in one task.)
  Chunk = B.CreateSelect(Positive, Chunk, B.getInt64(1));
  B.CreateCondBr(B.CreateICmpSGT(Count, B.getInt64(0)), Head, Exit);

  B.SetInsertPoint(Head);
  PHINode *Start = B.CreatePHI(I64, 2, "taskloop.first");
  Start->addIncoming(B.getInt64(0), Pre);
  Value *Next = B.CreateAdd(Start, Chunk, "taskloop.next");
  Value *End = B.CreateSelect(B.CreateICmpSLT(Next, Count), Next, Count);
  Value *Last = B.CreateSub(End, B.getInt64(1));
  B.CreateStore(B.CreateAdd(Lb, B.CreateMul(Start, Step)), LbPtr);
  B.CreateStore(
      B.CreateSelect(Positive, B.CreateAdd(Lb, B.CreateMul(Last, Step)), Ub),
      UbPtr);
  B.CreateStore(B.CreateZExt(B.CreateICmpSGE(Next, Count), I32),
                B.CreateConstGEP1_64(B.getInt8Ty(), Task, LiterOffset));
  B.CreateCall(M.getOrInsertFunction(
                   "__kmpc_omp_task",
                   FunctionType::get(I32, {Ptr, I32, Ptr}, false)),
               {Loc, Gtid, Task});
  Start->addIncoming(Next, Head);
  B.CreateCondBr(B.CreateICmpSLT(Next, Count), Head, Exit);

  B.SetInsertPoint(&Call);
  B.SetCurrentDebugLocation(Call.getDebugLoc());
  if (Group)
    B.CreateCall(M.getOrInsertFunction(
                     "__kmpc_end_taskgroup",
                     FunctionType::get(B.getVoidTy(), {Ptr, I32}, false)),
                 {Loc, Gtid});
  Call.eraseFromParent();
}

} // namespace

bool splitOpenMPTaskloops(Function &F) {
  SmallVector<CallBase *, 2> Loops;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallBase>(&I); Call && splittable(*Call))
      Loops.push_back(Call);
  for (CallBase *Call : Loops)
    splitTaskloop(*Call);
  return !Loops.empty();
}

} // namespace adcore
