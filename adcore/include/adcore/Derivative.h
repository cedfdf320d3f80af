//===- adcore/Derivative.h - What a derivative function is ----*- C++ -*-===//
//
// A DerivativeKey describes one derivative function completely: the primal,
// the mode, the activity of each argument, what it returns and its width.
// Generated functions are memoized under their key (DerivativeCache), so a
// function called from several places, or recursively, is differentiated
// once per key.
//
// Reverse mode (see ReverseEmitter): the augmented function takes the
// forward convention's parameters (a shadow after each Dup pointer; Active
// scalars have none) and returns the primal result (and its shadow for a
// pointer result); the reverse function takes the adjoint of the result
// (when it is an active float) and returns the adjoints of the Active
// arguments: one value, or a struct of them in order.
//
// Calling convention of a forward-mode derivative (width W, T a parameter's
// type, S(T) = T when W = 1 and [W x T] otherwise):
//   params:  for each primal parameter p of type T: p, then its W shadows
//            (each of type T) when the argument is Dup or DupNoNeed
//   returns: {T, S(T)} with ReturnPrimal and ReturnShadow, T or S(T) with
//            one of them, void with neither
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_DERIVATIVE_H
#define ADCORE_DERIVATIVE_H

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

#include <map>
#include <tuple>
#include <vector>

namespace llvm {
class Function;
class Type;
} // namespace llvm

namespace adcore {

/// Activity of one argument of a derivative function.
enum class ArgActivity : unsigned char {
  Const,     ///< no derivative: the primal value only
  Dup,       ///< primal and shadow (tangent, or shadow memory for pointers)
  DupNoNeed, ///< as Dup, but the primal result of the memory is not needed
  Active     ///< reverse mode: a scalar whose adjoint the derivative returns
};

/// Whether an argument of activity \p A is followed by shadow arguments.
inline bool hasShadow(ArgActivity A) {
  return A == ArgActivity::Dup || A == ArgActivity::DupNoNeed;
}

/// Forward: one function computing tangents. Reverse: a pair of functions
/// sharing the thread's tape — the augmented forward sweep (runs the primal,
/// records what the reverse sweep needs) and the reverse sweep (propagates
/// adjoints back, returns the adjoints of Active arguments).
enum class DerivativeMode : unsigned char { Forward, Augmented, Reverse };

struct DerivativeKey {
  llvm::Function *Primal = nullptr;
  DerivativeMode Mode = DerivativeMode::Forward;
  llvm::SmallVector<ArgActivity, 8> Args;
  bool ReturnPrimal = false;
  bool ReturnShadow = true;
  unsigned Width = 1;
  /// Reverse mode: nothing writes the memory the pointer arguments reach
  /// between the augmented and the reverse sweep (a combined
  /// __enzyme_autodiff call, or a callee whose caller guarantees it), so
  /// the reverse sweep may read that memory again instead of recording it.
  bool StableMemory = false;
  /// Reverse mode: the nesting level of the tape the sweeps record on
  /// (adcc_tape_thread_level): above every level the code they
  /// differentiate uses, so that differentiating a reverse sweep (reverse
  /// over reverse) never interleaves its records with those of the sweep.
  /// Callees get their caller's level (TapeLevels.h).
  unsigned TapeLevel = 0;
  /// Forward mode: the level of the scratch shadows behind null shadow
  /// pointers (NullShadowGuards.h, forwardScratchLane): above every level
  /// the code it differentiates uses, so that forward over forward never
  /// shares a scratch shadow between the levels. Callees get their
  /// caller's.
  unsigned ScratchLevel = 0;
  /// Bit i: the shadow of pointer argument i may be null while the pointer
  /// is not (a pointer to constant data kept beside derivatives:
  /// NullableShadows.h); accesses through it are guarded. NullReaching: bit
  /// i, memory reached through argument i may hold such shadows.
  uint64_t NullableShadows = 0, NullReaching = 0;
  /// Forward mode over a reverse sweep: bit i, the i-th load of a pointer
  /// from a tape record in the primal (in instruction order) reads a
  /// pointer whose shadow record holds a tangent that is never null (the
  /// caller's augmented sweep recorded a pointer argument it gives a
  /// shadow: forward/ForwardRecords.cpp); accesses through it are not
  /// guarded. NullRecords: bit i, that load's tangent is always null (the
  /// augmented sweep recorded an argument it gets without a shadow): what
  /// is read through it has no tangent. Other recorded pointers may have
  /// null tangents.
  uint64_t NonNullRecords = 0, NullRecords = 0;
  /// Split forward mode (__enzyme_fwdsplit): with Mode Forward, the tangent
  /// sweep, which reads the primal values it needs from the records of an
  /// augmented sweep (one more parameter, last: the records) instead of
  /// computing them; with Mode Augmented, that recording sweep (the
  /// primal's parameters and the records; returns the primal's result).
  /// Both are made together (ForwardSplit.cpp).
  bool Split = false;
  /// Forward mode only: the tangents are Enzyme's floating-point error
  /// estimates (__enzyme_error_estimate, ForwardError.cpp) instead of
  /// derivatives.
  bool ErrorEstimate = false;
  /// Reverse mode: the code runs on several threads at once, the body of
  /// an OpenMP parallel region or a function it calls
  /// (reverse/ReverseOpenMP.cpp): adjoint updates of memory other threads
  /// may update are atomic, and barriers and critical sections are
  /// mirrored in the reverse sweep. Callees get their caller's.
  bool Parallel = false;
  /// With Parallel, an OpenMP region's body: the region starts inside code
  /// that runs in parallel already (another region, or a function one
  /// calls), so the iterations of other teams may update the elements a
  /// worksharing loop's iteration takes for its own (their adjoint updates
  /// are atomic).
  bool NestedRegion = false;
  /// With Parallel, bit i: pointer argument i points into memory private
  /// to the calling thread (its stack), so adjoint updates through it need
  /// no atomics.
  uint64_t PrivateArgs = 0;
  /// Forward mode, Width N > 1: bit i, the N shadows of pointer argument i
  /// are one block holding the lanes of each element side by side (a local
  /// array of the caller only read and written as scalars of one
  /// floating-point type: forward/ForwardInterleaved.cpp); lane L's
  /// pointer is lane 0's + L elements.
  uint64_t InterleavedArgs = 0;
  /// Reverse mode: bit i, pointer argument i addresses memory that the
  /// caller reached through a pointer read from memory or returned by a
  /// call (a node of a caller's linked structure): a number stored there
  /// over bytes whose type may hold a pointer starts its adjoint from zero;
  /// bit 32 + i, read as a `void *` or `char *`: any number stored there
  /// does (analysis/LinkedStores.h). Only for callees that store numbers.
  uint64_t LinkedArgs = 0;

