//===- UnmergedRequests.cpp - Requests SimplifyCFG may not merge ---------===//
//
// From -O1 on, the SimplifyCFG that ends the function simplification
// pipeline sinks instructions common to the predecessors of a block: two
// requests in the arms of an `if`,
//
//   if (trained) __enzyme_autodiff((void *)trained_loss, ...);
//   else         __enzyme_autodiff((void *)loss, ...);
//
// that differ only in the function differentiated became one call whose
// first argument is a phi of the two functions, which the AD pass (after
// that pipeline) refused: "the first argument of __enzyme_autodiff must name
// a function known at compile time" (llm.c's harness, e2e
// `requests_in_branches.c`). At the start of the pipeline the entry points'
// declarations get `nomerge`, which SimplifyCFG's sinking and hoisting
// respect; the AD pass replaces the calls, so nothing later sees it.
//
//===----------------------------------------------------------------------===//

#include "UnmergedRequests.h"
#include "adcore/EntryPoints.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {

bool keepRequestsUnmerged(Module &M) {
  bool Changed = false;
  for (Function &F : M)
    if (F.isDeclaration() && !F.hasFnAttribute(Attribute::NoMerge) &&
        classifyEntryPoint(F.getName())) {
      F.addFnAttr(Attribute::NoMerge);
      Changed = true;
    }
  return Changed;
}

} // namespace adcore
