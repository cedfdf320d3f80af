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
// `adcc-integer-addresses`. In the copy, the pointer-sized integers that
// are elements moved (MovedElements: loaded through such a parameter,
// directly, through its -O0 slot, an index into the array or an iterator
// stepped through it; a marked integer parameter; read from a local slot
// that holds only elements) become pointers: each such load loads a
// pointer and turns it into the integer, each such slot holds pointers,
// and each store of an element stores the pointer: the same bits, which
// the engine follows as pointers, with their shadows. Calls in the copy
// that pass such memory, a slot of elements, or an element by value
// (`__make_heap` to `__adjust_heap` at -O0) call copies of their own
// callees when the copy is prepared in its turn.
//
//===----------------------------------------------------------------------===//

#include "Prepare.h"

#include "analysis/ActivityAnalysis.h"
#include "rules/GpuLaunches.h"
#include "rules/InactiveFunctions.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/AttributeMask.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace adcore {
namespace {

constexpr const char *IntegerAddressesAttr = "adcc-integer-addresses";

/// Marks the integers that are elements made pointers and back again.
constexpr const char *ElementMetadata = "adcc.integer.element";

/// How many values back a pointer is followed to a parameter.
constexpr unsigned BaseSteps = 6;

bool isMarked(const Argument &A) {
  return A.getParent()->getAttributes().hasParamAttr(A.getArgNo(),
                                                     IntegerAddressesAttr);
}

Type *intPtrType(const Module &M) {
  return M.getDataLayout().getIntPtrType(M.getContext());
}

bool recordHoldsMarked(const Value *Ptr, Type *IntPtr, unsigned Steps,
                       SmallPtrSetImpl<const AllocaInst *> &Visiting);

/// True when \p Ptr points into the memory a parameter of its function
/// marked `adcc-integer-addresses` points into: the parameter, an index
/// into pointer-sized integers from it, a call's result given one, or a
/// load of a local slot whose every store stores such a pointer (a
/// parameter's slot at -O0, an iterator stepped through the array: \p
/// Visiting, the slots whose stores are being looked at, are taken to).
bool intoMarkedMemory(const Value *Ptr, Type *IntPtr, unsigned Steps,
                      SmallPtrSetImpl<const AllocaInst *> &Visiting) {
  if (Steps == 0)
    return false;
  if (const auto *A = dyn_cast<Argument>(Ptr))
    return isMarked(*A) && A->getType()->isPointerTy();
  if (const auto *GEP = dyn_cast<GetElementPtrInst>(Ptr))
    return GEP->getSourceElementType() == IntPtr &&
           intoMarkedMemory(GEP->getPointerOperand(), IntPtr, Steps - 1,
                            Visiting);
  // (A pointer a call returns that was given one: std::min's reference,
  // the partition point of std::sort's partition; or given a local record
  // that holds one: `std::initializer_list::begin` at -O0.)
  if (const auto *Call = dyn_cast<CallBase>(Ptr))
    return any_of(Call->args(), [&](const Use &Arg) {
      return Arg->getType()->isPointerTy() &&
             (intoMarkedMemory(Arg.get(), IntPtr, Steps - 1, Visiting) ||
              recordHoldsMarked(Arg.get(), IntPtr, Steps - 1, Visiting));
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

/// True when \p Ptr is a local record (not an integer or an array of
/// them) into whose fields a pointer into marked memory is stored: the
/// `std::initializer_list` that `std::max({a, b, c})` builds at -O0.
bool recordHoldsMarked(const Value *Ptr, Type *IntPtr, unsigned Steps,
                       SmallPtrSetImpl<const AllocaInst *> &Visiting) {
  const auto *AI = dyn_cast<AllocaInst>(Ptr);
  if (!AI || !AI->getAllocatedType()->isStructTy())
    return false;
  auto StoresMarked = [&](const Value *Field) {
    return any_of(Field->users(), [&](const User *U) {
      const auto *SI = dyn_cast<StoreInst>(U);
      return SI && SI->getPointerOperand() == Field &&
             SI->getValueOperand()->getType()->isPointerTy() &&
             intoMarkedMemory(SI->getValueOperand(), IntPtr, Steps, Visiting);
    });
  };
  return StoresMarked(AI) || any_of(AI->users(), [&](const User *U) {
           const auto *GEP = dyn_cast<GetElementPtrInst>(U);
           return GEP && GEP->getPointerOperand() == AI && StoresMarked(GEP);
         });
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

/// The pointer-sized integers of a function with marked parameters that
/// are elements moved: loads through marked memory, marked integer
/// parameters (an element passed by value: `__value` in std::sort's heap
/// at -O0), and loads of local slots that hold only elements (`__tmp` in
/// std::swap at -O0); each only compared, stored into marked memory or
/// into such a slot, or passed by value to a function defined in the
/// module. Their shadows can move with them.
struct MovedElements {
  SmallPtrSet<LoadInst *, 8> Loads;
  SmallPtrSet<AllocaInst *, 4> Slots;
  /// The integers of calls to copies that return an element as a pointer
  /// (retarget), each only moved.
  SmallPtrSet<PtrToIntInst *, 4> Results;

  bool isElement(const Value *V) const {
    if (const auto *A = dyn_cast<Argument>(V))
      return isMarked(*A) && !A->getType()->isPointerTy();
    if (const auto *Bits = dyn_cast<PtrToIntInst>(V))
      return Results.contains(const_cast<PtrToIntInst *>(Bits));
    const auto *LI = dyn_cast<LoadInst>(V);
    if (!LI)
      return false;
    const auto *Slot = dyn_cast<AllocaInst>(LI->getPointerOperand());
    return Loads.contains(LI) ||
           (Slot && Slots.contains(const_cast<AllocaInst *>(Slot)));
  }

  /// True when every use of the element \p V moves it.
  bool onlyMoved(const Value *V, Type *IntPtr) const {
    return all_of(V->uses(), [&](const Use &U) {
      const User *W = U.getUser();
      if (isa<ICmpInst>(W))
        return true;
      // (Returned by value: the copy returns the pointer, when every value
      // it returns is an element; see returnElementsAsPointers.)
      if (isa<ReturnInst>(W))
        return cast<Instruction>(W)->getFunction()->getReturnType() == IntPtr;
      if (const auto *SI = dyn_cast<StoreInst>(W)) {
        const auto *Slot = dyn_cast<AllocaInst>(SI->getPointerOperand());
        return U.getOperandNo() == 0 &&
               ((Slot && Slots.contains(const_cast<AllocaInst *>(Slot))) ||
                intoMarkedMemory(SI->getPointerOperand(), IntPtr));
      }
      const auto *Call = dyn_cast<CallBase>(W);
      const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
      return Callee && !Callee->isDeclaration() && Call->isArgOperand(&U) &&
             Call->getFunctionType() == Callee->getFunctionType();
    });
  }

  MovedElements(Function &F, Type *IntPtr) {
    for (Instruction &I : instructions(F)) {
      if (auto *Bits = dyn_cast<PtrToIntInst>(&I);
          Bits && Bits->hasMetadata(ElementMetadata) &&
          isa<CallBase>(Bits->getPointerOperand()))
        Results.insert(Bits);
      if (auto *LI = dyn_cast<LoadInst>(&I);
          LI && LI->isSimple() && LI->getType() == IntPtr &&
          intoMarkedMemory(LI->getPointerOperand(), IntPtr))
        Loads.insert(LI);
      // (A slot only loaded, stored into, or passed by reference.)
      if (auto *AI = dyn_cast<AllocaInst>(&I);
          AI && AI->getAllocatedType() == IntPtr && !AI->isArrayAllocation() &&
          all_of(AI->uses(), [&](const Use &U) {
            const User *W = U.getUser();
            if (const auto *LI = dyn_cast<LoadInst>(W))
              return LI->isSimple();
            if (const auto *SI = dyn_cast<StoreInst>(W))
              return SI->isSimple() && U.getOperandNo() == 1;
            const auto *Call = dyn_cast<CallBase>(W);
            return Call && Call->isArgOperand(&U);
          }))
        Slots.insert(AI);
    }
    // What is not an element is taken out until none is.
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (PtrToIntInst *Bits :
           SmallVector<PtrToIntInst *, 4>(Results.begin(), Results.end()))
        if (!onlyMoved(Bits, IntPtr))
          Changed |= Results.erase(Bits);
      for (LoadInst *LI :
           SmallVector<LoadInst *, 8>(Loads.begin(), Loads.end()))
        if (!onlyMoved(LI, IntPtr))
          Changed |= Loads.erase(LI);
      for (AllocaInst *AI :
           SmallVector<AllocaInst *, 4>(Slots.begin(), Slots.end())) {
        bool Holds = false, Moved = true;
        for (const User *U : AI->users()) {
          if (const auto *SI = dyn_cast<StoreInst>(U)) {
            Holds = true;
            Moved &= isElement(SI->getValueOperand());
          } else if (isa<LoadInst>(U)) {
            Moved &= onlyMoved(U, IntPtr);
          }
        }
        if (!Holds || !Moved)
          Changed |= Slots.erase(AI);
      }
    }
  }
};

/// Rewrites the elements of \p F (MovedElements) as pointers: each load a
/// load of a pointer made an integer, each slot one of pointers, each store
/// into marked memory or a slot a store of a pointer. Returns whether it
/// changed \p F.
bool accessAsPointers(Function &F) {
  if (none_of(F.args(), isMarked))
    return false;
  Type *IntPtr = intPtrType(*F.getParent());
  Type *Ptr = PointerType::getUnqual(F.getContext());
  MovedElements E(F, IntPtr);
  // (A marked integer parameter once rewritten is only made a pointer.)
  auto Unrewritten = [&](Argument &A) {
    return E.isElement(&A) && A.getType() == IntPtr &&
           any_of(A.users(),
                  [](const User *U) { return !isa<IntToPtrInst>(U); });
  };
  if (E.Loads.empty() && E.Slots.empty() && E.Results.empty() &&
      none_of(F.args(), Unrewritten))
    return false;
  LLVMContext &C = F.getContext();
  MDNode *Mark = MDNode::get(C, {});
  // The slots first: their allocas hold pointers.
  DenseMap<AllocaInst *, AllocaInst *> NewSlot;
  for (AllocaInst *AI : E.Slots) {
    auto *New =
        new AllocaInst(Ptr, AI->getAddressSpace(), nullptr, AI->getAlign(),
                       AI->getName() + ".address", AI->getIterator());
    New->setDebugLoc(AI->getDebugLoc());
    New->setMetadata(ElementMetadata, Mark);
    NewSlot[AI] = New;
  }
  // Each element's pointer, and the integer the other uses get.
  DenseMap<Value *, Value *> AsPtr;
  for (PtrToIntInst *Bits : E.Results)
    AsPtr[Bits] = Bits->getPointerOperand();
  SmallVector<Instruction *, 8> Old;
  for (Instruction &I : instructions(F)) {
    auto *LI = dyn_cast<LoadInst>(&I);
    if (!LI || !E.isElement(LI))
      continue;
    Value *From = LI->getPointerOperand();
    if (auto *AI = dyn_cast<AllocaInst>(From); AI && NewSlot.count(AI))
      From = NewSlot[AI];
    auto *P = new LoadInst(Ptr, From, LI->getName() + ".address", false,
                           LI->getAlign(), LI->getIterator());
    P->setDebugLoc(LI->getDebugLoc());
    AsPtr[LI] = P;
    Old.push_back(LI);
  }
  BasicBlock::iterator Entry = F.getEntryBlock().getFirstInsertionPt();
  for (Argument &A : F.args())
    if (Unrewritten(A)) {
      auto *P = new IntToPtrInst(&A, Ptr, A.getName() + ".address", Entry);
      AsPtr[&A] = P;
    }
  // Stores of elements into marked memory or slots store the pointers.
  SmallVector<StoreInst *, 8> Stores;
  for (Instruction &I : instructions(F))
    if (auto *SI = dyn_cast<StoreInst>(&I);
        SI && SI->getValueOperand()->getType() == IntPtr &&
        E.isElement(SI->getValueOperand()))
      Stores.push_back(SI);
  for (StoreInst *SI : Stores) {
    Value *To = SI->getPointerOperand();
    if (auto *AI = dyn_cast<AllocaInst>(To); AI && NewSlot.count(AI))
      To = NewSlot[AI];
    auto *New = new StoreInst(AsPtr.lookup(SI->getValueOperand()), To, false,
                              SI->getAlign(), SI->getIterator());
    New->setDebugLoc(SI->getDebugLoc());
    SI->eraseFromParent();
  }
  // (Without the TBAA that named the integer.)
  for (Instruction *I : Old) {
    auto *Bits =
        new PtrToIntInst(AsPtr[I], IntPtr, I->getName(),
                         std::next(cast<Instruction>(AsPtr[I])->getIterator()));
    Bits->setDebugLoc(I->getDebugLoc());
    Bits->setMetadata(ElementMetadata, Mark);
    I->replaceAllUsesWith(Bits);
    I->eraseFromParent();
  }
  for (Argument &A : F.args())
    if (Value *P = AsPtr.lookup(&A)) {
      auto *Bits =
          new PtrToIntInst(P, IntPtr, A.getName() + ".element",
                           std::next(cast<Instruction>(P)->getIterator()));
      Bits->setMetadata(ElementMetadata, Mark);
      A.replaceUsesWithIf(Bits, [&](Use &U) { return U.getUser() != P; });
    }
  for (auto [AI, New] : NewSlot) {
    AI->replaceAllUsesWith(New);
    AI->eraseFromParent();
  }
  return true;
}

/// The arguments of \p Call (bit i: argument i) that point into memory
/// holding addresses as integers (a local variable or array of the caller
/// that holds them, memory a marked parameter points into, a slot of
/// elements), or are elements passed by value.
uint64_t integerAddressArguments(const CallBase &Call, Type *IntPtr) {
  uint64_t Bits = 0;
  for (unsigned I = 0; I < Call.arg_size() && I < 64; ++I) {
    const Value *A = Call.getArgOperand(I);
    // (The array of a local `std::initializer_list`, read from it.)
    if (const auto *LI = dyn_cast<LoadInst>(A))
      if (const Value *Field = localFieldPointer(*LI))
        A = Field;
    const auto *AI = dyn_cast<AllocaInst>(A);
    const auto *Arg = dyn_cast<Argument>(A);
    const auto *Inst = dyn_cast<Instruction>(A);
    if ((A->getType()->isPointerTy() &&
         (localHoldsAddresses(A) || localReceivesAddresses(A) ||
          intoMarkedMemory(A, IntPtr) ||
          (AI && AI->hasMetadata(ElementMetadata)))) ||
        (A->getType() == IntPtr &&
         ((Inst && Inst->hasMetadata(ElementMetadata)) ||
          (Arg && isMarked(*Arg)))))
      Bits |= uint64_t(1) << I;
  }
  return Bits;
}

/// True when \p Call's callee may be called through an internal copy:
/// defined here, called directly, with no rule of its own.
bool mayCopyCallee(const CallBase &Call,
                   function_ref<bool(const Function &)> HasRule) {
  const Function *Callee = Call.getCalledFunction();
  return Callee && !Callee->isDeclaration() && !Callee->isInterposable() &&
         !Callee->isVarArg() && !Callee->isIntrinsic() &&
         !Call.isMustTailCall() && !Call.hasOperandBundles() &&
         Call.getFunctionType() == Callee->getFunctionType() &&
         !isKnownInactiveFunction(*Callee) && !HasRule(*Callee) &&
         gpuLaunchKind(*Callee).empty() &&
         // (Already a copy: its parameters are marked.)
         none_of(Callee->args(), isMarked);
}

AttributeList withoutPointerIncompatible(LLVMContext &C, AttributeList Attrs) {
  AttributeMask Bad = AttributeFuncs::typeIncompatible(
      PointerType::getUnqual(C), Attrs.getRetAttrs());
  return Attrs.removeRetAttributes(C, Bad);
}

/// Makes \p Call call \p Copy. Where the copy returns as a pointer the
/// element its callee returns as an integer (returnElementsAsPointers),
/// the call is made anew, and its pointer made the integer again, marked
/// as an element, for the call's users.
void retarget(CallBase &Call, Function &Copy) {
  if (Call.getType() == Copy.getReturnType()) {
    Call.setCalledFunction(&Copy);
    return;
  }
  LLVMContext &C = Call.getContext();
  SmallVector<Value *, 8> Args(Call.args());
  CallBase *New;
  BasicBlock::iterator After;
  if (auto *Invoke = dyn_cast<InvokeInst>(&Call)) {
    // (The integer in a block of its own on the normal edge: the normal
    // destination may have other predecessors and phis of the result.)
    BasicBlock *Normal = Invoke->getNormalDest();
    BasicBlock *Edge = BasicBlock::Create(C, Normal->getName() + ".element",
                                          Normal->getParent(), Normal);
    BranchInst::Create(Normal, Edge);
    Normal->replacePhiUsesWith(Invoke->getParent(), Edge);
    New = InvokeInst::Create(Copy.getFunctionType(), &Copy, Edge,
                             Invoke->getUnwindDest(), Args, {}, "",
                             Call.getIterator());
    After = Edge->getFirstInsertionPt();
  } else {
    auto *NewCall = CallInst::Create(Copy.getFunctionType(), &Copy, Args, {},
                                     "", Call.getIterator());
    NewCall->setTailCallKind(cast<CallInst>(Call).getTailCallKind());
    New = NewCall;
    After = std::next(Call.getIterator());
  }
  New->takeName(&Call);
  New->setCallingConv(Call.getCallingConv());
  New->setAttributes(withoutPointerIncompatible(C, Call.getAttributes()));
  New->copyMetadata(Call);
  auto *Bits =
      new PtrToIntInst(New, Call.getType(), New->getName() + ".element", After);
  Bits->setDebugLoc(Call.getDebugLoc());
  Bits->setMetadata(ElementMetadata, MDNode::get(C, {}));
  Call.replaceAllUsesWith(Bits);
  Call.eraseFromParent();
}

/// Where every value the copy \p Copy returns is an element made an
/// integer (accessAsPointers), and nothing calls it yet, replaces it by a
/// copy that returns the pointers: an element returned by value
/// (`std::exchange`, `std::max` of an initializer list at -O0) then moves
/// its shadow as a returned pointer does. Returns the copy.
Function *returnElementsAsPointers(Function *Copy) {
  Module &M = *Copy->getParent();
  LLVMContext &C = M.getContext();
  if (Copy->getReturnType() != intPtrType(M) || !Copy->use_empty())
    return Copy;
  SmallVector<ReturnInst *, 2> Returns;
  for (BasicBlock &BB : *Copy)
    if (auto *Ret = dyn_cast_or_null<ReturnInst>(BB.getTerminator())) {
      const auto *Bits = dyn_cast<PtrToIntInst>(Ret->getReturnValue());
      if (!Bits || !Bits->hasMetadata(ElementMetadata))
        return Copy;
      Returns.push_back(Ret);
    }
  if (Returns.empty())
    return Copy;
  auto *Type = FunctionType::get(PointerType::getUnqual(C),
                                 Copy->getFunctionType()->params(), false);
  Function *New = Function::Create(Type, Copy->getLinkage(),
                                   Copy->getAddressSpace(), "", &M);
  New->copyAttributesFrom(Copy);
  New->setAttributes(withoutPointerIncompatible(C, Copy->getAttributes()));
  New->copyMetadata(Copy, 0);
  New->splice(New->begin(), Copy);
  for (auto [From, To] : zip(Copy->args(), New->args())) {
    To.takeName(&From);
    From.replaceAllUsesWith(&To);
  }
  for (ReturnInst *Ret : Returns) {
    Value *P = cast<PtrToIntInst>(Ret->getReturnValue())->getPointerOperand();
    ReturnInst::Create(C, P, Ret->getIterator())
        ->setDebugLoc(Ret->getDebugLoc());
    Ret->eraseFromParent();
  }
  New->takeName(Copy);
  Copy->eraseFromParent();
  return New;
}

/// The internal copy of \p F whose parameters \p Bits are marked, their
/// integer accesses made pointer accesses; null where the copy would
/// change nothing (\p F moves no integers through them, and passes them to
/// no call). Calls in the copy whose integer result may be an element
/// call copies of their own at once: the copy may then return it as a
/// pointer.
Function *integerAddressCopy(Function &F, uint64_t Bits,
                             function_ref<bool(const Function &)> HasRule) {
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
  SmallVector<CallBase *, 4> Results;
  for (Instruction &I : instructions(*Copy))
    if (auto *Call = dyn_cast<CallBase>(&I);
        Call && Call->getType() == IntPtr && mayCopyCallee(*Call, HasRule))
      Results.push_back(Call);
  for (CallBase *Call : Results)
    if (uint64_t Inner = integerAddressArguments(*Call, IntPtr))
      if (Function *Callee =
              integerAddressCopy(*Call->getCalledFunction(), Inner, HasRule))
        retarget(*Call, *Callee);
  bool Changes = accessAsPointers(*Copy);
  for (Instruction &I : instructions(*Copy))
    if (auto *Call = dyn_cast<CallBase>(&I))
      Changes |= integerAddressArguments(*Call, IntPtr) != 0;
  if (!Changes) {
    Copy->eraseFromParent();
    return nullptr;
  }
  return returnElementsAsPointers(Copy);
}

} // namespace

bool passIntegerAddressesAsPointers(
    Function &F, function_ref<bool(const Function &)> HasRule) {
  bool Changed = accessAsPointers(F);
  Type *IntPtr = intPtrType(*F.getParent());
  SmallVector<std::pair<CallBase *, uint64_t>, 4> Calls;
  for (Instruction &I : instructions(F)) {
    auto *Call = dyn_cast<CallBase>(&I);
    if (!Call || !mayCopyCallee(*Call, HasRule))
      continue;
    if (uint64_t Bits = integerAddressArguments(*Call, IntPtr))
      Calls.push_back({Call, Bits});
  }
  for (auto [Call, Bits] : Calls)
    if (Function *Copy =
            integerAddressCopy(*Call->getCalledFunction(), Bits, HasRule)) {
      retarget(*Call, *Copy);
      Changed = true;
    }
  return Changed;
}

} // namespace adcore
