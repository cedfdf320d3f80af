//===- SinCosPairs.cpp - A sine and cosine of one angle side by side -----===//
//
// The adjoint of sin(x) needs cos(x) (and that of cos(x) needs sin(x)), which
// the reverse sweep computes where it needs it. Once both sweeps of a
// gradient are inlined into one function, the primal's call and the reverse
// sweep's are two calls of one block far apart, and x86's code generator
// computes both by one call of sincos only when it finds them next to each
// other (at a distance it kept two calls: small-expr's gradient called sin
// and cos where the hand-written gradient calls sincos). The calls are pure
// (the intrinsics, as clang emits them without errno), so the later one can
// move next to the earlier one.
//
//===----------------------------------------------------------------------===//

#include "optimize/Optimize.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace adcore {

bool pairSinesAndCosines(Function &F) {
  bool Changed = false;
  for (BasicBlock &BB : F) {
    // The first call of each (angle, function) of the block not yet paired.
    DenseMap<std::pair<Value *, Intrinsic::ID>, IntrinsicInst *> First;
    for (Instruction &I : make_early_inc_range(BB)) {
      auto *Call = dyn_cast<IntrinsicInst>(&I);
      if (!Call)
        continue;
      Intrinsic::ID ID = Call->getIntrinsicID();
      if (ID != Intrinsic::sin && ID != Intrinsic::cos)
        continue;
      Value *Angle = Call->getArgOperand(0);
      Intrinsic::ID Other =
          ID == Intrinsic::sin ? Intrinsic::cos : Intrinsic::sin;
      auto It = First.find({Angle, Other});
      if (It == First.end()) {
        First.try_emplace({Angle, ID}, Call);
        continue;
      }
      if (It->second->getNextNode() != Call) {
        Call->moveAfter(It->second);
        Changed = true;
      }
      First.erase(It);
    }
  }
  return Changed;
}

} // namespace adcore
