//===- ShadowTables.cpp - Enzyme's __enzyme_virtualreverse ---------------===//
//
// adcc differentiates a call through a function pointer or a virtual table
// by comparing the primal pointer with the functions it may be (see
// emitIndirectCall in the emitters); a shadow's function pointers and
// tables are never read. What Enzyme's __enzyme_virtualreverse returns for
// the shadow object is therefore the table it is given.
//
//===----------------------------------------------------------------------===//

#include "adcore/EnzymeMarks.h"

#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {

bool replaceShadowTables(Module &M) {
  bool Changed = false;
  for (Function &F : M) {
    // (Matched by substring, as Enzyme does: C++ declares it as a
    // template, `template <typename T> T __enzyme_virtualreverse(T)`.)
    if (!F.isDeclaration() || !F.getName().contains("__enzyme_virtualreverse"))
      continue;
    for (User *U : make_early_inc_range(F.users())) {
      auto *Call = dyn_cast<CallBase>(U);
      if (!Call || Call->getCalledOperand() != &F || Call->arg_size() != 1 ||
          !Call->getType()->isPointerTy() ||
          Call->getArgOperand(0)->getType() != Call->getType())
        continue;
      Call->replaceAllUsesWith(Call->getArgOperand(0));
      if (auto *Invoke = dyn_cast<InvokeInst>(Call)) {
        // (C++ calls it as a function that may throw: it does not.)
        BranchInst::Create(Invoke->getNormalDest(), Invoke->getIterator());
        Invoke->getUnwindDest()->removePredecessor(Invoke->getParent());
      }
      Call->eraseFromParent();
      Changed = true;
    }
  }
  return Changed;
}

} // namespace adcore
