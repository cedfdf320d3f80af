//===- analysis/ParallelMemory.h - Shared memory of a parallel region -*- C++
//-*-===//
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
// A third way is taken for memory that many iterations read at the same
// places (a model's parameters, read by every data point): per-thread
// accumulation. The region's reverse sweep adds such adjoints into a
// private copy of the shadow that each thread keeps (a window of it, grown
// as addresses arrive: runtime/lib/thread_adjoints.c) and adds the copy
// into the shadow once, when the thread leaves the reverse region. It is
// chosen for an object that
//
//   - some float load of the region reads at an address that does not
//     depend on the iteration (on the worksharing loop's induction
//     variable or the thread's number, followed through values and
//     through stack slots, so also at -O0), and
//   - the region never writes (no float store, no atomic, no call that
//     gets a pointer into it): nothing in the reverse region reads its
//     shadow, so adding into the shadow late gives the same sums, and
//   - every float load of it reads one element type (float or double).
//
// Only the outlined region itself keeps copies (a callee's loads stay
// atomic): its reverse sweep runs once per thread, and the copies are
// added when it ends.
//
// Objects reached through different pointers may still be one array: a
// struct that holds an array's address, or two pointer arguments of the
// forking function given one array (f(a, a), f(x, x + 1)); which may
// overlap is RegionAliases's answer, and such an object is updated
// atomically and gets no per-thread copies where the other access writes.
//
// Where the only other access that may reach an iteration's own element
// x[i] is another iteration's own element y[i] of the same worksharing
// loop (`x[i] * y[i]` over two pointer arguments), the choice is made at
// run time (Checked): the augmented sweep compares the byte ranges of the
// bases' shadows that the loop's whole iteration space updates (its
// bounds are the values the region gives the scheduling call; ApartCheck,
// reverse/ApartChecks.cpp), and notes in the region whether they are
// apart; the reverse sweep adds plainly where they were, atomically where
// they may overlap. Only the outlined region itself has such checks.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_ANALYSIS_PARALLELMEMORY_H
#define ADCORE_ANALYSIS_PARALLELMEMORY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

#include <functional>
#include <memory>

namespace llvm {
class AllocaInst;
class CallBase;
class DominatorTree;
class Function;
class Instruction;
class LoopInfo;
class LoadInst;
class PHINode;
class Value;
} // namespace llvm

namespace adcore {

class RegionAliases;

/// How the reverse sweep adds an adjoint into the shadow of what a load
/// read.
enum class ParallelUpdate {
  Plain,     ///< a load and a store: no other thread updates the place
  Atomic,    ///< atomicrmw fadd
  PerThread, ///< into the thread's private copy, added at the region's end
  Checked    ///< Plain where the run-time check (ApartCheck) found the
             ///< arrays apart, else Atomic
};

/// A run-time test that the arrays a worksharing loop reads at the
/// iteration's own element do not overlap: for each, the base b, the
/// stride and the bytes read at an element; the loop's iterations run from
/// Lower to Upper (inclusive), so it reads [b + Lower * stride, b + Upper
/// * stride + bytes).
struct ApartCheck {
  const llvm::Instruction *At = nullptr; ///< where to test (the loop's
                                         ///< preheader's terminator)
  const llvm::Value *Lower = nullptr, *Upper = nullptr;
  bool Unsigned = false; ///< (__kmpc_*_init_4u, _8u: zero-extended)
  struct Array {
    const llvm::Value *Base;
    uint64_t Stride, Bytes;
  };
  llvm::SmallVector<Array, 4> Arrays;
};

class ParallelMemory {
public:
  /// \p Region: the primal function that runs on several threads;
  /// \p PerThread: whether per-thread copies may be chosen (the outlined
  /// region itself); \p PrivateArgs: bit i, argument i points into the
  /// calling thread's stack (DerivativeKey::PrivateArgs); \p OwnElements:
  /// whether an iteration's own element is updated plainly (not in a
  /// region nested in another, DerivativeKey::NestedRegion).
  /// \p Generated: whether adcc made a function (RegionAliases).
  ParallelMemory(llvm::Function &Region, bool PerThread,
                 uint64_t PrivateArgs, bool OwnElements = true,
                 std::function<bool(const llvm::Function &)> Generated = {});
  ~ParallelMemory();
  /// How the adjoint of what \p Load (an instruction of the region) reads
  /// is added; \p Why says why. For PerThread, \p Object names the copy
  /// (one per object).
  ParallelUpdate updateOf(const llvm::LoadInst &Load, const char *&Why,
                          const llvm::Value *&Object) const;
  /// For a Checked update of what \p Load reads: the number of its check
  /// (an index into checks()); -1 otherwise.
  int checkOf(const llvm::LoadInst &Load) const;
  /// The run-time checks, made at the augmented sweep's loops.
  llvm::ArrayRef<ApartCheck> checks() const { return Checks; }

