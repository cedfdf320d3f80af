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
// Calls of the getter in code no derivative is made of (`main`, an init
// function: at link time, functions neither reached from a derivative made
// there nor marked DifferentiatedAttribute by their file) may also read
// there and write numbers, which carry no derivative; not pointers.
//
//===----------------------------------------------------------------------===//

#include "ReadOnlyResults.h"
#include "rules/InactiveFunctions.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Operator.h"

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

/// Whether a store through \p P writes a number: a float or an integer
/// that is no address (not made by ptrtoint).
bool storesNumber(const StoreInst &SI) {
  const Value *V = SI.getValueOperand();
  Type *T = V->getType();
  return T->isFPOrFPVectorTy() ||
         (T->isIntOrIntVectorTy() && !isa<PtrToIntOperator>(V));
}

bool readsOnlyThrough(const Function &F, unsigned ArgNo, unsigned Depth,
                      bool Numbers);

/// Whether the function of \p Start only reads through the pointer
/// \p Start and the pointers read through it, giving them only to
/// functions that do the same (\p Depth calls deep) or to functions
/// without derivatives. With \p Numbers, it may also store numbers there
/// (storesNumber, memset): code no derivative is made of.
bool onlyReadThrough(const Value *Start, unsigned Depth, bool Numbers) {
  SmallVector<const Value *, 16> Work = {Start};
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
      if (const auto *SI = dyn_cast<StoreInst>(U)) {
        if (Numbers && SI->getPointerOperand() == P && storesNumber(*SI))
          continue;
        return false;
      }
      if (const auto *II = dyn_cast<IntrinsicInst>(U);
          II && (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II)))
        continue;
      if (const auto *Set = dyn_cast<MemSetInst>(U);
          Numbers && Set && Set->getRawDest() == P)
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
            !readsOnlyThrough(*Callee, Arg.getOperandNo(), Depth - 1, Numbers))
          return false;
    }
  }
  return true;
}

/// onlyReadThrough for the argument \p ArgNo of \p F.
bool readsOnlyThrough(const Function &F, unsigned ArgNo, unsigned Depth,
                      bool Numbers) {
  if (F.isDeclaration() || F.isVarArg() || ArgNo >= F.arg_size())
    return false;
  return onlyReadThrough(F.getArg(ArgNo), Depth, Numbers);
}

} // namespace

bool onlyReadThroughResult(const Function &Getter,
                           function_ref<bool(const Function &)> MadeHere,
                           function_ref<bool(const Function &)> Differentiated,
                           DenseMap<const Function *, uint64_t> &Given) {
  DenseMap<const Function *, uint64_t> Found;
  bool Called = false;
  for (const User *GU : Getter.users()) {
    const auto *Site = dyn_cast<CallBase>(GU);
    if (!Site || Site->getCalledFunction() != &Getter)
      continue;
    Called = true;
    // (Code no derivative is made of, `init()` or `main`, may write numbers
    // there, which have none: the derivatives read zeros through the null
    // shadow as for constant data. Not pointers: a buffer the
    // differentiated code writes through another name, read back through
    // this one, would lose its derivatives silently.)
    if (!Differentiated(*Site->getFunction())) {
      if (!onlyReadThrough(Site, 4, /*Numbers=*/true))
        return false;
      continue;
    }
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
          if (No >= 64 || Own ||
              !readsOnlyThrough(*Callee, No, 4, /*Numbers=*/false))
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
