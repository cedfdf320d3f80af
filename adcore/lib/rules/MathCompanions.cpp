//===- MathCompanions.cpp - Partials the primal computes anyway ----------===//
//
// The partial derivative of sin x is cos x, which code that rotates or
// integrates usually computes next to it (`c = cos(t), s = sin(t)`). Rather
// than call libm again for the partial, the derivative uses that call's
// result: its companion. A companion found after the call in the same block
// is moved up to just after it when only arithmetic (and other libm calls)
// lies in between, so that it is available where the partial is needed
// (forward mode). Split forward mode's tangent sweep reads each libm call
// that may set errno from the records, in its own order, which the
// recording sweep (the primal's order) must match: there a companion with
// an effect moves across arithmetic only (`c = cos(t); a = atan(c);
// s = sin(t)` read sin's record where atan's was). Reverse mode needs no
// move: the companion's value is recorded by whichever of the two calls
// comes second.
//
//===----------------------------------------------------------------------===//

#include "support/CallSites.h"

#include "adcore/MathRules.h"

#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace adcore {
namespace {

struct CompanionRow {
  const char *Of, *Companion;
  bool Negate; ///< the partial is minus the companion
};

constexpr CompanionRow CompanionTable[] = {
    {"sin", "cos", false},
    {"cos", "sin", true},
    {"sinh", "cosh", false},
    {"cosh", "sinh", false},
};

/// The rule name of a direct call to a math function, or empty.
StringRef ruleName(const Instruction &I) {
  auto *C = dyn_cast<CallInst>(&I);
  const Function *F = C ? C->getCalledFunction() : nullptr;
  const MathRule *R = F ? findMathRule(*F) : nullptr;
  return R ? StringRef(R->Name) : StringRef();
}

} // namespace

CallInst *companionCall(CallBase &Call, StringRef RuleName, bool &Negate,
                        function_ref<bool(const CallInst &)> Usable,
                        CompanionMove Move) {
  const CompanionRow *Row = nullptr;
  for (const CompanionRow &R : CompanionTable)
    if (RuleName == R.Of)
      Row = &R;
  if (!Row || Call.arg_size() != 1 || isa<InvokeInst>(Call))
    return nullptr;
  Negate = Row->Negate;
  Value *X = Call.getArgOperand(0);
  // (What split forward mode reads from the records: memory, effects,
  // stack slots, and calls of functions whose tangent sweeps read records
  // of their own.)
  auto HasEffect = [](const Instruction &I) {
    return I.mayReadOrWriteMemory() || I.mayHaveSideEffects() ||
           isa<AllocaInst>(I) ||
           (isa<CallBase>(I) && !isa<IntrinsicInst>(I) && ruleName(I).empty());
  };
  // Movable: across what lies in between so far (Move AcrossMath);
  // EffectBetween: something with an effect lies in between.
  bool Between = false, Movable = true, EffectBetween = false;
  for (Instruction &I : *Call.getParent()) {
    if (&I == &Call) {
      Between = true;
      continue;
    }
    auto *C = dyn_cast<CallInst>(&I);
    bool Match = C && C->arg_size() == 1 && C->getArgOperand(0) == X &&
                 C->getType() == Call.getType() &&
                 ruleName(I) == Row->Companion && Usable(*C);
    if (Match && !Between)
      return C; // before the call: available already
    if (Match && Move == CompanionMove::None)
      return C;
    if (Match && Movable &&
        !(Move == CompanionMove::KeepRecordOrder && EffectBetween &&
          HasEffect(*C))) {
      C->moveAfter(&Call);
      return C;
    }
    // Moving a libm call (which may set errno) across arithmetic and other
    // libm calls changes nothing observable.
    if (Between && I.mayReadOrWriteMemory() && ruleName(I).empty())
      Movable = false;
    if (Between && HasEffect(I))
      EffectBetween = true;
  }
  return nullptr;
}

} // namespace adcore
