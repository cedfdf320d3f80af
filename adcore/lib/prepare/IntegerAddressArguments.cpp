//===- IntegerAddressArguments.cpp - Integer addresses by reference -------===//
//
// A local integer variable or array that holds addresses (`uintptr_t a =
// (uintptr_t)x;`, read back as `(double *)a`) has a shadow holding the
// shadows' addresses, and the caller's own loads and stores of it move
// that shadow (analysis/ActivityIntegers.cpp). Passed by reference to a
// function that does not inline, the integers are moved by the callee,
// which sees numbers: `std::swap<unsigned long>(unsigned long &, unsigned
// long &)` at -O0, a `void xchg(uintptr_t *a, uintptr_t *b)` of the
// program at any level, std::exchange, std::iter_swap, std::min of
// `uintptr_t`. Its integer loads and stores of them would move no shadow,
// and the derivatives read through the exchanged addresses would be
// those of the others, without a word (until 2026-12-07).
//
// Each such call calls an internal copy of its callee instead, whose
// parameters that receive such memory carry the attribute
// `adcc-integer-addresses`. In the copy, each pointer-sized integer load
// through such a parameter (directly, through its -O0 slot, or an index
// into an array of pointer-sized integers) loads a pointer and turns it
// into the integer, and each such store stores the integer made a pointer:
// the same bits, which the engine follows as pointers, with their shadows.
// Calls in the copy that pass such a parameter on call copies of their
// own callees when the copy is prepared in its turn.
//
//===----------------------------------------------------------------------===//

#include "Prepare.h"