  /// Whether \p Ptr (of the region) points into the calling thread's
  /// stack: no other thread updates the adjoints there.
  bool isThreadPrivate(const llvm::Value *Ptr) const { return isPrivate(Ptr); }

private:
  /// The element \p Ptr addresses when it is b + i (i a worksharing
  /// loop's induction variable, b invariant in that loop): b, else null.
  const llvm::Value *iterationBase(const llvm::Value *Ptr) const;
  /// Finds the values that depend on the iteration (IterationValues) and
  /// the objects whose adjoints are kept per thread (PerThreadObjects).
  void findPerThreadObjects(llvm::Function &Region,
                            const llvm::SmallPtrSetImpl<const llvm::Value *>
                                &Bounds,
                            const RegionAliases &Aliases);
  /// Adds to Shared the arrays of \p BaseOf (read as the iteration's own
  /// element) that another access or a call may reach through another
  /// object.
  using ElementForms =
      llvm::DenseMap<const llvm::Value *,
                     std::pair<const llvm::Value *, const llvm::Value *>>;
  /// \p Checkable: objects whose float loads all read the iteration's
  /// own element in one form, which may be checked at run time against
  /// each other (null: none may).
  void shareAliasedElements(
      llvm::Function &Region, const RegionAliases &Aliases,
      const ElementForms &BaseOf,
      const llvm::SmallPtrSetImpl<const llvm::Value *> *Checkable,
      const llvm::LoopInfo &LI);
  /// The check of the worksharing loop of \p Induction (made on first
  /// use), or -1 where its bounds or preheader cannot be found.
  int checkFor(const llvm::PHINode *Induction, const llvm::LoopInfo &LI);

  /// Whether \p Ptr points into the thread's stack: a stack slot, or an
  /// argument of PrivateArgs (also through the slot that holds it, -O0).
  bool isPrivate(const llvm::Value *Ptr) const;

  uint64_t PrivateArgs;
  bool OwnElements;
  /// Whether the region runs OpenMP tasks where it creates them
  /// (prepare/OpenMPTasks.cpp): their bodies reach shared memory through
  /// pointers in the task's record, which no access of the region shows,
  /// so every update of shared memory is atomic.
  bool RunsTasks = false;
  /// With RunsTasks: the stack slots whose address is stored (into a
  /// task's shareds): a task may read them while this thread does, and
  /// the reverses of both reads add into their shadows at once
  /// (reverse/ReverseTasks.cpp runs tasks as tasks).
  llvm::SmallPtrSet<const llvm::AllocaInst *, 4> TaskSharedSlots;
  /// Induction variables of worksharing loops.
  llvm::SmallPtrSet<const llvm::PHINode *, 4> Inductions;
  /// Underlying objects that some load reads at an address other than the
  /// iteration's own element, or that a call gets a pointer into.
  llvm::SmallPtrSet<const llvm::Value *, 8> Shared;
  /// Values computed from the iteration's number or the thread's.
  llvm::SmallPtrSet<const llvm::Value *, 32> IterationValues;
  /// Objects whose adjoints each thread accumulates in a private copy.
  llvm::SmallPtrSet<const llvm::Value *, 8> PerThreadObjects;
  /// Run-time checks, by loop; the check of each Checked object.
  llvm::SmallVector<ApartCheck, 2> Checks;
  llvm::DenseMap<const llvm::PHINode *, int> CheckOfLoop;
  llvm::DenseMap<const llvm::Value *, int> CheckOfObject;
  /// The region's scheduling calls.
  llvm::SmallVector<const llvm::CallBase *, 4> Schedules;
  std::unique_ptr<llvm::DominatorTree> DT;
};

} // namespace adcore

#endif // ADCORE_ANALYSIS_PARALLELMEMORY_H
