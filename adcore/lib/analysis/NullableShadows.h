//===- analysis/NullableShadows.h - Shadows that may be null ----*- C++ -*-===//
//
// A pointer without a derivative (to constant data: an enzyme_const
// argument, memory reached only through one) has no shadow; stored into
// memory that has a shadow, its shadow there is null. A pointer read back
// from such memory (a closure holding a constant pointer beside the state,
// a table mixing constant and duplicated pointers) has a shadow that may
// be null at run time while the pointer is not. Accesses through such a
// shadow are guarded (NullShadowGuards.h): an adjoint added through a null
// shadow is dropped, a tangent or a shadow pointer read through one is
// zero, a store through one goes nowhere. The derivative of what is read
// through a constant pointer is zero, which is what the guards give.
//
// This analysis says, for a function and which of its pointer arguments
// come with such shadows or reach memory that may hold them
// (DerivativeKey::NullableShadows, NullReaching), which pointers may have a
// null shadow (and need guards), and which arguments of each call do or
// reach such memory (the callee's key). It is conservative within a
// function (memory that holds no pointers, as the type analysis sees it,
// never holds null shadows); across
// calls it assumes that a callee stores a pointer without a derivative
// into its arguments' memory only when it is given one (or one whose
// shadow may be null), and that the memory of the request's arguments
// holds shadows for all its pointers (the user's shadows).
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_NULLABLESHADOWS_H
#define ADCORE_NULLABLESHADOWS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <cstdint>

namespace llvm {
class CallBase;
class Function;
class Value;
} // namespace llvm

namespace adcore {

class ActivityAnalysis;
class TypeAnalysis;

/// Key bits of a callee (DerivativeKey::NullableShadows, NullReaching).
struct NullableBits {
  uint64_t Nullable = 0, Reaching = 0;
};

class NullableShadows {
public:
  /// \p Args: per argument (bit i), whether its shadow may be null, and
  /// whether memory reached through it may hold null shadows. \p Seeds:
  /// other pointers of \p F whose shadow may be null (forward mode over a
  /// reverse sweep: a pointer read from a tape record, whose tangent is null
  /// where the outer request passed it enzyme_const).
  NullableShadows(const llvm::Function &F, const ActivityAnalysis &Activity,
                  const TypeAnalysis &Types, NullableBits Args,
                  llvm::ArrayRef<const llvm::Value *> Seeds = {});

  /// Whether the shadow of the pointer \p V may be null while \p V is not.
  bool mayBeNull(const llvm::Value *V) const { return Nullable.contains(V); }
  /// The key bits of \p Call's callee.
  NullableBits calleeBits(const llvm::CallBase &Call) const;

private:
  bool update(const llvm::Value &V);
  /// Whether memory reached through \p Ptr may hold null shadows.
  bool reaches(const llvm::Value *Ptr) const;
  /// Whether a pointer loaded through \p Ptr may have a null shadow.
  bool mayHoldNull(const llvm::Value *Ptr) const;
  /// Whether storing \p V may leave a null shadow in memory, or the address
  /// of memory that holds one.
  bool leavesNull(const llvm::Value *V) const;
  /// Marks the memory \p Ptr points into as holding null shadows, unless
  /// it holds no pointers.
  bool taint(const llvm::Value *Ptr);

  const ActivityAnalysis &Activity;
  const TypeAnalysis &Types;
  llvm::DenseSet<const llvm::Value *> Nullable;
  /// Pointers through which memory holding null shadows may be reached.
  llvm::DenseSet<const llvm::Value *> Reaching;
  /// Underlying objects whose memory may hold null shadows.
  llvm::DenseSet<const llvm::Value *> Tainted;
  /// Per callee, whether it may store pointers (memoized).
  llvm::DenseMap<const llvm::Function *, bool> StoresPointers;
  /// Memo of mayStoreFoundPointer.
  llvm::DenseMap<const llvm::Function *, bool> StoresFound;
  /// A null shadow may have been stored into memory that is not a local
  /// object or an argument: any memory may hold one.
  bool AnyTainted = false;
};

} // namespace adcore

#endif // ADCORE_NULLABLESHADOWS_H