#include "analysis/ActivityAnalysis.h"
#include "rules/GpuLaunches.h"
#include "rules/InactiveFunctions.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace adcore {
namespace {

constexpr const char *IntegerAddressesAttr = "adcc-integer-addresses";

/// How many values back a pointer is followed to a parameter.
constexpr unsigned BaseSteps = 6;

bool isMarked(const Argument &A) {
  return A.getParent()->getAttributes().hasParamAttr(A.getArgNo(),
                                                     IntegerAddressesAttr);
}

Type *intPtrType(const Module &M) {
  return M.getDataLayout().getIntPtrType(M.getContext());
}

/// True when \p Ptr points into the memory a parameter of its function
/// marked `adcc-integer-addresses` points into: the parameter, an index
/// into pointer-sized integers from it, a call's result given one, or a
/// load of a local slot whose
/// every store stores such a pointer (a parameter's slot at -O0, an
/// iterator stepped through the array: \p Visiting, the slots whose
/// stores are being looked at, are taken to).
bool intoMarkedMemory(const Value *Ptr, Type *IntPtr, unsigned Steps,
                      SmallPtrSetImpl<const AllocaInst *> &Visiting) {
  if (Steps == 0)
    return false;
  if (const auto *A = dyn_cast<Argument>(Ptr))
    return isMarked(*A);
  if (const auto *GEP = dyn_cast<GetElementPtrInst>(Ptr))
    return GEP->getSourceElementType() == IntPtr &&
           intoMarkedMemory(GEP->getPointerOperand(), IntPtr, Steps - 1,
                            Visiting);
  // (A pointer a call returns that was given one: std::min's reference,
  // the partition point of std::sort's partition.)
  if (const auto *Call = dyn_cast<CallBase>(Ptr))
    return any_of(Call->args(), [&](const Use &Arg) {
      return Arg->getType()->isPointerTy() &&
             intoMarkedMemory(Arg.get(), IntPtr, Steps - 1, Visiting);
    });
  const auto *LI = dyn_cast<LoadInst>(Ptr);
  const auto *Slot =
      LI ? dyn_cast<AllocaInst>(LI->getPointerOperand()) : nullptr;
  if (!Slot || !LI->getType()->isPointerTy())
    return false;
  if (!Visiting.insert(Slot).second)
    return true;
  bool Stored = false;
  for (const User *U : Slot->users()) {
    if (isa<LoadInst>(U))
      continue;
    const auto *SI = dyn_cast<StoreInst>(U);
    if (!SI || SI->getPointerOperand() != Slot ||
        !intoMarkedMemory(SI->getValueOperand(), IntPtr, Steps - 1, Visiting)) {
      Visiting.erase(Slot);
      return false;
    }
    Stored = true;
  }
  Visiting.erase(Slot);
  return Stored;
}

bool intoMarkedMemory(const Value *Ptr, Type *IntPtr) {
  const Function *F = nullptr;
  if (const auto *A = dyn_cast<Argument>(Ptr))
    F = A->getParent();
  else if (const auto *I = dyn_cast<Instruction>(Ptr))
    F = I->getFunction();
  if (!F || none_of(F->args(), isMarked))
    return false;
  SmallPtrSet<const AllocaInst *, 4> Visiting;
  return intoMarkedMemory(Ptr, IntPtr, BaseSteps, Visiting);
}

/// True when the integer \p V is only compared, or stored into marked
/// memory or into local slots whose loads are in turn (`__tmp` in
/// std::swap at -O0), \p Depth slots deep: an element moved, whose shadow
/// can move with it. (Not one passed on by value, `__value` in the heap of
/// std::sort at -O0: that integer parameter has no shadow to take it.)
bool onlyMoved(const Value *V, Type *IntPtr, unsigned Depth,
               SmallPtrSetImpl<const Value *> &Seen) {
  if (!Seen.insert(V).second)
    return true;
  for (const User *U : V->users()) {
    if (isa<ICmpInst>(U))
      continue;
    const auto *SI = dyn_cast<StoreInst>(U);
    if (!SI || SI->getValueOperand() != V)
      return false;
    if (intoMarkedMemory(SI->getPointerOperand(), IntPtr))
      continue;
    const auto *Slot = dyn_cast<AllocaInst>(SI->getPointerOperand());
    if (!Slot || Depth == 0)
      return false;
    for (const User *SU : Slot->users()) {
      if (isa<LoadInst>(SU) && !onlyMoved(SU, IntPtr, Depth - 1, Seen))
        return false;
      if (!isa<LoadInst, StoreInst>(SU) ||
          (isa<StoreInst>(SU) &&
           cast<StoreInst>(SU)->getPointerOperand() != Slot))
        return false;
    }
  }
  return true;
}

/// True when \p V is one of \p Loads, or a load of a local slot into which
/// only those are stored.
bool isMovedLoad(const Value *V, const SmallPtrSetImpl<const Value *> &Loads) {
  if (Loads.contains(V))
    return true;
  const auto *LI = dyn_cast<LoadInst>(V);
  const auto *Slot =
      LI ? dyn_cast<AllocaInst>(LI->getPointerOperand()) : nullptr;
  if (!Slot)
    return false;
  bool Stored = false;
  for (const User *U : Slot->users())
    if (const auto *SI = dyn_cast<StoreInst>(U);
        SI && SI->getPointerOperand() == Slot) {
      if (!Loads.contains(SI->getValueOperand()))
        return false;
      Stored = true;
    }
  return Stored;
}

/// Rewrites the pointer-sized integer loads and stores of \p F through
/// its marked parameters that move elements (onlyMoved, isMovedLoad) as
/// loads and stores of pointers. Returns whether it changed \p F.
bool accessAsPointers(Function &F) {
  if (none_of(F.args(), isMarked))
    return false;
  Type *IntPtr = intPtrType(*F.getParent());
  Type *Ptr = PointerType::getUnqual(F.getContext());
  SmallPtrSet<const Value *, 8> Loads;
  SmallVector<Instruction *, 8> Accesses;
  for (Instruction &I : instructions(F))
    if (auto *LI = dyn_cast<LoadInst>(&I);
        LI && LI->isSimple() && LI->getType() == IntPtr &&
        intoMarkedMemory(LI->getPointerOperand(), IntPtr)) {
      SmallPtrSet<const Value *, 8> Seen;
      if (onlyMoved(LI, IntPtr, 2, Seen) && Loads.insert(LI).second)
        Accesses.push_back(LI);
    }
  for (Instruction &I : instructions(F))
    if (auto *SI = dyn_cast<StoreInst>(&I);
        SI && SI->isSimple() && SI->getValueOperand()->getType() == IntPtr &&
        isMovedLoad(SI->getValueOperand(), Loads) &&
        intoMarkedMemory(SI->getPointerOperand(), IntPtr))
      Accesses.push_back(SI);
  for (Instruction *I : Accesses) {
    // (Without the TBAA that named the integer.)
    if (auto *LI = dyn_cast<LoadInst>(I)) {
      auto *P =
          new LoadInst(Ptr, LI->getPointerOperand(), LI->getName() + ".address",
                       false, LI->getAlign(), LI->getIterator());
      P->setDebugLoc(LI->getDebugLoc());
      auto *Bits =
          new PtrToIntInst(P, IntPtr, LI->getName(), LI->getIterator());
      Bits->setDebugLoc(LI->getDebugLoc());
      LI->replaceAllUsesWith(Bits);
      LI->eraseFromParent();
      continue;
    }
    auto *SI = cast<StoreInst>(I);
    auto *P = new IntToPtrInst(SI->getValueOperand(), Ptr,
                               SI->getValueOperand()->getName() + ".address",
                               SI->getIterator());
    P->setDebugLoc(SI->getDebugLoc());
    auto *New = new StoreInst(P, SI->getPointerOperand(), false, SI->getAlign(),
                              SI->getIterator());
    New->setDebugLoc(SI->getDebugLoc());
    SI->eraseFromParent();
  }
  return !Accesses.empty();
}

/// The arguments of \p Call (bit i: argument i) that point into memory
/// holding addresses as integers: a local variable or array of the caller
/// that holds them, or memory a marked parameter points into.
uint64_t integerAddressArguments(const CallBase &Call, Type *IntPtr) {
  uint64_t Bits = 0;
  for (unsigned I = 0; I < Call.arg_size() && I < 64; ++I) {
    const Value *A = Call.getArgOperand(I);
    if (A->getType()->isPointerTy() &&
        (localHoldsAddresses(A) || intoMarkedMemory(A, IntPtr)))
      Bits |= uint64_t(1) << I;
  }
  return Bits;
}

/// The internal copy of \p F whose parameters \p Bits are marked, their
/// integer accesses made pointer accesses; null where the copy would
/// change nothing (\p F moves no integers through them, and passes them to
/// no call).
Function *integerAddressCopy(Function &F, uint64_t Bits) {
  Module &M = *F.getParent();
  std::string Name = (F.getName() + ".intaddr." + Twine::utohexstr(Bits)).str();
  if (Function *Copy = M.getFunction(Name))
    return Copy;
  ValueToValueMapTy VMap;
  Function *Copy = CloneFunction(&F, VMap);
  Copy->setName(Name);
  Copy->setLinkage(GlobalValue::InternalLinkage);
  Copy->setVisibility(GlobalValue::DefaultVisibility);
  Copy->setComdat(nullptr);
  for (Argument &A : Copy->args())
    if (Bits >> A.getArgNo() & 1)
      Copy->addParamAttr(A.getArgNo(),
                         Attribute::get(F.getContext(), IntegerAddressesAttr));
  Type *IntPtr = intPtrType(M);
  bool Changes = accessAsPointers(*Copy);
  for (Instruction &I : instructions(*Copy))
    if (auto *Call = dyn_cast<CallBase>(&I))
      Changes |= integerAddressArguments(*Call, IntPtr) != 0;
  if (!Changes) {
    Copy->eraseFromParent();
    return nullptr;
  }
  return Copy;
}

} // namespace

