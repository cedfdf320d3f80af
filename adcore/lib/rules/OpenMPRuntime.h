//===- rules/OpenMPRuntime.h - What adcc knows of libomp's entry points -*- C++ -*-===//
//
// Clang lowers OpenMP directives into calls of the OpenMP runtime (libomp's
// __kmpc_* functions): a parallel region is an outlined function started
// on every thread of a team by __kmpc_fork_call(loc, argc, outlined,
// shared...); a worksharing loop asks __kmpc_for_static_init_* or
// __kmpc_dispatch_next_* for its bounds; critical sections, barriers,
// single and master blocks, reductions and tasks have entry points of
// their own. One row per entry point says what a derivative does with it:
//
//   Fork          the region: differentiated through its outlined function
//                 (forward: a fork of the tangent region; reverse: a fork
//                 of the augmented region, later one of the reverse region)
//   Inactive      scheduling and queries, kept as they are
//   Barrier       kept; the reverse sweep runs a barrier at its mirror
//   Critical,     kept; the reverse sweep runs the adjoints of the section
//   EndCritical   inside the same critical section (entered at the mirror
//                 of its end, left at the mirror of its start); so do
//                 omp_set_lock and omp_unset_lock (the reverse region on a
//                 lock of its own standing for the program's)
//   Reduce,       rewritten before differentiation as a critical section
//   EndReduce     (prepare/OpenMPReductions.cpp)
//   Unsupported   a located error naming the construct
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_RULES_OPENMPRUNTIME_H
#define ADCORE_RULES_OPENMPRUNTIME_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace llvm {
class CallBase;
class Function;
class Value;
} // namespace llvm

namespace adcore {

enum class OpenMPCall : unsigned char {
  None, ///< not an entry point of the OpenMP runtime
  Fork,
  Inactive,
  Barrier,
  Critical,
  EndCritical,
  Reduce,
  EndReduce,
  Unsupported
};

/// What \p F is, by its name (a declaration of the OpenMP runtime).
OpenMPCall classifyOpenMPCall(const llvm::Function &F);

/// The OpenMP construct an Unsupported entry point implements ("omp task",
/// "the depend clause of omp task", ...), or an empty string.
llvm::StringRef unsupportedOpenMPConstruct(const llvm::Function &F);

/// Whether a call of \p F is kept as it is by a derivative (Inactive,
/// Barrier, Critical and EndCritical: the reverse sweep mirrors the last
/// three itself).
bool isKeptOpenMPCall(const llvm::Function &F);

/// Whether \p F is omp_set_lock or omp_unset_lock, whose lock is their
/// first argument, not a __kmpc_* entry point.
bool isOpenMPLockCall(const llvm::Function &F);

/// The lock of a Critical or EndCritical call: __kmpc_critical's third
/// argument, omp_set_lock's first.
llvm::Value *criticalLock(const llvm::CallBase &Call);

/// The outlined function a __kmpc_fork_call starts, or null when the call
/// is not a fork of a known function (through a pointer, or with fewer
/// arguments than the outlined function's parameters after the two thread
/// ids).
llvm::Function *forkedFunction(const llvm::CallBase &Fork);

/// Whether \p F is the outlined body of an OpenMP region (a fork starts
/// it), not a function such a body calls.
bool isForkedRegion(const llvm::Function &F);

/// The floating-point value whose bits the integer \p V holds through
/// casts (`zext (bitcast float to i32) to i64`: a float firstprivate passed
/// by value into a region), or null.
const llvm::Value *floatBitsThroughCasts(const llvm::Value *V);

/// The error for a value with a derivative that a region receives by value
/// as its argument \p ArgNo (1-based, after the thread ids), where it
/// could not be passed by reference (prepare/OpenMPFirstprivates.cpp).
std::string byValueIntoRegionError(unsigned ArgNo);

/// The first argument of a __kmpc_fork_call that is passed on to the
/// outlined function (after loc, argc and the outlined function).
constexpr unsigned ForkSharedArgs = 3;

/// Bits by argument of a __kmpc_fork_call (bit i: argument i) as bits by
/// parameter of the outlined function (whose first two parameters, the
/// thread ids, get none).
inline uint64_t forkedParamBits(uint64_t CallBits) {
  return (CallBits >> (ForkSharedArgs - 2)) & ~uint64_t(3);
}

} // namespace adcore

#endif // ADCORE_RULES_OPENMPRUNTIME_H
