//===- prepare/SimplifiedCopies.h - -O0 code, simplified --------*- C++ -*-===//
//
// At -O0 Clang keeps every local variable in memory and leaves every
// helper of the C++ library a call: std::function's manager, the move
// constructor of a unique_ptr, the closures of valarray's expressions copy
// objects as bytes in functions of their own, where nothing says what the
// bytes are. From -O1 on, the inliner and SROA have turned those copies
// into values of known types before adcc runs.
//
// For a function Clang compiled `optnone` (everything at -O0, and
// `__attribute__((optnone))`) whose callees, or their callees, may need it
// (mayNeedRescue), a simplified copy is made: the function cloned, its
// callees inlined into the clone where LLVM's inliner would inline them
// (bottom-up: each callee's own copy first, and its cost), and SROA,
// EarlyCSE and SimplifyCFG run over it. libstdc++'s debug-mode checks
// (`__gnu_debug`) stay calls too. The copy is differentiated
// instead of the function when it *rescues* it: when a callee inlined into
// it (or into a callee inlined into it) could be typed only where it is
// called (needsItsCallers in the .cpp), or when the function itself
// copies bytes it cannot type and its copy, with its small callees inlined
// (those whose parameter types type its pointers too, up to three rounds:
// an iterator's constructor inside its operator+), can (std::sort's heap
// moving elements through its iterators' operator*), or keeps a float's
// bits in an integer local (`memcpy(&u, &x, 8)`, a union), which SROA
// makes casts whose sign operations SignMasks.cpp reads. Every other
// function is
// differentiated as Clang compiled it, as before. The program's own
// functions stay as Clang compiled them: that is the code the user runs and
// debugs.
//
// Not inlined: a callee that means something as a call (a registered
// derivative or inactive function, `function_like`, allocation-like, a
// checkpointed loop's step: adcc's and Enzyme's attributes; a derivative
// adcc made; one that asks for a derivative itself; an OpenMP region's
// body), a C function (C has no library helpers in headers, and -O0's
// noinline hides the program's own), and a C++ function whose parameter
// types type its pointers (read from its name, which inlining would lose)
// unless it is rescued there. InstCombine does not run: it turns an
// untyped 8-byte memcpy into an i64 load and store, whose derivative a
// type analysis without Clang's TBAA (not emitted at -O0) would drop.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_PREPARE_SIMPLIFIEDCOPIES_H
#define ADCORE_PREPARE_SIMPLIFIEDCOPIES_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/ValueHandle.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class CallBase;
class Function;
} // namespace llvm

namespace adcore {

class CustomRules;

class SimplifiedCopies {
public:
  /// \p Rules: the program's registrations (their functions stay calls);
  /// \p IsGenerated: whether adcc made a function (never inlined).
  SimplifiedCopies(const CustomRules &Rules,
                   std::function<bool(const llvm::Function &)> IsGenerated);
  ~SimplifiedCopies();

  /// The simplified copy of \p F to differentiate instead of \p F: one
  /// that rescues it; else null (\p F is differentiated as it is).
  llvm::Function *rescuingCopyOf(llvm::Function &F);
  /// The function \p Copy was made from, or null.
  const llvm::Function *originalOf(const llvm::Function &Copy) const {
    return Original.lookup(&Copy);
  }
  /// Removes the copies nothing calls any more (those inlined into others,
  /// and those only differentiated), so that the rest of the pipeline
  /// compiles only the program's own code and the derivatives.
  void eraseUnused();

private:
  /// The simplified copy of \p F, made the first time; null for a
  /// function that gets none (not `optnone`, no body, code adcc made, a
  /// function with a meaning of its own, GPU device code).
  llvm::Function *copyOf(llvm::Function &F);
  /// Whether a callee of \p F, or of its callees, can be typed only where
  /// it is called: a copy of \p F may rescue it. (A scan of the program's
  /// functions, made before any copy, so that functions with nothing to
  /// rescue cost nothing.)
  bool mayNeedRescue(const llvm::Function &F);
  /// needsItsCallers (SimplifiedCopies.cpp) of a function of the program,
  /// once.
  bool needsCallers(const llvm::Function &F);
  bool mayCopy(const llvm::Function &F) const;
  bool mayInline(const llvm::Function &Callee) const;
  void inlineSmallCallees(llvm::Function &Copy, const llvm::Function &F);

  const CustomRules &Rules;
  std::function<bool(const llvm::Function &)> IsGenerated;
  llvm::DenseMap<const llvm::Function *, llvm::Function *> Copies;
  llvm::DenseMap<const llvm::Function *, const llvm::Function *> Original;
  /// Functions whose copy is being made: a call back to one of them
  /// (recursion) stays a call.
  llvm::SmallPtrSet<const llvm::Function *, 8> InProgress;
  std::vector<llvm::Function *> Made;
  llvm::SmallPtrSet<const llvm::Function *, 8> Rescues;
  /// Per copy, the pointers its inlined callees' parameter types said point
  /// to floats or doubles, followed through the simplifications (the
  /// handles follow replaceAllUsesWith); marked when the copy is done.
  struct PointeeHint {
    llvm::WeakTrackingVH Ptr;
    std::string What; ///< "double", "float" or a struct's name
  };
  llvm::DenseMap<const llvm::Function *, std::vector<PointeeHint>> Hints;
  /// Records the hints of \p Call's pointer arguments into \p Copy before
  /// \p Simple, a copy of its callee, is inlined there.
  void recordPointeeHints(llvm::Function &Copy, llvm::CallBase &Call,
                          const llvm::Function &Simple);
  /// Writes \p Copy's hints as PointeeMetadata (support/IRMarks.h).
  void markPointeeHints(llvm::Function &Copy);
  llvm::DenseMap<const llvm::Function *, bool> MayNeedRescue, NeedsCallers;
  struct Passes;
  std::unique_ptr<Passes> P;
};

} // namespace adcore

#endif // ADCORE_PREPARE_SIMPLIFIEDCOPIES_H