  auto tie() const {
    return std::tie(Primal, Mode, Args, ReturnPrimal, ReturnShadow, Width,
                    StableMemory, TapeLevel, ScratchLevel, NullableShadows, NullReaching,
                    NonNullRecords, NullRecords, Split, ErrorEstimate, Parallel,
                    NestedRegion, PrivateArgs, InterleavedArgs, LinkedArgs);
  }
  bool operator<(const DerivativeKey &O) const { return tie() < O.tie(); }
};

/// The type of the shadow of a value of type \p T at width \p Width.
llvm::Type *shadowType(llvm::Type *T, unsigned Width);

/// Memoizes generated derivative functions by key.
class DerivativeCache {
public:
  llvm::Function *lookup(const DerivativeKey &Key) const {
    auto It = Functions.find(Key);
    return It == Functions.end() ? nullptr : It->second;
  }
  /// Records \p F as the derivative for \p Key. A function may answer
  /// for several keys (a request through a registered rule); it is listed
  /// once.
  void insert(const DerivativeKey &Key, llvm::Function *F) {
    Functions[Key] = F;
    if (Listed.insert(F).second)
      Order.push_back(F);
  }
  /// Generated functions, in order of creation.
  const std::vector<llvm::Function *> &functions() const { return Order; }

private:
  std::map<DerivativeKey, llvm::Function *> Functions;
  std::vector<llvm::Function *> Order;
  llvm::SmallPtrSet<llvm::Function *, 16> Listed;
};

} // namespace adcore

#endif // ADCORE_DERIVATIVE_H
