//===- CaughtExceptions.cpp - Handlers after differentiated calls ---------===//
//
// A `try` around a differentiated call whose handler lets execution go on
// (`try { y = g(x); } catch (...) { ok = false; }`, miniFE's
// generate_matrix_structure): the call's augmented sweep, left by an
// exception, has pushed part of its records, which no reverse sweep can
// pop. As Enzyme does, the reverse of such an invoke is that of a call:
// the derivative is right on every run whose exception is not taken.
// One that is taken stops the program in the augmented sweep, at the
// landing pad (adcc_exception_caught in the runtime names the function
// and the call), before any record is read: never a wrong derivative. A
// landing pad that only cleans up and rethrows needs none of this (the
// derivative rethrows), nor one reached from this function's own throws
// or from calls that record nothing.
//
//===----------------------------------------------------------------------===//

#include "ReverseEmitter.h"

#include "llvm/Analysis/CFG.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace adcore {

/// The differentiated invoke that unwinds to \p LP, if any. (The
/// replacement invoke sits before the primal's, erased later.)
static Instruction *
differentiatedInvoke(LandingPadInst &LP,
                     function_ref<bool(Instruction &)> Differentiated) {
  for (BasicBlock *P : predecessors(LP.getParent()))
    for (Instruction &T : *P)
      if (isa<InvokeInst>(T) && Differentiated(T))
        return &T;
  return nullptr;
}

void ReverseEmitter::guardCaughtException(LandingPadInst &LP) {
  if (LP.getNumClauses() == 0 ||
      !isPotentiallyReachable(LP.getParent(), AugReturn->getParent()))
    return;
  Instruction *Call = differentiatedInvoke(LP, [&](Instruction &T) {
    return CallKeys.count(&T) || CustomSites.count(&T);
  });
  if (!Call)
    return;
  // Where: the function and the call's line, for the message.
  std::string Where = "'" + Ctx.displayName(*Key.Primal) + "'";
  if (const DebugLoc &DL = Call->getDebugLoc())
    Where += " (" + sys::path::filename(DL->getFilename()).str() + ":" +
             std::to_string(DL.getLine()) + ")";
  Module &M = *Aug.getParent();
  LLVMContext &C = M.getContext();
  FunctionCallee Report = M.getOrInsertFunction(
      "adcc_exception_caught", Type::getVoidTy(C), PointerType::get(C, 0));
  if (auto *F = dyn_cast<Function>(Report.getCallee()))
    F->setDoesNotReturn();
  IRBuilder<> B(LP.getNextNode());
  B.SetCurrentDebugLocation(LP.getDebugLoc());
  CallInst *Stop =
      B.CreateCall(Report, {B.CreateGlobalString(Where, "adcc.caught.where")});
  Stop->setDoesNotReturn();
}

} // namespace adcore
