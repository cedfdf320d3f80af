//===- LoopUpdates.h - The `*p += v` of a loop, and what they meet -*- C++
//-*-===//
//
// What the two rewrites of a stencil's reverse loop share: the updates
// `*P = *P + V` the loop makes, grouped into windows (updates of one array
// at constant element distances), the loop's other accesses in classes (one
// per pointer), and the plan that says which of them alias analysis keeps
// apart and which a check of address ranges before the loop must.
// AccumulationWindows.cpp keeps a window's addends in registers;
// GatheredUpdates.cpp recomputes them per element.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_LOOPUPDATES_H
#define ADCORE_LOOPUPDATES_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Instructions.h"

#include <optional>

namespace adcore {

/// One `*P = *P + V` (or `- V`) of the loop body.
struct Update {
  llvm::LoadInst *Load;
  llvm::BinaryOperator *Add;
  llvm::StoreInst *Store;
  llvm::Value *Addend;
  const llvm::SCEVAddRecExpr *Address;
  int64_t Offset = 0; ///< elements from the window's lowest update
  unsigned Delay = 0; ///< iterations until its element is complete
};

/// Updates of one array at constant distances from each other.
struct Window {
  llvm::SmallVector<Update, 4> Updates; ///< by decreasing delay
  llvm::Type *Ty;
  int64_t Step; ///< bytes per iteration: plus or minus the element size
  unsigned MaxDelay = 0;

  const Update &leading() const { return Updates.back(); }
};

/// A byte range [Lo, Hi) that an access covers over the whole loop, and
/// the one [FirstLo, FirstHi) it covers in the first iteration.
struct Range {
  const llvm::SCEV *Lo, *Hi, *FirstLo, *FirstHi;
};

/// The memory accesses of the loop body through one pointer, or those of
/// one window.
struct AccessClass {
  llvm::SmallVector<llvm::Instruction *, 4> Accesses;
  std::optional<Range> Covered;
  bool Writes = false;
  int WindowIndex = -1;
};

/// Two classes (indices into Plan::Classes) whose covered ranges the check
/// before the loop compares; \p ForWindow: one of them is a window's.
struct ClassPair {
  unsigned A, B;
  bool ForWindow;
};

/// What a rewrite of a loop's windows needs.
struct Plan {
  llvm::SmallVector<Window, 2> Windows;
  /// Classes checked apart at run time; the pairs with a window are
  /// needed, the others only for the scopes.
  llvm::SmallVector<ClassPair, 4> Disjoint;
  /// With every pair of classes apart (by alias analysis or the check), each
  /// class gets a scope of its own in the rewritten loop: the loop
  /// vectorizer then needs no checks of its own.
  llvm::SmallVector<AccessClass, 8> Classes;
  bool Scoped = true;
};

/// `*P = *P + V` (or `*P - V`: InstCombine's form of adding a negated
/// product) stored by \p S, with nothing between the load and the store
/// that writes memory, each value used once, at an address linear in \p L.
std::optional<Update> matchUpdate(llvm::StoreInst &S, llvm::ScalarEvolution &SE,
                                  const llvm::Loop &L);

/// The plan for \p L (a loop of one block, with a preheader and an exit
/// only it branches to) when it has a window whose elements no other access
/// may meet, or can be checked not to.
std::optional<Plan> planLoop(llvm::Loop &L, llvm::ScalarEvolution &SE,
                             llvm::AAResults &AA);

/// The memory load or store \p I may touch at any offset from its pointer
/// (what the accesses of other iterations are asked about).
llvm::MemoryLocation aroundPointer(const llvm::Instruction *I);

/// The index of the class of \p P that \p I belongs to, if any.
std::optional<unsigned> classIndex(const Plan &P, const llvm::Instruction *I);

/// Whether \p L is the unchanged copy of a loop that versionLoop made.
bool isFallback(const llvm::Loop &L);

/// The check that \p P's ranges are apart, computed before \p L; null when
/// none is needed.
llvm::Value *checkDisjoint(const Plan &P, llvm::Loop &L,
                           llvm::ScalarEvolution &SE);

/// Copies \p L's body as the loop to run when \p Check is false.
void versionLoop(llvm::Loop &L, llvm::Value *Check);

/// Gives each of \p Classes (the accesses of one class each, apart from
/// the others) an alias scope of its own, declared in \p Pre: per run of
/// the loop (an unrolled outer loop gets fresh scopes for each copy).
void scopeAccesses(
    llvm::ArrayRef<llvm::SmallVector<llvm::Instruction *, 4>> Classes,
    llvm::BasicBlock *Pre);

} // namespace adcore

#endif // ADCORE_LOOPUPDATES_H
