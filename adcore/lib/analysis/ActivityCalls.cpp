//===- ActivityCalls.cpp - Which calls return derivatives ----------------===//
//
// The activity analysis's rule for calls: an allocation (or a function
// that only returns new blocks, or with constant arguments one that may
// return one and no global's address) makes memory that may receive
// derivatives; known inactive functions and library stream calls carry
// none; a call whose operands carry none may still read a global with a
// shadow; a pointer a defined function returns is active only when the
// callee, analysed with the activity of these arguments, returns an
// active one (and so is an integer one).
//
//===----------------------------------------------------------------------===//

#include "ActivityAnalysis.h"
#include "ActivityIntegers.h"
#include "LibraryObjects.h"
#include "OtherFileResults.h"
#include "rules/CustomRules.h"
#include "rules/InactiveFunctions.h"
#include "support/CallSites.h"
#include "support/IRMarks.h"
#include "support/NullShadowGuards.h"
#include "adcore/MemoryFunctions.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace adcore {
namespace {

bool returnsNewAllocation(const Function &F, unsigned Depth);

/// True when every value \p V may hold is null or a block that a call of
/// an allocation function (or of a function returnsNewAllocation accepts)
/// made, or an address in such a block computed as an integer (\p Callees:
/// how many functions deep); sets \p Any when there is such a call.
/// Follows phis, selects and, at -O0 (`T *r = nullptr; if (n)
/// r = malloc(n); return r;`), the values stored into the local slot \p V
/// is loaded from, \p Steps deep.
bool onlyNewAllocations(const Value *V, unsigned Steps, unsigned Callees,
                        bool &Any) {
  V = V->stripPointerCasts();
  if (isa<ConstantPointerNull>(V))
    return true;
  if (Steps == 0)
    return false;
  if (const auto *Call = dyn_cast<CallBase>(V)) {
    const Function *Callee = Call->getCalledFunction();
    Any = true;
    auto Allocates = [&](const Function &T) {
      return isAllocationFunction(T) || returnsNewAllocation(T, Callees);
    };
    if (Callee)
      return Allocates(*Callee);
    // Through a pointer: every function it may reach allocates (an
    // allocator kept in a struct).
    if (Call->isInlineAsm())
      return false;
    SmallVector<Function *, 8> Targets =
        possibleCallTargets(*const_cast<Module *>(Call->getModule()),
                            Call->getFunctionType());
    return !Targets.empty() &&
           all_of(Targets, [&](const Function *T) { return Allocates(*T); });
  }
  auto Each = [&](const Value *In) {
    return onlyNewAllocations(In, Steps - 1, Callees, Any);
  };
  if (const auto *Phi = dyn_cast<PHINode>(V))
    return all_of(Phi->incoming_values(), Each);
  if (const auto *Sel = dyn_cast<SelectInst>(V))
    return Each(Sel->getTrueValue()) && Each(Sel->getFalseValue());
  // An address computed from the block's (the recipe books' 1-based
  // vectors, `return (double *)malloc(n * sizeof(double)) - 1;`).
  if (const auto *GEP = dyn_cast<GEPOperator>(V))
    return Each(GEP->getPointerOperand());
  // An address inside the block, aligned as an integer (Eigen's
  // handmade_aligned_malloc with AVX: `(p & ~31) + 32`).
  if (const auto *I2P = dyn_cast<IntToPtrInst>(V)) {
    const Value *Base = addressBase(I2P->getOperand(0), 4);
    return Base && Each(Base);
  }
  const auto *LI = dyn_cast<LoadInst>(V);
  const auto *Slot =
      LI ? dyn_cast<AllocaInst>(LI->getPointerOperand()->stripPointerCasts())
         : nullptr;
  if (!Slot)
    return false;
  for (const User *U : Slot->users()) {
    if (isa<LoadInst>(U))
      continue;
    if (const auto *II = dyn_cast<IntrinsicInst>(U);
        II && (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II)))
      continue;
    // (posix_memalign(&p, ...) stores a block into the slot; a function
    // not yet prepared has the call, AlignedBlocks.cpp rewrites it.)
    if (const auto *Call = dyn_cast<CallInst>(U)) {
      const Function *Callee = Call->getCalledFunction();
      if (Callee && Callee->getName() == "posix_memalign" &&
          Call->arg_size() == 3 && Call->getArgOperand(0) == Slot &&
          Call->getArgOperand(1) != Slot && Call->getArgOperand(2) != Slot) {
        Any = true;
        continue;
      }
      return false;
    }
    const auto *SI = dyn_cast<StoreInst>(U);
    if (!SI || SI->getPointerOperand() != Slot || !Each(SI->getValueOperand()))
      return false;
  }
  return true;
}

