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
#include "llvm/IR/Operator.h"

#include <functional>

using namespace llvm;

namespace adcore {
namespace {

// kmp_task_t's fields of a taskloop: lb, ub, st (i64), liter (i32).
constexpr uint64_t LbOffset = 40, UbOffset = 48, StOffset = 56,
                   LiterOffset = 64, TaskloopRecordBytes = 80;
// __kmpc_taskloop's schedules.
constexpr uint64_t GrainSize = 1, NumTasks = 2;

bool calls(const CallBase &Call, StringRef Name) {
  const Function *F = Call.getCalledFunction();
  return F && F->getName() == Name;
}

/// The places and types of the values Clang stores into the private part
/// of a taskloop's record \p Alloc (its firstprivate scalars: private and
/// lastprivate copies start uninitialized), into \p Out. False where
/// something else writes there (a firstprivate array copied in, a C++
/// object constructed in place): each chunk could not get a typed copy.
bool privateStores(const CallBase &Alloc,
                   SmallVectorImpl<std::pair<uint64_t, Type *>> &Out) {
  const DataLayout &DL = Alloc.getModule()->getDataLayout();
  SmallVector<std::pair<const Value *, uint64_t>, 8> Work = {{&Alloc, 0}};
  while (!Work.empty()) {
    auto [V, Offset] = Work.pop_back_val();
    for (const User *U : V->users()) {
      if (const auto *GEP = dyn_cast<GEPOperator>(U)) {
        APInt Delta(64, 0);
        if (!GEP->accumulateConstantOffset(DL, Delta))
          return false;
        Work.push_back({GEP, Offset + Delta.getZExtValue()});
        continue;
      }
      if (Offset < TaskloopRecordBytes)
        continue; // (kmp_task_t's: the bounds, the runtime's fields)
      const auto *SI = dyn_cast<StoreInst>(U);
      if (!SI || SI->getValueOperand() == V)
        return false;
      Out.push_back({Offset, SI->getValueOperand()->getType()});
    }
  }
  return true;
}

/// Whether \p Call is a __kmpc_taskloop that can become a loop of tasks.
bool splittable(const CallBase &Call) {
  if (!calls(Call, "__kmpc_taskloop") || Call.arg_size() != 11)
    return false;
  const Value *Dup = Call.getArgOperand(10)->stripPointerCasts();
  if (!isa<ConstantPointerNull>(Dup) &&
      !(isa<Function>(Dup) && !cast<Function>(Dup)->isDeclaration() &&
        cast<Function>(Dup)->arg_size() == 3))
    return false;
  const auto *Alloc = dyn_cast<CallBase>(Call.getArgOperand(2));
  if (!Alloc || !calls(*Alloc, "__kmpc_omp_task_alloc") ||
      Alloc->arg_size() != 6)
    return false;
  // (Private, firstprivate and lastprivate data follow kmp_task_t in the
  // record: each chunk gets a copy of its own, splitTaskloop.)
  const auto *Size = dyn_cast<ConstantInt>(Alloc->getArgOperand(3));
  const auto *Shareds = dyn_cast<ConstantInt>(Alloc->getArgOperand(4));
  SmallVector<std::pair<uint64_t, Type *>, 4> Stores;
  return Size && Shareds && Size->getZExtValue() >= TaskloopRecordBytes &&
         privateStores(*Alloc, Stores);
}

/// A taskloop's record with data of its own (private, firstprivate and
/// lastprivate copies, or a task_dup function): the record Clang fills
/// becomes a template on the creator's stack, and each chunk's task a
/// record of its own, made as libomp makes it (__kmp_task_dup_alloc: a
/// copy of the record, then task_dup(chunk, template, last chunk)): here
/// the values Clang stored into the template's private part, copied one by
/// one (typed), the shareds the template's. The chunks' reverses then add
/// the adjoints of their copies of firstprivate values into the template's
/// shadow, not over each other. Returns the template; \p Chunk makes a
/// chunk's record at a builder's position.
Value *templateRecord(CallBase &Alloc,
                      std::function<Value *(IRBuilder<> &)> &Chunk) {
  Function &F = *Alloc.getFunction();
  uint64_t Size = cast<ConstantInt>(Alloc.getArgOperand(3))->getZExtValue();
  uint64_t SharedsSize =
      cast<ConstantInt>(Alloc.getArgOperand(4))->getZExtValue();
  SmallVector<std::pair<uint64_t, Type *>, 4> Stores;
  privateStores(Alloc, Stores);
  IRBuilder<> E(&*F.getEntryBlock().getFirstInsertionPt());
  Type *I8 = E.getInt8Ty();
  AllocaInst *Rec =
      E.CreateAlloca(ArrayType::get(I8, Size), nullptr, "taskloop.template");
  Rec->setAlignment(Align(16));
  AllocaInst *Shareds =
      E.CreateAlloca(ArrayType::get(I8, std::max<uint64_t>(SharedsSize, 1)),
                     nullptr, "taskloop.template.shareds");
  Shareds->setAlignment(Align(16));
  IRBuilder<> B(&Alloc);
  B.CreateMemSet(Rec, B.getInt8(0), Size, Align(16));
  B.CreateStore(Shareds, Rec);
  SmallVector<Value *, 6> Args(Alloc.args());
  FunctionCallee Callee(Alloc.getFunctionType(), Alloc.getCalledOperand());
  Chunk = [=](IRBuilder<> &C) -> Value * {
    Value *T = C.CreateCall(Callee, Args, "taskloop.chunk.record");
    C.CreateStore(Shareds, T);
    // (The stride; the bounds and the last-chunk flag the caller stores.)
    C.CreateStore(
        C.CreateLoad(C.getInt64Ty(), C.CreateConstGEP1_64(I8, Rec, StOffset)),
        C.CreateConstGEP1_64(I8, T, StOffset));
    for (auto [Offset, Ty] : Stores)
      C.CreateStore(C.CreateLoad(Ty, C.CreateConstGEP1_64(I8, Rec, Offset)),
                    C.CreateConstGEP1_64(I8, T, Offset));
    return T;
  };
  Alloc.replaceAllUsesWith(Rec);
  Alloc.eraseFromParent();
  return Rec;
}

void splitTaskloop(CallBase &Call) {
  Function &F = *Call.getFunction();
  LLVMContext &C = F.getContext();
  Value *Loc = Call.getArgOperand(0), *Gtid = Call.getArgOperand(1),
        *Task = Call.getArgOperand(2), *LbPtr = Call.getArgOperand(4),
        *UbPtr = Call.getArgOperand(5), *St = Call.getArgOperand(6),
        *NoGroup = Call.getArgOperand(7), *Sched = Call.getArgOperand(8),
        *Grain = Call.getArgOperand(9);
  auto *Dup = dyn_cast<Function>(Call.getArgOperand(10)->stripPointerCasts());
  auto *Alloc = cast<CallBase>(Task);
  std::function<Value *(IRBuilder<> &)> MakeChunk;
  if (Dup || cast<ConstantInt>(Alloc->getArgOperand(3))->getZExtValue() >
                 TaskloopRecordBytes)
    Task = templateRecord(*Alloc, MakeChunk);
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
  // (Clang stores the bounds into the record it made, the template.)
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
  Value *Record = Task;
  if (MakeChunk) {
    // (The chunk's own record: its bounds at kmp_task_t's lb and ub.)
    Record = MakeChunk(B);
    LbPtr = B.CreateConstGEP1_64(B.getInt8Ty(), Record, LbOffset);
    UbPtr = B.CreateConstGEP1_64(B.getInt8Ty(), Record, UbOffset);
  }
  B.CreateStore(B.CreateAdd(Lb, B.CreateMul(Start, Step)), LbPtr);
  B.CreateStore(
      B.CreateSelect(Positive, B.CreateAdd(Lb, B.CreateMul(Last, Step)), Ub),
      UbPtr);
  Value *IsLast = B.CreateZExt(B.CreateICmpSGE(Next, Count), I32);
  B.CreateStore(IsLast,
                B.CreateConstGEP1_64(B.getInt8Ty(), Record, LiterOffset));
  if (Dup)
    B.CreateCall(Dup->getFunctionType(), Dup, {Record, Task, IsLast});
  B.CreateCall(M.getOrInsertFunction(
                   "__kmpc_omp_task",
                   FunctionType::get(I32, {Ptr, I32, Ptr}, false)),
               {Loc, Gtid, Record});
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