bool passIntegerAddressesAsPointers(
    Function &F, function_ref<bool(const Function &)> HasRule) {
  bool Changed = accessAsPointers(F);
  Type *IntPtr = intPtrType(*F.getParent());
  SmallVector<std::pair<CallBase *, uint64_t>, 4> Calls;
  for (Instruction &I : instructions(F)) {
    auto *Call = dyn_cast<CallBase>(&I);
    Function *Callee = Call ? Call->getCalledFunction() : nullptr;
    if (!Callee || Callee->isDeclaration() || Callee->isInterposable() ||
        Callee->isVarArg() || Callee->isIntrinsic() || Call->isMustTailCall() ||
        Call->hasOperandBundles() ||
        Call->getFunctionType() != Callee->getFunctionType() ||
        isKnownInactiveFunction(*Callee) || HasRule(*Callee) ||
        !gpuLaunchKind(*Callee).empty())
      continue;
    if (uint64_t Bits = integerAddressArguments(*Call, IntPtr))
      Calls.push_back({Call, Bits});
  }
  for (auto [Call, Bits] : Calls)
    if (Function *Copy = integerAddressCopy(*Call->getCalledFunction(), Bits)) {
      Call->setCalledFunction(Copy);
      Changed = true;
    }
  return Changed;
}

} // namespace adcore
