//===- support/RestrictParameters.h - C's rule for restrict -----*- C++ -*-===//
//
// C's `restrict` promises that an object modified through a restrict
// pointer is reached through no other pointer during the function; it
// promises nothing for memory that is only read: two restrict parameters
// that are only read may point into one array (f(x, x + 1)). Where the
// adjoint of such memory is added into by several threads (an OpenMP
// region's iterations, a GPU kernel's threads), adcc keeps two arrays
// apart by restrict only when memory is modified through one of them; the
// CPU (analysis/RegionAliases.cpp) and device code (device/DeviceMemory.cpp)
// ask the same rule here.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_SUPPORT_RESTRICTPARAMETERS_H
#define ADCORE_SUPPORT_RESTRICTPARAMETERS_H

namespace llvm {
class Argument;
} // namespace llvm

namespace adcore {

/// Whether the function of the pointer parameter \p A is seen to modify
/// memory through it: a store, an atomic update, a memory intrinsic's
/// destination, through address arithmetic, casts and -O0's stack slot
/// copies, and in the functions with bodies it is handed to (a few calls
/// deep). What is not seen counts as not modified (then restrict keeps
/// nothing apart).
bool modifiedThrough(const llvm::Argument &A);

/// Whether C's restrict keeps apart what the pointer parameters \p A and
/// \p B (null: a global, another function's memory) reach, where
/// \p Modified says memory is modified through one of the two (the caller
/// knows, or modifiedThrough): one of them is restrict.
bool restrictKeepsApart(const llvm::Argument &A, const llvm::Argument *B,
                        bool Modified);

} // namespace adcore

#endif // ADCORE_SUPPORT_RESTRICTPARAMETERS_H
