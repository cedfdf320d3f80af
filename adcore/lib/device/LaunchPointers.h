//===- device/LaunchPointers.h - Pointers a launched kernel uses -*- C++ -*-===//
//
// What a kernel launched with <<<...>>> does through its pointer
// parameters and through the pointers it reads from their data, at any
// depth (its pointer graph: `c->a` at a constant offset, `rows[j]` at an
// offset known only at run time, `c->inner->a` two levels down), which the
// size kernel tells the host (device/LaunchKernels.cpp). The launch's
// derivative (runtime/lib/gpu_launch_graph.c) walks the arguments' data
// along that graph before the derivative kernels run and stops where a
// pointer's shadow in the caller's shadow data is null while the pointer
// is not, and it is written through and read back, or written through one
// pointer and read through another into the same data: such a pointer
// would lose its derivative (device code has no scratch shadow). The
// compile-time check of writes through null shadows leaves these pointers
// to it (NullShadowGuards.h).
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
/// data, except the loads in \p Nodes) may be written (\p Read false) or
/// read as numbers (\p Read true), or the pointer escape where adcc
/// cannot follow it: stores, atomics, intrinsics, calls of functions
/// without a body, returns, integers made of it. A copy into a stack slot
/// (-O0) is followed through the slot's loads.
bool mayAccessThrough(const llvm::Value *Root, bool Read,
                      const llvm::SmallPtrSetImpl<const llvm::Value *> *Nodes =
                          nullptr,
                      unsigned Depth = 6);

/// The most pointer nodes the size kernel reports (the answer's words past
/// its first five; runtime/lib/gpu_launch_graph.c).
constexpr unsigned MaxLaunchNodes = 59;

/// How many levels of pointers read from pointers the description follows
/// below a pointer parameter (`c->inner->a` is 2); the reads of pointers
/// from the data of the deepest level mark it Deeper.
constexpr unsigned MaxLaunchDepth = 4;

/// One node of the kernel's pointer graph: the pointers the kernel reads
/// from the data of its parent (a pointer parameter, or another node) at
/// byte Offset, or, where Step is not 0, at any offset Offset + k * Step
/// known only at run time (`rows[j]`, `s[j].p`), and whether it writes and
/// reads numbers through them (not counting the nodes below).
struct LaunchNode {
  /// A pointer parameter or a struct parameter by value (ParentIsParam),
  /// or the index of an earlier node.
  unsigned Parent;
  bool ParentIsParam;
  int64_t Offset;
  unsigned Step;
  bool Written, Read;
  /// The kernel reads pointers from their data more than MaxLaunchDepth
  /// levels down (a linked list walked in a loop): not described.
  bool Deeper;
  /// The word the size kernel stores, as the runtime reads it: bit 63 set
  /// (a node), bit 62 where the parent is a parameter, the parent in bits
  /// 56-61, Deeper (bit 50), read (49), written (48), the step in bits
  /// 40-47, the offset in bits 0-39 (two's complement).
  uint64_t word() const;
};

struct LaunchPointers {
  /// The pointer parameters (bits) the kernel may write through, nodes
  /// included (a parameter without a shadow among them stops the launch).
  uint64_t Written = 0;
  /// The pointer parameters it may write through, read numbers through,
  /// not counting the nodes.
  uint64_t OwnWritten = 0, OwnRead = 0;
  /// Parents first.
  llvm::SmallVector<LaunchNode, 8> Nodes;
  /// More nodes than the size kernel reports: the launch stops.
  bool TooMany = false;
};

/// What kernel \p K (or its body as a device function) does through its
/// pointer parameters (the first 63, and of those the first \p Params) and
/// the pointers it reads from their data, and the pointers it reads from
/// its structs by value (nodes whose parent is the struct's parameter: its
/// members, then what they point to).
LaunchPointers launchPointers(const llvm::Function &K,
                              unsigned Params = ~0u);

/// The name of the device function whose calls, `adcc_kernel_gpu_pointers(
/// item, out)` in <adcc/kernels.hpp>'s query kernel, become stores into
/// `out` of what the work-item `item(index *, Actives *, Consts *)` does
/// through the pointers of its argument tuple (Actives) and the pointers
/// it reads from their data: the count of words (~0: more than
/// MaxLaunchNodes), then one word per pointer: for an argument, bit 63
/// clear, written (bit 48) and read (49) as for a node, its offset in the
/// tuple; for a pointer read from data, LaunchNode::word() whose parent is
/// the index of an earlier word (0: the first after the count).
constexpr const char *KernelPointersQuery = "adcc_kernel_gpu_pointers";

/// Lowers the calls of KernelPointersQuery in device module \p M. Returns
/// whether there were any.
bool lowerKernelPointerQueries(llvm::Module &M);

} // namespace adcore

#endif // ADCORE_DEVICE_LAUNCHPOINTERS_H
