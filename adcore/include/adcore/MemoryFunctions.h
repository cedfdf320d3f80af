//===- adcore/MemoryFunctions.h - Allocation and deallocation --*- C++ -*-===//
//
// The C and C++ allocation functions whose derivatives allocate shadow
// memory beside the primal memory: malloc, calloc, realloc, aligned_alloc,
// memalign, valloc, operator new / new[] (all overloads), and free /
// operator delete / delete[]. (posix_memalign is rewritten as aligned_alloc
// before differentiation: AlignedBlocks.cpp.)
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_MEMORYFUNCTIONS_H
#define ADCORE_MEMORYFUNCTIONS_H

#include "llvm/ADT/StringRef.h"

namespace llvm {
class Function;
} // namespace llvm

namespace adcore {

enum class MemoryFunctionKind {
  None,
  Malloc,       ///< ptr f(size) — uninitialized (malloc, new, new[], valloc)
  Calloc,       ///< ptr calloc(n, size) — zeroed
  Realloc,      ///< ptr realloc(ptr, size)
  AlignedAlloc, ///< ptr aligned_alloc(align, size), memalign
  Free,         ///< void f(ptr, ...) — free, delete, delete[]
  TapePush,     ///< ptr adcc_tape_push(tape, bytes, align): a new record;
                ///< adcc_tape_push_shadow(tape, bytes, align): a record's
                ///< shadow block, its address pushed after the record
  TapePop,      ///< ptr adcc_tape_pop(tape, bytes, align): the last record;
                ///< adcc_tape_pop_shadow(tape): the shadow block of the
                ///< record about to be popped
  AdjointCopy,  ///< void adcc_adjoint_copy_f64/f32(dst, src, bytes): the
                ///< adjoint of a copy (src += dst, dst = 0, element-wise);
                ///< _strided_f64/f32(dst, src, count, stride): one field
                ///< of an array of structs (a null src only clears dst)
};

MemoryFunctionKind classifyMemoryFunction(const llvm::Function &F);

inline bool isAllocationFunction(const llvm::Function &F) {
  MemoryFunctionKind K = classifyMemoryFunction(F);
  return K != MemoryFunctionKind::None && K != MemoryFunctionKind::Free &&
         K != MemoryFunctionKind::AdjointCopy;
  // (Tape records count as allocations: forward mode over a reverse
  // sweep gives each record a shadow record.)
}

} // namespace adcore

#endif // ADCORE_MEMORYFUNCTIONS_H
