//===- ShadowRelease.cpp - Zeroing adcc's own shadow globals -------------===//

#include "ShadowRelease.h"
#include "IRMarks.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Twine.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace adcore {
namespace {

/// Whether the shadow \p S is zeroed only where no file names it (the
/// shadow of a global other files see).
bool zeroedUnlessNamed(const GlobalVariable &S) {
  const MDNode *N = S.getMetadata(OwnShadowMetadata);
  return N && N->getNumOperands() > 0;
}

/// The weak marker a file that names \p ShadowName defines, as a
/// declaration (null where no linked file defines it).
GlobalVariable *namedMarker(Module &M, StringRef ShadowName) {
  std::string Name = (NamedShadowPrefix + ShadowName).str();
  if (auto *G = M.getGlobalVariable(Name, /*AllowInternal=*/true))
    return G;
  auto *G = new GlobalVariable(M, Type::getInt8Ty(M.getContext()),
                               /*isConstant=*/true,
                               GlobalValue::ExternalWeakLinkage, nullptr, Name);
  return G;
}

} // namespace

SetVector<GlobalVariable *>
ownShadowsUsedBy(ArrayRef<const Function *> Derivatives,
                 SetVector<const Function *> *Declarations) {
  SetVector<GlobalVariable *> Shadows;
  SmallPtrSet<const Function *, 16> Seen;
  SmallVector<const Function *, 16> Work(Derivatives.begin(),
                                         Derivatives.end());
  // The operands of the functions reached, and of the constant expressions
  // and aggregates among them (a shadow's element addressed by a constant
  // GEP).
  SmallVector<const Value *, 32> Operands;
  while (!Work.empty()) {
    const Function *F = Work.pop_back_val();
    if (!F || !Seen.insert(F).second)
      continue;
    if (F->isDeclaration()) {
      if (Declarations)
        Declarations->insert(F);
      continue;
    }
    for (const Instruction &I : instructions(*F))
      append_range(Operands, I.operand_values());
    while (!Operands.empty()) {
      const Value *V = Operands.pop_back_val();
      if (auto *G = dyn_cast<GlobalVariable>(V)) {
        if (G->hasMetadata(OwnShadowMetadata))
          Shadows.insert(const_cast<GlobalVariable *>(G));
      } else if (auto *Callee = dyn_cast<Function>(V)) {
        Work.push_back(Callee);
      } else if (isa<ConstantExpr, ConstantAggregate>(V)) {
        // (A constant aggregate too: a getter's derivative returns
        // `{ptr @g, ptr @g_shadow}`.)
        append_range(Operands, cast<User>(V)->operand_values());
      }
    }
  }
  return Shadows;
}

bool releaseOwnShadows(IRBuilder<> &B, ArrayRef<const Function *> Derivatives,
                       ReleaseNameFn ReleaseNameOf) {
  SetVector<const Function *> Declarations;
  SetVector<GlobalVariable *> Shadows =
      ownShadowsUsedBy(Derivatives, &Declarations);
  Module &M = *B.GetInsertBlock()->getModule();
  const DataLayout &DL = M.getDataLayout();
  for (GlobalVariable *S : Shadows) {
    uint64_t Size = DL.getTypeAllocSize(S->getValueType()).getFixedValue();
    if (!zeroedUnlessNamed(*S)) {
      B.CreateMemSet(S, B.getInt8(0), Size, S->getAlign());
      continue;
    }
    // if (&adcc.names.<shadow> == 0) memset(shadow, 0, size)
    // (The builder stays before the instruction it was at, which the split
    // moves into the block after the zeroing.)
    Instruction *At = &*B.GetInsertPoint();
    Value *Unnamed = B.CreateIsNull(namedMarker(M, S->getName()));
    Instruction *Then = SplitBlockAndInsertIfThen(Unnamed, At->getIterator(),
                                                  /*Unreachable=*/false);
    IRBuilder<> ThenB(Then);
    ThenB.SetCurrentDebugLocation(B.getCurrentDebugLocation());
    ThenB.CreateMemSet(S, B.getInt8(0), Size, S->getAlign());
    B.SetInsertPoint(At);
  }
  // (Defined at link time, empty where the derivative uses none.)
  bool Released = !Shadows.empty();
  for (const Function *D : Declarations) {
    std::string Name = ReleaseNameOf ? ReleaseNameOf(*D) : std::string();
    if (Name.empty())
      continue;
    B.CreateCall(M.getOrInsertFunction(
        Name, FunctionType::get(B.getVoidTy(), /*isVarArg=*/false)));
    Released = true;
  }
  return Released;
}

bool markNamedShadows(Module &M) {
  bool Changed = false;
  for (GlobalVariable &G : make_early_inc_range(M.globals())) {
    if (!G.isDeclaration() || G.use_empty() ||
        !G.getName().ends_with("_shadow"))
      continue;
    std::string Name = (NamedShadowPrefix + G.getName()).str();
    GlobalVariable *Marker = M.getGlobalVariable(Name, /*AllowInternal=*/true);
    if (Marker && !Marker->isDeclaration())
      continue;
    auto *Def = new GlobalVariable(
        M, Type::getInt8Ty(M.getContext()), /*isConstant=*/true,
        GlobalValue::WeakAnyLinkage,
        ConstantInt::get(Type::getInt8Ty(M.getContext()), 1), "");
    if (Marker) {
      Def->takeName(Marker);
      Marker->replaceAllUsesWith(Def);
      Marker->eraseFromParent();
    } else {
      Def->setName(Name);
    }
    Changed = true;
  }
  return Changed;
}

} // namespace adcore
