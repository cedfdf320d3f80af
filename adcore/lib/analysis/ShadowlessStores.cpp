//===- ShadowlessStores.cpp - Where a lost derivative would go -----------===//

#include "ShadowlessStores.h"

#include "GlobalShadows.h"
#include "Synthesis.h"

#include "llvm/ADT/Twine.h"
#include "llvm/IR/Argument.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace adcore {

namespace {

/// The argument \p Obj is, or (at -O0) the argument stored into the stack
/// slot \p Obj is loaded from.
const Argument *argumentOf(const Value *Obj) {
  if (const auto *A = dyn_cast_or_null<Argument>(Obj))
    return A;
  const auto *LI = dyn_cast_or_null<LoadInst>(Obj);
  const auto *Slot =
      LI ? dyn_cast<AllocaInst>(LI->getPointerOperand()->stripPointerCasts())
         : nullptr;
  if (!Slot)
    return nullptr;
  const Argument *Found = nullptr;
  for (const User *U : Slot->users()) {
    const auto *SI = dyn_cast<StoreInst>(U);
    if (!SI)
      continue;
    const auto *A = dyn_cast<Argument>(SI->getValueOperand());
    if (!A || (Found && Found != A))
      return nullptr;
    Found = A;
  }
  return Found;
}

/// The global variable \p Obj's address was loaded from (`double *buf;`
/// written through as `buf[i]`), if it was.
const GlobalVariable *globalHolding(const Value *Obj) {
  const auto *LI = dyn_cast_or_null<LoadInst>(Obj);
  return LI ? dyn_cast<GlobalVariable>(
                  LI->getPointerOperand()->stripInBoundsConstantOffsets())
            : nullptr;
}

} // namespace

std::string shadowlessStoreMessage(const SynthesisContext &Ctx,
                                   const Function &Primal,
                                   const Value *PrimalObj) {
  const std::string Stored = "a value with a derivative is stored into ";
  if (const Argument *A = argumentOf(PrimalObj))
    return (Stored + "memory that argument " + Twine(A->getArgNo() + 1) +
            " of '" + Ctx.displayName(Primal) +
            "' points to, which has no shadow (it was passed with "
            "enzyme_const, or its caller passes memory without one); the "
            "derivative would be lost for what reads it later: pass that "
            "argument with enzyme_dup and a shadow buffer")
        .str();
  if (const auto *G = dyn_cast_or_null<GlobalVariable>(PrimalObj))
    return (Stored + "the global variable '" + G->getName() +
            "', which has no shadow: " + whyNoShadowGlobal(*G))
        .str();
  if (const GlobalVariable *G = globalHolding(PrimalObj))
    return (Stored + "memory that the global variable '" + G->getName() +
            "' points to, which has no shadow (a global holding a pointer "
            "gets none); name a shadow pointer for it with enzyme_shadow "
            "(`double *d_" +
            G->getName() + "; __attribute__((enzyme_shadow(d_" + G->getName() +
            "))) double *" + G->getName() +
            ";`, the shadow pointing to a zeroed buffer of the same size), "
            "or pass that memory to the function as an argument with "
            "enzyme_dup")
        .str();
  return Stored + "memory that has no shadow; pass that memory to the "
                  "derivative as a duplicated argument (enzyme_dup)";
}

} // namespace adcore
