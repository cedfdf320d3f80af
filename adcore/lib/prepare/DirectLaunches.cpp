//===- DirectLaunches.cpp - cudaLaunchKernel as the launch it is ----------===//
//
// A kernel launched by a direct call of the runtime,
//
//   void *args[] = {&a, &y};
//   cudaLaunchKernel((const void *)k, grid, block, args, shared, stream);
//
// (or the C++ overload of cuda_runtime.h, which passes the same operands
// on, or hipLaunchKernel, or the cooperative forms of both), is what
// `k<<<grid, block, shared, stream>>>(a, y)` does. Where k's stub has
// registered derivatives (rules/LaunchRules.cpp), each such call in a
// function to differentiate becomes that launch before differentiation:
//
//   __cudaPushCallConfiguration(grid, block, shared, stream)
//   __device_stub__k(*(double *)args[0], *(double **)args[1])
//
// so that it is differentiated as the launch is. The launch's result
// becomes cudaSuccess (0): the stub returns none.
//
//===----------------------------------------------------------------------===//

#include "Prepare.h"

#include "rules/GpuLaunches.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {
namespace {

/// The stub with registered derivatives that launches \p Handle.
Function *stubOf(Module &M, Value *Handle) {
  auto *H = dyn_cast<GlobalValue>(Handle->stripPointerCasts());
  if (!H)
    return nullptr;
  if (auto *F = dyn_cast<Function>(H))
    return F->hasFnAttribute(LaunchRuleAttr) ? F : nullptr;
  for (Function &F : M)
    if (F.hasFnAttribute(LaunchRuleAttr) && launchHandleOf(F) == H)
      return &F;
  return nullptr;
}

/// The launch functions: the runtimes' own, and their cooperative forms
/// (the same operands; a kernel whose blocks meet at a grid-wide barrier
/// has no derivative kernels: device/DeviceChecks.cpp).
bool isLaunchFunction(const Function &F) {
  StringRef Name = F.getName();
  return Name == "cudaLaunchKernel" || Name == "hipLaunchKernel" ||
         Name == "cudaLaunchCooperativeKernel" ||
         Name == "hipLaunchCooperativeKernel";
}

/// The C++ overloads of the launch functions (templates of the headers).
bool isLaunchOverload(const Function &F) {
  StringRef Name = F.getName();
  return !F.isDeclaration() && (Name.contains("16cudaLaunchKernel") ||
                                Name.contains("15hipLaunchKernel") ||
                                Name.contains("27cudaLaunchCooperativeKernel") ||
                                Name.contains("26hipLaunchCooperativeKernel"));
}

} // namespace

bool rewriteDirectLaunches(Function &F) {
  Module &M = *F.getParent();
  bool Changed = false;
  // (The headers' overloads forward their operands unchanged to the C
  // function: rewritten the same way.)
  SmallVector<CallBase *, 4> Launches;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallBase>(&I))
      if (Function *Callee = Call->getCalledFunction();
          Callee && Call->arg_size() == 8 &&
          (isLaunchFunction(*Callee) || isLaunchOverload(*Callee)) &&
          stubOf(M, Call->getArgOperand(0)))
        Launches.push_back(Call);
  for (CallBase *Call : Launches) {
    Function *Stub = stubOf(M, Call->getArgOperand(0));
    const bool Hip = Call->getCalledFunction()->getName().contains("hip");
    IRBuilder<> B(Call);
    // (grid as {i64, i32}, block as {i64, i32}, args, shared, stream)
    // (HIP's cooperative launch takes the shared bytes as an unsigned int.)
    SmallVector<Value *, 6> Config = {
        Call->getArgOperand(1), Call->getArgOperand(2), Call->getArgOperand(3),
        Call->getArgOperand(4),
        B.CreateZExtOrTrunc(Call->getArgOperand(6), B.getInt64Ty()),
        Call->getArgOperand(7)};
    SmallVector<Type *, 6> Types;
    for (Value *V : Config)
      Types.push_back(V->getType());
    FunctionCallee Push = M.getOrInsertFunction(
        Hip ? "__hipPushCallConfiguration" : "__cudaPushCallConfiguration",
        FunctionType::get(B.getInt32Ty(), Types, false));
    B.CreateCall(Push, Config);
    Value *Args = Call->getArgOperand(5);
    SmallVector<Value *, 8> Values;
    for (Argument &A : Stub->args()) {
      Value *Slot = B.CreateLoad(
          B.getPtrTy(), B.CreateConstInBoundsGEP1_64(B.getPtrTy(), Args,
                                                     A.getArgNo()));
      Values.push_back(B.CreateLoad(A.getType(), Slot));
    }
    CallInst *Launch = B.CreateCall(Stub, Values);
    Launch->setDebugLoc(Call->getDebugLoc());
    Call->replaceAllUsesWith(Constant::getNullValue(Call->getType()));
    Call->eraseFromParent();
    Changed = true;
  }
  return Changed;
}

} // namespace adcore