/// True when every value \p F returns is a block it allocated (or null),
/// directly or through a function like itself (std::allocator<T>::allocate
/// and Eigen's conditional_aligned_new_auto at -O0): a call of it makes
/// memory that may receive derivatives, whatever its arguments, as a call
/// of malloc does.
bool returnsNewAllocation(const Function &F, unsigned Depth) {
  if (F.isDeclaration() || !F.getReturnType()->isPointerTy() || Depth == 0)
    return false;
  bool Any = false;
  for (const BasicBlock &BB : F)
    if (const auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator()))
      if (!onlyNewAllocations(Ret->getReturnValue(), 8, Depth - 1, Any))
        return false;
  return Any;
}

/// True when \p Pred holds for a value that \p V takes one step back: an
/// incoming value of a phi, an arm of a select, or, at -O0, a value
/// stored into the local slot \p V is loaded from; false for other values.
template <typename Pred> bool anyEarlierValue(const Value *V, Pred Each) {
  if (const auto *Phi = dyn_cast<PHINode>(V))
    return any_of(Phi->incoming_values(), Each);
  if (const auto *Sel = dyn_cast<SelectInst>(V))
    return Each(Sel->getTrueValue()) || Each(Sel->getFalseValue());
  const auto *LI = dyn_cast<LoadInst>(V);
  const auto *Slot =
      LI ? dyn_cast<AllocaInst>(LI->getPointerOperand()->stripPointerCasts())
         : nullptr;
  return Slot && any_of(Slot->users(), [&](const User *U) {
           const auto *SI = dyn_cast<StoreInst>(U);
           return SI && SI->getPointerOperand() == Slot &&
                  Each(SI->getValueOperand());
         });
}

/// True when some value \p V may hold is the address of a global variable
/// (or an offset into one), through phis, selects and, at -O0, the local
/// slot \p V is loaded from (\p Steps deep).
bool mayBeGlobalAddress(const Value *V, unsigned Steps) {
  V = getUnderlyingObject(V);
  if (isa<GlobalValue>(V))
    return true;
  return Steps != 0 && anyEarlierValue(V, [&](const Value *In) {
           return mayBeGlobalAddress(In, Steps - 1);
         });
}

/// True when some value \p V may hold is a block that a call of an
/// allocation function made, directly or through a function of the module
/// that may return one (\p Callees deep), through phis, selects and, at
/// -O0, the local slot \p V is loaded from (\p Steps deep).
bool mayBeNewAllocation(const Value *V, unsigned Steps, unsigned Callees) {
  V = V->stripPointerCasts();
  if (Steps == 0)
    return false;
  if (const auto *Call = dyn_cast<CallBase>(V)) {
    const Function *Callee = Call->getCalledFunction();
    if (!Callee)
      return false;
    if (isAllocationFunction(*Callee))
      return true;
    if (Callee->isDeclaration() || Callees == 0)
      return false;
    // (Not one that may also return a global's address: a static scratch
    // buffer or a new block, `n <= 8 ? scratch : malloc(...)`, a pool of
    // another file, whose shadow the callee's derivative cannot give; such
    // a call stays constant, and what it returns gets a scratch shadow
    // where derivatives are stored into it. Taken as active, the static's
    // missing shadow crashed the gradient, 2026-12-07.)
    bool Any = false;
    for (const BasicBlock &BB : *Callee)
      if (const auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator()))
        if (const Value *R = Ret->getReturnValue()) {
          if (mayBeGlobalAddress(R, 8))
            return false;
          Any |= mayBeNewAllocation(R, 8, Callees - 1);
        }
    return Any;
  }
  return anyEarlierValue(V, [&](const Value *In) {
    return mayBeNewAllocation(In, Steps - 1, Callees);
  });
}

} // namespace

