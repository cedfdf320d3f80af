//===- RecomputedCalls.cpp - Math calls computed again, not recorded -----===//
//
// With -adcc-recompute-math-calls, a call of a math function (exp, sin,
// ...) inside a loop whose argument the reverse sweep can rebuild from
// nothing recorded (loads of memory nothing writes, arguments, constants,
// cheap arithmetic of those) is computed again by the reverse sweep
// instead of being recorded in each iteration: GMM's exp(q[j]) of the
// parameters, 8 of its 28 bytes of tape per point, component and
// dimension, which Enzyme computes again. The cost rule: one call per
// rebuilt value, only where the record would be made per loop iteration
// (a record made once per call costs less than the call), and only with no
// record behind it. The call computed again does not write errno: the
// augmented sweep's call set it, with the same argument; unmarked, the
// reverse sweep's copies of it (one per use) could not be merged.
//
// Off by default: recording measured faster (GMM d = 64: tape 17.5 -> 12.6
// MiB, but the gradient 6-7 % slower in CPU time, the reverse loop that
// calls exp no longer vectorized; docs/reverse-mode.md).
//
//===----------------------------------------------------------------------===//

#include "ReverseEmitter.h"

#include "adcore/MathRules.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/CommandLine.h"

using namespace llvm;

namespace adcore {
namespace {

cl::opt<bool> RecomputeMathCalls(
    "adcc-recompute-math-calls", cl::init(false), cl::Hidden,
    cl::desc("Compute calls of math functions of values the reverse sweep "
             "rebuilds from nothing recorded again in the reverse sweep, "
             "instead of recording them in each loop iteration"));

/// The math calls one rebuilt value may compute again.
constexpr unsigned MaxMathCalls = 1;

} // namespace

bool ReverseEmitter::recomputableMathCall(CallInst &CI, const BasicBlock *UseBB,
                                          unsigned Depth, RebuildPlan &P) {
  if (!RecomputeMathCalls || P.MathCalls >= MaxMathCalls ||
      !AugLoops->getLoopFor(CI.getParent()))
    return false;
  Function *Callee = CI.getCalledFunction();
  if (!Callee || !Callee->isDeclaration() || !findMathRule(*Callee) ||
      CI.isMustTailCall() || !CI.doesNotThrow() || !CI.willReturn() ||
      CI.hasOperandBundles() || !CI.getType()->isFloatingPointTy())
    return false;
  // (No memory but errno.)
  if (!CI.getMemoryEffects()
           .getWithoutLoc(IRMemLocation::ErrnoMem)
           .doesNotAccessMemory())
    return false;
  // Nothing recorded behind it: the plan is left as it was when the
  // argument needs a record.
  RebuildPlan Tried = P;
  ++Tried.MathCalls;
  unsigned Leaves = Tried.RecordedLeaves;
  if (!all_of(CI.args(),
              [&](Use &U) {
                return recomputable(U.get(), UseBB, Depth + 1, Tried);
              }) ||
      Tried.RecordedLeaves != Leaves)
    return false;
  P = std::move(Tried);
  return true;
}

void ReverseEmitter::markRecomputedCall(Instruction &Clone) {
  // (Only a math call writes memory: errno.)
  if (auto *CI = dyn_cast<CallInst>(&Clone); CI && !CI->doesNotAccessMemory())
    CI->setDoesNotAccessMemory();
}

} // namespace adcore
