//===- analysis/ParallelMemory.h - Shared memory of a parallel region -*- C++ -*-===//
//
// In the reverse sweep of code that runs on several threads at once (the
// body of an OpenMP parallel region, DerivativeKey::Parallel), the adjoint
// of a load `v = *p` is added into the shadow of *p, and another thread
// may add into the same place at the same time: then the addition is
// atomic (`atomicrmw fadd`). It is a plain load and store where no other
// thread updates that place:
//
//   private memory        the thread's stack (a local variable, the
//                         private copy of a reduction variable)
//   the iteration's own   p = b + i, where i is the induction variable of
//   element               a worksharing loop (its start read from the lower
//                         bound that __kmpc_for_static_init_* or
//                         __kmpc_dispatch_next_* wrote, one step per
//                         iteration) and b does not change in the loop, when
//                         no other load of the region reads the object b
//                         points into at another address (nor in another
//                         loop) and no call gets a pointer into it: every
//                         iteration updates its own element only
//
// Objects reached through different pointers are taken to be different
// arrays (docs/parallel.md says so).
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_ANALYSIS_PARALLELMEMORY_H
#define ADCORE_ANALYSIS_PARALLELMEMORY_H

#include "llvm/ADT/SmallPtrSet.h"

#include <memory>

namespace llvm {
class DominatorTree;
class Function;
class LoadInst;
class PHINode;
class Value;
} // namespace llvm

namespace adcore {

class ParallelMemory {
public:
  /// \p Region: the primal function that runs on several threads.
  explicit ParallelMemory(llvm::Function &Region);
  ~ParallelMemory();
  /// Whether the adjoint update of what \p Load (an instruction of the
  /// region) reads must be atomic; \p Why says why, or why not.
  bool needsAtomicUpdate(const llvm::LoadInst &Load, const char *&Why) const;

private:
  /// The element \p Ptr addresses when it is b + i (i a worksharing
  /// loop's induction variable, b invariant in that loop): b, else null.
  const llvm::Value *iterationBase(const llvm::Value *Ptr) const;

  /// Induction variables of worksharing loops.
  llvm::SmallPtrSet<const llvm::PHINode *, 4> Inductions;
  /// Underlying objects that some load reads at an address other than the
  /// iteration's own element, or that a call gets a pointer into.
  llvm::SmallPtrSet<const llvm::Value *, 8> Shared;
  std::unique_ptr<llvm::DominatorTree> DT;
};

} // namespace adcore

#endif // ADCORE_ANALYSIS_PARALLELMEMORY_H
