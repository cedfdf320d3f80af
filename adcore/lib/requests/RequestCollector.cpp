//===- RequestCollector.cpp - Find derivative requests -------------------===//

#include "adcore/RequestCollector.h"

#include "DenseViews.h"
#include "FunctionParameters.h"
#include "adcore/EnzymeMarks.h"

#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {
namespace {

/// The function a request's first argument names, looking through casts and
/// aliases; null when it is not a function.
Function *requestedFunction(Value *Arg, unsigned Depth = 0) {
  Value *Stripped = lookThroughFunctionLocal(Arg);
  if (auto *GA = dyn_cast<GlobalAlias>(Stripped))
    Stripped = GA->getAliasee()->stripPointerCasts();
  if (auto *F = dyn_cast<Function>(Stripped))
    return F;
  // At -O0 `+lambda` is a call of the lambda's conversion function, which
  // returns the address of a fixed function.
  auto *Call = dyn_cast<CallBase>(Stripped);
  Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  if (!Callee || Callee->isDeclaration() || Depth > 2)
    return nullptr;
  Function *Only = nullptr;
  for (BasicBlock &BB : *Callee)
    if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator())) {
      Function *F = Ret->getReturnValue()
                        ? requestedFunction(Ret->getReturnValue(), Depth + 1)
                        : nullptr;
      if (!F || (Only && Only != F))
        return nullptr;
      Only = F;
    }
  return Only;
}

void collectFromCall(CallBase &Call, RequestKind Kind, CollectedRequests &Out) {
  StringRef Entry = entryPointName(Kind);
  // A large struct result comes back through a hidden first argument.
  unsigned First =
      Call.arg_size() > 0 && Call.paramHasAttr(0, Attribute::StructRet) ? 1 : 0;
  if (Call.arg_size() <= First) {
    Out.Errors.push_back(
        {&Call, (Entry + " needs the function to differentiate as its first "
                         "argument")
                    .str()});
    return;
  }
  Function *Primal = requestedFunction(Call.getArgOperand(First));
  if (!Primal) {
    std::string Message = ("the first argument of " + Entry +
                           " must name a function known at compile time")
                              .str();
    // (A helper's parameter: FunctionParameters.h copies the helper for the
    // functions its callers pass, unless it must stay as it is.)
    if (auto *A = dyn_cast<Argument>(lookThroughFunctionLocal(
            Call.getArgOperand(First))))
      Message += "; it is a parameter of '" +
                 A->getParent()->getName().str() +
                 "', which adcc copies for each function its callers pass "
                 "only where it is static or inline and called directly";
    Out.Errors.push_back({&Call, Message});
    return;
  }
  Request R;
  R.Kind = Kind;
  R.Primal = Primal;
  R.Site = &Call;
  Out.Requests.push_back(R);
}

} // namespace

CollectedRequests collectRequests(Module &M) {
  CollectedRequests Out;
  for (Function &F : M) {
    for (Instruction &I : instructions(F)) {
      auto *Call = dyn_cast<CallBase>(&I);
      if (!Call)
        continue;
      // (Not getCalledFunction(), which is null where the call's type is
      // not the declaration's: `double __enzyme_autodiff();` in C, or a
      // second declaration with another result type under the same asm
      // label. Those requests were missed, the program failing to link.)
      auto *Callee = dyn_cast<Function>(Call->getCalledOperand());
      if (!Callee) {
        // (Through a pointer variable: the variable would keep the entry
        // point's address, which nothing defines.)
        auto *Held = dyn_cast<Function>(
            lookThroughFunctionLocal(Call->getCalledOperand()));
        if (Held && Held->isDeclaration() &&
            classifyEntryPoint(Held->getName()))
          Out.Errors.push_back(
              {Call, "'" + Held->getName().str() +
                         "' is called through a function pointer; call it "
                         "by its name (a cast of the name is fine)"});
        continue;
      }
      if (!Callee->isDeclaration())
        continue;
      if (std::optional<RequestKind> Kind =
              classifyEntryPoint(Callee->getName())) {
        collectFromCall(*Call, *Kind, Out);
        continue;
      }
      // (Lowered after the derivatives are made: DenseViews.h.)
      if (isDenseViewFunction(Callee->getName()))
        continue;
      // (Never linked into anything: a call to one would fail at link time
      // or, worse, run a function the program defines by that name.)
      std::string What = unsupportedEnzymeFunction(Callee->getName());
      if (!What.empty())
        Out.Errors.push_back({Call, "'" + demangle(Callee->getName()) +
                                        "' (" + What +
                                        ") is not supported yet by adcc"});
    }
  }
  return Out;
}

} // namespace adcore
