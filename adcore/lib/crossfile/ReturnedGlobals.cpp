//===- ReturnedGlobals.cpp - Globals getters of other files return -------===//
//
// A file that calls a getter of another file's data (`struct cfg *s =
// get_state();`) and stores values with derivatives into its memory, or
// gives it to another file's function with such values (`apply_ext(
// get_config(), x)`), asks the link step for the getter's derivative with
// the shadow of its result. When the file defining the data is compiled
// alone it has no reason to give the data a shadow; the link step has the
// whole program: the global the getter returns gets a shadow there, as a
// global the differentiated code writes does in one file (the program's
// variable, through the name its file exports: StaticAddresses.cpp).
//
//===----------------------------------------------------------------------===//

#include "ReturnedGlobals.h"
#include "adcore/CrossTU.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {

void addReturnedGlobals(Module &M, ArrayRef<std::string> Symbols,
                        DenseSet<const GlobalVariable *> &Written) {
  for (const std::string &Symbol : Symbols) {
    std::optional<CrossTURequest> R = parseCrossTUSymbol(Symbol);
    // (A gradient's augmented sweep or combined derivative gives the
    // result's shadow; its reverse sweep none.)
    if (!R || !R->Key.ReturnShadow ||
        (R->Key.Mode == DerivativeMode::Reverse && !R->Combined) ||
        any_of(R->Key.Args,
               [](ArgActivity A) { return A != ArgActivity::Const; }))
      continue;
    Function *P = M.getFunction(R->Primal);
    if (!P || P->isDeclaration() || !P->getReturnType()->isPointerTy())
      continue;
    for (BasicBlock &BB : *P) {
      auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator());
      if (!Ret || !Ret->getReturnValue())
        continue;
      SmallVector<const Value *, 4> Objects;
      getUnderlyingObjects(Ret->getReturnValue(), Objects);
      for (const Value *O : Objects) {
        auto *G = const_cast<GlobalVariable *>(dyn_cast<GlobalVariable>(O));
        if (!G || G->isDeclaration() || G->isThreadLocal())
          continue;
        if (G->isConstant())
          G->setConstant(false);
        Written.insert(G);
      }
    }
  }
}

} // namespace adcore
