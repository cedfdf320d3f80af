//===- support/ScalarMembers.h - Members of plain-data types ---*- C++ -*-===//
//
// A kernel launched from host code may take a struct by value (a problem's
// arrays, sizes and coefficients). The host side of the launch's derivative
// (rules/LaunchRules.cpp) and the derivative kernels of the device side
// (device/LaunchKernels.cpp) must agree on which types those are and where
// their floating-point members and pointers lie: both ask these walkers.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_SUPPORT_SCALARMEMBERS_H
#define ADCORE_SUPPORT_SCALARMEMBERS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <utility>

namespace llvm {
class DataLayout;
class Type;
} // namespace llvm

namespace adcore {

/// Whether \p T holds integers, pointers, floats and doubles only, in
/// structs and arrays: a struct of arrays, sizes and coefficients, whose
/// bytes the host and the device read alike (its floating-point members
/// are a kernel's active scalars).
bool isPlainData(llvm::Type *T);

/// Calls \p Visit with the offset (from \p At) and type of each member of
/// \p T that is neither a struct nor an array, in the order of the layout
/// \p DL gives; a type that is neither is its own one member.
void forEachScalarMember(
    llvm::Type *T, uint64_t At, const llvm::DataLayout &DL,
    llvm::function_ref<void(uint64_t, llvm::Type *)> Visit);

/// The floating-point members of \p T: their offsets from \p At and types,
/// into \p Out.
void floatMembers(llvm::Type *T, uint64_t At, const llvm::DataLayout &DL,
                  llvm::SmallVectorImpl<std::pair<uint64_t, llvm::Type *>> &Out);

/// The offsets of the pointers in \p T, from \p At, into \p Out.
void pointerOffsets(llvm::Type *T, uint64_t At, const llvm::DataLayout &DL,
                    llvm::SmallVectorImpl<uint32_t> &Out);

} // namespace adcore

#endif // ADCORE_SUPPORT_SCALARMEMBERS_H
