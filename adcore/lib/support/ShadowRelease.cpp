//===- ShadowRelease.cpp - Zeroing adcc's own shadow globals -------------===//

#include "ShadowRelease.h"
#include "IRMarks.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {

void releaseOwnShadows(IRBuilder<> &B, const Function &Derivative) {
  SetVector<GlobalVariable *> Shadows;
  SmallPtrSet<const Function *, 16> Seen;
  SmallVector<const Function *, 16> Work{&Derivative};
  // The operands of the functions reached, and of the constant expressions
  // among them (a shadow's element addressed by a constant GEP).
  SmallVector<const Value *, 32> Operands;
  while (!Work.empty()) {
    const Function *F = Work.pop_back_val();
    if (!Seen.insert(F).second || F->isDeclaration())
      continue;
    for (const Instruction &I : instructions(*F))
      append_range(Operands, I.operand_values());
    while (!Operands.empty()) {
      const Value *V = Operands.pop_back_val();
      if (auto *G = dyn_cast<GlobalVariable>(V)) {
        if (G->hasMetadata(OwnShadowMetadata))
          Shadows.insert(const_cast<GlobalVariable *>(G));
      } else if (auto *Callee = dyn_cast<Function>(V)) {
        Work.push_back(Callee);
      } else if (auto *CE = dyn_cast<ConstantExpr>(V)) {
        append_range(Operands, CE->operand_values());
      }
    }
  }
  const DataLayout &DL = Derivative.getParent()->getDataLayout();
  for (GlobalVariable *S : Shadows)
    B.CreateMemSet(S, B.getInt8(0),
                   DL.getTypeAllocSize(S->getValueType()).getFixedValue(),
                   S->getAlign());
}

} // namespace adcore
