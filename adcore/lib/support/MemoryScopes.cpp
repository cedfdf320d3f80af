//===- MemoryScopes.cpp - Alias scopes of generated code -----------------===//

#include "MemoryScopes.h"
#include "TapeLevels.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {
namespace {

/// The scope of \p Class: named nodes, the same in every function of the
/// context (what they say holds everywhere).
MDNode *scopeOf(LLVMContext &C, MemoryClass Class) {
  MDBuilder MDB(C);
  MDNode *Domain = MDB.createAliasScopeDomain("adcc.memory");
  switch (Class) {
  case MemoryClass::Primal:
    return MDB.createAliasScope("adcc.primal", Domain);
  case MemoryClass::Shadow:
    return MDB.createAliasScope("adcc.shadow", Domain);
  case MemoryClass::Tape:
    return MDB.createAliasScope("adcc.tape", Domain);
  }
  return nullptr;
}

/// A record of the runtime's tape (not a shadow stack block, which holds
/// shadow memory: ShadowBlockMetadata).
bool isTapeRuntimeCall(const Value *V) {
  auto *Call = dyn_cast<CallInst>(V);
  const Function *F = Call ? Call->getCalledFunction() : nullptr;
  return F && !Call->getMetadata(ShadowBlockMetadata) &&
         (F->getName() == "adcc_tape_push" || F->getName() == "adcc_tape_pop" ||
          isTapeThreadCall(Call));
}

/// Whether \p Ptr points into the tape: every object it may be based on is
/// a record from the runtime (push, pop) or a tape field that the inline
/// fast paths read (the top of the tape, from adcc_tape_thread's struct, at
/// any level).
bool intoTape(const Value *Ptr) {
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects);
  if (Objects.empty())
    return false;
  for (const Value *Obj : Objects) {
    if (isTapeRuntimeCall(Obj))
      continue;
    auto *Field = dyn_cast<LoadInst>(Obj);
    if (Field && isTapeThreadCall(getUnderlyingObject(Field->getPointerOperand())))
      continue;
    return false;
  }
  return true;
}

} // namespace

void tagMemoryClass(Instruction &I, MemoryClass Class) {
  if (!isa<LoadInst, StoreInst>(I))
    return;
  LLVMContext &C = I.getContext();
  const MemoryClass All[] = {MemoryClass::Primal, MemoryClass::Shadow,
                             MemoryClass::Tape};
  MDNode *ScopeOf[3];
  for (MemoryClass K : All)
    ScopeOf[unsigned(K)] = scopeOf(C, K);
  // One class per access: two would declare it apart from itself.
  if (MDNode *Scopes = I.getMetadata(LLVMContext::MD_alias_scope))
    for (const MDOperand &S : Scopes->operands())
      if (is_contained(ScopeOf, S.get()))
        return;
  SmallVector<Metadata *, 2> Others;
  for (MemoryClass K : All)
    if (K != Class)
      Others.push_back(ScopeOf[unsigned(K)]);
  MDNode *Scope = MDNode::get(C, {ScopeOf[unsigned(Class)]});
  I.setMetadata(
      LLVMContext::MD_alias_scope,
      MDNode::concatenate(I.getMetadata(LLVMContext::MD_alias_scope), Scope));
  I.setMetadata(LLVMContext::MD_noalias,
                MDNode::concatenate(I.getMetadata(LLVMContext::MD_noalias),
                                    MDNode::get(C, Others)));
}

void tagPrimalCopy(Instruction &I) {
  if (!isa<LoadInst, StoreInst>(I))
    return;
  if (hasMemoryClass(I, MemoryClass::Shadow)) {
    // (Drops the class's scope and the scopes it was apart from; other
    // scopes, the user's or the lanes', stay.)
    LLVMContext &C = I.getContext();
    const MDNode *Classes[] = {scopeOf(C, MemoryClass::Primal),
                               scopeOf(C, MemoryClass::Shadow),
                               scopeOf(C, MemoryClass::Tape)};
    for (unsigned Kind :
         {LLVMContext::MD_alias_scope, LLVMContext::MD_noalias}) {
      MDNode *Scopes = I.getMetadata(Kind);
      if (!Scopes)
        continue;
      SmallVector<Metadata *, 4> Kept;
      for (const MDOperand &S : Scopes->operands())
        if (!is_contained(Classes, S.get()))
          Kept.push_back(S.get());
      I.setMetadata(Kind, Kept.empty() ? nullptr : MDNode::get(C, Kept));
    }
    I.setMetadata(EarlierShadowMetadata, MDNode::get(C, {}));
  }
  tagMemoryClass(I, MemoryClass::Primal);
}

bool hasMemoryClass(const Instruction &I, MemoryClass Class) {
  MDNode *Scopes = I.getMetadata(LLVMContext::MD_alias_scope);
  return Scopes &&
         is_contained(Scopes->operands(), scopeOf(I.getContext(), Class));
}

void tagLane(Instruction &I, unsigned Lane, unsigned Width) {
  if (!isa<LoadInst, StoreInst>(I) || Width < 2)
    return;
  LLVMContext &C = I.getContext();
  MDBuilder MDB(C);
  MDNode *Domain = MDB.createAliasScopeDomain("adcc.lanes");
  auto ScopeOfLane = [&](unsigned L) {
    return MDB.createAliasScope(("adcc.lane" + Twine(L)).str(), Domain);
  };
  SmallVector<Metadata *, 8> Others;
  for (unsigned L = 0; L < Width; ++L)
    if (L != Lane)
      Others.push_back(ScopeOfLane(L));
  I.setMetadata(LLVMContext::MD_alias_scope,
                MDNode::concatenate(I.getMetadata(LLVMContext::MD_alias_scope),
                                    MDNode::get(C, {ScopeOfLane(Lane)})));
  I.setMetadata(LLVMContext::MD_noalias,
                MDNode::concatenate(I.getMetadata(LLVMContext::MD_noalias),
                                    MDNode::get(C, Others)));
}

void tagTapeAccesses(Function &F) {
  for (BasicBlock &BB : F)
    for (Instruction &I : BB) {
      const Value *Ptr = getLoadStorePointerOperand(&I);
      if (Ptr && intoTape(Ptr))
        tagMemoryClass(I, MemoryClass::Tape);
    }
}

} // namespace adcore
