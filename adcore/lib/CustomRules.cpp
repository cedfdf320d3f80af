//===- CustomRules.cpp - User-registered rules and marks -----------------===//

#include "adcore/CustomRules.h"

#include "CallSites.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {
namespace {

/// The elements of a registration: an array initializer's elements, or a
/// scalar initializer.
SmallVector<Constant *, 4> elements(GlobalVariable &G) {
  SmallVector<Constant *, 4> Out;
  if (!G.hasInitializer())
    return Out;
  Constant *Init = G.getInitializer();
  if (auto *A = dyn_cast<ConstantArray>(Init)) {
    for (Use &U : A->operands())
      Out.push_back(cast<Constant>(U.get()));
  } else if (auto *S = dyn_cast<ConstantStruct>(Init)) {
    for (Use &U : S->operands())
      Out.push_back(cast<Constant>(U.get()));
  } else {
    Out.push_back(Init);
  }
  return Out;
}

Function *functionOf(Constant *C) {
  return dyn_cast<Function>(C->stripPointerCasts());
}

void report(GlobalVariable &G, const Twine &Message, bool &HadError) {
  HadError = true;
  // Attributed to a function that uses the registration when there is one,
  // which gives a source location; the global's name identifies it.
  G.getContext().diagnose(DiagnosticInfoGeneric(
      "malformed registration '" + G.getName() + "': " + Message, DS_Error));
}

} // namespace

void CustomRules::collect(Module &M, bool &HadError) {
  for (GlobalVariable &G : M.globals()) {
    StringRef Name = G.getName();
    if (!Name.starts_with("__enzyme_"))
      continue;
    SmallVector<Constant *, 4> E = elements(G);
    if (Name.starts_with("__enzyme_register_derivative")) {
      if (E.size() != 2 || !functionOf(E[0]) || !functionOf(E[1])) {
        report(G, "expected {(void *)function, (void *)derivative}", HadError);
        continue;
      }
      Forward[functionOf(E[0])] = functionOf(E[1]);
    } else if (Name.starts_with("__enzyme_register_gradient")) {
      if (E.size() != 3 || !functionOf(E[0]) || !functionOf(E[1]) ||
          !functionOf(E[2])) {
        report(G,
               "expected {(void *)function, (void *)augmented, "
               "(void *)reverse}",
               HadError);
        continue;
      }
      Gradients[functionOf(E[0])] = {functionOf(E[1]), functionOf(E[2])};
    } else if (Name.starts_with("__enzyme_register_splitderivative")) {
      report(G, "split forward derivatives are not supported yet by adcc",
             HadError);
    } else if (Name.starts_with("__enzyme_inactivefn")) {
      for (Constant *C : E) {
        if (Function *F = functionOf(C))
          InactiveFunctions.insert(F);
        else
          report(G, "expected function addresses", HadError);
      }
    } else if (Name.starts_with("__enzyme_inactive_global")) {
      for (Constant *C : E) {
        Value *V = C->stripPointerCasts();
        if (isa<GlobalVariable>(V))
          InactiveGlobals.insert(V);
        else
          report(G, "expected addresses of global variables", HadError);
      }
    } else if (Name.starts_with("__enzyme_function_like")) {
      if (E.size() != 2 || !functionOf(E[0]) || constantString(E[1]).empty()) {
        report(G, "expected {(void *)function, (void *)\"name\"}", HadError);
        continue;
      }
      Like[functionOf(E[0])] = constantString(E[1]).str();
    }
  }
}

} // namespace adcore
