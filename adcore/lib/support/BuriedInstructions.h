//===- BuriedInstructions.h - Deleting instructions late -------*- C++ -*-===//
//
// An emitter keeps facts about instructions in maps keyed by their
// addresses (active, nullable, a callee's key bits). An instruction deleted
// while those maps live leaves its address free: one created later may be
// allocated there and inherit what the maps say of the deleted one, so
// that the generated code depends on the allocator (a compile differed in
// one run of some hundreds). Buried instructions are taken out of their
// function and lose their operands at once, and are deleted only with the
// emitter, when no map is consulted any more.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_BURIEDINSTRUCTIONS_H
#define ADCORE_BURIEDINSTRUCTIONS_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Instruction.h"

namespace adcore {

class BuriedInstructions {
  llvm::SmallVector<llvm::Instruction *, 16> Buried;

public:
  BuriedInstructions() = default;
  BuriedInstructions(const BuriedInstructions &) = delete;
  BuriedInstructions &operator=(const BuriedInstructions &) = delete;
  ~BuriedInstructions() {
    // (Operands were dropped: a buried instruction may have used another.)
    for (llvm::Instruction *I : Buried)
      I->deleteValue();
  }

  /// Takes \p I, unused, out of its function (if it is in one) and drops
  /// its operands; it is deleted with this object.
  void bury(llvm::Instruction *I) {
    if (I->getParent())
      I->removeFromParent();
    I->dropAllReferences();
    Buried.push_back(I);
  }
};

} // namespace adcore

#endif // ADCORE_BURIEDINSTRUCTIONS_H
