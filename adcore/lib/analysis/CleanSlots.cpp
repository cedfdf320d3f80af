//===- CleanSlots.cpp - Callees that keep a stack slot's contents ---------===//
//
// C++ code at -O0 (and wherever a small member function is not inlined)
// keeps an iterator in a stack slot and passes the slot's address to
// begin(), operator*, operator++ and operator!=. A slot handed to a call
// was taken to receive anything, derivatives too; then an iterator into a
// constant argument's std::vector was differentiated as if it could point
// to active memory, and its shadow (null: the constant has none) was
// dereferenced. A callee that stores through that pointer only what it
// read through it (`++_M_current`), constants and integer arguments, and passes
// it on only to callees of the same kind, brings no derivative into the slot:
// the slot stays as clean as the caller left it.
//
//===----------------------------------------------------------------------===//

#include "ActivityAnalysis.h"
#include "SlotAddresses.h"
#include "rules/InactiveFunctions.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace adcore {
namespace {

class SlotUses : SlotAddresses {
public:
  SlotUses(const Argument &Slot, unsigned Depth, bool HoldsOwnAddress)
      : HoldsOwnAddress(HoldsOwnAddress), Depth(Depth) {
    Addresses.insert(&Slot);
  }

  bool clean() {
    SmallVector<const Value *, 16> &Work = Pending;
    Work.assign(Addresses.begin(), Addresses.end());
    while (!Work.empty()) {
      const Value *P = Work.pop_back_val();
      for (const User *U : P->users()) {
        if (followCommonUse(*U, HoldsOwnAddress, Work))
          continue;
        // As an integer: compared or checked (UBSan's alignment check), never
        // made a pointer again.
        if (isa<PtrToIntInst>(U)) {
          if (!staysInteger(*U, 4))
            return false;
          continue;
        }
        // The address itself returned (operator++ returns *this): the
        // caller gets another pointer into the slot.
        if (isa<ReturnInst>(U)) {
          ReturnsAddress = true;
          continue;
        }
        if (const auto *SI = dyn_cast<StoreInst>(U)) {
          // Into the slot: what was read from it, constants, integers.
          // The address itself stored elsewhere escapes; into a local
          // variable that only ever holds addresses into the slot (at -O0
          // the argument's own, `this.addr`, and those of the functions
          // inlined into this one), it does not: what is loaded from there
          // is such an address too.
          if (SI->getValueOperand() == P) {
            if (!followHolderStore(*SI, Work))
              return false;
            continue;
          }
          if (!cleanValue(SI->getValueOperand(), 6))
            return false;
          continue;
        }
        if (const auto *II = dyn_cast<IntrinsicInst>(U))
          if (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II) ||
              isa<MemSetInst>(II))
            continue;
        // A copy out of the slot reads it (a std::complex taken by value
        // at -O0); a copy into it brings only what was in the slot.
        if (const auto *MT = dyn_cast<MemTransferInst>(U)) {
          if (!Addresses.contains(MT->getRawDest()) ||
              Addresses.contains(MT->getRawSource()))
            continue;
          return false;
        }
        const auto *Call = dyn_cast<CallBase>(U);
        if (!Call || !cleanCall(*Call))
          return false;
      }
    }
    return holdersHoldOnlyAddresses();
  }

private:
  /// Whether the integer \p V (an address) is only compared, checked by
  /// functions without derivatives or computed with, \p Steps deep.
  static bool staysInteger(const Value &V, unsigned Steps) {
    return all_of(V.users(), [&](const User *U) {
      if (isa<ICmpInst>(U))
        return true;
      if (const auto *Call = dyn_cast<CallBase>(U))
        return Call->getCalledFunction() &&
               isKnownInactiveFunction(*Call->getCalledFunction());
      return Steps > 0 &&
             isa<BinaryOperator, TruncInst, ZExtInst, SExtInst>(U) &&
             staysInteger(*U, Steps - 1);
    });
  }

  /// A value computed from what is read through the slot, constants and
  /// integer arguments only (no floating-point value or pointer from
  /// elsewhere, nor integers read from elsewhere: SIMD code moves doubles
  /// as integer vectors, copies as i64).
  bool cleanValue(const Value *V, unsigned Steps) {
    if (isa<Constant>(V))
      return true;
    if (isa<Argument>(V))
      return V->getType()->isIntegerTy();
    if (const auto *LI = dyn_cast<LoadInst>(V))
      return Addresses.contains(LI->getPointerOperand());
    if (Addresses.contains(V))
      return true;
    if (Steps == 0)
      return false;
    const auto *I = dyn_cast<Instruction>(V);
    if (!I ||
        !isa<GetElementPtrInst, CastInst, PHINode, SelectInst, BinaryOperator,
             UnaryOperator, ExtractValueInst, InsertValueInst>(I))
      return false;
    return all_of(I->operands(), [&](const Use &Op) {
      return cleanValue(Op.get(), Steps - 1);
    });
  }

  /// A call that receives the slot: of a function without derivatives, or
  /// of one that keeps the slot clean too, with nothing but clean values.
  bool cleanCall(const CallBase &Call) {
    const Function *Callee = Call.getCalledFunction();
    if (!Callee)
      return false;
    if (isKnownInactiveFunction(*Callee))
      return true;
    bool Aliases = false;
    for (const Use &Arg : Call.args()) {
      const Value *A = Arg.get();
      if (Addresses.contains(A)) {
        unsigned No = Arg.getOperandNo();
        if (No < Callee->arg_size() &&
            Callee->getArg(No)->hasAttribute(KeepsPointeeCleanAttribute))
          continue;
        if (Callee->isDeclaration() || Depth == 0 || Callee->isVarArg())
          return false;
        bool Returns = false;
        if (!keepsPointeeClean(*Callee, Arg.getOperandNo(), Depth - 1, Returns,
                               HoldsOwnAddress))
          return false;
        Aliases |= Returns;
      } else if (A->getType()->isIntOrIntVectorTy() && !cleanValue(A, 6)) {
        // (The callee may store its integer arguments into the slot: they
        // must be clean here. Floating-point values and pointers it never
        // stores there, or it would not keep the slot clean.)
        return false;
      }
    }
    // (What it returns may be the slot's address: followed as one.)
    if (Aliases && Addresses.insert(&Call).second)
      Pending.push_back(&Call);
    return true;
  }

public:
  bool ReturnsAddress = false;

private:
  bool HoldsOwnAddress;
  unsigned Depth;
  SmallVector<const Value *, 16> Pending;
};

} // namespace

bool keepsPointeeClean(const Function &F, unsigned ArgNo, unsigned Depth,
                       bool &ReturnsAddress, bool HoldsOwnAddress) {
  ReturnsAddress = false;
  if (ArgNo < F.arg_size() &&
      F.getArg(ArgNo)->hasAttribute(KeepsPointeeCleanAttribute))
    return true;
  if (F.isDeclaration() || ArgNo >= F.arg_size() ||
      !F.getArg(ArgNo)->getType()->isPointerTy())
    return false;
  SlotUses Uses(*F.getArg(ArgNo), Depth, HoldsOwnAddress);
  bool Clean = Uses.clean();
  ReturnsAddress = Uses.ReturnsAddress;
  return Clean;
}

} // namespace adcore
