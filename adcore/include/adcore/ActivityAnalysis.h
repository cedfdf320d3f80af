//===- adcore/ActivityAnalysis.h - Which values carry derivatives -*- C++ -*-//
//
// For a function and the activity of its arguments, decides which values
// carry a derivative:
//  - a *shadowed* pointer points to memory that has shadow memory: derived
//    from a Dup argument, a stack or heap allocation of the function, or
//    loaded from shadowed memory;
//  - a *varied* value depends on a Dup argument, directly or through
//    shadowed memory (every load from shadowed memory is varied).
// Everything else is constant: its derivative is zero and no code is
// emitted for it. The analysis is a fixed point over the def-use graph, so
// loops and phis are handled; it is conservative (may call a value varied
// that is not), never the other way round.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_ACTIVITYANALYSIS_H
#define ADCORE_ACTIVITYANALYSIS_H

#include "adcore/Derivative.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseSet.h"

namespace llvm {
class Function;
class Value;
class raw_ostream;
} // namespace llvm

namespace adcore {

class ActivityAnalysis {
public:
  ActivityAnalysis(llvm::Function &F, llvm::ArrayRef<ArgActivity> Args);

  /// True when \p V carries a derivative (a tangent or a shadow).
  bool isActive(const llvm::Value *V) const { return Active.contains(V); }

  /// Prints every argument and instruction of the function as
  /// `active` or `const`, one per line.
  void print(llvm::raw_ostream &OS) const;

private:
  bool transfer(const llvm::Value &V) const;
  llvm::Function &F;
  llvm::DenseSet<const llvm::Value *> Active;
};

/// True for types that can carry a derivative: floating point, pointers,
/// and vectors, arrays and structs containing them.
bool canCarryDerivative(const llvm::Type *T);

} // namespace adcore

#endif // ADCORE_ACTIVITYANALYSIS_H
