//===- ErasedMoves.cpp - std::function's storage moved as bytes ----------===//
//
// libstdc++'s std::function keeps its callable in untyped storage
// (std::_Any_data) and moves it as 16 bytes in two places: its move
// constructor (`_M_functor = __x._M_functor`, the source left empty) and
// std::swap<std::_Any_data> (three moves through a temporary), which its
// swap, copy assignment and move assignment call. What those bytes are
// (a lambda's captured doubles, a pointer to a closure on the heap, a
// function pointer) only the manager knows, at run time. Each of these
// copies moves its source, which nothing reads again before it is
// overwritten or destroyed: the reverse sweep moves the adjoints back
// whatever the bytes hold (CopyAdjoints.cpp). The copies are marked here,
// at the start of the pipeline, before the inliner hides the functions
// they are in.
//
//===----------------------------------------------------------------------===//

#include "Prepare.h"
#include "analysis/ErasedStorage.h"
#include "support/IRMarks.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {

/// The bytes of std::_Any_data (two pointers' worth).
static constexpr uint64_t ErasedStorageBytes = 16;

bool markErasedMoves(Module &M) {
  bool Changed = false;
  for (Function &F : M) {
    if (F.isDeclaration() || !movesErasedStorage(F.getName()))
      continue;
    for (Instruction &I : instructions(F)) {
      auto *Copy = dyn_cast<MemTransferInst>(&I);
      auto *Len = Copy ? dyn_cast<ConstantInt>(Copy->getLength()) : nullptr;
      if (!Len || Len->getZExtValue() != ErasedStorageBytes)
        continue;
      Copy->setMetadata(ErasedMoveMetadata, MDNode::get(M.getContext(), {}));
      Changed = true;
    }
  }
  return Changed;
}

PreservedAnalyses MarkErasedMovesPass::run(Module &M, ModuleAnalysisManager &) {
  // (Metadata only.)
  markErasedMoves(M);
  return PreservedAnalyses::all();
}

} // namespace adcore
