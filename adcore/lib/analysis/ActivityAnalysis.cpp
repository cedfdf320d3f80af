//===- ActivityAnalysis.cpp - Which values carry derivatives -------------===//
//
// The fixed point over the function's values and local memory, the
// transfer function of each instruction, and the printer. The rules for
// calls are in ActivityCalls.cpp, those for integers (the bits of floats
// and addresses) in ActivityIntegers.cpp, local memory that may hold
// derivatives in ActivityMemory.cpp and HeapRoots.cpp.
//
//===----------------------------------------------------------------------===//

#include "ActivityAnalysis.h"
#include "ActivityIntegers.h"
#include "LibraryObjects.h"
#include "TypeAnalysis.h"
#include "rules/CustomRules.h"
#include "rules/InactiveFunctions.h"
#include "support/IRMarks.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace adcore {

bool canCarryDerivative(const Type *T) {
  if (T->isFPOrFPVectorTy() || T->isPtrOrPtrVectorTy())
    return true;
  if (auto *AT = dyn_cast<ArrayType>(T))
    return canCarryDerivative(AT->getElementType());
  if (auto *ST = dyn_cast<StructType>(T))
    return any_of(ST->elements(),
                  [](Type *E) { return canCarryDerivative(E); });
  return false;
}

namespace {

/// The function whose integer result \p U stores into \p Slot (`long u =
/// bits_of(x);` at -O0), or null.
Function *storedResultOf(const User &U, const AllocaInst &Slot) {
  const auto *S = dyn_cast<StoreInst>(&U);
  if (!S || S->getPointerOperand() != &Slot ||
      !S->getValueOperand()->getType()->isIntOrIntVectorTy())
    return nullptr;
  const auto *Call = dyn_cast<CallBase>(S->getValueOperand());
  return Call ? Call->getCalledFunction() : nullptr;
}

} // namespace

bool ActivityAnalysis::anyOperandActive(const User &U) const {
  return any_of(U.operands(),
                [&](const Use &Op) { return Active.contains(Op.get()); });
}

bool ActivityAnalysis::receivesWholeFloatBits(const StoreInst &SI) const {
  const Value *V = SI.getValueOperand();
  auto *IT = dyn_cast<IntegerType>(V->getType());
  if (!IT || (IT->getBitWidth() != 32 && IT->getBitWidth() != 64) ||
      !Active.contains(V))
    return false;
  if (const auto *BC = dyn_cast<BitCastInst>(V))
    return BC->getSrcTy()->isFloatingPointTy();
  const auto *LI = dyn_cast<LoadInst>(V);
  return LI && !addressBase(LI, 4);
}

