//===- analysis/LibraryObjects.cpp - Objects of inactive classes ---------===//

#include "LibraryObjects.h"
#include "rules/InactiveFunctions.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {
namespace {

/// True when \p F is a constructor or destructor of a class whose functions
/// are known inactive (`std::basic_filebuf<char>::basic_filebuf()`).
bool isInactiveStructor(const Function &F) {
  if (!isKnownInactiveFunction(F))
    return false;
  ItaniumPartialDemangler D;
  return !D.partialDemangle(F.getName().str().c_str()) && D.isCtorOrDtor();
}

/// True when a store gives \p Obj (or a base within it) a virtual table
/// this module defines: the program's class derived from a library class,
/// whose constructor, inlined, stores its own table after the base's.
bool receivesOwnVirtualTable(const Value *Obj, unsigned Depth = 3) {
  for (const User *U : Obj->users()) {
    if (isa<GetElementPtrInst>(U) && Depth > 0 &&
        receivesOwnVirtualTable(U, Depth - 1))
      return true;
    const auto *SI = dyn_cast<StoreInst>(U);
    if (!SI || SI->getPointerOperand() != Obj)
      continue;
    const auto *GV =
        dyn_cast<GlobalVariable>(getUnderlyingObject(SI->getValueOperand()));
    if (GV && GV->getName().starts_with("_ZTV") && !GV->isDeclaration())
      return true;
  }
  return false;
}

/// The object a pointer kept in a local variable at -O0 points to (every
/// address stored in the variable has one underlying object), else \p Obj.
const Value *throughSlot(const Value *Obj) {
  const auto *LI = dyn_cast<LoadInst>(Obj);
  const auto *Slot =
      LI ? dyn_cast<AllocaInst>(getUnderlyingObject(LI->getPointerOperand()))
         : nullptr;
  if (!Slot || !Slot->getAllocatedType()->isPointerTy())
    return Obj;
  const Value *Stored = nullptr;
  for (const User *U : Slot->users()) {
    if (isa<LoadInst>(U))
      continue;
    const auto *SI = dyn_cast<StoreInst>(U);
    if (!SI || SI->getPointerOperand() != Slot)
      return Obj;
    const Value *V = getUnderlyingObject(SI->getValueOperand());
    if (Stored && V != Stored)
      return Obj;
    Stored = V;
  }
  return Stored ? Stored : Obj;
}

/// True when \p T is a class whose first base (its first field, at any
/// depth) is a library class that holds no derivatives, and that is not
/// one itself: a class the program derives from std::streambuf.
bool derivesFromLibraryClass(const Type *T) {
  if (isKnownInactiveType(T))
    return false;
  for (const auto *ST = dyn_cast<StructType>(T); ST && ST->getNumElements() > 0;
       ST = dyn_cast<StructType>(ST->getElementType(0)))
    if (isKnownInactiveType(ST->getElementType(0)))
      return true;
  return false;
}

/// True when \p Obj is given to a function of this module (the program's
/// constructor, not inlined) that constructs a library class at its first
/// argument: a block from `new Tee(...)` whose class derives from one.
bool constructedAsDerivedClass(const Value *Obj) {
  for (const User *U : Obj->users()) {
    const auto *Call = dyn_cast<CallBase>(U);
    const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
    if (!Callee || Callee->isDeclaration() || Callee->arg_size() == 0 ||
        Call->arg_size() == 0 || Call->getArgOperand(0) != Obj)
      continue;
    // (At -O0 `this` is kept in a local variable first.)
    const Argument *This = Callee->getArg(0);
    for (const BasicBlock &BB : *Callee)
      for (const Instruction &I : BB) {
        const auto *Base = dyn_cast<CallBase>(&I);
        const Function *BaseCtor = Base ? Base->getCalledFunction() : nullptr;
        if (BaseCtor && Base->arg_size() > 0 && isInactiveStructor(*BaseCtor) &&
            throughSlot(getUnderlyingObject(Base->getArgOperand(0))) == This)
          return true;
      }
  }
  return false;
}

bool madeAsLibraryObject(const Value *Obj) {
  if (const auto *AI = dyn_cast<AllocaInst>(Obj);
      AI && isKnownInactiveType(AI->getAllocatedType()))
    return true;
  if (isa<Argument, GlobalValue>(Obj) || receivesOwnVirtualTable(Obj))
    return false;
  for (const User *U : Obj->users()) {
    const auto *Call = dyn_cast<CallBase>(U);
    const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
    if (Callee && Call->arg_size() > 0 && Call->getArgOperand(0) == Obj &&
        isInactiveStructor(*Callee))
      return true;
  }
  return false;
}

} // namespace

bool isInactiveLibraryObject(const Value *Ptr) {
  return Ptr && Ptr->getType()->isPointerTy() &&
         madeAsLibraryObject(throughSlot(getUnderlyingObject(Ptr)));
}

bool callsProgramOverrides(const CallBase &Call,
                           function_ref<bool(const Value *)> HasDerivative) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || Call.arg_size() == 0 ||
      !Call.getArgOperand(0)->getType()->isPointerTy() ||
      !isKnownInactiveFunction(*Callee) ||
      none_of(Call.args(),
              [&](const Use &U) { return HasDerivative(U.get()); }))
    return false;
  if (isInactiveStructor(*Callee))
    return false;
  // (`this` is the object itself, not a member: std::locale's constructor
  // on the stream buffer's locale.)
  const DataLayout &DL = Call.getModule()->getDataLayout();
  APInt Offset(DL.getIndexTypeSizeInBits(Call.getArgOperand(0)->getType()), 0);
  const Value *Base =
      Call.getArgOperand(0)->stripAndAccumulateInBoundsConstantOffsets(DL,
                                                                       Offset);
  if (!Offset.isZero())
    return false;
  const Value *Obj = throughSlot(getUnderlyingObject(Base));
  if (const auto *AI = dyn_cast<AllocaInst>(Obj))
    return derivesFromLibraryClass(AI->getAllocatedType());
  return constructedAsDerivedClass(Obj);
}

std::string programOverridesError(StringRef Callee) {
  return ("the C++ library's '" + Callee +
          "' is called on an object of a class this program derives from "
          "a library stream buffer or stream, whose virtual functions it "
          "calls; a derivative passed to it would not reach them (adcc "
          "keeps the library's call as it is): call the derived class's "
          "function directly, or compile with -O1 or higher, where the "
          "library's function is inlined")
      .str();
}

bool isInactiveLibraryVirtualCall(const CallBase &Call) {
  if (Call.getCalledFunction() || Call.isInlineAsm() || Call.arg_size() == 0)
    return false;
  // The callee is read from the virtual table read from the object:
  // load (gep (load this)).
  const auto *Slot = dyn_cast<LoadInst>(Call.getCalledOperand());
  if (!Slot)
    return false;
  const auto *Table =
      dyn_cast<LoadInst>(getUnderlyingObject(Slot->getPointerOperand()));
  if (!Table)
    return false;
  const Value *This = Call.getArgOperand(0);
  return getUnderlyingObject(Table->getPointerOperand()) ==
             getUnderlyingObject(This) &&
         isInactiveLibraryObject(This);
}

} // namespace adcore
