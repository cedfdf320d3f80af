//===- UnneededResults.h - Primal results not wanted ----------*- C++ -*-===//
//
// An argument passed `enzyme_dupnoneed` (DualOnly, DuplicatedOnly) promises
// that the caller wants only the derivatives that go through its shadow,
// not the primal values the function writes through it. When the function
// only writes through that pointer (its parameter is `writeonly`, as LLVM
// infers for an output array) and keeps no copy of it (`captures(none)`),
// nothing in the function reads those values back: a derivative drops the
// primal's writes into that memory, and the code that computed only them
// is removed as dead. A callee handed such a pointer gets the same request
// for it, when its own parameter is of that kind. Without the attributes
// (at -O0, or when the function reads the memory back) the primal values
// are still written: the result is the same, only slower.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_UNNEEDEDRESULTS_H
#define ADCORE_UNNEEDEDRESULTS_H

#include "adcore/Derivative.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Argument.h"
#include "llvm/IR/ValueHandle.h"

#include <optional>

namespace adcore {

/// Whether the function only writes through parameter \p A and keeps no
/// copy of it.
bool onlyWrittenThrough(const llvm::Argument &A);

/// \p Key with Dup for each DupNoNeed argument whose parameter the
/// function does not only write through (a derivative for it is the one
/// for Dup: nothing is dropped), or none where there is no such argument.
/// (Without it, at -O0, `enzyme_dupnoneed` and `enzyme_dup` calls of one
/// function made two identical derivatives.) Not for split-mode keys.
std::optional<DerivativeKey> withoutIdleNoNeed(const DerivativeKey &Key);

/// The parameters of a derivative whose primal values the caller does not
/// want, and the primal's writes into their memory.
class UnneededResults {
public:
  /// Records \p Clone, the derivative's copy of parameter \p Primal passed
  /// with activity \p A, when A is DupNoNeed and the function only writes
  /// through \p Primal.
  void note(const llvm::Argument &Primal, ArgActivity A,
            const llvm::Argument &Clone);
  /// Whether \p Ptr points into the memory of such parameters only.
  bool pointsInto(const llvm::Value *Ptr) const;
  /// The activity of \p Ptr, a duplicated argument \p ArgNo of a call of
  /// \p Callee: DupNoNeed when it is such memory and \p Callee (defined in
  /// this module) only writes through that parameter, Dup otherwise.
  ArgActivity calleeActivity(const llvm::Value *Ptr,
                             const llvm::Function *Callee,
                             unsigned ArgNo) const;
  /// Records the stores and memory intrinsics of \p F (the primal's code,
  /// before any derivative code is added) into that memory.
  void collectWrites(llvm::Function &F);
  /// Erases the recorded writes that still exist.
  void dropWrites();

private:
  llvm::SmallPtrSet<const llvm::Value *, 4> Args;
  llvm::SmallVector<llvm::WeakVH, 8> Writes;
};

} // namespace adcore

#endif // ADCORE_UNNEEDEDRESULTS_H