bool ActivityAnalysis::transfer(const Value &V) const {
  const auto *I = dyn_cast<Instruction>(&V);
  if (!I || I->hasMetadata(NoDerivativeMetadata))
    return false;
  Type *T = I->getType();

  // (A byte buffer, `alloca(n)` or a variable-length array, may hold
  // anything, as a block from malloc may.)
  // (A local stream or stream buffer of the C++ library holds none.)
  if (auto *AI = dyn_cast<AllocaInst>(I);
      AI && isKnownInactiveType(AI->getAllocatedType()))
    return false;
  if (auto *AI = dyn_cast<AllocaInst>(I))
    return canCarryDerivative(AI->getAllocatedType()) ||
           AI->getAllocatedType()->isArrayTy() || AI->isArrayAllocation() ||
           AI->getAllocatedType()->isVectorTy() || // a SIMD register (__m128i)
           // An integer variable that holds an address made a pointer
           // again (`uintptr_t u = (uintptr_t)x | 1;` at -O0): its shadow
           // holds the shadow's address, as a pointer variable's does.
           holdsAddresses(*AI, 2) || passesReceivedAddresses(*AI) ||
           any_of(AI->users(), [&](const User *U) {
             if (isa<MemTransferInst>(U)) // a buffer for copied bytes
               return true;
             // An integer slot that receives the whole bits of a float,
             // read from memory with derivatives (a union's integer member
             // copied into a variable at -O0), holds them and their
             // derivative. (Not an address, nor a part of the bits: those
             // stay errors where they are stored.)
             if (const auto *SI = dyn_cast<StoreInst>(U);
                 SI && SI->getPointerOperand() == AI &&
                 receivesWholeFloatBits(*SI))
               return true;
             // A slot that receives the bits of a float a call returns
             // holds them, and their derivative, as a float's slot would.
             Function *Callee = storedResultOf(*U, *AI);
             return Callee && returnsFloatBitsMemo(*Callee);
           });
  if (auto *LI = dyn_cast<LoadInst>(I)) {
    if (Rules &&
        Rules->isInactiveGlobal(getUnderlyingObject(LI->getPointerOperand())))
      return false;
    // A count or index read back from the tape by a reverse sweep: an
    // integer, never the bits of a float (forward over reverse).
    if (LI->hasMetadata(IntegerRecordMetadata))
      return false;
    if (!Active.contains(LI->getPointerOperand()) ||
        !mayHoldDerivatives(LI->getPointerOperand()))
      return false;
    return canCarryDerivative(T) ||
           (isMovedInteger(*LI) && !readsDeclaredIntegerField(*LI) &&
            !readsRotatedIntegerState(*LI));
  }
  if (auto *GEP = dyn_cast<GetElementPtrInst>(I))
    return Active.contains(GEP->getPointerOperand());
  if (isa<StoreInst, FenceInst, UnreachableInst, ReturnInst, BranchInst,
          SwitchInst, CmpInst, FPToSIInst, FPToUIInst, SIToFPInst, UIToFPInst>(
          I))
    return false;
  if (auto *Call = dyn_cast<CallBase>(I))
    return transferCall(*Call);
  if (auto *Sel = dyn_cast<SelectInst>(I))
    return Active.contains(Sel->getTrueValue()) ||
           Active.contains(Sel->getFalseValue());
  if (T->isIntOrIntVectorTy())
    return transferInteger(*I);
  if (!canCarryDerivative(T))
    return false;
  return anyOperandActive(*I);
}

bool ActivityAnalysis::returnsFloatBitsMemo(Function &Callee) const {
  auto [It, New] = FloatBitsResults.try_emplace(&Callee, false);
  if (New)
    It->second = returnsFloatBits(Callee);
  return It->second;
}

ActivityAnalysis::ActivityAnalysis(Function &F, ArrayRef<ArgActivity> Args,
                                   const CustomRules *Rules)
    : F(F), Rules(Rules), Users(Rules) {
  for (Argument &A : F.args())
    if (A.getArgNo() < Args.size() && Args[A.getArgNo()] != ArgActivity::Const)
      Active.insert(&A);
  // Globals with shadows are shadowed pointers, as Dup arguments are.
  for (Instruction &I : instructions(F))
    for (Use &Op : I.operands())
      if (auto *G = dyn_cast<GlobalVariable>(Op.get());
          G && hasShadowGlobal(*G, Rules) && Active.insert(G).second)
        ShadowedGlobals.push_back(G);
  findStackPointers();
  // Activity and dirtiness only grow, so iterating to a fixed point
  // terminates.
  bool Changed = true;
  while (Changed) {
    Changed = updateDirtyAllocas();
    for (Instruction &I : instructions(F)) {
      if (Active.contains(&I) || !transfer(I))
        continue;
      Active.insert(&I);
      Changed = true;
    }
  }
}

void ActivityAnalysis::print(raw_ostream &OS) const {
  OS << "activity of '" << F.getName() << "'\n";
  for (Argument &A : F.args()) {
    OS << (Active.contains(&A) ? "  active " : "  const  ");
    A.printAsOperand(OS, /*PrintType=*/true);
    OS << "\n";
  }
  for (Instruction &I : instructions(F)) {
    if (I.getType()->isVoidTy() && !isa<CallBase>(I))
      continue;
    OS << (Active.contains(&I) ? "  active " : "  const  ");
    I.print(OS);
    if ((isa<AllocaInst>(I) || StackRoots.count(&I)) &&
        !mayHoldDerivatives(&I))
      OS << "  ; holds no derivative";
    OS << "\n";
  }
}

} // namespace adcore