bool ActivityAnalysis::transferCall(const CallBase &Call) const {
  // (A virtual function of a library stream or stream buffer.)
  if (isInactiveLibraryVirtualCall(Call))
    return false;
  if (const Function *Callee = Call.getCalledFunction()) {
    if (isAllocationFunction(*Callee) || returnsNewAllocation(*Callee, 4))
      return true;
    if (isKnownInactiveFunction(*Callee) ||
        (Rules && Rules->isInactive(Callee)))
      return false;
    // The scratch shadow behind a null shadow pointer holds the inner
    // derivative's values for an active primal pointer, whatever the
    // shadow read (forward over forward: an inner shadow struct the
    // outer request sees as constant; ForwardCalls.cpp gives its
    // tangent).
    if (isNullShadowScratch(*Callee))
      return any_of(Call.args(),
                    [&](const Use &A) { return Active.contains(A.get()); });
    // A reverse sweep's result depends on what its augmented sweep put
    // on the tape, not on its arguments (forward over reverse).
    if (Callee->hasFnAttribute(UsesTapeAttribute))
      return canCarryDerivative(Call.getType());
  }
  if (isa<DbgInfoIntrinsic>(Call))
    return false;
  // A call through a pointer that may reach an allocator (a struct that
  // keeps `malloc`: LibraryPointers.cpp wraps it) returns a block that
  // gets a shadow, as the direct call would.
  if (!Call.getCalledFunction() && !Call.isInlineAsm() &&
      Call.getType()->isPointerTy() &&
      any_of(possibleCallTargets(*const_cast<Module *>(F.getParent()),
                                 Call.getFunctionType()),
             [](const Function *T) {
               return isAllocationFunction(*T) ||
                      returnsNewAllocation(*T, 4);
             }))
    return true;
  // (A stack slot that holds no derivative brings none: `*it` of an
  // iterator into a constant's std::vector.)
  auto ActiveOperand = [&](const Value *Op) {
    return Active.contains(Op) && !cleanStackPointer(Op);
  };
  // (A function that reads or writes a global with a shadow has a
  // derivative whatever its arguments; so has a call through a pointer
  // that may reach one: a table of operations whose arguments are
  // constants.)
  // (A pointer a function of another file returns, into which this
  // function stores derivatives: its shadow comes from the callee's
  // derivative made at link time, OtherFileResults.cpp.)
  // (A function that may return a block it allocated, whatever its
  // arguments: the block may receive derivatives once the caller stores
  // it into active memory, as KANN's kann_new_leaf_array, which returns a
  // node it callocs or one of a list it is given, called with integers
  // only by kann_layer_conv1d at -O0. Taken as constant, the node's null
  // shadow went into the graph's shadow and its values' shadow was read
  // through it: a crash.)
  if (!any_of(Call.operands(),
              [&](const Use &Op) { return ActiveOperand(Op.get()); }))
    return (Call.getType()->isPointerTy() && Call.getCalledFunction() &&
            mayBeNewAllocation(&Call, 1, 4)) ||
           Users.touchesShadowedGlobals(Call) ||
           otherFileResultReceivesDerivatives(
               Call, [&](const Value *V) { return Active.contains(V); },
               [&](const CallBase &Own, unsigned ArgNo) {
                 return ownCalleeReceives(Own, ArgNo, ActiveOperand);
               });
  // A pointer a defined function returns: active only if the function
  // returns an active one for these arguments (a pointer read from
  // constant memory by a function that also takes an active argument is
  // constant: taken as active, it got a null shadow that its users
  // dereferenced). So is an integer, which carries a shadow only as the
  // bits of a float or an address: a generator's next word, computed from
  // its state by shifts and additions, holds neither (KANN's kad_drand at
  // -O0, the word reaching a union through the call: taken as active, the
  // union's double was refused as "integer bits reinterpreted").
  const Function *Callee = Call.getCalledFunction();
  // (One with a registered derivative: its rule gives the result's
  // shadow, whatever its body returns.)
  if (Callee && Rules &&
      (Rules->forwardDerivative(Callee) || Rules->gradient(Callee)))
    return true;
  Type *RetTy = Call.getType();
  if (Callee && (RetTy->isPointerTy() || RetTy->isIntegerTy()) &&
      !Callee->isDeclaration() && !Callee->isVarArg() && Callee != &F &&
      Call.arg_size() == Callee->arg_size() && Call.arg_size() <= 64)
    return returnsActive(*Callee, Call, ActiveOperand);
  return true;
}

