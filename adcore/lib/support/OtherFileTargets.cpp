//===- OtherFileTargets.cpp - Other files' functions called by pointer ----===//
//
// See OtherFileTargets.h.
//
//===----------------------------------------------------------------------===//

#include "OtherFileTargets.h"
#include "IRMarks.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {

SmallVector<Function *, 8>
possibleOtherFileTargets(Module &M, FunctionType *FT,
                         function_ref<bool(const Function &)> Deferred) {
  SmallVector<Function *, 8> Targets;
  for (Function &F : M)
    if (F.isDeclaration() && !F.isIntrinsic() && F.getFunctionType() == FT &&
        F.hasAddressTaken() && !F.hasFnAttribute(UsesTapeAttribute) &&
        !F.hasFnAttribute(NotCalledThroughPointers) && Deferred(F))
      Targets.push_back(&F);
  return Targets;
}

} // namespace adcore
