//===- ShadowRelease.cpp - Zeroing adcc's own shadow globals -------------===//

#include "ShadowRelease.h"
#include "IRMarks.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"

#include <functional>

using namespace llvm;

namespace adcore {

void releaseOwnShadows(IRBuilder<> &B, const Function &Derivative) {
  SetVector<GlobalVariable *> Shadows;
  SmallPtrSet<const Function *, 16> Seen;
  SmallVector<const Function *, 16> Work{&Derivative};
  // (Through constant expressions: a shadow's element addressed by a
  // constant GEP.)
  std::function<void(const Value *, unsigned)> Visit =
      [&](const Value *V, unsigned Depth) {
        if (auto *G = dyn_cast<GlobalVariable>(V)) {
          if (G->hasMetadata(OwnShadowMetadata))
            Shadows.insert(const_cast<GlobalVariable *>(G));
        } else if (auto *F = dyn_cast<Function>(V)) {
          Work.push_back(F);
        } else if (auto *CE = dyn_cast<ConstantExpr>(V); CE && Depth < 4) {
          for (const Use &Op : CE->operands())
            Visit(Op.get(), Depth + 1);
        }
      };
  while (!Work.empty()) {
    const Function *F = Work.pop_back_val();
    if (!Seen.insert(F).second || F->isDeclaration())
      continue;
    for (const Instruction &I : instructions(*F))
      for (const Use &Op : I.operands())
        Visit(Op.get(), 0);
  }
  const DataLayout &DL = Derivative.getParent()->getDataLayout();
  for (GlobalVariable *S : Shadows)
    B.CreateMemSet(S, B.getInt8(0),
                   DL.getTypeAllocSize(S->getValueType()).getFixedValue(),
                   S->getAlign());
}

} // namespace adcore