bool ActivityAnalysis::returnsActive(
    const Function &Callee, const CallBase &Call,
    function_ref<bool(const Value *)> ActiveOperand) const {
  uint64_t Mask = 0;
  SmallVector<ArgActivity, 8> Args;
  for (unsigned I = 0; I < Call.arg_size(); ++I) {
    bool On = ActiveOperand(Call.getArgOperand(I));
    Mask |= uint64_t(On) << I;
    Args.push_back(On ? ArgActivity::Dup : ArgActivity::Const);
  }
  auto Key = std::make_pair(&Callee, Mask);
  if (auto It = ReturnActivity.find(Key); It != ReturnActivity.end())
    return It->second;
  // Two functions deep at most (each level analyses its callee once per
  // pattern of active arguments); deeper, the result is taken as active.
  static thread_local unsigned Depth = 0;
  if (Depth >= 2)
    return true;
  ++Depth;
  ActivityAnalysis Inner(const_cast<Function &>(Callee), Args, Rules);
  --Depth;
  bool Result = false;
  for (const BasicBlock &BB : Callee)
    if (const auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator()))
      Result |= Ret->getReturnValue() && Inner.isActive(Ret->getReturnValue());
  ReturnActivity[Key] = Result;
  return Result;
}

bool ActivityAnalysis::argumentReceivesDerivatives(unsigned ArgNo) const {
  if (ArgNo >= F.arg_size() || !F.getArg(ArgNo)->getType()->isPointerTy())
    return false;
  auto ActiveOperand = [&](const Value *Op) {
    return Active.contains(Op) && !cleanStackPointer(Op);
  };
  return pointeeReceivesDerivatives(
      *F.getArg(ArgNo), [&](const Value *V) { return Active.contains(V); },
      [&](const CallBase &Own, unsigned No) {
        return ownCalleeReceives(Own, No, ActiveOperand);
      });
}

bool ActivityAnalysis::ownCalleeReceives(
    const CallBase &Call, unsigned ArgNo,
    function_ref<bool(const Value *)> ActiveOperand) const {
  const Function *Callee = Call.getCalledFunction();
  // (A recursive call: the walk that asks is already this function's.)
  if (!Callee || Callee->isDeclaration() || Callee->isVarArg() ||
      Callee == &F || Call.arg_size() != Callee->arg_size() ||
      Call.arg_size() > 64 || ArgNo >= Call.arg_size())
    return false;
  uint64_t Mask = 0;
  SmallVector<ArgActivity, 8> Args;
  for (unsigned I = 0; I < Call.arg_size(); ++I) {
    bool On = ActiveOperand(Call.getArgOperand(I));
    Mask |= uint64_t(On) << I;
    Args.push_back(On ? ArgActivity::Dup : ArgActivity::Const);
  }
  auto Key = std::make_tuple(Callee, Mask, ArgNo);
  if (auto It = ReceivingArgs.find(Key); It != ReceivingArgs.end())
    return It->second;
  // Three functions deep at most; deeper, the memory is taken as receiving
  // none (the derivatives made there find the missing shadow: an error at
  // the store, not a wrong number).
  static thread_local unsigned Depth = 0;
  if (Depth >= 3)
    return false;
  ++Depth;
  bool Result;
  {
    ActivityAnalysis Inner(const_cast<Function &>(*Callee), Args, Rules);
    Result = Inner.argumentReceivesDerivatives(ArgNo);
  }
  --Depth;
  ReceivingArgs[Key] = Result;
  return Result;
}

} // namespace adcore
