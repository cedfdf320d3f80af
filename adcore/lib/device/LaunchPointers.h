//===- device/LaunchPointers.h - Pointers a launched kernel uses -*- C++ -*-===//
//
// What a kernel launched with <<<...>>> does through its pointer
// parameters and through the pointers it reads from their data one level
// down (the fields of `const Ctx *c`: `c->a`, at a constant offset), which
// the size kernel tells the host (device/LaunchKernels.cpp). The launch's
// derivative (runtime/lib/gpu_launch.c) checks with it, before the
// derivative kernels run, where a field's shadow in the caller's shadow
// data is null while the field is not: written through and read back, or
// written through one pointer and read through another into the same
// data, such a field would lose its derivative (device code has no scratch
// shadow), and the launch stops instead. The compile-time check of writes
// through null shadows leaves these fields to it (NullShadowGuards.h).
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_DEVICE_LAUNCHPOINTERS_H
#define ADCORE_DEVICE_LAUNCHPOINTERS_H

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>

namespace llvm {
class Function;
class Module;
class Value;
} // namespace llvm

namespace adcore {

/// Whether memory reached through \p Root (a pointer parameter of a
/// kernel, or of a function it calls, and the pointers loaded from its
/// data, except the loads in \p Fields) may be written (\p Read false) or
/// read as numbers (\p Read true), or the pointer escape where adcc
/// cannot follow it: stores, atomics, intrinsics, calls of functions
/// without a body, returns, integers made of it. A copy into a stack slot
/// (-O0) is followed through the slot's loads.
bool mayAccessThrough(const llvm::Value *Root, bool Read,
                      const llvm::SmallPtrSetImpl<const llvm::Value *> *Fields =
                          nullptr,
                      unsigned Depth = 6);

/// The most fields the size kernel reports (the answer's words past its
/// first five; runtime/lib/gpu_launch.c).
constexpr unsigned MaxLaunchFields = 59;

/// One field: a pointer the kernel reads from the data of pointer
/// parameter Param at byte Offset, and whether it writes and reads numbers
/// through it.
struct LaunchField {
  unsigned Param;
  uint64_t Offset;
  bool Written, Read;
  /// The word the size kernel stores: the parameter in bits 56-63, written
  /// (bit 48) and read (bit 49), the offset below.
  uint64_t word() const {
    return uint64_t(Param) << 56 | uint64_t(Written) << 48 |
           uint64_t(Read) << 49 | (Offset & ((uint64_t(1) << 48) - 1));
  }
};

struct LaunchPointers {
  /// The pointer parameters (bits) the kernel may write through, fields
  /// included (a parameter without a shadow among them stops the launch).
  uint64_t Written = 0;
  /// The pointer parameters it may write through, read numbers through,
  /// not counting the fields.
  uint64_t OwnWritten = 0, OwnRead = 0;
  llvm::SmallVector<LaunchField, 8> Fields;
  /// More fields than the size kernel reports: the launch stops.
  bool TooMany = false;
};

/// What kernel \p K does through its pointer parameters (the first 63).
LaunchPointers launchPointers(const llvm::Function &K);

/// The name of the device function whose calls, `adcc_kernel_gpu_pointers(
/// item, out)` in <adcc/kernels.hpp>'s query kernel, become stores into
/// `out` of what the work-item `item(index *, Actives *, Consts *)` does
/// through the pointers of its argument tuple (Actives) and their fields:
/// the count of words (~0: more than MaxLaunchFields), then one word per
/// pointer, as LaunchField::word() with bit 63 clear for an argument (its
/// offset in the tuple; what the item does through it, not counting its
/// fields) and set for a field of the argument before it.
constexpr const char *KernelPointersQuery = "adcc_kernel_gpu_pointers";

/// Lowers the calls of KernelPointersQuery in device module \p M. Returns
/// whether there were any.
bool lowerKernelPointerQueries(llvm::Module &M);

} // namespace adcore

#endif // ADCORE_DEVICE_LAUNCHPOINTERS_H
