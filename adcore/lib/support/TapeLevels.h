//===- TapeLevels.h - Tapes of nested reverse derivatives -------*- C++ -*-===//
//
// A reverse sweep differentiated again (reverse over reverse: the gradient
// of a function that itself calls __enzyme_autodiff) runs the inner sweeps'
// pushes and pops on the thread's tape, one function pushing what another
// pops. The outer derivative's own records must not go between them, or the
// inner reverse sweep would pop them: they go on the thread's tape of the
// next nesting level (adcc_tape_thread_level in the runtime). Level 0 is
// adcc_tape_thread(); code that gets a tape of level k, directly or in a
// function it may call, is differentiated on level k + 1, and so are all
// the callees that derivative differentiates (a callee's own records then
// never go between the caller's inner pushes and pops either).
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_TAPELEVELS_H
#define ADCORE_TAPELEVELS_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"

namespace adcore {

/// The runtime's tape levels (ADCC_TAPE_LEVELS in adcc_runtime.h).
constexpr unsigned TapeLevels = 8;

/// The thread's tape of \p Level: a call of adcc_tape_thread() (level 0) or
/// adcc_tape_thread_level(Level), at \p B's position.
llvm::CallInst *createTapeThreadCall(llvm::IRBuilder<> &B, unsigned Level);

/// Whether \p V is a call of adcc_tape_thread or adcc_tape_thread_level.
bool isTapeThreadCall(const llvm::Value *V);

/// The level of the tape \p V is (a call createTapeThreadCall makes), or
/// -1 for anything else.
int tapeLevelOf(const llvm::Value *V);

/// Whether \p Mark, the handle of a split augmented sweep
/// (adcc_split_mark or adcc_split_mark_level) in a function differentiated
/// in reverse mode, reaches the check of its reverse sweep
/// (adcc_split_check*) in that function or the functions it passes the
/// handle to (\p Depth calls deep): followed through values computed from
/// it and through memory it is stored into and read back from. If not, the
/// reverse sweep runs outside the derivative, after it has popped or
/// pushed records between the inner ones.
bool splitHandleChecked(const llvm::CallBase &Mark, unsigned Depth);
/// How many calls deep the handle is followed.
constexpr unsigned SplitHandleDepth = 4;

/// Whether \p F is adcc_split_mark or adcc_split_mark_level.
bool isSplitMark(const llvm::Function &F);

/// The lowest level a reverse derivative of functions may record on: one
/// above every tape level the code they may run uses (0 when it uses
/// none). Remembers what it read of each function: call it only once the
/// requests in the code it reaches are lowered.
/// With another \p LevelOf (the level a call of the code uses, or -1), the
/// same for other levels: the scratch-shadow levels of forward derivatives
/// (NullShadowGuards.h, forwardScratchLevelOf).
class TapeLevelFinder {
public:
  explicit TapeLevelFinder(int (*LevelOf)(const llvm::Value *) = tapeLevelOf)
      : LevelOf(LevelOf) {}
  unsigned levelFor(llvm::Function &F);

private:
  struct Facts {
    int Own = -1; ///< highest tape level F's own code gets (-1: none)
    llvm::SmallVector<llvm::Function *, 8> Callees;
  };
  const Facts &factsOf(llvm::Function &F);
  int (*LevelOf)(const llvm::Value *);
  llvm::DenseMap<const llvm::Function *, Facts> Known;
  llvm::DenseMap<const llvm::Function *, unsigned> Levels;
};

} // namespace adcore

#endif // ADCORE_TAPELEVELS_H
