//===- FunctionParameters.cpp - Helpers given the function to differentiate ===//
//
// Numerical code often wraps a derivative request in a helper that receives
// the function as a parameter:
//
//   static void gradient(double (*f)(const double *), double *x, double *dx) {
//     __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
//   }
//
// The request names no function, but every call of the helper passes one.
// Each direct call that passes known functions gets a copy of the helper in
// which the parameter is that function (one copy per distinct choice), so the
// request inside names it. Helpers of helpers are copied outermost first. A
// helper that is not discardable (external, address taken) keeps its own
// body, whose request stays an error.
//
// At -O0 the parameter lives in a local variable; a local that is stored
// once with a function (the parameter, or a function named directly) is
// looked through.
//
//===----------------------------------------------------------------------===//

#include "FunctionParameters.h"

#include "adcore/EntryPoints.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <map>

using namespace llvm;

namespace adcore {

Value *lookThroughFunctionLocal(Value *V) {
  V = V->stripPointerCasts();
  auto *Load = dyn_cast<LoadInst>(V);
  auto *Slot =
      Load ? dyn_cast<AllocaInst>(Load->getPointerOperand()->stripPointerCasts())
           : nullptr;
  if (!Slot || !Load->getType()->isPointerTy())
    return V;
  Value *Stored = nullptr;
  for (User *U : Slot->users()) {
    if (isa<LoadInst>(U))
      continue;
    auto *Store = dyn_cast<StoreInst>(U);
    if (!Store || Store->getValueOperand() == Slot ||
        (Stored && Store->getValueOperand() != Stored))
      return V;
    Stored = Store->getValueOperand();
  }
  return Stored ? Stored->stripPointerCasts() : V;
}

namespace {

/// The function \p V names (through casts, aliases and an -O0 local), or
/// null.
Function *namedFunction(Value *V) {
  V = lookThroughFunctionLocal(V);
  if (auto *GA = dyn_cast<GlobalAlias>(V))
    V = GA->getAliasee()->stripPointerCasts();
  return dyn_cast<Function>(V);
}

/// The parameter \p V is (through casts and an -O0 local), or null.
Argument *namedParameter(Value *V) {
  return dyn_cast<Argument>(lookThroughFunctionLocal(V));
}

/// Which parameters of which functions must be known functions: those the
/// requests name, then those the callers pass on to such parameters.
MapVector<Function *, SmallVector<unsigned, 2>> neededParameters(Module &M) {
  MapVector<Function *, SmallVector<unsigned, 2>> Needed;
  SmallVector<Argument *, 8> Work;
  auto Need = [&](Argument *A) {
    auto &Numbers = Needed[A->getParent()];
    if (!is_contained(Numbers, A->getArgNo())) {
      Numbers.push_back(A->getArgNo());
      Work.push_back(A);
    }
  };
  for (Function &F : M)
    for (Instruction &I : instructions(F)) {
      auto *Call = dyn_cast<CallBase>(&I);
      Function *Callee = Call ? Call->getCalledFunction() : nullptr;
      if (!Callee || !Callee->isDeclaration() ||
          !classifyEntryPoint(Callee->getName()))
        continue;
      unsigned First = Call->arg_size() > 0 &&
                               Call->paramHasAttr(0, Attribute::StructRet)
                           ? 1
                           : 0;
      if (Call->arg_size() > First)
        if (Argument *A = namedParameter(Call->getArgOperand(First)))
          Need(A);
    }
  while (!Work.empty()) {
    Argument *A = Work.pop_back_val();
    for (User *U : A->getParent()->users()) {
      auto *Call = dyn_cast<CallBase>(U);
      if (!Call || !Call->isCallee(&Call->getCalledOperandUse()) ||
          Call->getCalledFunction() != A->getParent() ||
          Call->arg_size() <= A->getArgNo())
        continue;
      if (Argument *Outer = namedParameter(Call->getArgOperand(A->getArgNo())))
        Need(Outer);
    }
  }
  return Needed;
}

/// Gives each direct call of \p F that passes known functions for all of
/// \p Numbers a copy of \p F specialized to them. True if any call changed.
bool specialize(Function &F, ArrayRef<unsigned> Numbers) {
  if (F.isDeclaration() || F.isInterposable() || F.isVarArg())
    return false;
  // (In the order the choices are first met: copies made in an order of
  // addresses made the objects depend on the allocator.)
  SmallVector<std::pair<SmallVector<Function *, 2>, SmallVector<CallBase *, 4>>,
              2>
      Choices;
  std::map<SmallVector<Function *, 2>, unsigned> ChoiceNo;
  for (User *U : F.users()) {
    auto *Call = dyn_cast<CallBase>(U);
    if (!Call || Call->getCalledFunction() != &F ||
        Call->getFunctionType() != F.getFunctionType())
      continue;
    SmallVector<Function *, 2> Passed;
    for (unsigned N : Numbers)
      if (Function *G = namedFunction(Call->getArgOperand(N)))
        Passed.push_back(G);
    if (Passed.size() != Numbers.size())
      continue;
    auto [It, New] = ChoiceNo.try_emplace(Passed, Choices.size());
    if (New)
      Choices.push_back({Passed, {}});
    Choices[It->second].second.push_back(Call);
  }
  for (auto &[Passed, Calls] : Choices) {
    ValueToValueMapTy Map;
    Function *Copy = CloneFunction(&F, Map);
    std::string Name = F.getName().str();
    for (Function *G : Passed)
      Name += "." + G->getName().str();
    Copy->setName(Name);
    Copy->setLinkage(GlobalValue::InternalLinkage);
    Copy->setVisibility(GlobalValue::DefaultVisibility);
    Copy->setComdat(nullptr);
    Copy->setDSOLocal(true);
    for (auto [N, G] : zip(Numbers, Passed))
      Copy->getArg(N)->replaceAllUsesWith(G);
    for (CallBase *Call : Calls)
      Call->setCalledFunction(Copy);
  }
  if (!Choices.empty() && F.use_empty() && F.isDiscardableIfUnused())
    F.eraseFromParent();
  return !Choices.empty();
}

} // namespace

bool specializeFunctionParameters(Module &M) {
  bool Changed = false;
  // (Each round copies the helpers whose callers pass known functions; the
  // copies' own calls of inner helpers then pass known functions too.)
  for (unsigned Round = 0; Round < 4; ++Round) {
    bool Progress = false;
    auto Needed = neededParameters(M);
    // Outermost first: a helper whose callers pass its parameter on from
    // their own parameters waits for those callers' copies.
    for (auto &[F, Numbers] : Needed)
      Progress |= specialize(*F, Numbers);
    Changed |= Progress;
    if (!Progress)
      break;
  }
  return Changed;
}

} // namespace adcore
