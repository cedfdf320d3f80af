//===- ReadOnlyResults.cpp - Getters of other files' data only read ------===//
//
// A file that gives what a getter of another file returns to another
// file's function together with values with derivatives (`dot_ext(
// get_ctx(), x)`) asks the link step for the shadow of the getter's result
// (analysis/OtherFileResults.cpp): the other function's derivative might
// store derivatives into that memory. The link step gives the getter's
// data a shadow global where it can (crossfile/ReturnedGlobals.h); data
// that holds pointers (`struct ctx { double *w; int n; }`) has none. If
// the whole program only reads through the pointer, the derivative of
// what is read there is zero: the getter's derivative returns a null
// shadow, and the derivatives of the functions given the pointer read
// zeros through it and drop the adjoints they would add there
// (NullShadowGuards.h), as for constant data kept beside derivatives.
//
//===----------------------------------------------------------------------===//

#include "ReadOnlyResults.h"
#include "rules/InactiveFunctions.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace adcore {
namespace {

/// Whether a use of the pointer \p P by \p U is address arithmetic (the
/// result follows \p P), or a store of it into a local variable whose other
/// uses are loads (which follow \p P): -O0 code.
bool follows(const Value *P, const User *U,
             SmallVectorImpl<const Value *> &Work) {
  if (isa<GetElementPtrInst, BitCastInst, AddrSpaceCastInst, PHINode,
          SelectInst>(U)) {
    Work.push_back(U);
    return true;
  }
  const auto *SI = dyn_cast<StoreInst>(U);
  const auto *Slot =
      SI ? dyn_cast<AllocaInst>(SI->getPointerOperand()) : nullptr;
  if (!Slot || SI->getValueOperand() != P)
    return false;
  for (const User *SU : Slot->users()) {
    if (const auto *L = dyn_cast<LoadInst>(SU)) {
      Work.push_back(L);
      continue;
    }
    if (const auto *S = dyn_cast<StoreInst>(SU);
        S && S->getPointerOperand() == Slot)
      continue;
    if (const auto *II = dyn_cast<IntrinsicInst>(SU);
        II && (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II)))
      continue;
    return false;
  }
  return true;
}

/// Whether \p F only reads through its argument \p ArgNo and the pointers
/// read through it, giving them only to functions that do the same
/// (\p Depth calls deep) or to functions without derivatives.
bool readsOnlyThrough(const Function &F, unsigned ArgNo, unsigned Depth) {
  if (F.isDeclaration() || F.isVarArg() || ArgNo >= F.arg_size())
    return false;
  SmallVector<const Value *, 16> Work = {F.getArg(ArgNo)};
  SmallPtrSet<const Value *, 16> Seen;
  while (!Work.empty()) {
    const Value *P = Work.pop_back_val();
    if (!Seen.insert(P).second)
      continue;
    for (const User *U : P->users()) {
      if (follows(P, U, Work) || isa<ICmpInst>(U))
        continue;
      if (const auto *L = dyn_cast<LoadInst>(U)) {
        if (L->getType()->isPointerTy())
          Work.push_back(L); // (memory it reaches)
        continue;
      }
      if (const auto *II = dyn_cast<IntrinsicInst>(U);
          II && (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II)))
        continue;
      const auto *Call = dyn_cast<CallBase>(U);
      const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
      if (!Callee)
        return false;
      if (isKnownInactiveFunction(*Callee))
        continue;
      if (Depth == 0 || Call->getCalledOperand() == P)
        return false;
      for (const Use &Arg : Call->args())
        if (Arg.get() == P &&
            !readsOnlyThrough(*Callee, Arg.getOperandNo(), Depth - 1))
          return false;
    }
  }
  return true;
}

} // namespace

bool onlyReadThroughResult(
    const Function &Getter, function_ref<bool(const Function &)> MadeHere,
    DenseMap<const Function *, uint64_t> &Given) {
  DenseMap<const Function *, uint64_t> Found;
  bool Called = false;
  for (const User *GU : Getter.users()) {
    const auto *Site = dyn_cast<CallBase>(GU);
    if (!Site || Site->getCalledFunction() != &Getter)
      continue;
    Called = true;
    SmallVector<const Value *, 8> Work = {Site};
    SmallPtrSet<const Value *, 8> Seen;
    while (!Work.empty()) {
      const Value *P = Work.pop_back_val();
      if (!Seen.insert(P).second)
        continue;
      for (const User *U : P->users()) {
        if (follows(P, U, Work) || isa<ICmpInst>(U))
          continue;
        const auto *Call = dyn_cast<CallBase>(U);
        const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
        if (!Callee || Call->getCalledOperand() == P)
          return false;
        // (The caller's own functions, whose derivatives its file made
        // without guards, may not be given it.)
        bool Own = Callee->hasLocalLinkage() || Callee->hasLinkOnceLinkage() ||
                   Callee->hasWeakLinkage() || !MadeHere(*Callee);
        if (const auto *II = dyn_cast<IntrinsicInst>(Call);
            II && (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II)))
          continue;
        for (const Use &Arg : Call->args()) {
          if (Arg.get() != P)
            continue;
          unsigned No = Arg.getOperandNo();
          if (No >= 64 || Own || !readsOnlyThrough(*Callee, No, 4))
            return false;
          Found[Callee] |= uint64_t(1) << No;
        }
      }
    }
  }
  if (!Called)
    return false;
  for (auto &[F, Bits] : Found)
    Given[F] |= Bits;
  return true;
}

} // namespace adcore
