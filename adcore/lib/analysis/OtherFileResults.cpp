//===- OtherFileResults.cpp - Pointers that other files' functions return -===//
//
// A function of another file called with arguments without derivatives
// (`struct ws *w = ws_alloc(4);`, GSL's `gsl_vector_alloc(n)`) returns a
// pointer that carries none by the rule for calls: its body, which would
// show whether it returns new blocks (ActivityCalls.cpp,
// returnsNewAllocation), is not here. When the function's derivatives are
// made at link time and this function stores a value with a derivative
// into the memory the pointer reaches (`w->a[0] = x * x;`), or gives it
// to another file's function together with a value with a derivative
// (GSL's `gsl_vector_set(v, 0, x * x)` out of line, whose derivative made
// at link time may store it there), the pointer is taken as active: the
// caller's derivative calls the callee's, made at link time, for the
// result's shadow. The link step accepts that derivative when the callee
// returns new blocks, whose shadows it allocates alike, as Enzyme's shadow
// of malloc, or a global it can give a shadow (CrossTU.cpp,
// givesResultShadow; crossfile/ReturnedGlobals.h, ReadOnlyResults.h);
// otherwise it is an error at the call. A function of this file given the
// pointer (`fill(v, x)`, which calls `vec_set(v, i, x * x)`) is looked
// into with the activity of its call's arguments (ActivityAnalysis,
// argumentReceivesDerivatives): where it stores derivatives into the
// memory or gives it on with them, the pointer is active too, and the
// function's derivative, made here, gets its shadow (a false error at link
// time until 2026-12-07: its derivative was made with the pointer
// constant, and the link step refused vec_set's).
//
// A pointer whose memory is only read keeps no derivative: a getter of
// another file's static data (`apply(get_config(), x)`) stays constant, as
// in one file.
//
//===----------------------------------------------------------------------===//

#include "OtherFileResults.h"
#include "ActivityAnalysis.h"
#include "rules/InactiveFunctions.h"
#include "support/CallSites.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {
namespace {

constexpr const char *BodiesAtLinkTime = "adcc.bodies-at-link-time";

/// Whether \p Callee is a function of another file of the program, whose
/// derivatives are made at link time: not the language runtime's or the C
/// library's own (a C++ exception object, whose thrown value carries no
/// derivative, and names reserved to the implementation, `__cxa_*`,
/// `__errno_location`, `_IO_*`; mangled C++ names, `_Z...`, are the
/// program's).
bool isOtherFilesFunction(const Function &Callee) {
  if (!Callee.isDeclaration() || Callee.isIntrinsic())
    return false;
  StringRef Name = Callee.getName();
  bool Reserved = Name.starts_with("__") ||
                  (Name.size() > 1 && Name[0] == '_' && Name[1] != 'Z' &&
                   isUpper(Name[1]));
  return !Reserved && !isKnownInactiveFunction(Callee);
}

/// Whether \p Call, of another file's function, takes \p Arg together with
/// an argument with a derivative (\p IsActive): its derivative, made at
/// link time, may store derivatives into the memory \p Arg reaches (GSL's
/// `gsl_vector_set(v, 0, x * x)`), which needs the memory's shadow.
bool givenWithDerivatives(const CallBase &Call, const Value *Arg,
                          function_ref<bool(const Value *)> IsActive) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || !isOtherFilesFunction(*Callee) ||
      !is_contained(Call.args(), Arg))
    return false;
  return any_of(Call.args(), [&](const Use &Op) {
    return Op.get() != Arg && canCarryDerivative(Op->getType()) &&
           IsActive(Op.get());
  });
}

} // namespace

void markBodiesAtLinkTime(Module &M, bool On) {
  if (On)
    M.getOrInsertNamedMetadata(BodiesAtLinkTime);
  else if (NamedMDNode *Mark = M.getNamedMetadata(BodiesAtLinkTime))
    M.eraseNamedMetadata(Mark);
}

bool otherFileResultReceivesDerivatives(
    const CallBase &Call, function_ref<bool(const Value *)> IsActive,
    OwnCalleeReceives Own) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || !Call.getType()->isPointerTy() ||
      !Call.getModule()->getNamedMetadata(BodiesAtLinkTime) ||
      !isOtherFilesFunction(*Callee) || isExceptionObject(&Call))
    return false;
  return pointeeReceivesDerivatives(Call, IsActive, Own);
}

bool pointeeReceivesDerivatives(const Value &Ptr,
                                function_ref<bool(const Value *)> IsActive,
                                OwnCalleeReceives Own) {
  // The pointers into the memory (Depth: how many pointers were loaded on
  // the way, `w->a`), through GEPs, casts and, at -O0, the local variables
  // that hold them.
  SmallVector<std::pair<const Value *, unsigned>, 16> Work = {{&Ptr, 0}};
  SmallPtrSet<const Value *, 16> Seen = {&Ptr};
  auto Push = [&](const Value *V, unsigned Depth) {
    if (Depth <= 2 && Seen.insert(V).second)
      Work.push_back({V, Depth});
  };
  while (!Work.empty()) {
    auto [P, Depth] = Work.pop_back_val();
    for (const User *U : P->users()) {
      if (isa<GetElementPtrInst, BitCastInst, AddrSpaceCastInst, PHINode,
              SelectInst>(U)) {
        Push(U, Depth);
        continue;
      }
      if (const auto *LI = dyn_cast<LoadInst>(U)) {
        if (LI->getType()->isPointerTy())
          Push(LI, Depth + 1);
        continue;
      }
      if (const auto *MT = dyn_cast<MemTransferInst>(U)) {
        if (MT->getRawDest() == P && IsActive(MT->getRawSource()))
          return true;
        continue;
      }
      // Given to another file's function with values with derivatives, or
      // to a function of this file that stores them or gives it on.
      if (const auto *Other = dyn_cast<CallBase>(U)) {
        if (givenWithDerivatives(*Other, P, IsActive))
          return true;
        const Function *Callee = Other->getCalledFunction();
        if (!Callee || Callee->isDeclaration() ||
            Other->getCalledOperand() == P)
          continue;
        for (const Use &Arg : Other->args())
          if (Arg.get() == P && Own(*Other, Arg.getOperandNo()))
            return true;
        continue;
      }
      const auto *SI = dyn_cast<StoreInst>(U);
      if (!SI)
        continue;
      const Value *Stored = SI->getValueOperand();
      if (SI->getPointerOperand() == P) {
        if (IsActive(Stored) && canCarryDerivative(Stored->getType()))
          return true;
        continue;
      }
      // The pointer kept in a local variable (-O0): what is loaded from
      // the variable.
      if (const auto *Slot = dyn_cast<AllocaInst>(
              SI->getPointerOperand()->stripPointerCasts()))
        for (const User *SU : Slot->users())
          if (const auto *Load = dyn_cast<LoadInst>(SU);
              Load && Load->getType()->isPointerTy())
            Push(Load, Depth);
    }
  }
  return false;
}

} // namespace adcore
