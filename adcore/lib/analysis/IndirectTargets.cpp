//===- IndirectTargets.cpp - Functions no derivative calls through a pointer ===//
//
// A call through a function pointer in differentiated code dispatches to the
// derivative of every defined, address-taken function of its type
// (possibleCallTargets). Test harnesses and drivers take the addresses of
// many functions of common types (`double (*)(double *, double *)`) only to
// hand them to a helper that calls them:
//
//   static int check(double (*f)(const double *), void (*grad)(...)) {...}
//   check(energy, grad_energy);
//
// Such a function can be reached through a pointer only inside that helper.
// Where the helper is not differentiated, no derivative's call through a
// pointer can reach the function, and it is no candidate there: otherwise
// its own derivative is made (and a function that cannot be differentiated,
// such as one that requests a derivative itself, stopped the compile).
//
// A function's address is confined when every use but direct calls is an
// argument of a direct call to a defined function whose parameter is only
// called (also through the local slot that holds it at -O0). Reachability
// starts at the functions to differentiate and follows direct calls, and
// calls through pointers to every function that is not confined or whose
// confining helpers are reached. The others get NotCalledThroughPointers
// until the pass ends.
//
//===----------------------------------------------------------------------===//

#include "analysis/IndirectTargets.h"

#include "support/IRMarks.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {
namespace {

/// Whether \p V (a pointer to a function) is only called: every use is the
/// callee of a call.
bool onlyCallee(const Value &V) {
  return all_of(V.uses(), [](const Use &U) {
    auto *Call = dyn_cast<CallBase>(U.getUser());
    return Call && Call->isCallee(&U);
  });
}

/// Whether parameter \p P is only called, directly or through the local
/// slot an -O0 function keeps it in (one store of \p P, loads only called).
bool onlyCalled(const Argument &P) {
  for (const Use &U : P.uses()) {
    auto *Call = dyn_cast<CallBase>(U.getUser());
    if (Call && Call->isCallee(&U))
      continue;
    auto *Store = dyn_cast<StoreInst>(U.getUser());
    auto *Slot = Store && Store->getValueOperand() == &P
                     ? dyn_cast<AllocaInst>(Store->getPointerOperand())
                     : nullptr;
    if (!Slot)
      return false;
    for (const User *SU : Slot->users()) {
      if (SU == Store)
        continue;
      auto *Load = dyn_cast<LoadInst>(SU);
      if (!Load || !onlyCallee(*Load))
        return false;
    }
  }
  return true;
}

/// The functions whose parameters receive \p F's address and only call it,
/// or nothing when the address goes anywhere else.
std::optional<SmallVector<const Function *, 2>>
confiningHelpers(const Function &F) {
  SmallVector<const Function *, 2> Helpers;
  for (const Use &U : F.uses()) {
    auto *Call = dyn_cast<CallBase>(U.getUser());
    if (Call && Call->isCallee(&U))
      continue;
    const Function *G = Call ? Call->getCalledFunction() : nullptr;
    if (!G || G->isDeclaration() || !Call->isArgOperand(&U) ||
        Call->getArgOperandNo(&U) >= G->arg_size() ||
        !onlyCalled(*G->getArg(Call->getArgOperandNo(&U))))
      return std::nullopt;
    if (!is_contained(Helpers, G))
      Helpers.push_back(G);
  }
  return Helpers;
}

} // namespace

void markUncalledAddresses(Module &M, ArrayRef<Function *> Roots) {
  DenseMap<const Function *, SmallVector<const Function *, 2>> Confined;
  DenseMap<FunctionType *, SmallVector<Function *, 8>> ByType;
  for (Function &F : M) {
    if (F.isDeclaration() || F.isIntrinsic() || !F.hasAddressTaken())
      continue;
    ByType[F.getFunctionType()].push_back(&F);
    if (auto Helpers = confiningHelpers(F))
      Confined[&F] = std::move(*Helpers);
  }
  if (Confined.empty())
    return;
  SetVector<const Function *> Reached;
  DenseSet<FunctionType *> CalledIndirectly;
  SmallVector<const Function *, 16> Work(Roots.begin(), Roots.end());
  auto Visit = [&](FunctionType *FT) {
    for (Function *T : ByType.lookup(FT)) {
      auto It = Confined.find(T);
      if (It == Confined.end() || any_of(It->second, [&](const Function *G) {
            return Reached.contains(G);
          }))
        Work.push_back(T);
    }
  };
  // (A helper reached later lets in the functions it confines: the types
  // called through pointers are visited again until nothing is added.)
  for (size_t Before = ~size_t(0); Before != Reached.size();) {
    Before = Reached.size();
    for (FunctionType *FT : CalledIndirectly)
      Visit(FT);
    while (!Work.empty()) {
      const Function *G = Work.pop_back_val();
      if (!Reached.insert(G) || G->isDeclaration())
        continue;
      for (const Instruction &I : instructions(*G)) {
        auto *Call = dyn_cast<CallBase>(&I);
        if (!Call || Call->isInlineAsm())
          continue;
        if (const Function *Callee = Call->getCalledFunction())
          Work.push_back(Callee);
        else if (CalledIndirectly.insert(Call->getFunctionType()).second)
          Visit(Call->getFunctionType());
      }
    }
  }
  for (auto &[F, Helpers] : Confined)
    if (!Reached.contains(F))
      const_cast<Function *>(F)->addFnAttr(NotCalledThroughPointers);
}

void clearUncalledAddresses(Module &M) {
  for (Function &F : M)
    F.removeFnAttr(NotCalledThroughPointers);
}

} // namespace adcore
