//===- OpenMPReductions.cpp - OpenMP reductions as critical sections ------===//
//
// Clang ends a region with `reduction(op: s)` by a call of
// __kmpc_reduce(_nowait), which lets the OpenMP runtime choose how the
// threads' private copies are combined:
//
//   r = __kmpc_reduce_nowait(loc, gtid, n, size, list, combine, lock)
//   switch r: 1 -> s = s op s.private; __kmpc_end_reduce_nowait(...)
//             2 -> atomic updates of s
//             (0: another thread combines this one's copy, calling
//              `combine` on it from inside the runtime)
//
// Derivatives cannot follow the runtime's choice (`combine` runs where no
// derivative sees it), so the reduction is rewritten, before it is
// differentiated, as the first of the runtime's own methods, which every
// team may use: each thread combines its copy into s inside a critical
// section on the same lock (the blocking form ends with a barrier).
//
//   __kmpc_critical(loc, gtid, lock)
//   s = s op s.private
//   __kmpc_end_critical(loc, gtid, lock)   [__kmpc_barrier(loc, gtid)]
//
// Forward mode then updates the tangent of s in the same section; reverse
// mode runs the adjoints of the section in the same critical section
// (ReverseOpenMP.cpp). The primal computes what it computed before.
//
//===----------------------------------------------------------------------===//

#include "Prepare.h"

#include "rules/OpenMPRuntime.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

namespace adcore {
namespace {

FunctionCallee runtimeFunction(Module &M, StringRef Name, bool HasLock) {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I32 = Type::getInt32Ty(C);
  SmallVector<Type *, 3> Params = {Ptr, I32};
  if (HasLock)
    Params.push_back(Ptr);
  return M.getOrInsertFunction(
      Name, FunctionType::get(Type::getVoidTy(C), Params, false));
}

bool isCallOf(const Instruction &I, OpenMPCall Kind) {
  const auto *Call = dyn_cast<CallBase>(&I);
  const Function *F = Call ? Call->getCalledFunction() : nullptr;
  return F && classifyOpenMPCall(*F) == Kind;
}

} // namespace

bool rewriteOpenMPReductions(Function &F) {
  SmallVector<CallBase *, 2> Starts, Ends;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB) {
      if (isCallOf(I, OpenMPCall::Reduce))
        Starts.push_back(cast<CallBase>(&I));
      else if (isCallOf(I, OpenMPCall::EndReduce))
        Ends.push_back(cast<CallBase>(&I));
    }
  if (Starts.empty() && Ends.empty())
    return false;
  Module &M = *F.getParent();
  SmallVector<BasicBlock *, 2> Switches;
  // __kmpc_reduce(_nowait)(loc, gtid, n, size, list, combine, lock)
  for (CallBase *Start : Starts) {
    if (Start->arg_size() != 7 || isa<InvokeInst>(Start))
      continue;
    for (User *U : Start->users())
      if (auto *T = dyn_cast<Instruction>(U); T && T->isTerminator())
        Switches.push_back(T->getParent());
    IRBuilder<> B(Start);
    B.CreateCall(runtimeFunction(M, "__kmpc_critical", true),
                 {Start->getArgOperand(0), Start->getArgOperand(1),
                  Start->getArgOperand(6)});
    Start->replaceAllUsesWith(ConstantInt::get(Start->getType(), 1));
    Start->eraseFromParent();
  }
  // __kmpc_end_reduce(_nowait)(loc, gtid, lock)
  for (CallBase *End : Ends) {
    if (End->arg_size() != 3 || isa<InvokeInst>(End))
      continue;
    IRBuilder<> B(End);
    B.CreateCall(runtimeFunction(M, "__kmpc_end_critical", true),
                 {End->getArgOperand(0), End->getArgOperand(1),
                  End->getArgOperand(2)});
    if (End->getCalledFunction()->getName() == "__kmpc_end_reduce")
      B.CreateCall(runtimeFunction(M, "__kmpc_barrier", false),
                   {End->getArgOperand(0), End->getArgOperand(1)});
    End->eraseFromParent();
  }
  // The switch on the method now always takes the critical section's case:
  // the atomic case goes.
  for (BasicBlock *BB : Switches)
    ConstantFoldTerminator(BB);
  removeUnreachableBlocks(F);
  return true;
}

const CallBase *findUnsupportedOpenMPCall(const Function &F) {
  // (The most specific construct: a task's depend clause rather than the
  // task, which is allocated first.)
  const CallBase *First = nullptr;
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB) {
      const auto *Call = dyn_cast<CallBase>(&I);
      const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
      if (!Callee)
        continue;
      StringRef Construct = unsupportedOpenMPConstruct(*Callee);
      if (Construct.contains("depend"))
        return Call;
      if (!First && (!Construct.empty() ||
                     classifyOpenMPCall(*Callee) == OpenMPCall::Reduce ||
                     classifyOpenMPCall(*Callee) == OpenMPCall::EndReduce))
        First = Call;
    }
  return First;
}

} // namespace adcore
